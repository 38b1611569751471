package group

import (
	"errors"
	"testing"
)

// The cases of Kafka 4.3's UniformHeterogeneousAssignmentBuilderTest with
// the expectations it states. Members are in a TreeMap there: A, B, C.

func assignHetero(t *testing.T, im TopicImage, members ...MemberSpec) GroupAssignment {
	t.Helper()
	spec := groupSpec(Heterogeneous, members...)
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestUniformHeterogeneousTwoMembersNoTopicSubscription(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 3)), member("A", nil, nil), member("B", nil, nil))
	if len(got) != 0 {
		t.Errorf("got %v, want an empty assignment", got)
	}
}

func TestUniformHeterogeneousTwoMembersSubscribedToNonexistentTopics(t *testing.T) {
	spec := groupSpec(Heterogeneous, member("A", ids(topic3Uuid), nil), member("B", ids(topic2Uuid), nil))
	_, err := UniformAssignor{}.Assign(spec, image(topic(topic1Uuid, "topic1", 3)))
	var pae *PartitionAssignorError
	if !errors.As(err, &pae) {
		t.Fatalf("err = %v, want a PartitionAssignorError", err)
	}
	// The first missing topic in member order is A's.
	if want := "Members are subscribed to topic " + topic3Uuid.String() + " which doesn't exist in the topic metadata."; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestUniformHeterogeneousFirstAssignmentTwoMembersTwoTopics(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 3), topic(topic3Uuid, "topic3", 6)),
		member("A", ids(topic1Uuid, topic3Uuid), nil),
		member("B", ids(topic3Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic3Uuid, 4)),
		"B": mkAssignment(mkTopicAssignment(topic3Uuid, 0, 1, 2, 3, 5)),
	}, got)
}

func TestUniformHeterogeneousFirstAssignmentNumMembersGreaterThanTotalNumPartitions(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 2), topic(topic3Uuid, "topic3", 1)),
		member("A", ids(topic3Uuid), nil),
		member("B", ids(topic3Uuid), nil),
		member("C", ids(topic1Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic3Uuid, 0)),
		"B": {},
		"C": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1)),
	}, got)
}

func TestUniformHeterogeneousReassignmentGivenUnbalancedPrevAssignment(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 6), topic(topic2Uuid, "topic2", 4), topic(topic3Uuid, "topic3", 4)),
		member("A", ids(topic1Uuid), mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 3), mkTopicAssignment(topic2Uuid, 0))),
		member("C", ids(topic1Uuid, topic2Uuid, topic3Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 4, 5), mkTopicAssignment(topic2Uuid, 1, 2, 3), mkTopicAssignment(topic3Uuid, 0, 1, 2, 3))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2, 5)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 3), mkTopicAssignment(topic2Uuid, 0, 1, 2, 3)),
		"C": mkAssignment(mkTopicAssignment(topic1Uuid, 4), mkTopicAssignment(topic3Uuid, 0, 1, 2, 3)),
	}, got)
}

func TestUniformHeterogeneousReassignmentWhenPartitionsAreAdded(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 6), topic(topic2Uuid, "topic2", 5),
		topic(topic3Uuid, "topic3", 3), topic(topic4Uuid, "topic4", 3)),
		member("A", ids(topic1Uuid, topic3Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0, 1, 2, 3), mkTopicAssignment(topic3Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid, topic3Uuid, topic4Uuid), mkAssignment(
			mkTopicAssignment(topic2Uuid, 0, 1, 2), mkTopicAssignment(topic4Uuid, 0, 1, 2))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2, 3, 4, 5), mkTopicAssignment(topic3Uuid, 0, 1, 2)),
		"B": mkAssignment(mkTopicAssignment(topic2Uuid, 0, 1, 2, 3, 4), mkTopicAssignment(topic4Uuid, 0, 1, 2)),
	}, got)
}

func TestUniformHeterogeneousReassignmentWhenOneMemberAddedAndPartitionsAdded(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 6), topic(topic2Uuid, "topic2", 7)),
		member("A", ids(topic1Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0, 2), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1, 2))),
		member("C", ids(topic1Uuid, topic2Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 2, 3, 4, 5)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1, 2, 6)),
		"C": mkAssignment(mkTopicAssignment(topic2Uuid, 0, 3, 4, 5)),
	}, got)
}

func TestUniformHeterogeneousReassignmentWhenOneMemberRemoved(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 8), topic(topic3Uuid, "topic3", 3)),
		member("A", ids(topic1Uuid, topic3Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic3Uuid, 0, 1))),
		member("B", ids(topic2Uuid), mkAssignment(mkTopicAssignment(topic2Uuid, 3, 4, 5, 6))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2), mkTopicAssignment(topic3Uuid, 0, 1, 2)),
		"B": mkAssignment(mkTopicAssignment(topic2Uuid, 0, 1, 2, 3, 4, 5, 6, 7)),
	}, got)
}

func TestUniformHeterogeneousReassignmentWhenOneSubscriptionRemoved(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 5)),
		member("A", ids(topic1Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0, 2), mkTopicAssignment(topic2Uuid, 1, 3))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 0, 2, 4))))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2)),
		"B": mkAssignment(mkTopicAssignment(topic2Uuid, 0, 1, 2, 3, 4)),
	}, got)
}

func TestUniformHeterogeneousReassignmentWhenTopicPartitionsRunOut(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 2), topic(topic2Uuid, "topic2", 2), topic(topic3Uuid, "topic3", 2)),
		member("A", ids(topic1Uuid, topic2Uuid, topic3Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1), mkTopicAssignment(topic3Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid, topic3Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic2Uuid, 0), mkTopicAssignment(topic3Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 1)),
	}, got)
}

func TestUniformHeterogeneousFirstAssignmentIncludingOneWithoutSubscriptions(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "topic1", 3)),
		member("A", ids(topic1Uuid), nil),
		member("B", nil, nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2)),
		"B": {},
	}, got)
}

// A worked example, by hand from the builder: A subscribes to t1 and t2,
// B to t1; t1 has 3 partitions, t2 2. t2 (2 per subscriber) sorts before
// t1 (1.5) and goes to A; then t1's subscribers sort [B (0), A (2)], so B
// takes all three; the spread is 1 and nothing moves.
func TestUniformHeterogeneousWorkedExample(t *testing.T) {
	got := assignHetero(t, image(topic(topic1Uuid, "t1", 3), topic(topic2Uuid, "t2", 2)),
		member("A", ids(topic1Uuid, topic2Uuid), nil),
		member("B", ids(topic1Uuid), nil))
	assertAssignment(t, map[string]MemberAssignment{
		"A": {mkTopicAssignment(topic2Uuid, 0, 1)},
		"B": {mkTopicAssignment(topic1Uuid, 0, 1, 2)},
	}, got)
}
