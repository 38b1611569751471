package group

import (
	"cmp"
	"slices"

	"kafkascope/core/sorts"
)

// generalBuilder is AbstractStickyAssignor's GeneralAssignmentBuilder,
// used when members subscribe to different topics:
//
//  1. Keep every member's previous partitions of topics it still
//     subscribes to.
//  2. Give each unassigned partition (topics with fewer potential members
//     first) to the member with the fewest partitions that can take it.
//  3. Move partitions from members with at least two more than another
//     potential owner, back to their previous owner when that helps, until
//     the assignment is balanced; keep the result only if it is more
//     balanced than before the moves (or nothing was assigned before).
type generalBuilder struct {
	core               *stickyCore
	partitionsPerTopic map[string]int32
	total              int
	order              []string
	byID               map[string]Member
	data               func(Member) memberData

	topicConsumers map[string][]string // topic2AllPotentialConsumers
	consumerTopics map[string][]string // consumer2AllPotentialTopics
	current        Assignment          // currentAssignment
	partitionOwner map[TopicPartition]string
	allPartitions  []TopicPartition // sortedAllPartitions
	sorted         map[string]bool  // members of sortedCurrentSubscriptions
	revocation     bool             // revocationRequired
}

type consumerGeneration struct {
	consumer   string
	generation int32
}

func newGeneralBuilder(core *stickyCore, partitionsPerTopic map[string]int32, order []string, byID map[string]Member,
	owned map[string][]TopicPartition, data func(Member) memberData) *generalBuilder {
	b := &generalBuilder{core: core, partitionsPerTopic: partitionsPerTopic, total: totalPartitions(partitionsPerTopic),
		order: order, byID: byID, data: data,
		topicConsumers: map[string][]string{}, consumerTopics: map[string][]string{}, current: Assignment{},
		partitionOwner: map[TopicPartition]string{}, sorted: map[string]bool{}}
	for t := range partitionsPerTopic {
		b.topicConsumers[t] = []string{}
	}
	for _, id := range order {
		topics := []string{}
		for _, t := range byID[id].Topics {
			if _, ok := partitionsPerTopic[t]; ok {
				topics = append(topics, t)
				b.topicConsumers[t] = append(b.topicConsumers[t], id)
			}
		}
		b.consumerTopics[id] = topics
		b.current[id] = slices.Clone(owned[id])
		if b.current[id] == nil {
			b.current[id] = []TopicPartition{}
		}
	}
	for _, id := range order {
		for _, tp := range b.current[id] {
			b.partitionOwner[tp] = id
		}
	}
	topics := make([]string, 0, len(partitionsPerTopic))
	for t := range partitionsPerTopic {
		topics = append(topics, t)
	}
	sorts.Func(topics, b.compareTopics)
	b.allPartitions = allPartitionsOf(partitionsPerTopic, topics)
	return b
}

// compareTopics is TopicComparator: fewer potential members first, then
// by name.
func (b *generalBuilder) compareTopics(x, y string) int {
	return cmp.Or(cmp.Compare(len(b.topicConsumers[x]), len(b.topicConsumers[y])), cmp.Compare(x, y))
}

// sortedConsumers is sortedCurrentSubscriptions in order: fewest
// partitions first, then by member id.
func (b *generalBuilder) sortedConsumers() []string {
	out := make([]string, 0, len(b.sorted))
	for id := range b.sorted {
		out = append(out, id)
	}
	sorts.Func(out, func(x, y string) int {
		return cmp.Or(cmp.Compare(len(b.current[x]), len(b.current[y])), cmp.Compare(x, y))
	})
	return out
}

func (b *generalBuilder) build() Assignment {
	b.core.movements = newPartitionMovements()
	prev := b.prepopulate()
	assigned := b.keepOwned()
	unassigned := b.unassigned(assigned)
	for _, id := range b.order {
		b.sorted[id] = true
	}
	b.balance(prev, unassigned)
	return b.current
}

