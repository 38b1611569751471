package group

import (
	"cmp"
	"slices"
)

// PartitionRacks gives, for each topic, each partition's replica racks:
// the broker.rack of every replica whose broker is in the leader's
// metadata and has one (Kafka's PartitionInfo replicas: a broker missing
// from the metadata is a Node without rack). nil when no broker has a
// rack.
type PartitionRacks map[string][][]string

// RangeWithRacks is Kafka's RangeAssignor with KIP-881 (Kafka 3.5+): when
// some member has a client.rack that some partition's replicas are in,
// and the partitions' rack sets are not all alike, each member first takes
// partitions with a replica in its rack, up to its range quota; the
// ordinary range pass then fills what is left, and every member's list is
// sorted by topic and partition. Topics subscribed by the same members
// with the same partition count are co-partitioned: partition p of all of
// them goes to one member whose rack has a replica of each. Without
// member racks, or when rack matching cannot help, it is Range.
func RangeWithRacks(members []Member, partitions map[string]int32, racks PartitionRacks) Assignment {
	sorted := sortedMembers(members)
	var states []*rangeTopicState
	for _, topic := range subscribedTopics(members) {
		if n := partitions[topic]; n > 0 {
			states = append(states, newRangeTopicState(topic, n, sorted, racks[topic]))
		}
	}
	if !slices.ContainsFunc(states, func(s *rangeTopicState) bool { return s.needsRacks }) {
		return Range(members, partitions)
	}
	out := Assignment{}
	for _, m := range sorted {
		out[m.ID] = []TopicPartition{}
	}
	// The rack-matching pass, per group of topics with the same members
	// and partition count (the order of the groups does not matter: each
	// topic's quotas are its own, and the lists are sorted at the end).
	// Kafka counts the partitions in the rack map, empty when no member
	// of the topic has a rack: such topics match nothing here.
	done := make([]bool, len(states))
	for i, s := range states {
		if done[i] {
			continue
		}
		co := []*rangeTopicState{s}
		for j := i + 1; j < len(states); j++ {
			if !done[j] && len(states[j].partRacks) == len(s.partRacks) && slices.Equal(states[j].consumers, s.consumers) {
				co = append(co, states[j])
				done[j] = true
			}
		}
		switch {
		case len(co) > 1:
			assignCoPartitioned(co, out)
		case s.needsRacks:
			s.assignRanges(s.racksMatch, out)
		}
	}
	for _, s := range states {
		s.assignRanges(func(string, int32) bool { return true }, out)
	}
	for _, tps := range out {
		slices.SortFunc(tps, func(a, b TopicPartition) int {
			return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
		})
	}
	return out
}

// rangeTopicState is RangeAssignor's TopicAssignmentState: one topic's
// members (in MemberInfo order), their racks, its partitions' racks, what
// is still unassigned and each member's count against its quota.
type rangeTopicState struct {
	topic      string
	consumers  []string
	rack       map[string]string // member → client.rack ("" none)
	partRacks  [][]string        // nil unless some member has a rack
	unassigned []int32           // in partition order
	assigned   map[string]int
	perMember  int
	extra      int // members that may still take one more than perMember
	needsRacks bool
}

func newRangeTopicState(topic string, n int32, sorted []Member, racks [][]string) *rangeTopicState {
	s := &rangeTopicState{topic: topic, rack: map[string]string{}, assigned: map[string]int{}}
	memberRacks := map[string]bool{}
	for _, m := range sorted {
		if subscribes(m, topic) {
			s.consumers = append(s.consumers, m.ID)
			s.rack[m.ID] = m.RackID
			if m.RackID != "" {
				memberRacks[m.RackID] = true
			}
		}
	}
	for p := range n {
		s.unassigned = append(s.unassigned, p)
	}
	if c := len(s.consumers); c > 0 {
		s.perMember, s.extra = int(n)/c, int(n)%c
	}
	if len(memberRacks) == 0 {
		return s
	}
	// AbstractPartitionAssignor.useRackAwareAssignment.
	s.partRacks = make([][]string, n)
	for p := range n {
		if int(p) < len(racks) {
			s.partRacks[p] = racks[p]
		}
	}
	s.needsRacks = rackMatchingHelps(memberRacks, s.partRacks)
	return s
}

// sameRackSet reports whether racks, as a set, is all.
func sameRackSet(racks []string, all map[string]bool) bool {
	seen := map[string]bool{}
	for _, r := range racks {
		seen[r] = true
	}
	return len(seen) == len(all)
}

// racksMatch: a member without a rack matches any partition; one with a
// rack matches the partitions with a replica there.
func (s *rangeTopicState) racksMatch(member string, p int32) bool {
	r := s.rack[member]
	return r == "" || (s.partRacks != nil && slices.Contains(s.partRacks[p], r))
}

// maxAssignable is what member may still take: its share, one more while
// members with an extra partition remain, less what it has.
func (s *rangeTopicState) maxAssignable(member string) int {
	quota := s.perMember
	if s.extra > 0 {
		quota++
	}
	return max(0, quota-s.assigned[member])
}

// take assigns ps to member (onAssigned: a member past its share uses up
// one of the extra partitions).
func (s *rangeTopicState) take(member string, ps []int32, out Assignment) {
	for _, p := range ps {
		out[member] = append(out[member], TopicPartition{s.topic, p})
	}
	s.assigned[member] += len(ps)
	if s.assigned[member] > s.perMember {
		s.extra--
	}
	s.unassigned = slices.DeleteFunc(s.unassigned, func(p int32) bool { return slices.Contains(ps, p) })
}

// assignRanges gives each member in order the first unassigned partitions
// it may take, up to its quota.
func (s *rangeTopicState) assignRanges(may func(member string, p int32) bool, out Assignment) {
	for _, m := range s.consumers {
		if len(s.unassigned) == 0 {
			return
		}
		var ps []int32
		for _, p := range s.unassigned {
			if len(ps) == s.maxAssignable(m) {
				break
			}
			if may(m, p) {
				ps = append(ps, p)
			}
		}
		if len(ps) > 0 {
			s.take(m, ps, out)
		}
	}
}

// assignCoPartitioned gives partition p of every co-partitioned topic to
// the first remaining member whose rack matches p in all of them and that
// may still take one in each.
func assignCoPartitioned(states []*rangeTopicState, out Assignment) {
	remaining := slices.Clone(states[0].consumers)
	for p := range int32(len(states[0].partRacks)) {
		i := slices.IndexFunc(remaining, func(m string) bool {
			for _, s := range states {
				if !s.racksMatch(m, p) || s.maxAssignable(m) <= 0 {
					return false
				}
			}
			return true
		})
		if i < 0 {
			continue
		}
		m := remaining[i]
		for _, s := range states {
			s.take(m, []int32{p}, out)
		}
		if !slices.ContainsFunc(states, func(s *rangeTopicState) bool { return s.maxAssignable(m) > 0 }) {
			remaining = slices.Delete(remaining, i, i+1)
			if len(remaining) == 0 {
				return
			}
		}
	}
}
