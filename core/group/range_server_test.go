package group

import (
	"errors"
	"testing"
)

// The cases of Kafka 4.3's (server-side) RangeAssignorTest with the
// expectations it states. Kafka draws its topic ids at random; these use
// fixed ones, which the range assignor's result does not depend on.

func assignRange(t *testing.T, st SubscriptionType, im TopicImage, members ...MemberSpec) GroupAssignment {
	t.Helper()
	got, err := ServerRangeAssignor{}.Assign(groupSpec(st, members...), im)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func staticMember(id, instance string, topics ...TopicPartitions) MemberSpec {
	var subscribed = ids(topic1Uuid)
	return MemberSpec{MemberID: id, InstanceID: instance, SubscribedTopicIDs: subscribed, Assignment: mkAssignment(topics...)}
}

func TestServerRangeOneMemberNoTopic(t *testing.T) {
	got := assignRange(t, Homogeneous, image(), member("A", nil, nil))
	assertAssignment(t, map[string]MemberAssignment{"A": {}}, got)
}

func TestServerRangeOneMemberSubscribedToNonExistentTopic(t *testing.T) {
	_, err := ServerRangeAssignor{}.Assign(groupSpec(Homogeneous, member("A", ids(topic2Uuid), nil)),
		image(topic(topic1Uuid, "topic1", 3)))
	var pae *PartitionAssignorError
	if !errors.As(err, &pae) || err.Error() != "Member is subscribed to a non-existent topic" {
		t.Errorf("err = %v", err)
	}
}

func TestServerRangeFirstAssignmentTwoMembersTwoTopicsSameSubscriptions(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic3Uuid, "topic3", 2)),
		member("A", ids(topic1Uuid, topic3Uuid), nil),
		member("B", ids(topic1Uuid, topic3Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic3Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic3Uuid, 1)),
	}, got)
}

func TestServerRangeFirstAssignmentThreeMembersThreeTopicsDifferentSubscriptions(t *testing.T) {
	got := assignRange(t, Heterogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3), topic(topic3Uuid, "topic3", 2)),
		member("A", ids(topic1Uuid, topic2Uuid), nil),
		member("B", ids(topic3Uuid), nil),
		member("C", ids(topic2Uuid, topic3Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic2Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic3Uuid, 0)),
		"C": mkAssignment(mkTopicAssignment(topic2Uuid, 2), mkTopicAssignment(topic3Uuid, 1)),
	}, got)
}

func TestServerRangeFirstAssignmentNumMembersGreaterThanNumPartitions(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic3Uuid, "topic3", 2)),
		member("A", ids(topic1Uuid, topic3Uuid), nil),
		member("B", ids(topic1Uuid, topic3Uuid), nil),
		member("C", ids(topic1Uuid, topic3Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic3Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic3Uuid, 1)),
		"C": mkAssignment(mkTopicAssignment(topic1Uuid, 2)),
	}, got)
}

// A static member that comes back under a new member id keeps its place
// (it sorts by instance id), so nobody's assignment changes.
func TestServerRangeStaticMembership(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 3))
	before := assignRange(t, Homogeneous, im, staticMember("A", "instanceA"), staticMember("B", "instanceB"))
	after := assignRange(t, Homogeneous, im, staticMember("B", "instanceB"), staticMember("memberA1", "instanceA"))
	if !before["A"].Equal(after["memberA1"]) || !before["B"].Equal(after["B"]) {
		t.Errorf("before %v, after %v", before, after)
	}
}

func TestServerRangeMixedStaticMembership(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 5))
	dynamicB := member("B", ids(topic1Uuid), nil)
	before := assignRange(t, Homogeneous, im, staticMember("A", "instanceA"), staticMember("C", "instanceC"), dynamicB)
	after := assignRange(t, Homogeneous, im, staticMember("C", "instanceC"), dynamicB, staticMember("memberA1", "instanceA"))
	if !before["A"].Equal(after["memberA1"]) || !before["B"].Equal(after["B"]) || !before["C"].Equal(after["C"]) {
		t.Errorf("before %v, after %v", before, after)
	}
	// Static members first by instance id, then the dynamic one: A {0,1},
	// C {2,3}, B {4}.
	assertAssignment(t, map[string]MemberAssignment{
		"A": {mkTopicAssignment(topic1Uuid, 0, 1)},
		"C": {mkTopicAssignment(topic1Uuid, 2, 3)},
		"B": {mkTopicAssignment(topic1Uuid, 4)},
	}, before)
}

func TestServerRangeReassignmentNumMembersGreaterThanNumPartitionsWhenOneMemberAdded(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 2), topic(topic2Uuid, "topic2", 2)),
		member("A", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1))),
		member("C", ids(topic1Uuid, topic2Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1)),
		"C": {},
	}, got)
}

func TestServerRangeReassignmentWhenOnePartitionAdded(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 4), topic(topic2Uuid, "topic2", 4)),
		member("A", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 2, 3), mkTopicAssignment(topic2Uuid, 2, 3)),
	}, got)
}

func TestServerRangeReassignmentWhenOneMemberAdded(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3)),
		member("A", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2))),
		member("C", ids(topic1Uuid, topic2Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1)),
		"C": mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2)),
	}, got)
}

func TestServerRangeReassignmentWhenOneMemberAddedAndOnePartition(t *testing.T) {
	got := assignRange(t, Heterogeneous, image(topic(topic1Uuid, "topic1", 4), topic(topic2Uuid, "topic2", 3)),
		member("A", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2))),
		member("C", ids(topic1Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2)),
		"C": mkAssignment(mkTopicAssignment(topic1Uuid, 3)),
	}, got)
}

func TestServerRangeReassignmentWhenOneMemberRemoved(t *testing.T) {
	got := assignRange(t, Homogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3)),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2))))
	assertAssignment(t, map[string]MemberAssignment{
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic2Uuid, 0, 1, 2)),
	}, got)
}

func TestServerRangeReassignmentWhenMultipleSubscriptionsRemoved(t *testing.T) {
	got := assignRange(t, Heterogeneous, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3), topic(topic3Uuid, "topic3", 2)),
		member("A", ids(topic1Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid, topic3Uuid), mkAssignment(mkTopicAssignment(topic2Uuid, 1))),
		member("C", ids(topic2Uuid), mkAssignment(mkTopicAssignment(topic2Uuid, 2), mkTopicAssignment(topic3Uuid, 0, 1))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 0, 1), mkTopicAssignment(topic3Uuid, 0, 1)),
		"C": mkAssignment(mkTopicAssignment(topic2Uuid, 2)),
	}, got)
}
