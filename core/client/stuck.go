package client

import (
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// stuckReporter tells the event feed why a client keeps failing at
// something, when the cluster knows: the broker that answered attached a
// protocol.Cause to its error code, or the client puts one together from
// what it knows itself (a partition without a leader in its metadata; a
// node that fails its requests while a broker said it reaches no active
// controller). Kafka's client only logs the error code, or nothing, and
// retries; what it prints stays as it is.
//
// It notes one event per episode, not one per retry: an episode of a scope
// (the group's coordinator, a topic, a partition's leader, a partition's
// writes, the producer id) starts at the first cause the client meets
// there and ends when the scope works; within it each distinct cause is
// noted once, so a cause that changes (the ISR shrank further, the
// controller came back but refuses) is noted again, and a broker answering
// the same thing as another is not (causeKey).
type stuckReporter struct {
	consumer bool   // the note key: consumer.stuck or producer.stuck
	client   string // client.id
	group    string // a consumer's group.id ("" without a group)
	// episodes maps each scope in an episode to the causes noted in it
	// (at most maxStuckCauses each), for at most maxStuckScopes scopes.
	episodes map[string][]string
}

// Bounds on what a client remembers of its episodes: past them, new ones
// are not noted.
const (
	maxStuckScopes = 64
	maxStuckCauses = 8
)

func newStuckReporter(consumer bool, clientID, groupID string) *stuckReporter {
	return &stuckReporter{consumer: consumer, client: clientID, group: groupID, episodes: map[string][]string{}}
}

// stuck notes cause for scope, unless this episode of scope has noted it
// already. A nil cause (the error is transient, or the broker knows no
// more than its code) notes nothing.
func (s *stuckReporter) stuck(env *sim.Env, scope string, cause *protocol.Cause) {
	if s == nil || cause == nil {
		return
	}
	key := causeKey(cause)
	seen, open := s.episodes[scope]
	if slices.Contains(seen, key) || !open && len(s.episodes) >= maxStuckScopes || len(seen) >= maxStuckCauses {
		return
	}
	s.episodes[scope] = append(seen, key)
	// The cause's fields are cloned: the note stays in the trace.
	if s.consumer {
		// The group is "" without one, as Kafka's log prefix says groupId=.
		env.Note(event.ConsumerStuck{Client: s.client, Group: s.group, Cause: cause.Kind, CauseFields: slices.Clone(cause.Fields)})
	} else {
		env.Note(event.ProducerStuck{Client: s.client, Cause: cause.Kind, CauseFields: slices.Clone(cause.Fields)})
	}
}

// cleared ends scope's episode: it succeeded. It reports whether an
// episode was open (a cause had been noted), for callers that note the
// recovery.
func (s *stuckReporter) cleared(scope string) bool {
	if s == nil {
		return false
	}
	_, open := s.episodes[scope]
	delete(s.episodes, scope)
	return open
}

// causeKey identifies a cause within an episode: its kind and fields,
// without those that vary from one retry to the next for the same
// obstacle: the broker that answered, how a request failed.
func causeKey(c *protocol.Cause) string {
	var b strings.Builder
	b.WriteString(c.Kind)
	for i := 0; i+1 < len(c.Fields); i += 2 {
		if c.Fields[i] == "broker" || c.Fields[i] == "failure" {
			continue
		}
		b.WriteString("\x00" + c.Fields[i] + "=" + c.Fields[i+1])
	}
	return b.String()
}

// Scopes of episodes.
func scopeCoordinator() string              { return "coordinator" }
func scopeTopic(topic string) string        { return "topic\x00" + topic }
func scopeLeader(tp topicPartition) string  { return "leader\x00" + tp.String() }
func scopeProduce(tp topicPartition) string { return "produce\x00" + tp.String() }
func scopeProducerID() string               { return "producer-id" }

// noLeaderCause is what a client's own metadata says of a partition
// without a leader: no replica of its ISR (or, with an empty ISR under
// KIP-966, of its eligible leader replicas) is online: the controller
// elects only from those unless unclean.leader.election.enable. Nil when
// the partition has a leader or is unknown.
func noLeaderCause(m *Metadata, tp topicPartition) *protocol.Cause {
	t := m.Topic(tp.topic)
	if t == nil || tp.partition < 0 || int(tp.partition) >= len(t.Partitions) || t.Partitions[tp.partition].Leader >= 0 {
		return nil
	}
	p := t.Partitions[tp.partition]
	if len(p.ISR) == 0 && len(p.ELR) > 0 {
		// KIP-966 (Kafka 4.1+): the ISR emptied and its last members are
		// kept as eligible leaders.
		return &protocol.Cause{Kind: protocol.CausePartitionNoLeaderELR, Fields: []string{"tp", tp.String(), "elr", sim.FormatIDs(p.ELR)}}
	}
	return &protocol.Cause{Kind: protocol.CausePartitionNoLeader, Fields: []string{"tp", tp.String(), "isr", sim.FormatIDs(p.ISR)}}
}

// leaderAnswered follows a request to tp's leader: an answer (whatever its
// error codes) ends tp's leader episode; a failure (err) while the last
// metadata answer said no controller is active is an obstacle that lasts:
// nothing will elect another leader. Without that, the client just
// retries: the controller fences a leader that is down and elects another.
func leaderAnswered(env *sim.Env, s *stuckReporter, m *Metadata, tp topicPartition, leader int32, err error) {
	if err == nil {
		s.cleared(scopeLeader(tp))
		return
	}
	if nc := m.noController; nc != nil {
		s.stuck(env, scopeLeader(tp), &protocol.Cause{Kind: protocol.CauseLeaderUnreachable,
			Fields: []string{"broker", nc.Field("broker"), "tp", tp.String(), "leader", strconv.Itoa(int(leader)), "failure", err.Error()}})
	}
}

// producerIDCause explains a failed InitProducerId sent to node: the
// broker's own cause, or, when the request failed (err) while the last
// metadata answer said no controller is active, the node not answering:
// nothing will take it out of the metadata.
func producerIDCause(m *Metadata, node sim.Addr, r *protocol.InitProducerIdResponse, err error) *protocol.Cause {
	if err == nil {
		return r.Cause
	}
	nc := m.noController
	id, ok := m.nodeID(node)
	if nc == nil || !ok {
		return nil
	}
	return &protocol.Cause{Kind: protocol.CauseProducerIDUnreachable,
		Fields: []string{"broker", nc.Field("broker"), "node", strconv.Itoa(int(id)), "failure", err.Error()}}
}
