package group

import (
	"slices"
	"testing"

	"kafkascope/core/metadata"
)

// Uuid.hashCode: (int)(x >> 32) ^ (int)x with x = msb ^ lsb, worked by hand.
func TestUuidHashCode(t *testing.T) {
	cases := []struct {
		u    metadata.Uuid
		want int32
	}{
		{metadata.Uuid{15: 1}, 1},             // msb 0, lsb 1
		{metadata.Uuid{3: 1}, 1},              // msb 1<<32
		{metadata.Uuid{3: 1, 15: 1}, 0},       // 1 ^ 1
		{metadata.Uuid{0: 0x80}, -2147483648}, // msb 1<<63: high int 0x80000000
		{metadata.Uuid{4: 0xff, 5: 0xff, 6: 0xff, 7: 0xff, 12: 0xff, 13: 0xff, 14: 0xff, 15: 0xff}, 0},
	}
	for _, c := range cases {
		if got := UuidHashCode(c.u); got != c.want {
			t.Errorf("UuidHashCode(%x) = %d, want %d", c.u, got, c.want)
		}
	}
}

// A replayed target's partitions are a HashSet<Integer>: ascending while
// below the capacity, by bucket beyond it (16 buckets: 17 is in bucket 1,
// 20 in 4), ties in record order (17 was put before 1); 13 partitions
// make 32 buckets.
func TestAssignmentFromRecordOrder(t *testing.T) {
	tid := metadata.Uuid{15: 9}
	got := AssignmentFromRecord(MemberAssignment{{tid, []int32{20, 3, 17, 1}}})
	if want := []int32{17, 1, 3, 20}; !slices.Equal(got[0].Partitions, want) {
		t.Errorf("partitions %v, want %v", got[0].Partitions, want)
	}
	many := []int32{31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 17}
	got = AssignmentFromRecord(MemberAssignment{{tid, many}})
	if want := []int32{17, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}; !slices.Equal(got[0].Partitions, want) {
		t.Errorf("13 partitions %v, want %v", got[0].Partitions, want)
	}
	// Topics by Uuid.hashCode bucket: {15:1} hashes to 1, {15:2} to 2.
	a, b := metadata.Uuid{15: 2}, metadata.Uuid{15: 1}
	got = AssignmentFromRecord(MemberAssignment{{a, []int32{0}}, {b, []int32{0}}})
	if got[0].TopicID != b || got[1].TopicID != a {
		t.Errorf("topic order %v", got)
	}
}
