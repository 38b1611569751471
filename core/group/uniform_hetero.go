package group

import (
	"sort"

	"kafkascope/core/metadata"
)

// uniformMaxIterationCount is UniformHeterogeneousAssignmentBuilder's
// MAX_ITERATION_COUNT: the balancing rounds over all topics.
const uniformMaxIterationCount = 16

// heteroBuilder is UniformHeterogeneousAssignmentBuilder (Kafka 4.3;
// identical in 4.1): members numbered by member order; each member keeps
// all of its current target that it still subscribes to; the unowned
// partitions go, topic by topic (topicLess order), to the least loaded
// subscriber; then partitions move from the most to the least loaded
// subscriber of each shared topic until each topic's subscribers differ
// by at most one partition, or 16 rounds pass.
//
// Invariants: sizes[i] is the number of partitions in member i's target;
// owners[t][p] is the index of the member whose target holds t-p, or -1.
type heteroBuilder struct {
	spec        GroupSpec
	topics      TopicImage
	subscribed  *javaHashSet[metadata.Uuid]
	subscribers map[metadata.Uuid][]int // member indices, ascending
	sizes       []int
	owners      map[metadata.Uuid][]int
	kept        []MemberAssignment // a target still as it came (copies[i] == nil)
	copies      []*javaAssignment
}

func uniformHeterogeneous(spec GroupSpec, topics TopicImage) (GroupAssignment, error) {
	n := len(spec.Members)
	b := &heteroBuilder{
		spec:        spec,
		topics:      topics,
		subscribed:  newJavaHashSet(UuidHashCode),
		subscribers: map[metadata.Uuid][]int{},
		sizes:       make([]int, n),
		owners:      map[metadata.Uuid][]int{},
		kept:        make([]MemberAssignment, n),
		copies:      make([]*javaAssignment, n),
	}
	for i, m := range spec.Members {
		for _, id := range m.SubscribedTopicIDs {
			if topics.NumPartitions(id) == -1 {
				return nil, missingTopicError(id)
			}
			b.subscribed.add(id)
			b.subscribers[id] = append(b.subscribers[id], i)
		}
	}
	for _, id := range b.subscribed.ordered() {
		owners := make([]int, topics.NumPartitions(id))
		for p := range owners {
			owners[p] = -1
		}
		b.owners[id] = owners
	}
	if b.subscribed.len() == 0 {
		return GroupAssignment{}, nil
	}

	b.maybeRevokePartitions()
	b.assignRemainingPartitions()
	b.balance()

	out := GroupAssignment{}
	for i, m := range spec.Members {
		if b.copies[i] != nil {
			out[m.MemberID] = b.copies[i].list()
		} else {
			out[m.MemberID] = b.kept[i]
		}
	}
	return out, nil
}

// topicLess is the builder's topicComparator: partitions per subscriber
// descending (Double.compare), then subscriber count ascending, then topic
// id ascending (Uuid.compareTo).
func (b *heteroBuilder) topicLess(t1, t2 metadata.Uuid) bool {
	p1, p2 := b.topics.NumPartitions(t1), b.topics.NumPartitions(t2)
	s1, s2 := len(b.subscribers[t1]), len(b.subscribers[t2])
	r1, r2 := float64(p1)/float64(s1), float64(p2)/float64(s2)
	if r1 != r2 {
		return r1 > r2
	}
	if s1 != s2 {
		return s1 < s2
	}
	return metadata.CompareUuids(t1, t2) < 0
}

func (b *heteroBuilder) sortTopics(ids []metadata.Uuid) []metadata.Uuid {
	sort.SliceStable(ids, func(i, j int) bool { return b.topicLess(ids[i], ids[j]) })
	return ids
}

// memberLess is the builder's memberComparator: target size ascending,
// then member index.
func (b *heteroBuilder) memberLess(m1, m2 int) bool {
	if b.sizes[m1] != b.sizes[m2] {
		return b.sizes[m1] < b.sizes[m2]
	}
	return m1 < m2
}

func subscribesTo(m MemberSpec, topic metadata.Uuid) bool {
	for _, id := range m.SubscribedTopicIDs {
		if id == topic {
			return true
		}
	}
	return false
}

