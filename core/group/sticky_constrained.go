package group

import (
	"cmp"
	"fmt"
	"slices"

	"kafkascope/core/sorts"
)

// constrainedBuilder is AbstractStickyAssignor's ConstrainedAssignmentBuilder,
// used when every member subscribes to the same topics. With P partitions
// and C members every member gets minQuota = ⌊P/C⌋ or maxQuota = ⌈P/C⌉
// partitions, exactly P mod C of them maxQuota:
//
//  1. Each member (in the group map's order) keeps its previously owned
//     partitions, sorted by partition then topic: all of them if fewer than
//     minQuota; maxQuota if it had that many and maxQuota slots remain;
//     otherwise minQuota. What it had beyond that may be revoked.
//  2. The remaining partitions (by topic, then partition) go round-robin to
//     the members below minQuota (by member id), then one each to members
//     at minQuota while maxQuota slots remain.
type constrainedBuilder struct {
	partitionsPerTopic map[string]int32
	order              []string
	owned              map[string][]TopicPartition
	multiple           map[TopicPartition]bool
	transferring       map[TopicPartition]string

	maybeRevoked map[TopicPartition]string
	underMin     []string // unfilledMembersWithUnderMinQuotaPartitions
	exactlyMin   []string // unfilledMembersWithExactlyMinQuotaPartitions

	minQuota, maxQuota    int
	expectedOver, curOver int

	assignment Assignment
	assigned   []TopicPartition
	racks      *stickyRacks // never nil once built by the core
}

func newConstrainedBuilder(partitionsPerTopic map[string]int32, order []string, owned map[string][]TopicPartition,
	multiple map[TopicPartition]bool, transferring map[TopicPartition]string) *constrainedBuilder {
	total, n := totalPartitions(partitionsPerTopic), len(order)
	b := &constrainedBuilder{partitionsPerTopic: partitionsPerTopic, order: order, owned: owned, multiple: multiple,
		transferring: transferring, maybeRevoked: map[TopicPartition]string{}, assignment: Assignment{}}
	if n > 0 {
		b.minQuota, b.maxQuota, b.expectedOver = total/n, (total+n-1)/n, total%n
	}
	for _, id := range order {
		b.assignment[id] = []TopicPartition{}
	}
	return b
}

func (b *constrainedBuilder) build() Assignment {
	b.assignOwned()
	unassigned := b.unassigned()
	slices.Sort(b.underMin)
	slices.Sort(b.exactlyMin)
	unassigned = b.racks.sortByConsumers(unassigned)
	unassigned = b.assignRackAwareRoundRobin(unassigned)
	b.assignRoundRobin(unassigned)
	return b.assignment
}

func (b *constrainedBuilder) assignOwned() {
	for _, id := range b.order {
		// An owned partition with no replica in the member's rack may be
		// revoked (KIP-881).
		owned := slices.DeleteFunc(slices.Clone(b.owned[id]), func(tp TopicPartition) bool {
			if b.racks.mismatch(id, tp) {
				b.maybeRevoked[tp] = id
				return true
			}
			return false
		})
		sorts.StableFunc(owned, func(x, y TopicPartition) int {
			return cmp.Or(cmp.Compare(x.Partition, y.Partition), cmp.Compare(x.Topic, y.Topic))
		})
		owned = slices.DeleteFunc(owned, func(tp TopicPartition) bool { return b.multiple[tp] })
		keep := func(n int) {
			b.assignment[id] = append(b.assignment[id], owned[:n]...)
			b.assigned = append(b.assigned, owned[:n]...)
			for _, tp := range owned[n:] {
				b.maybeRevoked[tp] = id
			}
		}
		switch {
		case len(owned) < b.minQuota:
			keep(len(owned))
			b.underMin = append(b.underMin, id)
		case len(owned) >= b.maxQuota && b.curOver < b.expectedOver:
			b.curOver++
			if b.curOver == b.expectedOver {
				b.exactlyMin = nil
			}
			keep(b.maxQuota)
		default:
			keep(b.minQuota)
			if b.curOver < b.expectedOver {
				b.exactlyMin = append(b.exactlyMin, id)
			}
		}
	}
}

