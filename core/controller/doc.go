// Package controller is the KRaft controller: it owns the __cluster_metadata
// log and decides every change to it. Brokers register and heartbeat here;
// the controller fences a broker whose session expires, elects partition
// leaders by Kafka's rules (PartitionChangeBuilder), places replicas (the
// striped placer), creates and deletes topics, commits ISR changes that
// leaders propose with AlterPartition, and serves the committed log to
// brokers, which replay it.
//
// This build runs a single voter: the active controller commits a record as
// soon as it appends it. The Raft quorum (several voters, elections,
// replication of the log among them) plugs in behind appendRecords and
// committed offsets; nothing outside this package assumes one voter.
//
// The controller decides; it never touches a partition's data and never
// imports core/broker.
package controller
