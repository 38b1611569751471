package group

import (
	"slices"

	"kafkascope/core/jdk"
)

// The sticky assignors (StickyAssignor "sticky" and
// CooperativeStickyAssignor "cooperative-sticky") share Kafka 3.8's
// AbstractStickyAssignor: a balanced assignment that moves as few
// partitions as possible from where they were. Which previous assignment
// each member reports, and with which generation, is the only difference
// between the two (memberData), besides the cooperative one taking back
// partitions that change owner (cooperative.go).
//
// Two builders: when every member subscribes to the same topics the
// constrained builder (sticky_constrained.go) fills quotas; otherwise the
// general builder (sticky_general.go) assigns and then moves partitions
// until no move improves the balance. Rack-aware assignment is not
// modelled: the simulator's brokers have no broker.rack, and Kafka only
// uses it when both consumer and partition racks are known.

// memberData is AbstractStickyAssignor.MemberData: the partitions a member
// says it had and the generation it had them in.
type memberData struct {
	partitions    []TopicPartition
	generation    int32
	hasGeneration bool
}

func (d memberData) generationOr(def int32) int32 {
	if d.hasGeneration {
		return d.generation
	}
	return def
}

// stickyCore is the state an AbstractStickyAssignor instance keeps.
type stickyCore struct {
	// maxGeneration is the highest generation any member ever reported to
	// this instance. Kafka keeps it in a field that is never reset, so it
	// carries over from one rebalance this consumer leads to the next.
	maxGeneration int32
	// transferring is partitionsTransferringOwnership: the partitions the
	// constrained builder gave to a member other than their owner; nil
	// after the general builder (the cooperative assignor then computes
	// it from the subscriptions).
	transferring map[TopicPartition]string
	movements    *partitionMovements
	// racks is the assignment's RackInfo (sticky_racks.go).
	racks *stickyRacks
}

func newStickyCore() stickyCore { return stickyCore{maxGeneration: DefaultGeneration} }

// subscriptionGeneration is Subscription.generationId().orElse(-1).
func subscriptionGeneration(m Member) int32 {
	if m.GenerationID < 0 {
		return DefaultGeneration
	}
	return m.GenerationID
}

// assignPartitions is AbstractStickyAssignor.assignPartitions. members is
// the group subscription; Kafka holds it in a HashMap, so it is walked in
// that map's order. racks are the partitions' replica racks (nil: none),
// matched with the members' client.rack (KIP-881).
func (c *stickyCore) assignPartitions(partitionsPerTopic map[string]int32, members []Member, racks PartitionRacks, data func(Member) memberData) Assignment {
	partitionsPerTopic = subscribedPartitions(partitionsPerTopic, members)
	if len(members) == 0 {
		return Assignment{}
	}
	c.racks = newStickyRacks(members, partitionsPerTopic, racks)
	byID := map[string]Member{}
	var ids []string
	for _, m := range members {
		if _, dup := byID[m.ID]; !dup {
			ids = append(ids, m.ID)
		}
		byID[m.ID] = m
	}
	order := jdk.HashSetOrder(ids)
	owned := map[string][]TopicPartition{}
	multiple := map[TopicPartition]bool{}
	c.movements = nil
	if c.allSubscriptionsEqual(partitionsPerTopic, order, byID, data, owned, multiple) {
		c.transferring = map[TopicPartition]string{}
		b := newConstrainedBuilder(partitionsPerTopic, order, owned, multiple, c.transferring)
		b.racks = c.racks
		return b.build()
	}
	c.transferring = nil
	b := newGeneralBuilder(c, partitionsPerTopic, order, byID, owned, data)
	return b.build()
}

// allSubscriptionsEqual reports whether every member subscribes to the
// same topics, and fills owned with each member's previously owned
// partitions of subscribed topics, one owner per partition: of two
// claims the higher generation wins, and two claims in the same
// generation both lose (the partition goes to multiple).
func (c *stickyCore) allSubscriptionsEqual(partitionsPerTopic map[string]int32, order []string, byID map[string]Member,
	data func(Member) memberData, owned map[string][]TopicPartition, multiple map[TopicPartition]bool) bool {
	equal := true
	subscribed := map[string]bool{}
	owner := map[TopicPartition]string{}
	for _, id := range order {
		m := byID[id]
		if len(subscribed) == 0 {
			for _, t := range m.Topics {
				subscribed[t] = true
			}
		} else if equal {
			// Kafka compares the list's size with the set's, then
			// containment.
			same := len(m.Topics) == len(subscribed)
			for _, t := range m.Topics {
				same = same && subscribed[t]
			}
			equal = same
		}
		md := data(m)
		gen := md.generationOr(DefaultGeneration)
		c.maxGeneration = max(c.maxGeneration, gen)
		owned[id] = []TopicPartition{}
		for _, tp := range md.partitions {
			if _, ok := partitionsPerTopic[tp.Topic]; !ok {
				continue
			}
			other, claimed := owner[tp]
			if !claimed {
				owned[id] = append(owned[id], tp)
				owner[tp] = id
				continue
			}
			otherGen := subscriptionGeneration(byID[other])
			switch {
			case gen == otherGen:
				// Both claims in one generation: neither keeps it.
				multiple[tp] = true
				owned[other] = removeFirst(owned[other], tp)
				owner[tp] = id
			case gen > otherGen:
				owned[id] = append(owned[id], tp)
				owned[other] = removeFirst(owned[other], tp)
				owner[tp] = id
			}
		}
	}
	return equal
}

// removeFirst is List.remove(Object): the first occurrence goes.
func removeFirst(list []TopicPartition, tp TopicPartition) []TopicPartition {
	if i := slices.Index(list, tp); i >= 0 {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// allPartitionsOf lists the partitions of topics in the given order.
func allPartitionsOf(partitionsPerTopic map[string]int32, topics []string) []TopicPartition {
	var out []TopicPartition
	for _, t := range topics {
		for p := int32(0); p < partitionsPerTopic[t]; p++ {
			out = append(out, TopicPartition{t, p})
		}
	}
	return out
}

func totalPartitions(partitionsPerTopic map[string]int32) int {
	n := 0
	for _, c := range partitionsPerTopic {
		n += int(c)
	}
	return n
}
