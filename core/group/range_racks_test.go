package group

import (
	"fmt"
	"strings"
	"testing"
)

func racked(id, rack string, topics ...string) Member {
	return Member{ID: id, RackID: rack, Topics: topics}
}

// Each case worked out by hand from RangeAssignor's rules (Kafka 3.8,
// KIP-881).
func TestRangeWithRacks(t *testing.T) {
	for _, c := range []struct {
		name       string
		members    []Member
		partitions map[string]int32
		racks      PartitionRacks
		want       string
	}{{
		// rf 1, one partition per rack: each member takes the partition
		// in its own rack, where plain range would give c1 partition 0.
		name:       "one partition per rack",
		members:    []Member{racked("c1", "c", "t"), racked("c2", "b", "t"), racked("c3", "a", "t")},
		partitions: map[string]int32{"t": 3},
		racks:      PartitionRacks{"t": {{"a"}, {"b"}, {"c"}}},
		want:       "map[c1:[{t 2}] c2:[{t 1}] c3:[{t 0}]]",
	}, {
		// Every partition in every rack: matching cannot help, plain range.
		name:       "replicas in every rack",
		members:    []Member{racked("c1", "c", "t"), racked("c2", "a", "t")},
		partitions: map[string]int32{"t": 2},
		racks:      PartitionRacks{"t": {{"a", "b", "c"}, {"a", "b", "c"}}},
		want:       "map[c1:[{t 0}] c2:[{t 1}]]",
	}, {
		// No member's rack holds a replica: plain range.
		name:       "disjoint racks",
		members:    []Member{racked("c1", "x", "t"), racked("c2", "y", "t")},
		partitions: map[string]int32{"t": 2},
		racks:      PartitionRacks{"t": {{"b"}, {"a"}}},
		want:       "map[c1:[{t 0}] c2:[{t 1}]]",
	}, {
		// Co-partitioned topics (same members, same count): partition p of
		// both goes to one member whose rack has both.
		name:       "co-partitioned",
		members:    []Member{racked("c1", "b", "t1", "t2"), racked("c2", "a", "t1", "t2")},
		partitions: map[string]int32{"t1": 2, "t2": 2},
		racks:      PartitionRacks{"t1": {{"a"}, {"b"}}, "t2": {{"a"}, {"b"}}},
		want:       "map[c1:[{t1 1} {t2 1}] c2:[{t1 0} {t2 0}]]",
	}, {
		// Matching stops at the quota (2 each); the range pass gives c1
		// the partition left.
		name:       "quota",
		members:    []Member{racked("c1", "b", "t"), racked("c2", "a", "t")},
		partitions: map[string]int32{"t": 4},
		racks:      PartitionRacks{"t": {{"a"}, {"a"}, {"a"}, {"b"}}},
		want:       "map[c1:[{t 2} {t 3}] c2:[{t 0} {t 1}]]",
	}, {
		// A member without a rack matches every partition; lists are
		// sorted by topic and partition.
		name:       "member without rack",
		members:    []Member{racked("c1", "", "t"), racked("c2", "b", "t")},
		partitions: map[string]int32{"t": 4},
		racks:      PartitionRacks{"t": {{"a"}, {"b"}, {"a"}, {"b"}}},
		want:       "map[c1:[{t 0} {t 1}] c2:[{t 2} {t 3}]]",
	}, {
		// 5 over 2: each may take 3 while the one extra partition is
		// free; c1 finds 2 in its rack, so c2 takes 3 and the extra.
		name:       "extra partition",
		members:    []Member{racked("c1", "a", "t"), racked("c2", "b", "t")},
		partitions: map[string]int32{"t": 5},
		racks:      PartitionRacks{"t": {{"b"}, {"b"}, {"b"}, {"a"}, {"a"}}},
		want:       "map[c1:[{t 3} {t 4}] c2:[{t 0} {t 1} {t 2}]]",
	}} {
		got := fmt.Sprint(RangeWithRacks(c.members, c.partitions, c.racks))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// Without racks the rack-aware assignor is the plain one, order included.
func TestRangeWithoutRacksIsRange(t *testing.T) {
	ms := []Member{racked("c2", "a", "t", "u"), racked("c1", "", "t"), racked("c3", "b", "u")}
	ps := map[string]int32{"t": 5, "u": 3}
	if got, want := fmt.Sprint(RangeWithRacks(ms, ps, nil)), fmt.Sprint(Range(ms, ps)); got != want {
		t.Errorf("no partition racks: %s, want Range's %s", got, want)
	}
}

// The sticky assignors' rack matching (KIP-881), worked by hand. Same
// subscriptions (the constrained builder): each partition in turn goes to
// the next member below its quota in a rack of its replicas, so each
// member gets the partition in its rack where plain round-robin gives
// c1 partition 0. Different subscriptions (the general builder): t-0 is
// in rack a, so it skips the less loaded c2 (rack b) for c1; without
// racks c2 takes it.
func TestStickyWithRacks(t *testing.T) {
	for _, a := range []interface {
		AssignWithRacks(map[string]int32, []Member, PartitionRacks) Assignment
	}{NewStickyAssignor(), NewCooperativeStickyAssignor()} {
		ms := []Member{racked("c1", "a", "t"), racked("c2", "b", "t"), racked("c3", "c", "t")}
		got := fmt.Sprint(a.AssignWithRacks(map[string]int32{"t": 3}, ms, PartitionRacks{"t": {{"c"}, {"a"}, {"b"}}}))
		if want := "map[c1:[{t 1}] c2:[{t 2}] c3:[{t 0}]]"; got != want {
			t.Errorf("%T constrained: %s, want %s", a, got, want)
		}
		if got := fmt.Sprint(a.AssignWithRacks(map[string]int32{"t": 3}, ms, nil)); got != "map[c1:[{t 0}] c2:[{t 1}] c3:[{t 2}]]" {
			t.Errorf("%T constrained without racks: %s", a, got)
		}
		gm := []Member{racked("c1", "a", "t", "u"), racked("c2", "b", "t")}
		racks := PartitionRacks{"t": {{"a"}, {"b"}}, "u": {{"a"}}}
		if got, want := fmt.Sprint(a.AssignWithRacks(map[string]int32{"t": 2, "u": 1}, gm, racks)), "map[c1:[{u 0} {t 0}] c2:[{t 1}]]"; got != want {
			t.Errorf("%T general: %s, want %s", a, got, want)
		}
		if got, want := fmt.Sprint(a.AssignWithRacks(map[string]int32{"t": 2, "u": 1}, gm, nil)), "map[c1:[{u 0} {t 1}] c2:[{t 0}]]"; got != want {
			t.Errorf("%T general without racks: %s, want %s", a, got, want)
		}
	}
}

// A partition a member owned but has no replica in its rack is given up
// (maybe revoked) and goes to a member in its rack.
func TestStickyRacksMoveMismatchedOwnedPartitions(t *testing.T) {
	c1 := racked("c1", "a", "t")
	c1.UserData = EncodeStickyUserData([]TopicPartition{{"t", 0}}, 1)
	ms := []Member{c1, racked("c2", "b", "t"), racked("c3", "c", "t")}
	got := fmt.Sprint(NewStickyAssignor().AssignWithRacks(map[string]int32{"t": 3}, ms, PartitionRacks{"t": {{"c"}, {"a"}, {"b"}}}))
	if want := "map[c1:[{t 1}] c2:[{t 2}] c3:[{t 0}]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Without racks c1 keeps it.
	if got := fmt.Sprint(NewStickyAssignor().AssignWithRacks(map[string]int32{"t": 3}, ms, nil)); !strings.Contains(got, "c1:[{t 0}]") {
		t.Errorf("without racks: %s", got)
	}
}
