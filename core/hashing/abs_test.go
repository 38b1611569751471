package hashing

import (
	"math"
	"testing"
)

// The __consumer_offsets partition (of the default 50) of ids whose
// hashCodes core/jdk's tests pin; "polygenelubricants" hashes to
// Integer.MIN_VALUE, which Utils.abs maps to 0.
func TestCoordinatorPartition(t *testing.T) {
	for id, want := range map[string]int32{
		"": 0, "a": 47, "group": 47, "my-group": 12, "test-group": 12, "group1": 40,
		"console-consumer-1": 24, "my-app": 0, "polygenelubricants": 0,
	} {
		if got := CoordinatorPartition(id, 50); got != want {
			t.Errorf("CoordinatorPartition(%q, 50) = %d, want %d", id, got, want)
		}
	}
}

// Kafka's UtilsTest.testAbs plus the MinInt32 edge.
func TestAbs(t *testing.T) {
	cases := []struct{ in, want int32 }{
		{math.MinInt32, 0},
		{-10, 10},
		{10, 10},
		{0, 0},
		{-1, 1},
		{math.MaxInt32, math.MaxInt32},
		{math.MinInt32 + 1, math.MaxInt32},
	}
	for _, c := range cases {
		if got := Abs(c.in); got != c.want {
			t.Errorf("Abs(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}
