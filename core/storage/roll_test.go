package storage

import (
	"math"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// appendRoll appends a 1-record batch stamped ts and returns why it rolled
// ("" if it did not).
func appendRoll(t *testing.T, l *Log, ts int64) string {
	t.Helper()
	info := mustLeaderAppend(t, l, tsBatch(1, ts), 0)
	if (info.Rolled >= 0) != (info.RollReason != "") {
		t.Fatalf("rolled to %d with reason %q", info.Rolled, info.RollReason)
	}
	return info.RollReason
}

// segment.ms counts from the largest timestamp of the segment's first
// append to the new append's largest timestamp, and a segment rolls only
// when that is strictly more than segment.ms.
func TestRollOnSegmentMs(t *testing.T) {
	d, _ := newTestDisk()
	cfg := DefaultLogConfig
	cfg.SegmentMs = 1000
	l := mustCreate(t, d, cfg)
	for _, c := range []struct {
		ts   int64
		roll string
	}{
		{5000, ""}, {5600, ""}, {6000, ""}, // 1000 after the first: not more
		{6001, RollSegmentMs}, // the new segment's first append: 6001
		{4000, ""},            // older timestamps never roll
		{7001, ""},
		{7002, RollSegmentMs},
	} {
		if got := appendRoll(t, l, c.ts); got != c.roll {
			t.Fatalf("append at %d: roll %q, want %q", c.ts, got, c.roll)
		}
	}
	if n := len(l.Segments()); n != 3 {
		t.Fatalf("%d segments", n)
	}
	// Without timestamps the time since the segment was created counts.
	d2, clk := newTestDisk()
	l2 := mustCreate(t, d2, cfg)
	appendRoll(t, l2, -1)
	clk.at(time.Second)
	if got := appendRoll(t, l2, -1); got != "" {
		t.Fatalf("1000 ms after creation: %q", got)
	}
	clk.at(time.Second + time.Millisecond)
	if got := appendRoll(t, l2, -1); got != RollSegmentMs {
		t.Fatalf("1001 ms after creation: %q", got)
	}
}

// Each segment draws its jitter when it is opened, from the log's seeded
// stream, in [0, min(segment.jitter.ms, segment.ms)); it comes off
// segment.ms.
func TestRollJitterComesFromTheSeededStream(t *testing.T) {
	d, _ := newTestDisk()
	cfg := withSegmentBytes(int64(len(tsBatch(1, 0))))
	cfg.SegmentMs, cfg.SegmentJitterMs = 1000, 400
	l := mustCreate(t, d, cfg)
	l.SetRuntime(nil, sim.NewRand(7, "jitter"))
	appendRoll(t, l, 0) // fills segment 0
	if got := appendRoll(t, l, 0); got != RollSegmentBytes {
		t.Fatalf("second append: %q", got)
	}
	// Segment 1 was opened with the stream's first draw.
	want := sim.NewRand(7, "jitter").Int63n(math.MaxInt32) % 400
	if got := l.active().rollJitterMs; got != want {
		t.Fatalf("jitter %d, want %d from the stream", got, want)
	}
	big := cfg
	big.SegmentBytes = 1 << 30
	l.SetConfig(big) // the active segment keeps its jitter
	if got := appendRoll(t, l, 1000-want); got != "" {
		t.Fatalf("at segment.ms - jitter: %q", got)
	}
	if got := appendRoll(t, l, 1000-want+1); got != RollSegmentMs {
		t.Fatalf("past segment.ms - jitter: %q", got)
	}
	for range 50 {
		if j := l.randomSegmentJitter(); j < 0 || j >= 400 {
			t.Fatalf("jitter %d out of [0, 400)", j)
		}
	}
	big.SegmentJitterMs = 5000 // bounded by segment.ms
	l.SetConfig(big)
	for range 50 {
		if j := l.randomSegmentJitter(); j >= 1000 {
			t.Fatalf("jitter %d not below segment.ms", j)
		}
	}
}

// A segment rolls when an index is full: the time index keeps its last
// slot for the entry a roll writes, so with segment.index.bytes 24 (three
// offset entries, two time entries) it fills at one entry.
func TestRollWhenAnIndexIsFull(t *testing.T) {
	d, _ := newTestDisk()
	cfg := DefaultLogConfig
	cfg.SegmentIndexBytes, cfg.IndexIntervalBytes = 24, 0
	l := mustCreate(t, d, cfg)
	appendRoll(t, l, 10) // no entry: nothing appended before it
	appendRoll(t, l, 11) // entries (1, 76) and (11, 1)
	if got := appendRoll(t, l, 12); got != RollIndexFull {
		t.Fatalf("third append: roll %q, want %q", got, RollIndexFull)
	}
	// With constant timestamps the time index keeps one entry and the
	// offset index fills: segment.index.bytes 36 holds four offset entries.
	d2, _ := newTestDisk()
	cfg.SegmentIndexBytes = 36
	l2 := mustCreate(t, d2, cfg)
	for i := range 5 {
		if got := appendRoll(t, l2, 10); got != "" {
			t.Fatalf("append %d rolled: %q", i, got)
		}
	}
	if got := appendRoll(t, l2, 10); got != RollIndexFull {
		t.Fatalf("sixth append: %q, want %q", got, RollIndexFull)
	}
	seg := l2.Segments()[0]
	if n := len(offsetEntries(t, d2, seg.IndexPath(), 0)); n != 4 {
		t.Fatalf("full offset index has %d entries", n)
	}
	// A time index with one slot (segment.index.bytes 12) is always full,
	// its only slot being kept for the roll: every append rolls, and an
	// empty active segment asked to roll is replaced (KAFKA-6388).
	d3, _ := newTestDisk()
	cfg.SegmentIndexBytes = 12
	l3 := mustCreate(t, d3, cfg)
	for range 3 {
		appendRoll(t, l3, 10)
	}
	if l3.LogEndOffset() != 3 || len(l3.Segments()) != 3 {
		t.Fatalf("LEO %d, %d segments", l3.LogEndOffset(), len(l3.Segments()))
	}
	// Below one time index entry (Kafka's minimum of 4 allows it) the
	// index cannot be created at all, as Kafka's AbstractIndex refuses it.
	cfg.SegmentIndexBytes = 4
	if _, err := CreateLog(d3, testLogDir, TopicPartition{Topic: "tiny", Partition: 0}, "AAAAAAAAAAAAAAAAAAAAAQ", cfg); err == nil {
		t.Fatal("a log with segment.index.bytes 4 was created")
	}
	checkInvariants(t, l3)
}

// An append exactly segment.bytes long fills an empty segment; a larger
// one is refused; otherwise a segment rolls when the append would pass
// segment.bytes.
func TestRollOnSegmentBytesBoundary(t *testing.T) {
	d, _ := newTestDisk()
	size := int64(len(tsBatch(1, 0)))
	l := mustCreate(t, d, withSegmentBytes(3*size))
	for i, want := range []string{"", "", "", RollSegmentBytes, "", "", RollSegmentBytes} {
		if got := appendRoll(t, l, int64(i)); got != want {
			t.Fatalf("append %d: %q, want %q", i, got, want)
		}
	}
	if got := l.Segments()[0].Size; got != 3*size {
		t.Fatalf("first segment %d bytes, want %d", got, 3*size)
	}
}
