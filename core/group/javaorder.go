package group

import (
	"sort"

	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
)

// Kafka's sticky assignors walk java.util.HashMaps and HashSets in a few
// places where the order decides the outcome (which member keeps its
// partitions when two claim more than the quota; which partition of a
// topic moves back along a recorded movement). core/jdk has the table's
// rules (HashCapacity, HashBucket) and the order of a freshly filled map
// (HashSetOrder). A set that also loses members needs more: a HashMap
// never shrinks, so its capacity is the largest it ever needed, which
// tpSet remembers.

func tpHash(tp TopicPartition) int32 { return hashing.TopicPartitionHashCode(tp.Topic, tp.Partition) }

// tpSet is a HashSet<TopicPartition> that remembers its capacity and
// insertion order, so first() is what iterator().next() returns.
type tpSet struct {
	capacity int
	seq      int
	members  map[TopicPartition]int // value: insertion sequence
}

func newTPSet() *tpSet { return &tpSet{capacity: 16, members: map[TopicPartition]int{}} }

func (s *tpSet) add(tp TopicPartition) {
	if _, ok := s.members[tp]; ok {
		return
	}
	s.seq++
	s.members[tp] = s.seq
	s.capacity = max(s.capacity, jdk.HashCapacity(len(s.members)))
}

func (s *tpSet) remove(tp TopicPartition) { delete(s.members, tp) }

func (s *tpSet) len() int { return len(s.members) }

// ordered lists the set in Java's iteration order.
func (s *tpSet) ordered() []TopicPartition {
	out := make([]TopicPartition, 0, len(s.members))
	for tp := range s.members {
		out = append(out, tp)
	}
	sort.Slice(out, func(i, j int) bool {
		bi, bj := jdk.HashBucket(tpHash(out[i]), s.capacity), jdk.HashBucket(tpHash(out[j]), s.capacity)
		if bi != bj {
			return bi < bj
		}
		return s.members[out[i]] < s.members[out[j]]
	})
	return out
}