// unassigned lists every partition not kept in step 1, by topic name then
// partition.
func (b *constrainedBuilder) unassigned() []TopicPartition {
	topics := make([]string, 0, len(b.partitionsPerTopic))
	for t := range b.partitionsPerTopic {
		topics = append(topics, t)
	}
	slices.Sort(topics)
	kept := map[TopicPartition]bool{}
	for _, tp := range b.assigned {
		kept[tp] = true
	}
	return slices.DeleteFunc(allPartitionsOf(b.partitionsPerTopic, topics), func(tp TopicPartition) bool { return kept[tp] })
}

// assignRackAwareRoundRobin is step 2 with racks: each partition in turn
// goes to the next member below minQuota (from where the last one left
// off) in one of its replicas' racks, or failing that to the first such
// member at exactly minQuota while maxQuota slots remain. It answers the
// partitions left for the plain round-robin.
func (b *constrainedBuilder) assignRackAwareRoundRobin(unassigned []TopicPartition) []TopicPartition {
	if len(b.racks.consumerRacks) == 0 {
		return unassigned
	}
	next := 0
	var left []TopicPartition
	for _, tp := range unassigned {
		id := ""
		if k := b.racks.nextRackConsumer(tp, b.underMin, next); k >= 0 {
			id = b.underMin[k]
			if n := len(b.assignment[id]) + 1; n >= b.minQuota {
				b.underMin = slices.Delete(b.underMin, k, k+1)
				if n < b.maxQuota && b.curOver < b.expectedOver {
					b.exactlyMin = append(b.exactlyMin, id)
				}
			} else {
				k++
			}
			next = 0
			if len(b.underMin) > 0 {
				next = k % len(b.underMin)
			}
		} else if len(b.exactlyMin) > 0 {
			if k := b.racks.nextRackConsumer(tp, b.exactlyMin, 0); k >= 0 {
				id = b.exactlyMin[k]
				if len(b.assignment[id])+1 == b.maxQuota {
					b.exactlyMin = slices.Delete(b.exactlyMin, k, k+1)
					b.curOver++
					if b.curOver == b.expectedOver {
						b.exactlyMin = nil
					}
				}
			}
		}
		if id == "" {
			left = append(left, tp)
			continue
		}
		b.assignNew(tp, id)
	}
	return left
}

// assignRoundRobin walks the members below minQuota round and round (a
// member leaves the round when it reaches minQuota and may then take one
// more as a member at exactly minQuota), and once they are all filled gives
// one partition each to the members at minQuota, first in, first served.
func (b *constrainedBuilder) assignRoundRobin(unassigned []TopicPartition) {
	pos := 0 // the iterator over underMin: index of its next element
	for _, tp := range unassigned {
		var id string
		fromUnder := false
		switch {
		case pos < len(b.underMin):
			id, fromUnder = b.underMin[pos], true
			pos++
		case len(b.underMin) == 0 && len(b.exactlyMin) == 0:
			// Kafka throws IllegalStateException("No more unfilled
			// consumers to be assigned."); the quotas make it unreachable.
			panic(fmt.Sprintf("sticky assignor: no unfilled member for %s-%d", tp.Topic, tp.Partition))
		case len(b.underMin) == 0:
			id = b.exactlyMin[0]
			b.exactlyMin = b.exactlyMin[1:]
		default:
			pos = 0
			id, fromUnder = b.underMin[pos], true
			pos++
		}
		n := b.assignNew(tp, id)
		switch {
		case n == b.minQuota:
			if fromUnder {
				pos--
				b.underMin = slices.Delete(b.underMin, pos, pos+1)
			}
			b.exactlyMin = append(b.exactlyMin, id)
		case n == b.maxQuota:
			b.curOver++
		}
	}
}

// assignNew gives tp to id; a partition that had another owner (or two)
// is transferring ownership.
func (b *constrainedBuilder) assignNew(tp TopicPartition, id string) int {
	b.assignment[id] = append(b.assignment[id], tp)
	if prev, ok := b.maybeRevoked[tp]; (ok && prev != id) || b.multiple[tp] {
		b.transferring[tp] = id
	}
	return len(b.assignment[id])
}
