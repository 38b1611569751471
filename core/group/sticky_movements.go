package group

// consumerPair is AbstractStickyAssignor.ConsumerPair: a partition moved
// from src to dst during one assignment.
type consumerPair struct{ src, dst string }

// partitionMovements is AbstractStickyAssignor.PartitionMovements: where
// each partition moved during the current general assignment, so a
// partition about to move back along a recorded path is swapped for one
// that already moved the other way (keeping both members' other
// partitions where they were).
type partitionMovements struct {
	byTopic map[string]map[consumerPair]*tpSet
	moves   map[TopicPartition]consumerPair
}

func newPartitionMovements() *partitionMovements {
	return &partitionMovements{byTopic: map[string]map[consumerPair]*tpSet{}, moves: map[TopicPartition]consumerPair{}}
}

func (m *partitionMovements) removeRecord(tp TopicPartition) consumerPair {
	pair := m.moves[tp]
	delete(m.moves, tp)
	topic := m.byTopic[tp.Topic]
	topic[pair].remove(tp)
	if topic[pair].len() == 0 {
		delete(topic, pair)
	}
	if len(topic) == 0 {
		delete(m.byTopic, tp.Topic)
	}
	return pair
}

func (m *partitionMovements) addRecord(tp TopicPartition, pair consumerPair) {
	m.moves[tp] = pair
	topic := m.byTopic[tp.Topic]
	if topic == nil {
		topic = map[consumerPair]*tpSet{}
		m.byTopic[tp.Topic] = topic
	}
	if topic[pair] == nil {
		topic[pair] = newTPSet()
	}
	topic[pair].add(tp)
}

// move records tp moving from oldC to newC; a partition moving back to
// where it started this assignment is no longer a movement.
func (m *partitionMovements) move(tp TopicPartition, oldC, newC string) {
	if existing, ok := m.moves[tp]; ok {
		m.removeRecord(tp)
		if existing.src != newC {
			m.addRecord(tp, consumerPair{existing.src, newC})
		}
		return
	}
	m.addRecord(tp, consumerPair{oldC, newC})
}

// actualPartitionToMove is getTheActualPartitionToBeMoved: moving tp from
// oldC to newC when some partition of its topic already moved from newC
// to (tp's original owner) oldC means moving that one back instead — the
// first of them in its HashSet's order.
func (m *partitionMovements) actualPartitionToMove(tp TopicPartition, oldC, newC string) TopicPartition {
	topic, ok := m.byTopic[tp.Topic]
	if !ok {
		return tp
	}
	if pair, moved := m.moves[tp]; moved {
		oldC = pair.src
	}
	set := topic[consumerPair{newC, oldC}]
	if set == nil {
		return tp
	}
	return set.ordered()[0]
}

// isSticky is PartitionMovements.isSticky: no topic has partitions that
// moved both ways between two members (Kafka's test check).
func (m *partitionMovements) isSticky() bool {
	for _, pairs := range m.byTopic {
		for p := range pairs {
			if pairs[consumerPair{p.dst, p.src}] != nil {
				return false
			}
		}
	}
	return true
}
