package broker

import (
	"strconv"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// The broker's account of why it answers an error that will not go away by
// itself (protocol.Cause): a client that keeps getting it tells the event
// feed. Everything here is what this broker knows on its own: its metadata
// image, its configs, its raft client's view of the quorum, and how its own
// requests to the controller ended. Nothing here changes an answer's error
// code or anything Kafka's tools print.

// topicCreation is what a broker remembers of its requests to create a
// topic that does not exist yet (auto-creation, __consumer_offsets), from
// its first request until it sees the topic.
type topicCreation struct {
	// failed is how the last request ended (REQUEST_TIMED_OUT when no
	// controller answered in time); NONE while none has failed.
	failed protocol.ErrorCode
}

// maxTopicCreations bounds the topics a broker remembers asking for (a
// client may ask for any number of names); past it, requests go on
// without notes or causes.
const maxTopicCreations = 256

// askCreate records a request to create topic and reports whether it is
// the first since the topic was last seen (the feed hears of the first
// only: clients ask again at every retry).
func (b *Broker) askCreate(topic string) bool {
	if _, ok := b.creations[topic]; ok || len(b.creations) >= maxTopicCreations {
		return false
	}
	if b.creations == nil {
		b.creations = map[string]*topicCreation{}
	}
	b.creations[topic] = &topicCreation{}
	return true
}

// createAnswered records how a request to create topic ended and reports
// whether the failure is news (differs from the previous request's).
// Success, or the topic existing, ends what the broker remembers.
func (b *Broker) createAnswered(topic string, code protocol.ErrorCode) bool {
	tc := b.creations[topic]
	if tc == nil || code == protocol.NONE || code == protocol.TOPIC_ALREADY_EXISTS {
		delete(b.creations, topic)
		return false
	}
	news := tc.failed != code
	tc.failed = code
	return news
}

// topicSeen forgets the requests to create topic: it exists.
func (b *Broker) topicSeen(topic string) { delete(b.creations, topic) }

func (b *Broker) cause(kind string, fields ...string) *protocol.Cause {
	return &protocol.Cause{Kind: kind, Fields: append([]string{"broker", id32(b.cfg.NodeID)}, fields...)}
}

// noController reports whether the broker reaches no active controller:
// its raft client knows no quorum leader, or no controller answered its
// last heartbeat within half of broker.session.timeout.ms (a broker-only
// node's raft client keeps naming a leader that died). Then nothing the
// controller decides (creating a topic, allocating producer ids, fencing
// a dead broker, electing a leader) happens for it.
func (b *Broker) noController() bool {
	_, ok := b.cfg.Quorum.ActiveController()
	return !ok || b.heartbeatFailures > 0
}

// noControllerCause qualifies a successful answer from a broker that knows
// no active controller: the leaders and coordinators it names come from
// metadata that cannot change now. Nil while a controller is known.
func (b *Broker) noControllerCause() *protocol.Cause {
	if !b.noController() {
		return nil
	}
	return b.cause(protocol.CauseNoController)
}

// missingTopicCause explains why topic, which this broker has asked the
// controller to create, still does not exist: no controller to ask, or how
// its last request failed (the controller refused a replication factor
// above the registered brokers, or another error). Nil while the creation
// is simply on its way.
func (b *Broker) missingTopicCause(topic string, offsetsTopic bool) *protocol.Cause {
	kinds := [3]string{protocol.CauseTopicNoController, protocol.CauseTopicReplication, protocol.CauseTopicCreateFailed}
	rfConfig := "default.replication.factor"
	var fields []string
	if offsetsTopic {
		kinds = [3]string{protocol.CauseOffsetsTopicNoController, protocol.CauseOffsetsTopicReplication, protocol.CauseOffsetsTopicCreateFailed}
		rfConfig = "offsets.topic.replication.factor"
	} else {
		fields = []string{"topic", topic}
	}
	if b.noController() {
		return b.cause(kinds[0], fields...)
	}
	tc := b.creations[topic]
	switch {
	case tc == nil || tc.failed == protocol.NONE:
		return nil
	case tc.failed == protocol.INVALID_REPLICATION_FACTOR:
		// The controller's placement refuses a replication factor above
		// the number of registered brokers, fenced ones included
		// (StripedReplicaPlacer): the broker's image holds the same list.
		fields = append(fields, "registered", strconv.Itoa(len(b.image.Brokers)), "rf", strconv.FormatInt(b.conf().BrokerInt(rfConfig), 10))
		return b.cause(kinds[1], fields...)
	default:
		return b.cause(kinds[2], append(fields, "error", tc.failed.String())...)
	}
}

// unknownTopicCause explains an UNKNOWN_TOPIC_OR_PARTITION answer to a
// Metadata request that allowed auto-creation: the broker will not create
// the topic, or cannot.
func (b *Broker) unknownTopicCause(topic string, allowAutoCreate bool) *protocol.Cause {
	switch {
	case metadata.IsInternalTopic(topic) || metadata.TopicNameProblem(topic) != "" || !allowAutoCreate:
		return nil // not the broker's setting that keeps it from existing
	case !b.conf().BrokerBool("auto.create.topics.enable"):
		return b.cause(protocol.CauseTopicAutoCreateDisabled, "topic", topic)
	}
	return b.missingTopicCause(topic, false)
}

// coordinatorNoLeaderCause explains COORDINATOR_NOT_AVAILABLE for a group
// whose __consumer_offsets partition has no leader: none of its ISR is
// online.
func (b *Broker) coordinatorNoLeaderCause(partition int32, st *metadata.PartitionState) *protocol.Cause {
	if len(st.ISR) == 0 && len(st.ELR) > 0 {
		// Kafka 4.1+ empties the ISR and keeps the last members as
		// eligible leaders (KIP-966): those are what must come back.
		return b.cause(protocol.CauseCoordinatorNoLeaderELR, "tp", tp(metadata.ConsumerOffsetsTopic, partition).String(), "elr", ids(st.ELR))
	}
	return b.cause(protocol.CauseCoordinatorNoLeader, "tp", tp(metadata.ConsumerOffsetsTopic, partition).String(), "isr", ids(st.ISR))
}

// notEnoughReplicasCause explains NOT_ENOUGH_REPLICAS(_AFTER_APPEND): the
// ISR isr is smaller than the partition's min.insync.replicas (the
// topic's setting as configured; the check uses it capped at the
// replication factor, so the ISR is below both).
func (b *Broker) notEnoughReplicasCause(p *Partition, isr []int32, code protocol.ErrorCode) *protocol.Cause {
	minISR := b.conf().TopicInt(b.image.TopicConfig(p.tp.Topic), config.MinInsyncReplicas)
	return b.cause(protocol.CauseNotEnoughReplicas, "tp", p.tp.String(), "isr", ids(isr), "min", strconv.FormatInt(minISR, 10), "error", code.String())
}
