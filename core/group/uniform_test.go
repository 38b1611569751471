package group

import (
	"errors"
	"testing"

	"kafkascope/core/metadata"
)

// The cases of Kafka 4.3's UniformHomogeneousAssignmentBuilderTest with
// the expectations it states. Members are in a TreeMap there: A, B, C.

func TestUniformHomogeneousOneMemberNoTopicSubscription(t *testing.T) {
	spec := groupSpec(Homogeneous, member("A", nil, nil))
	got, err := UniformAssignor{}.Assign(spec, image(topic(topic1Uuid, "topic1", 3)))
	if err != nil || len(got) != 0 {
		t.Errorf("got %v, %v; want an empty assignment", got, err)
	}
}

func TestUniformHomogeneousOneMemberSubscribedToNonexistentTopic(t *testing.T) {
	spec := groupSpec(Homogeneous, member("A", ids(topic2Uuid), nil))
	_, err := UniformAssignor{}.Assign(spec, image(topic(topic1Uuid, "topic1", 3)))
	var pae *PartitionAssignorError
	if !errors.As(err, &pae) {
		t.Fatalf("err = %v, want a PartitionAssignorError", err)
	}
	if want := "Members are subscribed to topic " + topic2Uuid.String() + " which doesn't exist in the topic metadata."; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestUniformHomogeneousFirstAssignmentTwoMembersTwoTopics(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 3), topic(topic3Uuid, "topic3", 2))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic1Uuid, topic3Uuid), nil),
		member("B", ids(topic1Uuid, topic3Uuid), nil))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic3Uuid, 0, 1)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousFirstAssignmentNumMembersGreaterThanTotalNumPartitions(t *testing.T) {
	im := image(topic(topic3Uuid, "topic3", 2))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic3Uuid), nil),
		member("B", ids(topic3Uuid), nil),
		member("C", ids(topic3Uuid), nil))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": {},
		"B": mkAssignment(mkTopicAssignment(topic3Uuid, 0)),
		"C": mkAssignment(mkTopicAssignment(topic3Uuid, 1)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousValidityAndBalanceForLargeSampleSet(t *testing.T) {
	var topics []TopicMetadata
	var subscribed []metadata.Uuid
	for i := 1; i < 101; i++ {
		id := metadata.Uuid{0: byte(i), 7: byte(i * 7), 15: byte(i * 31)}
		topics = append(topics, topic(id, "topic-"+string(rune('0'+i%10)), 3))
		subscribed = append(subscribed, id)
	}
	var members []MemberSpec
	for i := 1; i < 50; i++ {
		members = append(members, member("member"+string(rune('A'+i%26))+string(rune('a'+i/26)), subscribed, nil))
	}
	spec := groupSpec(Homogeneous, members...)
	got, err := UniformAssignor{}.Assign(spec, image(topics...))
	if err != nil {
		t.Fatal(err)
	}
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousReassignmentGivenUnbalancedPrevAssignment(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0, 1))),
		member("B", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 2))))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1), mkTopicAssignment(topic2Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 2), mkTopicAssignment(topic2Uuid, 1, 2)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousReassignmentWhenPartitionsAreAdded(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 6), topic(topic2Uuid, "topic2", 5))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 0, 2), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1, 2))))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 2), mkTopicAssignment(topic2Uuid, 0, 3, 4)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1, 3, 4, 5), mkTopicAssignment(topic2Uuid, 1, 2)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousReassignmentWhenOneMemberAdded(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 0, 2), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid), mkOrderedAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1, 2))),
		member("C", ids(topic1Uuid, topic2Uuid), nil))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 2)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1)),
		"C": mkAssignment(mkTopicAssignment(topic2Uuid, 0, 2)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousReassignmentWhenOneMemberRemoved(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 3), topic(topic2Uuid, "topic2", 3))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic1Uuid, topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic1Uuid, topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1))))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0, 2)),
		"B": mkAssignment(mkTopicAssignment(topic1Uuid, 1, 2), mkTopicAssignment(topic2Uuid, 1)),
	}, got)
	checkValidityAndBalance(t, spec, got)
}

func TestUniformHomogeneousReassignmentWhenOneSubscriptionRemoved(t *testing.T) {
	im := image(topic(topic1Uuid, "topic1", 2), topic(topic2Uuid, "topic2", 2))
	spec := groupSpec(Homogeneous,
		member("A", ids(topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 0), mkTopicAssignment(topic2Uuid, 0))),
		member("B", ids(topic2Uuid), mkAssignment(
			mkTopicAssignment(topic1Uuid, 1), mkTopicAssignment(topic2Uuid, 1))))
	got, err := UniformAssignor{}.Assign(spec, im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"A": mkAssignment(mkTopicAssignment(topic2Uuid, 0)),
		"B": mkAssignment(mkTopicAssignment(topic2Uuid, 1)),
	}, got)
}

