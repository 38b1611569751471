package storage

import (
	"fmt"
	"strings"
	"testing"
)

func cacheOf(entries ...[2]int64) *LeaderEpochCache {
	c := &LeaderEpochCache{}
	for _, e := range entries {
		c.Assign(int32(e[0]), e[1])
	}
	return c
}

func TestEpochCacheEmpty(t *testing.T) {
	var c LeaderEpochCache
	if c.LatestEpoch() != -1 {
		t.Errorf("LatestEpoch of an empty cache = %d", c.LatestEpoch())
	}
	if _, ok := c.Latest(); ok {
		t.Error("Latest of an empty cache reports an entry")
	}
	if c.EpochForOffset(0) != -1 {
		t.Error("EpochForOffset on an empty cache")
	}
	if c.TruncateFromEnd(0) || c.TruncateFromStart(10) {
		t.Error("truncating an empty cache reported a change")
	}
	if string(c.Encode()) != "0\n0\n" {
		t.Errorf("empty checkpoint %q", c.Encode())
	}
}

func TestEpochCacheAssignReportsChange(t *testing.T) {
	var c LeaderEpochCache
	steps := []struct {
		epoch   int32
		start   int64
		changed bool
		after   string
	}{
		{0, 0, true, "[{0 0}]"},
		{0, 5, false, "[{0 0}]"}, // a later start for the latest epoch is ignored
		{0, 0, false, "[{0 0}]"},
		{2, 10, true, "[{0 0} {2 10}]"},
		{2, 8, true, "[{0 0} {2 8}]"}, // a smaller start for the latest epoch replaces it
		{1, 20, true, "[{0 0} {1 20}]"},
		{3, 20, true, "[{0 0} {3 20}]"}, // same start: the newer epoch supersedes
		{4, 15, true, "[{0 0} {4 15}]"}, // lower start pops the entry at 20
		{5, 0, true, "[{5 0}]"},
	}
	for i, s := range steps {
		if got := c.Assign(s.epoch, s.start); got != s.changed {
			t.Errorf("step %d: Assign(%d, %d) = %v, want %v", i, s.epoch, s.start, got, s.changed)
		}
		if got := fmt.Sprint(c.Entries()); got != s.after {
			t.Errorf("step %d: cache %s, want %s", i, got, s.after)
		}
	}
}

// The fresh-topic checkpoint from Kafka's leader-epoch-checkpoint format and its doc example.
func TestEpochCheckpointLiteralExamples(t *testing.T) {
	if got := string(cacheOf([2]int64{0, 0}).Encode()); got != "0\n1\n0 0\n" {
		t.Errorf("fresh topic checkpoint %q", got)
	}
	if got := string(cacheOf([2]int64{0, 1}, [2]int64{1, 2}).Encode()); got != "0\n2\n0 1\n1 2\n" {
		t.Errorf("doc example %q", got)
	}
	c, err := DecodeLeaderEpochCheckpoint([]byte("0\n2\n0 1\n1 2\n"))
	if err != nil || fmt.Sprint(c.Entries()) != "[{0 1} {1 2}]" {
		t.Errorf("decode doc example = %v, %v", c, err)
	}
}

func TestEpochCheckpointMalformed(t *testing.T) {
	for in, wantErr := range map[string]string{
		"":                     "missing header",
		"2\n0\n":               "Unrecognised version:2",
		"0\n1\n":               "expected 1 entries, found 0",
		"0\n1\n0 0 0\n":        "malformed checkpoint line",
		"0\n1\n0\n":            "malformed checkpoint line",
		"0\n1\nx 0\n":          "malformed leader epoch entry",
		"0\n1\n0 y\n":          "malformed leader epoch entry",
		"0\n1\n2147483648 0\n": "malformed leader epoch entry",
	} {
		_, err := DecodeLeaderEpochCheckpoint([]byte(in))
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Decode(%q): %v, want %q", in, err, wantErr)
		}
	}
	// A round trip keeps every entry.
	c := cacheOf([2]int64{0, 0}, [2]int64{3, 17}, [2]int64{2147483647, 9223372036854775806})
	back, err := DecodeLeaderEpochCheckpoint(c.Encode())
	if err != nil || fmt.Sprint(back.Entries()) != fmt.Sprint(c.Entries()) {
		t.Errorf("round trip %v -> %v, %v", c.Entries(), back, err)
	}
}

