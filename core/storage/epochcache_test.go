package storage

import (
	"fmt"
	"testing"
)

// Vectors from Kafka's LeaderEpochFileCacheTest.
func TestEndOffsetForVectors(t *testing.T) {
	type as = [2]int64
	cases := []struct {
		assigns []as
		epoch   int32
		leo     int64
		want    [2]int64
	}{
		{[]as{{2, 10}}, 2, 11, [2]int64{2, 11}},
		{[]as{{2, 11}, {2, 12}}, 2, 14, [2]int64{2, 14}},
		{[]as{{2, 11}, {3, 12}}, -1, 0, [2]int64{-1, -1}},
		{nil, 0, 0, [2]int64{-1, -1}},
		{[]as{{5, 11}, {6, 12}, {7, 13}}, 4, 0, [2]int64{4, 11}},
		{[]as{{5, 11}, {6, 12}, {7, 13}, {7, 12}}, 5, 0, [2]int64{5, 12}},
		{[]as{{5, 11}, {6, 12}, {7, 13}, {7, 12}}, 6, 0, [2]int64{5, 12}},
		{[]as{{1, 11}, {1, 12}, {2, 13}, {2, 14}, {3, 15}, {3, 16}}, 2, 17, [2]int64{2, 15}},
		{[]as{{0, 10}, {2, 13}, {4, 17}}, 1, 0, [2]int64{0, 13}},
		{[]as{{0, 10}, {2, 13}, {4, 17}}, 2, 0, [2]int64{2, 17}},
		{[]as{{0, 10}, {2, 13}, {4, 17}}, 3, 0, [2]int64{2, 17}},
		{[]as{{2, 100}}, 3, 100, [2]int64{-1, -1}},
		{[]as{{2, 6}}, 2, 7, [2]int64{2, 7}},
	}
	for i, c := range cases {
		var cache LeaderEpochCache
		for _, a := range c.assigns {
			cache.Assign(int32(a[0]), a[1])
		}
		e, o := cache.EndOffsetFor(c.epoch, c.leo)
		if int64(e) != c.want[0] || o != c.want[1] {
			t.Errorf("row %d: endOffsetFor(%d, %d) = (%d, %d), want %v", i+1, c.epoch, c.leo, e, o, c.want)
		}
	}
}

func TestAssignContents(t *testing.T) {
	check := func(assigns [][2]int64, want string) {
		t.Helper()
		var c LeaderEpochCache
		for _, a := range assigns {
			c.Assign(int32(a[0]), a[1])
		}
		if got := fmt.Sprint(c.Entries()); got != want {
			t.Errorf("after %v: %s, want %s", assigns, got, want)
		}
	}
	check([][2]int64{{2, 9}, {2, 10}}, "[{2 9}]")
	check([][2]int64{{2, 9}, {3, 9}}, "[{3 9}]")
	check([][2]int64{{5, 11}, {6, 12}, {7, 13}, {7, 12}}, "[{5 11} {7 12}]")
}

func TestTruncationAndCheckpointFormat(t *testing.T) {
	var c LeaderEpochCache
	c.Assign(0, 40)
	c.Assign(1, 90)
	c.TruncateFromStart(100)
	if got := fmt.Sprint(c.Entries()); got != "[{1 100}]" {
		t.Fatalf("truncateFromStart: %s, want [{1 100}]", got)
	}
	c.Assign(2, 120)
	c.TruncateFromEnd(120)
	if got := string(c.Encode()); got != "0\n1\n1 100\n" {
		t.Fatalf("checkpoint %q", got)
	}
	back, err := DecodeLeaderEpochCheckpoint([]byte("0\n2\n0 0\n1   2\n"))
	if err != nil || fmt.Sprint(back.Entries()) != "[{0 0} {1 2}]" {
		t.Fatalf("decode = %v, %v", back, err)
	}
	if _, err := DecodeLeaderEpochCheckpoint([]byte("1\n0\n")); err == nil || err.Error() != "Unrecognised version:1" {
		t.Fatalf("bad version error = %v", err)
	}
}