// prepopulate records, for each partition, the member that had it in the
// latest generation below the newest one (prevAssignment): a member
// reporting an older generation, or none while others report one.
func (b *generalBuilder) prepopulate() map[TopicPartition]consumerGeneration {
	prev := map[TopicPartition]consumerGeneration{}
	update := func(partitions []TopicPartition, id string, gen int32) {
		for _, tp := range partitions {
			if p, ok := prev[tp]; !ok || gen > p.generation {
				prev[tp] = consumerGeneration{id, gen}
			}
		}
	}
	for _, id := range b.order {
		md := b.data(b.byID[id])
		switch {
		case md.hasGeneration && md.generation < b.core.maxGeneration:
			update(md.partitions, id, md.generation)
		case !md.hasGeneration && b.core.maxGeneration > DefaultGeneration:
			update(md.partitions, id, DefaultGeneration)
		}
	}
	return prev
}

// keepOwned drops owned partitions of topics a member no longer
// subscribes to (a revocation is then required) and returns the rest.
func (b *generalBuilder) keepOwned() []TopicPartition {
	var assigned []TopicPartition
	for _, id := range b.order {
		var keep []TopicPartition
		for _, tp := range b.current[id] {
			switch {
			case b.topicConsumers[tp.Topic] == nil:
				delete(b.partitionOwner, tp)
			case !slices.Contains(b.byID[id].Topics, tp.Topic) || b.core.racks.mismatch(id, tp):
				// No longer subscribed, or (KIP-881) no replica in the
				// member's rack. Kafka leaves the partition's owner entry
				// in place here.
				b.revocation = true
			default:
				keep = append(keep, tp)
				assigned = append(assigned, tp)
			}
		}
		if keep == nil {
			keep = []TopicPartition{}
		}
		b.current[id] = keep
	}
	return assigned
}

func (b *generalBuilder) unassigned(assigned []TopicPartition) []TopicPartition {
	kept := map[TopicPartition]bool{}
	for _, tp := range assigned {
		kept[tp] = true
	}
	return slices.DeleteFunc(slices.Clone(b.allPartitions), func(tp TopicPartition) bool { return kept[tp] })
}

func (b *generalBuilder) maxAssignmentSize(topics []string) int {
	if len(topics) == len(b.partitionsPerTopic) {
		return b.total
	}
	n := 0
	for _, t := range topics {
		n += int(b.partitionsPerTopic[t])
	}
	return n
}

// balanceScore sums |size(a) - size(b)| over all pairs of members.
func balanceScore(a Assignment) int {
	sizes := make([]int, 0, len(a))
	for _, tps := range a {
		sizes = append(sizes, len(tps))
	}
	score := 0
	for i := range sizes {
		for j := i + 1; j < len(sizes); j++ {
			score += max(sizes[i]-sizes[j], sizes[j]-sizes[i])
		}
	}
	return score
}

// assignOne gives tp to the member with the fewest partitions that may
// take it (maybeAssignPartition), with matchRacks one in a rack of its
// replicas (KIP-881); it reports whether some member took it.
func (b *generalBuilder) assignOne(tp TopicPartition, matchRacks bool) bool {
	for _, id := range b.sortedConsumers() {
		if slices.Contains(b.consumerTopics[id], tp.Topic) && (!matchRacks || !b.core.racks.mismatch(id, tp)) {
			b.current[id] = append(b.current[id], tp)
			b.partitionOwner[tp] = id
			return true
		}
	}
	return false
}

// topicMovable: a topic with two or more potential members.
func (b *generalBuilder) topicMovable(t string) bool { return len(b.topicConsumers[t]) >= 2 }

// consumerMovable: a member short of every partition it could have, or
// holding one that another member could have.
func (b *generalBuilder) consumerMovable(id string) bool {
	if len(b.current[id]) < b.maxAssignmentSize(b.consumerTopics[id]) {
		return true
	}
	for _, tp := range b.current[id] {
		if b.topicMovable(tp.Topic) {
			return true
		}
	}
	return false
}