// The worked examples of the homogeneous builder, done by hand from
// UniformHomogeneousAssignmentBuilder: with nothing sticky, the members
// that may keep the extra partition are the last ones in member order.
func TestUniformHomogeneousWorkedExamples(t *testing.T) {
	tid := topic1Uuid
	im := image(topic(tid, "t", 3))
	// N=2, P=3, order [X, Y]: X gives the extra up (2-0 > 1), Y keeps it.
	got, err := UniformAssignor{}.Assign(groupSpec(Homogeneous,
		member("X", ids(tid), nil), member("Y", ids(tid), nil)), im)
	if err != nil {
		t.Fatal(err)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"X": {mkTopicAssignment(tid, 0)},
		"Y": {mkTopicAssignment(tid, 1, 2)},
	}, got)
	// The same members in the other order: Y {0}, X {1, 2}.
	got, _ = UniformAssignor{}.Assign(groupSpec(Homogeneous,
		member("Y", ids(tid), nil), member("X", ids(tid), nil)), im)
	assertAssignment(t, map[string]MemberAssignment{
		"Y": {mkTopicAssignment(tid, 0)},
		"X": {mkTopicAssignment(tid, 1, 2)},
	}, got)

	// N=3, P=7, order [A, B, C]: min 2, one extra, which only C keeps.
	im7 := image(topic(tid, "t", 7))
	got, _ = UniformAssignor{}.Assign(groupSpec(Homogeneous,
		member("A", ids(tid), nil), member("B", ids(tid), nil), member("C", ids(tid), nil)), im7)
	assertAssignment(t, map[string]MemberAssignment{
		"A": {mkTopicAssignment(tid, 0, 1)},
		"B": {mkTopicAssignment(tid, 2, 3)},
		"C": {mkTopicAssignment(tid, 4, 5, 6)},
	}, got)

	// C1 holds {0,1,2} and C2 joins: in either order C1 keeps {0,1}
	// (its first two in set order) and C2 gets 2.
	for _, order := range [][]string{{"C1", "C2"}, {"C2", "C1"}} {
		var ms []MemberSpec
		for _, id := range order {
			var a MemberAssignment
			if id == "C1" {
				a = mkAssignment(mkTopicAssignment(tid, 0, 1, 2))
			}
			ms = append(ms, member(id, ids(tid), a))
		}
		got, _ = UniformAssignor{}.Assign(groupSpec(Homogeneous, ms...), im)
		assertAssignment(t, map[string]MemberAssignment{
			"C1": {mkTopicAssignment(tid, 0, 1)},
			"C2": {mkTopicAssignment(tid, 2)},
		}, got)
	}
}

// A member over quota keeps its first partitions in its set's iteration
// order: in a HashSet<Integer> of 16 buckets 17 comes before 3 (bucket 1
// before bucket 3), so {3, 17} trimmed to one keeps 17.
func TestUniformHomogeneousTrimsInSetOrder(t *testing.T) {
	tid := topic1Uuid
	im := image(topic(tid, "t", 18))
	held := mkAssignment(mkTopicAssignment(tid, 3, 17))
	if got := held[0].Partitions; len(got) != 2 || got[0] != 17 {
		t.Fatalf("HashSet order of {3, 17} = %v, want [17 3]", got)
	}
	var ms []MemberSpec
	ms = append(ms, member("A", ids(tid), held))
	var others []int32
	for p := int32(0); p < 18; p++ {
		if p != 3 && p != 17 {
			others = append(others, p)
		}
	}
	// B holds the other 16; 18 partitions over two members: quotas 9, 9.
	ms = append(ms, member("B", ids(tid), mkAssignment(mkTopicAssignment(tid, others...))))
	got, err := UniformAssignor{}.Assign(groupSpec(Homogeneous, ms...), im)
	if err != nil {
		t.Fatal(err)
	}
	// A keeps both (2 <= 9) and fills up from what B (16 > 9) gave back:
	// B keeps its first 9 in set order, 0,1,2,4,...,9, and gives up
	// 10..16, the 7 A lacks.
	if !got["A"].Contains(tid, 17) || !got["A"].Contains(tid, 3) || got["A"].Size() != 9 || got["B"].Size() != 9 {
		t.Errorf("got A %s B %s", describeAssignment(got["A"]), describeAssignment(got["B"]))
	}
	if !got["B"].Contains(tid, 9) || got["B"].Contains(tid, 10) {
		t.Errorf("B should keep 0..9 without 3: %s", describeAssignment(got["B"]))
	}
}
