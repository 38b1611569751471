package groupcoordinator

import (
	"fmt"
	"strconv"
	"time"

	kgroup "kafkascope/core/group"
	"kafkascope/core/hashing"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Host is what the coordinator needs from the broker it runs in: the
// request channel (Respond, Done), the broker's configs, and the replica
// manager's side of __consumer_offsets (Append, ReadLog), as Kafka's
// GroupCoordinator and GroupMetadataManager get them from KafkaApis, the
// KafkaConfig and the ReplicaManager. Timers and notes go through the
// sim.Env each call is given.
type Host interface {
	// Respond sends a response to the client connection to (nothing if
	// the client closed it).
	Respond(env *sim.Env, to sim.Addr, m sim.Message)
	// Done ends the request in progress on the connection to, one that
	// Handle left unanswered (it reported false); the connection's next
	// request may then run.
	Done(env *sim.Env, to sim.Addr)
	// Config is the current value of a numeric broker config (the group.*
	// and offsets.* settings), dynamic changes included.
	Config(name string) int64
	// Append writes records, as the leader, to __consumer_offsets
	// partition `partition` and calls done once with NONE when the
	// partition's high watermark passes them (offsets.commit.required.acks
	// -1), or with the error: NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS,
	// KAFKA_STORAGE_ERROR, REQUEST_TIMED_OUT after
	// offsets.commit.timeout.ms, or NOT_LEADER_OR_FOLLOWER when the broker
	// stops leading the partition first (ReplicaManager.appendRecords).
	Append(env *sim.Env, partition int32, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode))
	// AppendTransactional is Append of a transactional batch of the
	// producer (a TxnOffsetCommit's offsets), whose epoch the log checks
	// (INVALID_PRODUCER_EPOCH for an older one).
	AppendTransactional(env *sim.Env, partition int32, producerID int64, epoch int16, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode))
	// AwaitCommitted calls done once with NONE when the high watermark of
	// __consumer_offsets partition `partition` reaches offset (at once if
	// it has), or with NOT_LEADER_OR_FOLLOWER when the broker stops
	// leading it first.
	AwaitCommitted(env *sim.Env, partition int32, offset int64, done func(env *sim.Env, code protocol.ErrorCode))
	// ReadLog is the batches of the local log of __consumer_offsets
	// partition `partition`, from its log start offset to its end.
	ReadLog(partition int32) []record.Batch
	// Release is the Kafka release the broker runs: consumer groups follow
	// 4.3's rules, or 4.1's where they differ.
	Release() release.Version
	// ConfigString is a broker config's value as text (lists
	// comma-separated): group.consumer.assignors.
	ConfigString(name string) string
	// Topics is the broker's metadata image as the coordinator reads it
	// (CoordinatorMetadataImage): every topic's id, name and partition
	// count, by name.
	Topics() []kgroup.TopicMetadata
}

// Coordinator is one broker's classic group coordinator (Kafka's
// GroupCoordinator and GroupMetadataManager): it serves the groups whose
// __consumer_offsets partition this broker leads. It loads a partition's
// groups and offsets from the log when it becomes leader (answering
// COORDINATOR_LOAD_IN_PROGRESS meanwhile) and forgets them when it stops
// leading (NOT_COORDINATOR).
//
// Invariants, between events: every group in groups belongs to an owned
// partition; no partition is both loading and owned; loading holds the
// number of the election whose load is pending (elections counts
// OnElection calls).
type Coordinator struct {
	nodeID    int32
	host      Host
	groups    map[string]*group
	loading   map[int32]int  // partitions led but not loaded yet
	owned     map[int32]bool // partitions led and loaded
	elections int
	uuids     *sim.Rand
	uuids848  *sim.Rand                 // Uuid member ids of classic members of consumer groups
	pending   map[int32][]*pendingWrite // KIP-848 writes in flight, by partition (deferred.go)
	metrics   *coordinatorSensors       // Kafka 4.x's sensors (metrics.go), made at first use
}

