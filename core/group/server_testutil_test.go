package group

import (
	"fmt"
	"slices"
	"testing"

	"kafkascope/core/metadata"
)

// Helpers shared by the server-assignor tests, in the shape of Kafka's
// AssignmentTestUtil (mkTopicAssignment, mkAssignment, mkOrderedAssignment).

// The topic ids of Kafka's UniformHomogeneousAssignmentBuilderTest,
// UniformHeterogeneousAssignmentBuilderTest and RangeAssignorTest.
var (
	topic1Uuid = mustUuid("T1-A4s3VTwiI5CTbEp6POw")
	topic2Uuid = mustUuid("T2-B4s3VTwiI5YHbPp6YUe")
	topic3Uuid = mustUuid("T3-CU8fVTLCz5YMkLoDQsa")
	topic4Uuid = mustUuid("T4-Tw9fVTLCz5HbPp6YQsa")
)

func mustUuid(s string) metadata.Uuid {
	u, err := metadata.ParseUuid(s)
	if err != nil {
		panic(err)
	}
	return u
}

func ids(us ...metadata.Uuid) []metadata.Uuid { return us }

// mkTopicAssignment: one topic's partitions.
func mkTopicAssignment(id metadata.Uuid, partitions ...int32) TopicPartitions {
	return TopicPartitions{TopicID: id, Partitions: partitions}
}

// mkOrderedAssignment is a LinkedHashMap: the order given.
func mkOrderedAssignment(tps ...TopicPartitions) MemberAssignment { return MemberAssignment(tps) }

// mkAssignment is a HashMap of HashSets filled in the order given.
func mkAssignment(tps ...TopicPartitions) MemberAssignment { return AssignmentFromRecord(tps) }

func describeAssignment(a MemberAssignment) string {
	s := "{"
	for i, tp := range a {
		if i > 0 {
			s += " "
		}
		name := tp.TopicID.String()[:2]
		s += fmt.Sprintf("%s:%v", name, tp.Partitions)
	}
	return s + "}"
}

// assertAssignment is AssignmentTestUtil.assertAssignment: the same
// members, each with the same partitions (as sets).
func assertAssignment(t *testing.T, want map[string]MemberAssignment, got GroupAssignment) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("assignment has %d members, want %d", len(got), len(want))
	}
	var members []string
	for m := range want {
		members = append(members, m)
	}
	slices.Sort(members)
	for _, m := range members {
		g, ok := got[m]
		if !ok {
			t.Errorf("member %s missing", m)
			continue
		}
		if !g.Equal(want[m]) {
			t.Errorf("member %s: got %s, want %s", m, describeAssignment(g), describeAssignment(want[m]))
		}
	}
}

// checkValidityAndBalance is the tests' helper of that name: no partition
// twice, every partition of a topic the member subscribes to, sizes within
// one of each other.
func checkValidityAndBalance(t *testing.T, spec GroupSpec, got GroupAssignment) {
	t.Helper()
	seen := map[TopicIDPartition]string{}
	minSize, maxSize := -1, -1
	for _, m := range spec.Members {
		a := got[m.MemberID]
		for _, tp := range a {
			if !subscribesTo(m, tp.TopicID) {
				t.Errorf("member %s got topic %s it does not subscribe to", m.MemberID, tp.TopicID)
			}
			for _, p := range tp.Partitions {
				k := TopicIDPartition{tp.TopicID, p}
				if other, dup := seen[k]; dup {
					t.Errorf("%v assigned to %s and %s", k, other, m.MemberID)
				}
				seen[k] = m.MemberID
			}
		}
		n := a.Size()
		if minSize < 0 || n < minSize {
			minSize = n
		}
		maxSize = max(maxSize, n)
	}
	if maxSize-minSize > 1 {
		t.Errorf("sizes range from %d to %d", minSize, maxSize)
	}
}

func member(id string, topics []metadata.Uuid, a MemberAssignment) MemberSpec {
	return MemberSpec{MemberID: id, SubscribedTopicIDs: topics, Assignment: a}
}

// groupSpec builds a GroupSpec whose inverted target is its members'
// targets (AssignmentTestUtil.invertedTargetAssignment).
func groupSpec(st SubscriptionType, members ...MemberSpec) GroupSpec {
	targets := map[string]MemberAssignment{}
	for _, m := range members {
		targets[m.MemberID] = m.Assignment
	}
	return GroupSpec{Members: members, SubscriptionType: st, InvertedTargetAssignment: InvertTargets(targets)}
}

func image(topics ...TopicMetadata) TopicImage { return NewTopicImage(topics...) }

func topic(id metadata.Uuid, name string, n int32) TopicMetadata {
	return TopicMetadata{ID: id, Name: name, NumPartitions: n}
}
