package group

import (
	"slices"

	"kafkascope/core/sorts"
)

// stickyRacks is AbstractStickyAssignor's RackInfo (KIP-881, Kafka 3.5+):
// the members' racks and the partitions' replica racks, kept only when
// rack matching can help (the rule RangeWithRacks uses, over every
// partition); numConsumers counts, for each partition, the members in its
// replicas' racks, from the racks whether or not they are kept (Kafka
// computes it either way, and the constrained builder sorts by it).
type stickyRacks struct {
	consumerRacks  map[string]string
	partitionRacks map[TopicPartition][]string
	numConsumers   map[TopicPartition]int
}

func newStickyRacks(members []Member, partitionsPerTopic map[string]int32, racks PartitionRacks) *stickyRacks {
	r := &stickyRacks{consumerRacks: map[string]string{}, partitionRacks: map[TopicPartition][]string{}, numConsumers: map[TopicPartition]int{}}
	byRack := map[string]int{}
	memberRack := map[string]string{}
	for _, m := range members {
		if m.RackID != "" {
			byRack[m.RackID]++
			memberRack[m.ID] = m.RackID
		}
	}
	if len(byRack) == 0 {
		return r
	}
	partRacks := map[TopicPartition][]string{}
	var lists [][]string
	for topic, n := range partitionsPerTopic {
		for p := range n {
			tp := TopicPartition{topic, p}
			var rs []string
			if int(p) < len(racks[topic]) {
				rs = racks[topic][p]
			}
			partRacks[tp] = rs
			lists = append(lists, rs)
			for _, rk := range rs {
				r.numConsumers[tp] += byRack[rk]
			}
			if _, ok := r.numConsumers[tp]; !ok {
				r.numConsumers[tp] = 0
			}
		}
	}
	if rackMatchingHelps(byRack, lists) {
		r.consumerRacks, r.partitionRacks = memberRack, partRacks
	}
	return r
}

// rackMatchingHelps is AbstractPartitionAssignor.useRackAwareAssignment:
// some member's rack holds a replica, and the partitions' rack sets are
// not all the same (then matching cannot help).
func rackMatchingHelps[V any](memberRacks map[string]V, partRacks [][]string) bool {
	all := map[string]bool{}
	for _, rs := range partRacks {
		for _, r := range rs {
			all[r] = true
		}
	}
	shared := false
	for r := range memberRacks {
		shared = shared || all[r]
	}
	if !shared {
		return false
	}
	for _, rs := range partRacks {
		if !sameRackSet(rs, all) {
			return true
		}
	}
	return false
}

// mismatch is racksMismatch: member has a rack and tp has no replica there.
func (r *stickyRacks) mismatch(member string, tp TopicPartition) bool {
	rack, ok := r.consumerRacks[member]
	return ok && !slices.Contains(r.partitionRacks[tp], rack)
}

// sortByConsumers is sortPartitionsByRackConsumers: the partitions with
// the fewest members in their racks first (a stable sort).
func (r *stickyRacks) sortByConsumers(tps []TopicPartition) []TopicPartition {
	if len(r.numConsumers) == 0 {
		return tps
	}
	sorts.StableFunc(tps, func(a, b TopicPartition) int { return r.numConsumers[a] - r.numConsumers[b] })
	return tps
}

// nextRackConsumer is the index in list, from first round, of the first
// member in one of tp's replicas' racks (-1: none).
func (r *stickyRacks) nextRackConsumer(tp TopicPartition, list []string, first int) int {
	racks := r.partitionRacks[tp]
	if len(racks) == 0 {
		return -1
	}
	for i := range list {
		k := (first + i) % len(list)
		if rack, ok := r.consumerRacks[list[k]]; ok && slices.Contains(racks, rack) {
			return k
		}
	}
	return -1
}
