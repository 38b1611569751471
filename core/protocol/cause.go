package protocol

// Cause is the simulator's own account of why a broker answered an error
// code (or, on a successful answer, what may keep it from being of use):
// what kind of obstacle it is and the facts the broker knows about it, as
// name, value pairs (the brokers registered and
// offsets.topic.replication.factor, a partition's ISR and
// min.insync.replicas). It is not part of Kafka's protocol, travels only
// beside the error code Kafka sends, and no tool prints it: a client that
// keeps failing on it tells the event feed why (core/client/stuck.go). A
// nil Cause means the broker has nothing to add, as for a transient error
// such as a topic still being created.
type Cause struct {
	Kind   string   // one of the Cause* kinds below
	Fields []string // name, value pairs; "broker" names the broker that answered
}

// Cause kinds. A broker gives one only when it knows the obstacle lasts
// until something in the cluster changes (a broker starts, a controller is
// elected, a config is altered).
const (
	// FindCoordinator (with COORDINATOR_NOT_AVAILABLE):
	// __consumer_offsets does not exist and the broker
	// cannot create it, for lack of an active controller (fields: broker),
	// because offsets.topic.replication.factor exceeds the registered
	// brokers (broker, registered, rf), or for another error the
	// controller answered (broker, error).
	CauseOffsetsTopicNoController = "offsets-topic.no-controller"
	CauseOffsetsTopicReplication  = "offsets-topic.replication"
	CauseOffsetsTopicCreateFailed = "offsets-topic.create-failed"
	// FindCoordinator: the group's __consumer_offsets partition has no
	// leader (broker, tp, isr).
	CauseCoordinatorNoLeader = "coordinator.no-leader"
	// ... and under KIP-966 (Kafka 4.1+) its ISR is empty and none of its
	// eligible leader replicas is online (broker, tp, elr).
	CauseCoordinatorNoLeaderELR = "coordinator.no-leader-elr"

	// Metadata: the topic does not exist and the broker will not create it
	// (auto.create.topics.enable=false; fields: broker, topic), cannot for
	// lack of an active controller (broker, topic), or the controller
	// refused it: default.replication.factor exceeds the registered brokers
	// (broker, topic, registered, rf) or another error (broker, topic,
	// error).
	CauseTopicAutoCreateDisabled = "topic.autocreate-disabled"
	CauseTopicNoController       = "topic.no-controller"
	CauseTopicReplication        = "topic.replication"
	CauseTopicCreateFailed       = "topic.create-failed"

	// Produce (acks=all): the ISR is smaller than min.insync.replicas
	// (broker, tp, isr, min, error: NOT_ENOUGH_REPLICAS or
	// NOT_ENOUGH_REPLICAS_AFTER_APPEND).
	CauseNotEnoughReplicas = "produce.not-enough-replicas"

	// InitProducerId: the broker has no block of producer ids and no active
	// controller to allocate one (broker).
	CauseProducerIDNoController = "producer-id.no-controller"

	// On a successful FindCoordinator or Metadata answer: the answering
	// broker's raft client knows no quorum leader (broker), so the
	// metadata it answers from can no longer change: a coordinator or
	// leader it names may be down, and no controller will elect another.
	CauseNoController = "no-controller"

	// Made by the client itself from what it knows, not sent by a broker.
	// A partition has no leader and none of its ISR is online (tp, isr:
	// the metadata response's own fields). The coordinator (coordinator),
	// a partition's leader (tp, leader) or the broker asked for a producer
	// id (node) fails the client's requests (failure) while a broker
	// answered CauseNoController (broker).
	CausePartitionNoLeader = "partition.no-leader"
	// ... with an empty ISR and eligible leader replicas none of which is
	// online (tp, elr), under KIP-966.
	CausePartitionNoLeaderELR   = "partition.no-leader-elr"
	CauseCoordinatorUnreachable = "coordinator.unreachable"
	CauseLeaderUnreachable      = "leader.unreachable"
	CauseProducerIDUnreachable  = "producer-id.unreachable"
)

// Field returns the cause's value for name ("" if absent or c is nil).
func (c *Cause) Field(name string) string {
	if c == nil {
		return ""
	}
	for i := 0; i+1 < len(c.Fields); i += 2 {
		if c.Fields[i] == name {
			return c.Fields[i+1]
		}
	}
	return ""
}
