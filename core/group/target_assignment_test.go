package group

import (
	"reflect"
	"slices"
	"testing"
)

// recordingAssignor is the tests' mocked assignor (Kafka's
// TargetAssignmentBuilderTest mocks PartitionAssignor the same way): it
// returns prepared targets and keeps the spec it was given.
type recordingAssignor struct {
	prepared GroupAssignment
	spec     GroupSpec
}

func (*recordingAssignor) Name() string { return "mock" }

func (r *recordingAssignor) Assign(spec GroupSpec, _ TopicImage) (GroupAssignment, error) {
	r.spec = spec
	return r.prepared, nil
}

var (
	fooTopicID = topic1Uuid
	barTopicID = topic2Uuid
	tabImage   = image(topic(fooTopicID, "foo", 6), topic(barTopicID, "bar", 6))
	fooBarZar  = []string{"foo", "bar", "zar"}
)

func fooBar(foo, bar []int32) MemberAssignment {
	return mkAssignment(mkTopicAssignment(fooTopicID, foo...), mkTopicAssignment(barTopicID, bar...))
}

func recordMembers(rs []TargetAssignmentRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.MemberID)
	}
	slices.Sort(out) // Kafka's assertUnorderedRecordsEquals
	return out
}

func TestTargetAssignmentBuilderAssignmentHasNotChanged(t *testing.T) {
	targets := map[string]MemberAssignment{
		"member-1": fooBar([]int32{1, 2, 3}, []int32{1, 2, 3}),
		"member-2": fooBar([]int32{4, 5, 6}, []int32{4, 5, 6}),
	}
	a := &recordingAssignor{prepared: GroupAssignment{"member-1": targets["member-1"], "member-2": targets["member-2"]}}
	res, err := BuildTargetAssignment(TargetAssignmentInput{
		GroupEpoch: 20, Assignor: a, Topics: tabImage, TargetAssignment: targets,
		Members: []TargetMember{{MemberID: "member-1", SubscribedTopicNames: fooBarZar}, {MemberID: "member-2", SubscribedTopicNames: fooBarZar}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 0 || res.AssignmentEpoch != 20 {
		t.Errorf("records %v epoch %d, want none and 20", res.Records, res.AssignmentEpoch)
	}
	// "zar" has no topic: the member's TopicIds skip it.
	for _, m := range a.spec.Members {
		if len(m.SubscribedTopicIDs) != 2 {
			t.Errorf("%s subscribes to %v", m.MemberID, m.SubscribedTopicIDs)
		}
	}
}

func TestTargetAssignmentBuilderNewMember(t *testing.T) {
	targets := map[string]MemberAssignment{
		"member-1": fooBar([]int32{1, 2, 3}, []int32{1, 2, 3}),
		"member-2": fooBar([]int32{4, 5, 6}, []int32{4, 5, 6}),
	}
	want := GroupAssignment{
		"member-1": fooBar([]int32{1, 2}, []int32{1, 2}),
		"member-2": fooBar([]int32{3, 4}, []int32{3, 4}),
		"member-3": fooBar([]int32{5, 6}, []int32{5, 6}),
	}
	a := &recordingAssignor{prepared: want}
	res, err := BuildTargetAssignment(TargetAssignmentInput{
		GroupEpoch: 20, Assignor: a, Topics: tabImage, TargetAssignment: targets,
		Members: []TargetMember{{MemberID: "member-1", SubscribedTopicNames: fooBarZar}, {MemberID: "member-2", SubscribedTopicNames: fooBarZar}},
		Updates: []MemberUpdate{{MemberID: "member-3", Member: &TargetMember{MemberID: "member-3", SubscribedTopicNames: fooBarZar}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := recordMembers(res.Records); !slices.Equal(got, []string{"member-1", "member-2", "member-3"}) {
		t.Errorf("records for %v", got)
	}
	assertAssignment(t, want, res.TargetAssignment)
	// The new member's spec carries an empty current target.
	if m := a.spec.Members[2]; m.MemberID != "member-3" || len(m.Assignment) != 0 {
		t.Errorf("spec member 3: %+v", m)
	}
}

func TestTargetAssignmentBuilderDeleteMember(t *testing.T) {
	targets := map[string]MemberAssignment{
		"member-1": fooBar([]int32{1, 2}, []int32{1, 2}),
		"member-2": fooBar([]int32{3, 4}, []int32{3, 4}),
		"member-3": fooBar([]int32{5, 6}, []int32{5, 6}),
	}
	want := GroupAssignment{
		"member-1": fooBar([]int32{1, 2, 3}, []int32{1, 2, 3}),
		"member-2": fooBar([]int32{4, 5, 6}, []int32{4, 5, 6}),
	}
	a := &recordingAssignor{prepared: want}
	var members []TargetMember
	for _, id := range []string{"member-1", "member-2", "member-3"} {
		members = append(members, TargetMember{MemberID: id, SubscribedTopicNames: fooBarZar})
	}
	res, err := BuildTargetAssignment(TargetAssignmentInput{GroupEpoch: 20, Assignor: a, Topics: tabImage,
		TargetAssignment: targets, Members: members, Updates: []MemberUpdate{{MemberID: "member-3"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := recordMembers(res.Records); !slices.Equal(got, []string{"member-1", "member-2"}) {
		t.Errorf("records for %v", got)
	}
	if len(a.spec.Members) != 2 {
		t.Errorf("spec has %d members", len(a.spec.Members))
	}
}

func TestTargetAssignmentBuilderReplaceStaticMember(t *testing.T) {
	targets := map[string]MemberAssignment{
		"member-1": fooBar([]int32{1, 2}, []int32{1, 2}),
		"member-2": fooBar([]int32{3, 4}, []int32{3, 4}),
		"member-3": fooBar([]int32{5, 6}, []int32{5, 6}),
	}
	want := GroupAssignment{
		"member-1":   targets["member-1"],
		"member-2":   targets["member-2"],
		"member-3-a": fooBar([]int32{5, 6}, []int32{5, 6}),
	}
	a := &recordingAssignor{prepared: want}
	var members []TargetMember
	static := map[string]string{}
	for _, id := range []string{"member-1", "member-2", "member-3"} {
		members = append(members, TargetMember{MemberID: id, InstanceID: "instance-" + id, SubscribedTopicNames: fooBarZar})
		static["instance-"+id] = id
	}
	res, err := BuildTargetAssignment(TargetAssignmentInput{GroupEpoch: 20, Assignor: a, Topics: tabImage,
		TargetAssignment: targets, Members: members, StaticMembers: static,
		Updates: []MemberUpdate{
			{MemberID: "member-3"},
			{MemberID: "member-3-a", Member: &TargetMember{MemberID: "member-3-a", InstanceID: "instance-member-3", SubscribedTopicNames: fooBarZar}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 || res.Records[0].MemberID != "member-3-a" || !res.Records[0].Partitions.Equal(want["member-3-a"]) {
		t.Errorf("records %+v", res.Records)
	}
	// The replacement inherits the departed member's target.
	var ids []string
	for _, m := range a.spec.Members {
		ids = append(ids, m.MemberID)
		if m.MemberID == "member-3-a" && !m.Assignment.Equal(targets["member-3"]) {
			t.Errorf("member-3-a's current target %s", describeAssignment(m.Assignment))
		}
	}
	// String.hashCode buckets of 16: member-1 4, member-2 5, member-3-a 8.
	if !slices.Equal(ids, []string{"member-1", "member-2", "member-3-a"}) {
		t.Errorf("spec member order %v", ids)
	}
}

// The memberSpecs HashMap: buckets of 16 by String.hashCode (member-1 4,
// member-2 5, member-3 10, member-3-a 8, C1 14, C2 15, worked by hand).
func TestMemberSpecOrder(t *testing.T) {
	got := MemberSpecOrder([]string{"member-3", "member-2", "member-1"},
		[]MemberUpdate{{MemberID: "member-3-a", Member: &TargetMember{}}})
	if want := []string{"member-1", "member-2", "member-3-a", "member-3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	got = MemberSpecOrder([]string{"C2"}, []MemberUpdate{{MemberID: "C1", Member: &TargetMember{}}})
	if want := []string{"C1", "C2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// ConsumerGroup.computePreferredServerAssignor. "range" and "uniform"
// hash to buckets 9 and 1 of 16 but share bucket 1 of 2 and of 4, the
// sizes a copy of one or two counts gets; there the tie goes to the
// first in the group's own order.
func TestPreferredServerAssignor(t *testing.T) {
	cases := []struct {
		counts   []AssignorCount
		old, new string
		want     string
		ok       bool
	}{
		{nil, "", "", "", false},
		{nil, "", "range", "range", true},
		{[]AssignorCount{{"range", 1}, {"uniform", 1}}, "", "", "range", true},
		{[]AssignorCount{{"uniform", 1}, {"range", 1}}, "", "", "uniform", true},
		{[]AssignorCount{{"uniform", 2}}, "uniform", "range", "uniform", true},
		{[]AssignorCount{{"uniform", 1}, {"range", 2}}, "", "", "range", true},
		{[]AssignorCount{{"uniform", 1}}, "uniform", "", "", false},
	}
	for _, c := range cases {
		got, ok := PreferredServerAssignor(c.counts, c.old, c.new)
		if got != c.want || ok != c.ok {
			t.Errorf("PreferredServerAssignor(%v, %q, %q) = %q, %v; want %q, %v", c.counts, c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}

func TestComputeSubscriptionType(t *testing.T) {
	same := []TargetMember{{SubscribedTopicNames: []string{"a", "b"}}, {SubscribedTopicNames: []string{"b", "a"}}}
	if got := ComputeSubscriptionType(same); got != Homogeneous {
		t.Errorf("same names: %v", got)
	}
	diff := []TargetMember{{SubscribedTopicNames: []string{"a", "b"}}, {SubscribedTopicNames: []string{"a"}}}
	if got := ComputeSubscriptionType(diff); got != Heterogeneous {
		t.Errorf("different names: %v", got)
	}
	regex := []TargetMember{{SubscribedTopicRegex: "t.*"}, {SubscribedTopicRegex: "t.*"}}
	if got := ComputeSubscriptionType(regex); got != Homogeneous {
		t.Errorf("one regex: %v", got)
	}
	mixed := []TargetMember{{SubscribedTopicRegex: "t.*"}, {SubscribedTopicNames: []string{"t1"}}}
	if got := ComputeSubscriptionType(mixed); got != Heterogeneous {
		t.Errorf("regex and names: %v", got)
	}
}

// The two-consumer example end to end with the uniform assignor: C1 holds
// t {0,1,2}, C2 joins; member order [C1, C2]; C1 keeps {0,1}, C2 gets
// {2}; both targets change, so both get a record.
func TestTargetAssignmentUniformTwoConsumers(t *testing.T) {
	im := image(topic(topic1Uuid, "t", 3))
	res, err := BuildTargetAssignment(TargetAssignmentInput{
		GroupEpoch: 2, Assignor: UniformAssignor{}, Topics: im,
		Members:          []TargetMember{{MemberID: "C1", SubscribedTopicNames: []string{"t"}}},
		TargetAssignment: map[string]MemberAssignment{"C1": mkAssignment(mkTopicAssignment(topic1Uuid, 0, 1, 2))},
		SubscriptionType: Homogeneous,
		Updates:          []MemberUpdate{{MemberID: "C2", Member: &TargetMember{MemberID: "C2", SubscribedTopicNames: []string{"t"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.MemberOrder, []string{"C1", "C2"}) || len(res.Records) != 2 {
		t.Errorf("order %v records %v", res.MemberOrder, res.Records)
	}
	assertAssignment(t, map[string]MemberAssignment{
		"C1": {mkTopicAssignment(topic1Uuid, 0, 1)},
		"C2": {mkTopicAssignment(topic1Uuid, 2)},
	}, res.TargetAssignment)
}