// maybeRevokePartitions keeps each member's whole target of the topics it
// subscribes to and drops the others; no quota here.
func (b *heteroBuilder) maybeRevokePartitions() {
	for i, m := range b.spec.Members {
		b.kept[i] = m.Assignment
		for _, tp := range m.Assignment {
			if subscribesTo(m, tp.TopicID) {
				b.sizes[i] += len(tp.Partitions)
				owners := b.owners[tp.TopicID]
				for _, p := range tp.Partitions {
					if int(p) < len(owners) {
						owners[p] = i
					}
				}
				continue
			}
			b.mutable(i).removeTopic(tp.TopicID)
		}
	}
}

func (b *heteroBuilder) mutable(i int) *javaAssignment {
	if b.copies[i] == nil {
		b.copies[i] = deepCopyAssignment(b.kept[i])
	}
	return b.copies[i]
}

// assignRemainingPartitions gives each unowned partition, topics in
// topicLess order and partitions ascending, to the next least loaded
// subscriber.
func (b *heteroBuilder) assignRemainingPartitions() {
	var withUnassigned []metadata.Uuid
	unassigned := map[metadata.Uuid][]int32{}
	for _, id := range b.subscribed.ordered() {
		for p, owner := range b.owners[id] {
			if owner == -1 {
				unassigned[id] = append(unassigned[id], int32(p))
			}
		}
		if len(unassigned[id]) > 0 {
			withUnassigned = append(withUnassigned, id)
		}
	}
	bal := &memberBalancer{b: b}
	for _, id := range b.sortTopics(withUnassigned) {
		bal.initialize(b.subscribers[id])
		for _, p := range unassigned[id] {
			b.assignPartition(id, p, bal.nextLeastLoadedMember())
		}
	}
}

// balance runs balanceTopics over the topics with two or more subscribers.
func (b *heteroBuilder) balance() {
	var shared []metadata.Uuid
	for _, id := range b.subscribed.ordered() {
		if len(b.subscribers[id]) >= 2 {
			shared = append(shared, id)
		}
	}
	if len(shared) == 0 {
		return
	}
	sorted := b.sortTopics(shared)
	last := -1 // the last topic index that moved a partition
	bal := &memberBalancer{b: b}
	for round := 0; round < uniformMaxIterationCount; round++ {
		for i, id := range sorted {
			if i == last {
				// A whole cycle moved nothing.
				return
			}
			if b.balanceTopic(id, bal) > 0 || last == -1 {
				last = i
			}
		}
	}
}

// balanceTopic moves partitions of one topic from its most to its least
// loaded subscribers; it returns how many moved. A most loaded member
// gives up its highest-numbered partition of the topic.
func (b *heteroBuilder) balanceTopic(topic metadata.Uuid, bal *memberBalancer) int {
	moved := 0
	if bal.initialize(b.subscribers[topic]) <= 1 {
		return moved
	}
	owners := b.owners[topic]
	partitions := make([]int32, len(owners))
	for p := range partitions {
		partitions[p] = int32(p)
	}
	sort.SliceStable(partitions, func(i, j int) bool {
		oi, oj := owners[partitions[i]], owners[partitions[j]]
		if oi != oj {
			return oi < oj
		}
		return partitions[i] < partitions[j]
	})
	start, end := map[int]int{}, map[int]int{} // per owner: [start, end) in partitions
	for i, p := range partitions {
		o := owners[p]
		if _, ok := start[o]; !ok {
			start[o] = i
		}
		end[o] = i + 1
	}
	for !bal.isBalanced() {
		most := -1
		for {
			most = bal.nextMostLoadedMember()
			if most == -1 {
				break
			}
			if e, ok := end[most]; !ok || e-start[most] <= 0 {
				bal.excludeMostLoadedMember()
				continue
			}
			break
		}
		if most == -1 {
			break
		}
		p := partitions[end[most]-1]
		end[most]--
		least := bal.nextLeastLoadedMember()
		if bal.isBalanced() {
			break
		}
		b.assignPartition(topic, p, least)
		moved++
	}
	return moved
}

