package group

import (
	"sort"

	"kafkascope/core/metadata"
)

// RangeServerAssignorName is the server-side RangeAssignor.NAME.
const RangeServerAssignorName = "range"

// ServerRangeAssignor is Kafka's server-side RangeAssignor (Kafka 4.3,
// assignor/RangeAssignor.java; identical in 4.1), which a member asks for
// with group.remote.assignor=range. It is not sticky: for each topic the
// sorted subscribers take consecutive ranges, the first P%N of them one
// partition more, so equal partition counts give co-partitioned topics.
// Members sort as the classic assignors' do (compareMembers): static
// members by instance id first, then dynamic ones by member id.
type ServerRangeAssignor struct{}

// Name is "range".
func (ServerRangeAssignor) Name() string { return RangeServerAssignorName }

// rangeTopic is RangeAssignor.TopicMetadata: one topic's share-out state.
type rangeTopic struct {
	id            metadata.Uuid
	numPartitions int32
	numMembers    int32
	minQuota      int32 // -1 until computed
	extra         int32
	nextRange     int32
}

func (t *rangeTopic) maybeComputeQuota() {
	if t.minQuota != -1 {
		return
	}
	t.minQuota = t.numPartitions / t.numMembers
	t.extra = t.numPartitions % t.numMembers
}

// take is addPartitionsToAssignment: the member's range of the topic, or
// none when the topic has run out.
func (t *rangeTopic) take(a *javaAssignment) {
	start := t.nextRange
	quota := t.minQuota
	if t.extra > 0 {
		quota++
		t.extra--
	}
	end := min(start+quota, t.numPartitions)
	t.nextRange = end
	if start < end {
		// A RangeSet: it iterates ascending whatever its table would do.
		a.topics.add(t.id)
		set := newJavaHashSet(integerHashCode)
		for p := start; p < end; p++ {
			set.add(p)
		}
		a.partitions[t.id] = set
	}
}

// sortedRangeMembers is RangeAssignor.sortMemberIds.
func sortedRangeMembers(spec GroupSpec) []MemberSpec {
	out := append([]MemberSpec(nil), spec.Members...)
	sort.SliceStable(out, func(i, j int) bool {
		return compareMembers(Member{ID: out[i].MemberID, InstanceID: out[i].InstanceID},
			Member{ID: out[j].MemberID, InstanceID: out[j].InstanceID}) < 0
	})
	return out
}

func nonExistentTopicError() error {
	return &PartitionAssignorError{"Member is subscribed to a non-existent topic"}
}

// Assign is RangeAssignor.assign.
func (ServerRangeAssignor) Assign(spec GroupSpec, topics TopicImage) (GroupAssignment, error) {
	if len(spec.Members) == 0 {
		return GroupAssignment{}, nil
	}
	members := sortedRangeMembers(spec)
	out := GroupAssignment{}
	if spec.SubscriptionType == Homogeneous {
		// Every member subscribes to the first sorted member's topics.
		var ts []*rangeTopic
		for _, id := range members[0].SubscribedTopicIDs {
			n := topics.NumPartitions(id)
			if n == -1 {
				return nil, nonExistentTopicError()
			}
			ts = append(ts, &rangeTopic{id: id, numPartitions: n, numMembers: int32(len(members)), minQuota: -1})
		}
		for _, m := range members {
			a := &javaAssignment{
				// new HashMap<>((int) ((topics.size() / 0.75f) + 1))
				topics:     newJavaHashSetSized(UuidHashCode, int(float32(len(ts))/float32(0.75)+1)),
				partitions: map[metadata.Uuid]*javaHashSet[int32]{},
			}
			for _, t := range ts {
				t.maybeComputeQuota()
				t.take(a)
			}
			out[m.MemberID] = rangeList(a)
		}
		return out, nil
	}

	// Heterogeneous: each topic is shared among its own subscribers.
	ts := map[metadata.Uuid]*rangeTopic{} // looked up only
	for _, m := range members {
		for _, id := range m.SubscribedTopicIDs {
			t := ts[id]
			if t == nil {
				n := topics.NumPartitions(id)
				if n == -1 {
					return nil, nonExistentTopicError()
				}
				t = &rangeTopic{id: id, numPartitions: n, minQuota: -1}
				ts[id] = t
			}
			t.numMembers++
		}
	}
	for _, m := range members {
		a := &javaAssignment{
			topics:     newJavaHashSetSized(UuidHashCode, int(float32(len(m.SubscribedTopicIDs))/float32(0.75)+1)),
			partitions: map[metadata.Uuid]*javaHashSet[int32]{},
		}
		for _, id := range m.SubscribedTopicIDs {
			t := ts[id]
			t.maybeComputeQuota()
			t.take(a)
		}
		out[m.MemberID] = rangeList(a)
	}
	return out, nil
}

// rangeList is the member's map in iteration order, each RangeSet
// ascending.
func rangeList(a *javaAssignment) MemberAssignment {
	out := MemberAssignment{}
	for _, topic := range a.topics.ordered() {
		ps := a.partitions[topic].ordered()
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		out = append(out, TopicPartitions{TopicID: topic, Partitions: ps})
	}
	return out
}
