package group

import "kafkascope/core/metadata"

// UniformAssignorName is UniformAssignor.NAME, the first (default) entry of
// group.consumer.assignors.
const UniformAssignorName = "uniform"

// UniformAssignor is Kafka's server-side UniformAssignor (Kafka 4.3,
// assignor/UniformAssignor.java): balance first, stickiness second. A
// homogeneous group (every member subscribes to the same topics) goes to
// the homogeneous builder, any other to the heterogeneous one; the
// subscription type is the group's (GroupSpec.SubscriptionType), as
// ConsumerGroup computes it, not re-derived here.
type UniformAssignor struct{}

// Name is "uniform".
func (UniformAssignor) Name() string { return UniformAssignorName }

// Assign is UniformAssignor.assign.
func (UniformAssignor) Assign(spec GroupSpec, topics TopicImage) (GroupAssignment, error) {
	if len(spec.Members) == 0 {
		return GroupAssignment{}, nil
	}
	if spec.SubscriptionType == Homogeneous {
		return uniformHomogeneous(spec, topics)
	}
	return uniformHeterogeneous(spec, topics)
}

func missingTopicError(id metadata.Uuid) error {
	return &PartitionAssignorError{"Members are subscribed to topic " + id.String() + " which doesn't exist in the topic metadata."}
}

// uniformHomogeneous is UniformHomogeneousAssignmentBuilder.build (Kafka
// 4.3; identical in 4.1).
//
// Every member gets total/N partitions and total%N of them one more. A
// member keeps its current target up to its quota, its partitions taken in
// the target's iteration order; the rest, and every partition nobody's
// target holds, are dealt in list order to the members left below quota,
// in member order. A member that keeps no more than the minimum quota
// gives up its claim to an extra partition unless it is among the last
// members that must take one (N - index <= extras left), so when nothing
// is sticky the extras go to the last members in member order.
//
// Invariants: the topics are the first member's (the group is
// homogeneous); a member's unchanged target is returned as it came, in
// the same order; every partition of every subscribed topic ends up with
// exactly one member, or the build fails.
func uniformHomogeneous(spec GroupSpec, topics TopicImage) (GroupAssignment, error) {
	// subscribedTopicIds = new HashSet<>(first member's TopicIds).
	first := spec.Members[0].SubscribedTopicIDs
	subscribed := newJavaHashSetFor(UuidHashCode, len(first))
	for _, id := range first {
		subscribed.add(id)
	}
	if subscribed.len() == 0 {
		return GroupAssignment{}, nil
	}

	// The partitions no current target holds, topic by topic in the
	// set's order, partitions ascending.
	var unassigned []TopicIDPartition
	total := 0
	for _, id := range subscribed.ordered() {
		n := topics.NumPartitions(id)
		if n == -1 {
			return nil, missingTopicError(id)
		}
		for p := int32(0); p < n; p++ {
			if !spec.isPartitionAssigned(id, p) {
				unassigned = append(unassigned, TopicIDPartition{id, p})
			}
		}
		total += int(n)
	}

	members := len(spec.Members)
	minQuota := total / members
	extras := total % members

	// maybeRevokePartitions.
	type unfilled struct {
		index int
		quota int
	}
	var below []unfilled
	copies := make([]*javaAssignment, members) // nil: the target is kept as it is
	for i, m := range spec.Members {
		quota := minQuota
		hasExtra := false
		if extras > 0 {
			quota++
			hasExtra = true
		}
		for _, tp := range m.Assignment {
			if !subscribed.contains(tp.TopicID) {
				// No member subscribes to it: drop the whole topic.
				if copies[i] == nil {
					copies[i] = deepCopyAssignment(m.Assignment)
				}
				copies[i].removeTopic(tp.TopicID)
				continue
			}
			if len(tp.Partitions) <= quota {
				quota -= len(tp.Partitions)
				continue
			}
			for _, p := range tp.Partitions {
				if quota > 0 {
					quota--
					continue
				}
				if copies[i] == nil {
					copies[i] = deepCopyAssignment(m.Assignment)
				}
				copies[i].removePartition(tp.TopicID, p)
				unassigned = append(unassigned, TopicIDPartition{tp.TopicID, p})
			}
		}
		if quota > 0 && hasExtra && members-i > extras {
			quota--
			hasExtra = false
		}
		if quota > 0 {
			below = append(below, unfilled{i, quota})
		}
		if hasExtra {
			extras--
		}
	}

	// assignRemainingPartitions.
	next := 0
	for _, u := range below {
		a := copies[u.index]
		if a == nil {
			a = deepCopyAssignment(spec.Members[u.index].Assignment)
			copies[u.index] = a
		}
		for k := 0; k < u.quota && next < len(unassigned); k++ {
			tp := unassigned[next]
			next++
			a.addPartition(tp.TopicID, tp.Partition, func() *javaHashSet[int32] { return newJavaHashSet(integerHashCode) })
		}
	}
	if next < len(unassigned) {
		return nil, &PartitionAssignorError{"Partitions were left unassigned"}
	}

	out := GroupAssignment{}
	for i, m := range spec.Members {
		if copies[i] != nil {
			out[m.MemberID] = copies[i].list()
		} else {
			out[m.MemberID] = m.Assignment
		}
	}
	return out, nil
}