// New makes the coordinator of broker nodeID, running in host.
func New(nodeID int32, host Host) *Coordinator {
	return &Coordinator{nodeID: nodeID, host: host, groups: map[string]*group{}, loading: map[int32]int{}, owned: map[int32]bool{}}
}

// PartitionFor is the __consumer_offsets partition of a group
// (GroupCoordinator.partitionFor: Utils.abs(groupId.hashCode) %
// offsets.topic.num.partitions).
func (c *Coordinator) PartitionFor(groupID string) int32 {
	return hashing.CoordinatorPartition(groupID, int32(c.host.Config("offsets.topic.num.partitions")))
}

// OffsetsTopicConfigs are the topic configs __consumer_offsets is created
// with (GroupCoordinator.groupMetadataTopicConfigs).
func (c *Coordinator) OffsetsTopicConfigs() []protocol.ConfigEntry {
	str := func(s string) *string { return &s }
	return []protocol.ConfigEntry{
		{Name: "cleanup.policy", Value: str("compact")},
		{Name: "compression.type", Value: str("producer")},
		{Name: "segment.bytes", Value: str(strconv.FormatInt(c.host.Config("offsets.topic.segment.bytes"), 10))},
	}
}

// groupError is the coordinator-level error for a request about groupID:
// NOT_COORDINATOR when this broker does not lead its partition,
// COORDINATOR_LOAD_IN_PROGRESS while loading it.
func (c *Coordinator) groupError(groupID string) protocol.ErrorCode {
	p := c.PartitionFor(groupID)
	switch {
	case c.loading[p] != 0:
		return protocol.COORDINATOR_LOAD_IN_PROGRESS
	case !c.owned[p]:
		return protocol.NOT_COORDINATOR
	}
	return protocol.NONE
}

// CommitError maps an append's error to what OffsetCommit and SyncGroup
// answer (GroupMetadataManager.maybeConvertOffsetCommitError); a
// transactional offset commit whose partition could not be verified or
// added to the transaction answers it too.
func CommitError(code protocol.ErrorCode) protocol.ErrorCode {
	switch code {
	case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.NOT_ENOUGH_REPLICAS, protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND, protocol.REQUEST_TIMED_OUT:
		return protocol.COORDINATOR_NOT_AVAILABLE
	case protocol.NOT_LEADER_OR_FOLLOWER, protocol.KAFKA_STORAGE_ERROR:
		return protocol.NOT_COORDINATOR
	case protocol.MESSAGE_TOO_LARGE, protocol.RECORD_LIST_TOO_LARGE:
		return protocol.INVALID_COMMIT_OFFSET_SIZE
	}
	return code
}

// newMemberID is Kafka's `clientId + "-" + UUID.randomUUID()`.
func (c *Coordinator) newMemberID(env *sim.Env, clientID string) string {
	if c.uuids == nil {
		c.uuids = env.Rand(fmt.Sprintf("broker-%d/member-ids", c.nodeID))
	}
	var u [16]byte
	c.uuids.Bytes(u[:])
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // IETF variant
	return fmt.Sprintf("%s-%x-%x-%x-%x-%x", clientID, u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// respond and done call Host's from one place each: in the page's
// WebAssembly a call through the interface is about 100 bytes more than
// a call of a method, and there are 35 of them.
func (c *Coordinator) respond(env *sim.Env, to sim.Addr, m sim.Message) { c.host.Respond(env, to, m) }
func (c *Coordinator) done(env *sim.Env, to sim.Addr)                   { c.host.Done(env, to) }

// ms is a broker config in milliseconds, as a duration.
func (c *Coordinator) ms(name string) time.Duration {
	return time.Duration(c.host.Config(name)) * time.Millisecond
}

func msTime(env *sim.Env) int64 { return env.Now().UnixMilli() }

// id32 renders a note field.
func id32(n int32) string { return strconv.Itoa(int(n)) }
