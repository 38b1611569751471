// Package view reads a running cluster into plain, display-ready values:
// nodes and their state, every partition's replicas with their log cells,
// LEO and HW, the messages on the wire, the KRaft controller quorum (every
// voter's role, epoch, LEO and HW, how far every broker applied the
// metadata log), the __cluster_metadata log's newest records (on a
// ZooKeeper-era cluster, the ensemble instead: its servers and roles, the
// znode tree with each node's stat and owning broker, the watches set and
// fired; zookeeper.go), the running clients' producers (each partition's queue of batches in the
// accumulator, in-flight requests, buffer.memory, idempotence; clients.go)
// and the consumer groups their coordinators hold (members, assignment,
// committed offsets, lag, the consumers' own view and positions, the
// newest rebalance events; groups.go), transactions (txn.go: each cell's
// marker or transactional outcome read from the window's batch headers,
// each replica's last stable offset, a producer's TransactionManager, the
// transactional ids the coordinators hold), and the event feed. The browser's
// components draw only from a Snapshot, so what they draw is the engine's
// real state at one instant, and components can be tested with hand-made
// snapshots.
//
// Kafka's internal topics (__consumer_offsets: 50 partitions) come Light
// in a Snapshot, without replica state; TopicDetail reads one whole, for
// a diagram that shows it unfolded.
//
// The package reads; it never changes the cluster (it uses raft's
// read-only accessors, never DescribeQuorum, whose answer forgets silent
// observers). Take runs every animation frame, so the metadata log is read
// incrementally: a small cache per cluster (metalog.go) keeps the entries
// already read, which never change once committed; the znode tree is
// listed again only when its last zxid moves.
//
// One partition's disk (disk.go: its directory's files, its segments, the
// offsets that cut the log, the log cleaner's checkpoint) and one batch's
// bytes labelled field by field (batchmap.go) are not part of a Snapshot:
// the disk panel asks for them through a DiskCache it owns, only while it
// is open, so a closed panel costs the frame loop nothing. The cache keeps
// the last answer until the log, the node or the writeback tick changes.
//
// The view is the one reader of the nodes' internals for what is shown:
// the page's components and the console's replicas command (ReplicaLogs,
// every broker's copy of one partition with its records) read through it.
// Its tests drive clusters through the console, so they are an external
// test package (view_test).
package view