// assignPartition moves t-p to member m's target.
func (b *heteroBuilder) assignPartition(topic metadata.Uuid, p int32, m int) {
	owners := b.owners[topic]
	if old := owners[p]; old != -1 {
		b.mutable(old).removePartition(topic, p)
		owners[p] = -1
		b.sizes[old]--
	}
	numPartitions := int(b.topics.NumPartitions(topic))
	numSubscribers := len(b.subscribers[topic])
	b.mutable(m).addPartition(topic, p, func() *javaHashSet[int32] {
		// new HashSet<>((int) ((estimatedPartitionsPerSubscriber / 0.75f) + 1))
		estimate := (numPartitions + numSubscribers - 1) / numSubscribers
		return newJavaHashSetSized(integerHashCode, int(float32(estimate)/float32(0.75)+1))
	})
	owners[p] = m
	b.sizes[m]++
}

// memberBalancer is the builder's MemberAssignmentBalancer: the
// subscribers of one topic sorted by memberLess, with a least loaded range
// growing rightwards from the start and a most loaded range growing
// leftwards from the end. Handing a partition to the least loaded range
// goes round its members before raising its level; taking one from the
// most loaded range likewise. The topic is balanced when the two levels
// differ by at most one.
type memberBalancer struct {
	b                   *heteroBuilder
	sorted              []int
	leastEnd            int // exclusive
	leastCount          int
	nextLeast           int
	mostStart, mostEnd  int // [mostStart, mostEnd)
	mostCount, nextMost int
}

// initialize sorts the subscribers and returns the spread between the
// most and the least loaded.
func (bal *memberBalancer) initialize(members []int) int {
	if len(members) == 0 {
		panic("group: cannot balance an empty subscriber list")
	}
	bal.sorted = append(bal.sorted[:0], members...)
	sort.SliceStable(bal.sorted, func(i, j int) bool { return bal.b.memberLess(bal.sorted[i], bal.sorted[j]) })
	sizes := bal.b.sizes
	n := len(bal.sorted)
	bal.leastEnd = 0
	bal.leastCount = sizes[bal.sorted[0]] - 1
	bal.nextLeast = 0
	bal.mostStart, bal.mostEnd = n, n
	bal.mostCount = sizes[bal.sorted[n-1]] + 1
	bal.nextMost = n - 1
	return sizes[bal.sorted[n-1]] - sizes[bal.sorted[0]]
}

func (bal *memberBalancer) nextLeastLoadedMember() int {
	sizes := bal.b.sizes
	if bal.nextLeast >= bal.leastEnd {
		bal.leastCount++
		for bal.leastEnd < len(bal.sorted) && sizes[bal.sorted[bal.leastEnd]] == bal.leastCount {
			bal.leastEnd++
		}
		bal.nextLeast = 0
	}
	m := bal.sorted[bal.nextLeast]
	bal.nextLeast++
	return m
}

// nextMostLoadedMember returns -1 when no member is left to give up a
// partition.
func (bal *memberBalancer) nextMostLoadedMember() int {
	sizes := bal.b.sizes
	if bal.nextMost < bal.mostStart {
		if bal.mostEnd <= bal.mostStart && bal.mostStart > 0 {
			// Exclusions emptied the range: restart the level from the
			// member just left of it, so that the range does grow.
			bal.mostCount = sizes[bal.sorted[bal.mostStart-1]]
		} else {
			bal.mostCount--
		}
		for bal.mostStart > 0 && sizes[bal.sorted[bal.mostStart-1]] == bal.mostCount {
			bal.mostStart--
		}
		bal.nextMost = bal.mostEnd - 1
	}
	if bal.nextMost < 0 {
		return -1
	}
	m := bal.sorted[bal.nextMost]
	bal.nextMost--
	return m
}

// excludeMostLoadedMember swaps the member nextMostLoadedMember returned
// last to the end of the most loaded range and shrinks the range.
func (bal *memberBalancer) excludeMostLoadedMember() {
	i := bal.nextMost + 1
	bal.sorted[i], bal.sorted[bal.mostEnd-1] = bal.sorted[bal.mostEnd-1], bal.sorted[i]
	bal.mostEnd--
}

func (bal *memberBalancer) isBalanced() bool { return bal.mostCount-bal.leastCount <= 1 }