func TestEpochForOffset(t *testing.T) {
	c := cacheOf([2]int64{1, 5}, [2]int64{3, 10}, [2]int64{4, 12})
	for off, want := range map[int64]int32{0: -1, 4: -1, 5: 1, 9: 1, 10: 3, 11: 3, 12: 4, 1000: 4} {
		if got := c.EpochForOffset(off); got != want {
			t.Errorf("EpochForOffset(%d) = %d, want %d", off, got, want)
		}
	}
}

func TestEpochCacheTruncateFromEnd(t *testing.T) {
	c := cacheOf([2]int64{0, 0}, [2]int64{1, 10}, [2]int64{2, 20})
	if c.TruncateFromEnd(21) || fmt.Sprint(c.Entries()) != "[{0 0} {1 10} {2 20}]" {
		t.Fatalf("TruncateFromEnd past every start changed the cache: %v", c.Entries())
	}
	// An entry starting exactly at the new end goes: no record of it remains.
	if !c.TruncateFromEnd(20) || fmt.Sprint(c.Entries()) != "[{0 0} {1 10}]" {
		t.Fatalf("TruncateFromEnd(20): %v", c.Entries())
	}
	if !c.TruncateFromEnd(5) || fmt.Sprint(c.Entries()) != "[{0 0}]" {
		t.Fatalf("TruncateFromEnd(5): %v", c.Entries())
	}
	if !c.TruncateFromEnd(0) || len(c.Entries()) != 0 {
		t.Fatalf("TruncateFromEnd(0): %v", c.Entries())
	}
}

func TestEpochCacheTruncateFromStart(t *testing.T) {
	c := cacheOf([2]int64{1, 10}, [2]int64{2, 20})
	if c.TruncateFromStart(5) || fmt.Sprint(c.Entries()) != "[{1 10} {2 20}]" {
		t.Fatalf("start below the first entry changed the cache: %v", c.Entries())
	}
	if c.TruncateFromStart(10) {
		t.Fatal("start equal to the first entry's start reported a change")
	}
	if !c.TruncateFromStart(15) || fmt.Sprint(c.Entries()) != "[{1 15} {2 20}]" {
		t.Fatalf("TruncateFromStart(15): %v", c.Entries())
	}
	if !c.TruncateFromStart(20) || fmt.Sprint(c.Entries()) != "[{2 20}]" {
		t.Fatalf("TruncateFromStart(20): %v", c.Entries())
	}
	if !c.TruncateFromStart(100) || fmt.Sprint(c.Entries()) != "[{2 100}]" {
		t.Fatalf("TruncateFromStart past the last entry keeps it, raised: %v", c.Entries())
	}
}

func TestEpochCacheEntriesIsACopyAndClear(t *testing.T) {
	c := cacheOf([2]int64{1, 10})
	e := c.Entries()
	e[0].Epoch = 99
	if c.LatestEpoch() != 1 {
		t.Fatal("Entries aliases the cache")
	}
	c.Clear()
	if len(c.Entries()) != 0 || c.LatestEpoch() != -1 {
		t.Fatal("Clear left entries")
	}
}

// More endOffsetFor cases beyond Kafka's vectors: the requested epoch is
// between known ones, below all of them, or above the latest.
func TestEndOffsetForBetweenEpochs(t *testing.T) {
	c := cacheOf([2]int64{1, 0}, [2]int64{4, 10}, [2]int64{7, 30})
	cases := []struct {
		epoch   int32
		leo     int64
		e       int32
		endOffs int64
	}{
		{0, 50, 0, 0},   // below every entry: the first entry's start
		{1, 50, 1, 10},  // exactly an entry
		{3, 50, 1, 10},  // between 1 and 4: floor epoch 1, end = start of 4
		{6, 50, 4, 30},  // between 4 and 7
		{7, 50, 7, 50},  // the latest: the LEO
		{8, 50, -1, -1}, // above the latest
	}
	for _, c2 := range cases {
		e, o := c.EndOffsetFor(c2.epoch, c2.leo)
		if e != c2.e || o != c2.endOffs {
			t.Errorf("EndOffsetFor(%d, %d) = (%d, %d), want (%d, %d)", c2.epoch, c2.leo, e, o, c2.e, c2.endOffs)
		}
	}
}
