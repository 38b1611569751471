// Package controller is the KRaft controller: it owns the __cluster_metadata
// log and decides every change to it. Brokers register and heartbeat here;
// the controller fences a broker whose session expires, elects partition
// leaders by Kafka's rules (PartitionChangeBuilder), places replicas (the
// striped placer, core/placement), creates and deletes topics, commits ISR changes that
// leaders propose with AlterPartition, and serves the committed log to
// brokers, which replay it.
//
// Every controller voter (controller.quorum.voters, the first nodes of the
// cluster) runs one Controller over its KRaft node (core/raft), which
// replicates the log among the voters and elects their leader. The voter
// that leads is the active controller: it decides, appends its records
// through raft and answers a request once its records are committed; every
// voter replays the committed log into its image, so a new leader takes
// over from what was committed (QuorumController's active and standby
// roles).
//
// The controller decides; it never touches a partition's data and never
// imports core/broker.
package controller