func (b *generalBuilder) balance(prev map[TopicPartition]consumerGeneration, unassigned []TopicPartition) {
	sorted := b.sortedConsumers()
	initializing := len(sorted) == 0 || len(b.current[sorted[len(sorted)-1]]) == 0
	// With racks, first within racks, then the rest anywhere.
	toAssign := unassigned
	if len(b.core.racks.consumerRacks) > 0 {
		toAssign = slices.DeleteFunc(slices.Clone(unassigned), func(tp TopicPartition) bool {
			return len(b.topicConsumers[tp.Topic]) > 0 && b.assignOne(tp, true)
		})
	}
	for _, tp := range toAssign {
		if len(b.topicConsumers[tp.Topic]) > 0 {
			b.assignOne(tp, false)
		}
	}
	fixed := func(tp TopicPartition) bool { return !b.topicMovable(tp.Topic) }
	b.allPartitions = slices.DeleteFunc(b.allPartitions, fixed)
	unassigned = slices.DeleteFunc(unassigned, fixed)

	fixedAssignments := Assignment{}
	for _, id := range b.order {
		if !b.consumerMovable(id) {
			delete(b.sorted, id)
			fixedAssignments[id] = b.current[id]
			delete(b.current, id)
		}
	}
	before := cloneAssignment(b.current)
	ownersBefore := make(map[TopicPartition]string, len(b.partitionOwner))
	for tp, id := range b.partitionOwner {
		ownersBefore[tp] = id
	}
	if !b.revocation {
		b.reassign(unassigned, prev)
	}
	moved := b.reassign(b.allPartitions, prev)
	if !initializing && moved && balanceScore(b.current) >= balanceScore(before) {
		b.current, b.partitionOwner = before, ownersBefore
	}
	for id, tps := range fixedAssignments {
		b.current[id] = tps
		b.sorted[id] = true
	}
}

func cloneAssignment(a Assignment) Assignment {
	out := make(Assignment, len(a))
	for id, tps := range a {
		out[id] = slices.Clone(tps)
	}
	return out
}

// reassign is performReassignments: pass over the partitions, moving
// each to a better-suited member, until balanced or a pass changes
// nothing.
func (b *generalBuilder) reassign(partitions []TopicPartition, prev map[TopicPartition]consumerGeneration) bool {
	performed := false
	for modified := true; modified; {
		modified = false
		for _, tp := range partitions {
			if b.balanced() {
				break
			}
			owner := b.partitionOwner[tp]
			if p, ok := prev[tp]; ok {
				if prevTPs, present := b.current[p.consumer]; present && len(b.current[owner]) > len(prevTPs)+1 {
					b.move(tp, p.consumer)
					performed, modified = true, true
					continue
				}
			}
			for _, other := range b.topicConsumers[tp.Topic] {
				if len(b.current[owner]) > len(b.current[other])+1 {
					b.move(tp, b.leastLoadedFor(tp.Topic))
					performed, modified = true, true
					break
				}
			}
		}
	}
	return performed
}

// leastLoadedFor is the first member in sortedCurrentSubscriptions that
// subscribes to topic.
func (b *generalBuilder) leastLoadedFor(topic string) string {
	for _, id := range b.sortedConsumers() {
		if slices.Contains(b.consumerTopics[id], topic) {
			return id
		}
	}
	return ""
}

// move is reassignPartition + processPartitionMovement.
func (b *generalBuilder) move(tp TopicPartition, newOwner string) {
	tp = b.core.movements.actualPartitionToMove(tp, b.partitionOwner[tp], newOwner)
	oldOwner := b.partitionOwner[tp]
	b.core.movements.move(tp, oldOwner, newOwner)
	b.current[oldOwner] = removeFirst(b.current[oldOwner], tp)
	b.current[newOwner] = append(b.current[newOwner], tp)
	b.partitionOwner[tp] = newOwner
}

// balanced is isBalanced: sizes within one of each other, or no member
// short of partitions could take one from a member with two or more
// partitions more.
func (b *generalBuilder) balanced() bool {
	sorted := b.sortedConsumers()
	if len(sorted) == 0 {
		return true
	}
	if len(b.current[sorted[0]]) >= len(b.current[sorted[len(sorted)-1]])-1 {
		return true
	}
	owner := map[TopicPartition]string{}
	for _, id := range sorted {
		for _, tp := range b.current[id] {
			owner[tp] = id
		}
	}
	for _, id := range sorted {
		n := len(b.current[id])
		if n == b.maxAssignmentSize(b.consumerTopics[id]) {
			continue
		}
		for _, t := range b.consumerTopics[id] {
			for p := int32(0); p < b.partitionsPerTopic[t]; p++ {
				tp := TopicPartition{t, p}
				if slices.Contains(b.current[id], tp) {
					continue
				}
				if other, ok := owner[tp]; ok && n+1 < len(b.current[other]) {
					return false
				}
			}
		}
	}
	return true
}
