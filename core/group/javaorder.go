package group

import (
	"sort"

	"kafkascope/core/hashing"
)

// Kafka's sticky assignors walk java.util.HashMaps and HashSets in a few
// places where the order decides the outcome (which member keeps its
// partitions when two claim more than the quota; which partition of a
// topic moves back along a recorded movement). These helpers reproduce
// the iteration order of a HashMap/HashSet with the default initial
// capacity (16) and load factor (0.75): by bucket of the spread hash, and
// within a bucket by insertion. A HashMap never shrinks, so capacity is
// the largest it ever needed. Treeified buckets (8+ colliding keys in a
// table of 64+) are not modelled.

func tpHash(tp TopicPartition) int32 { return hashing.TopicPartitionHashCode(tp.Topic, tp.Partition) }

func bucketOf(h int32, capacity int) int {
	u := uint32(h)
	return int((u ^ (u >> 16)) & uint32(capacity-1))
}

// hashOrderStrings is the iteration order of a fresh HashMap<String, _>
// filled with keys in the given order.
func hashOrderStrings(keys []string) []string {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = hashing.JavaStringHashCode(k)
	}
	out := make([]string, 0, len(keys))
	for _, i := range hashing.JavaHashOrder(hashes) {
		out = append(out, keys[i])
	}
	return out
}

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
	for len(s.members) > s.capacity*3/4 {
		s.capacity *= 2
	}
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
		bi, bj := bucketOf(tpHash(out[i]), s.capacity), bucketOf(tpHash(out[j]), s.capacity)
		if bi != bj {
			return bi < bj
		}
		return s.members[out[i]] < s.members[out[j]]
	})
	return out
}
