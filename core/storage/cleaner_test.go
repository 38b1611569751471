package storage

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/record"
)

// Scenario 15 (15-log-compaction)'s example: keys K1..K3 at offsets 0-10, the
// active segment starting at 8. K1's last value before it is 4 at offset
// 3, K3's is 5 at offset 7 (K2's is 3 at offset 5). The values K1, K2 and
// K3 get again in the active segment do not count: the active segment is
// never cleaned, and keys are mapped only from the dirty section before it.
func TestCleanNotesExampleKeepsLastValuePerKeyWithItsOffset(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"K1", "1", 1000}, kv{"K2", "2", 1001}, kv{"K1", "3", 1002}, kv{"K1", "4", 1003})
	rollNow(t, l)
	appendEach(t, l, kv{"K3", "2", 1004}, kv{"K2", "3", 1005}, kv{"K3", "4", 1006}, kv{"K3", "5", 1007})
	rollNow(t, l)
	appendEach(t, l, kv{"K2", "6", 1008}, kv{"K1", "7", 1009}, kv{"K3", "8", 1010})
	active := fileContent(t, d, l.Segments()[2].Path)

	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: DefaultCleanerLogConfig}, 0, false, 2000)
	if ltc.FirstDirtyOffset != 0 || ltc.FirstUncleanableOffset != 8 || ltc.CleanBytes != 0 || ltc.CleanableRatio != 1 || !ltc.Cleanable() {
		t.Fatalf("measured %+v", ltc)
	}
	res, err := Clean(&ltc, NewOffsetMap(100), 2000)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, l)
	want := []string{"3:K1=4", "5:K2=3", "7:K3=5", "8:K2=6", "9:K1=7", "10:K3=8"}
	if got := survivors(t, l); !slices.Equal(got, want) {
		t.Fatalf("survivors %v, want %v", got, want)
	}
	if res.EndOffset != 8 || res.Stats.MessagesRead != 8 || res.Stats.MessagesWritten != 3 {
		t.Fatalf("result %+v", res)
	}
	// The two old segments fit in segment.bytes together: they are merged
	// into one cleaned segment at the first one's base offset.
	if got := segmentBases(l); !slices.Equal(got, []int64{0, 8}) || !slices.Equal(res.Segments, []int64{0}) {
		t.Fatalf("segments %v (cleaned %v), want [0 8]", got, res.Segments)
	}
	if got := fileContent(t, d, l.Segments()[1].Path); string(got) != string(active) {
		t.Fatal("the active segment changed")
	}
	if l.LogStartOffset() != 0 || l.LogEndOffset() != 11 || l.HighWatermark() != 11 {
		t.Fatalf("start %d LEO %d HW %d", l.LogStartOffset(), l.LogEndOffset(), l.HighWatermark())
	}
	// Reading from offset 0 (now a gap) starts at the first survivor, and
	// every kept batch is a valid v2 batch with its original offsets.
	for _, b := range decodeAll(t, mustRead(t, l, 0, 1<<30, 8, true)) {
		if len(b.Records) != 1 || b.LastOffset() != b.Records[0].Offset {
			t.Fatalf("batch %d..%d with %d records", b.BaseOffset, b.LastOffset(), len(b.Records))
		}
	}
}

// Kafka's testPartialSegmentClean (LogCleanerTest): keys 0,1,0,1,0 at
// offsets 0..4 with a map of one key. Each pass maps as far as one key
// takes it and cleans up to there; the next pass goes on from there.
func TestCleanPartialSegmentWithOneKeyMap(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"0", "0", 1}, kv{"1", "1", 1}, kv{"0", "0", 1}, kv{"1", "1", 1}, kv{"0", "0", 1})
	rollNow(t, l)
	for _, pass := range []struct {
		firstDirty int64
		keys       []string
		offsets    []int64
	}{
		{2, []string{"1", "0", "1", "0"}, []int64{1, 2, 3, 4}},
		{3, []string{"0", "1", "0"}, []int64{2, 3, 4}},
		{4, []string{"1", "0"}, []int64{3, 4}},
	} {
		res := cleanOnce(t, l, DefaultCleanerLogConfig, pass.firstDirty, 1, 5000)
		keys, offsets := keysAndOffsets(t, l)
		if !slices.Equal(keys, pass.keys) || !slices.Equal(offsets, pass.offsets) {
			t.Fatalf("pass from %d: keys %v offsets %v, want %v %v", pass.firstDirty, keys, offsets, pass.keys, pass.offsets)
		}
		if res.EndOffset != pass.firstDirty+1 {
			t.Fatalf("pass from %d ended at %d, want %d", pass.firstDirty, res.EndOffset, pass.firstDirty+1)
		}
	}

	// With a map big enough for every key, one pass does it all.
	d2, _ := newTestDisk()
	l2 := mustCreate(t, d2, DefaultLogConfig)
	appendEach(t, l2, kv{"0", "0", 1}, kv{"1", "1", 1}, kv{"0", "0", 1}, kv{"1", "1", 1}, kv{"0", "0", 1})
	rollNow(t, l2)
	res := cleanOnce(t, l2, DefaultCleanerLogConfig, 0, 100, 5000)
	if keys, offsets := keysAndOffsets(t, l2); !slices.Equal(keys, []string{"1", "0"}) || !slices.Equal(offsets, []int64{3, 4}) || res.EndOffset != 5 {
		t.Fatalf("full map: keys %v offsets %v end %d", keys, offsets, res.EndOffset)
	}
}

// A tombstone example (LogCleaner's delete.retention.ms rule): the first pass keeps k2's tombstone
// and stamps its batch with a delete horizon (cleaning time +
// delete.retention.ms) in the base timestamp; a pass before the horizon
// keeps it, a pass at the horizon removes it. Record timestamps survive
// the new base timestamp.
func TestCleanTombstoneKeptUntilItsDeleteHorizon(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k1", "a", 100}, kv{"k2", "b", 101}, kv{"k1", "c", 102}, kv{"k2", "<nil>", 103}, kv{"k3", "d", 104})
	rollNow(t, l)
	cfg := DefaultCleanerLogConfig
	cfg.DeleteRetentionMs = 60000
	const t0 = 1_000_000
	res := cleanOnce(t, l, cfg, 0, 100, t0)
	if got := joined(survivors(t, l)); got != "2:k1=c 3:k2=<nil> 4:k3=d" {
		t.Fatalf("after the first pass: %s", got)
	}
	if res.Stats.TombstonesRemoved != 0 || res.EndOffset != 5 {
		t.Fatalf("first pass %+v", res)
	}
	batches := decodeAll(t, mustRead(t, l, 0, 1<<30, 5, true))
	for _, b := range batches {
		horizon, has := b.DeleteHorizonMs()
		isTombstone := b.Records[0].Value == nil
		if has != isTombstone || (has && horizon != t0+60000) {
			t.Fatalf("batch at %d: horizon %d %v", b.BaseOffset, horizon, has)
		}
		if b.Records[0].Timestamp != 100+b.BaseOffset {
			t.Fatalf("batch at %d: record timestamp %d", b.BaseOffset, b.Records[0].Timestamp)
		}
		if has && (b.BaseTimestamp != t0+60000 || b.MaxTimestamp != 103) {
			t.Fatalf("tombstone batch: base timestamp %d max %d", b.BaseTimestamp, b.MaxTimestamp)
		}
	}
	// New dirty data makes the log worth cleaning again.
	appendEach(t, l, kv{"k4", "e", 200})
	rollNow(t, l)
	cleanOnce(t, l, cfg, 5, 100, t0+59999)
	if got := joined(survivors(t, l)); got != "2:k1=c 3:k2=<nil> 4:k3=d 5:k4=e" {
		t.Fatalf("before the horizon: %s", got)
	}
	// The horizon is kept, not pushed back by the second pass.
	if h, _ := decodeAll(t, mustRead(t, l, 3, 1<<30, 4, true))[0].DeleteHorizonMs(); h != t0+60000 {
		t.Fatalf("horizon moved to %d", h)
	}
	appendEach(t, l, kv{"k5", "f", 300})
	rollNow(t, l)
	res = cleanOnce(t, l, cfg, 6, 100, t0+60000)
	if got := joined(survivors(t, l)); got != "2:k1=c 4:k3=d 5:k4=e 6:k5=f" {
		t.Fatalf("at the horizon: %s", got)
	}
	if res.Stats.TombstonesRemoved != 1 {
		t.Fatalf("tombstones removed %d", res.Stats.TombstonesRemoved)
	}
}

// The active segment is never cleaned: duplicates there stay, and a log
// whose only data is in its active segment has nothing cleanable.
func TestCleanNeverTouchesTheActiveSegment(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k", "1", 1}, kv{"k", "2", 2}, kv{"k", "3", 3})
	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: DefaultCleanerLogConfig}, 0, false, 10)
	if ltc.CleanableBytes != 0 || ltc.FirstUncleanableOffset != 0 || ltc.Cleanable() {
		t.Fatalf("active-only log measured %+v", ltc)
	}
	if got, _ := GrabFilthiestLog([]CleanCandidate{{l, DefaultCleanerLogConfig}}, nil, 10); got != nil {
		t.Fatal("chose a log with only an active segment")
	}
	rollNow(t, l)
	appendEach(t, l, kv{"k", "4", 4}, kv{"k", "5", 5})
	cleanOnce(t, l, DefaultCleanerLogConfig, 0, 100, 10)
	if got := joined(survivors(t, l)); got != "2:k=3 3:k=4 4:k=5" {
		t.Fatalf("survivors %s", got)
	}
}

// A pass stops at the high watermark: the segment holding it and later
// ones stay dirty.
func TestCleanStopsAtTheHighWatermark(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k", "1", 1}, kv{"k", "2", 2})
	rollNow(t, l)
	appendEach(t, l, kv{"k", "3", 3}, kv{"k", "4", 4})
	rollNow(t, l)
	appendEach(t, l, kv{"k", "5", 5})
	l.highWatermark = 3 // inside the second segment
	ltc, r := MeasureLog(CleanCandidate{Log: l, Config: DefaultCleanerLogConfig}, 0, false, 10)
	if r.FirstUncleanableDirtyOffset != 3 || ltc.FirstUncleanableOffset != 2 {
		t.Fatalf("range %+v, first uncleanable %d", r, ltc.FirstUncleanableOffset)
	}
	res, err := Clean(&ltc, NewOffsetMap(100), 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := joined(survivors(t, l)); got != "1:k=2 2:k=3 3:k=4 4:k=5" || res.EndOffset != 2 {
		t.Fatalf("survivors %s, end %d", got, res.EndOffset)
	}
}

// min.compaction.lag.ms: a segment whose newest record is younger than the
// lag stays dirty, and so does everything after it.
func TestCleanHonoursMinCompactionLag(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k", "1", 1000}, kv{"k", "2", 2000})
	rollNow(t, l)
	appendEach(t, l, kv{"k", "3", 5000}, kv{"k", "4", 6000})
	rollNow(t, l)
	appendEach(t, l, kv{"k", "5", 9000})
	cfg := DefaultCleanerLogConfig
	cfg.MinCompactionLagMs = 4000
	// At 9000 the second segment's newest record (6000) is 3 s old: too young.
	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: cfg}, 0, false, 9000)
	if ltc.FirstUncleanableOffset != 2 {
		t.Fatalf("first uncleanable %d, want 2", ltc.FirstUncleanableOffset)
	}
	res, err := Clean(&ltc, NewOffsetMap(100), 9000)
	if err != nil {
		t.Fatal(err)
	}
	if got := joined(survivors(t, l)); got != "1:k=2 2:k=3 3:k=4 4:k=5" || res.EndOffset != 2 {
		t.Fatalf("survivors %s end %d", got, res.EndOffset)
	}
	// At 10000 it is 4 s old: no longer younger than the lag.
	ltc, _ = MeasureLog(CleanCandidate{Log: l, Config: cfg}, 2, true, 10000)
	if ltc.FirstUncleanableOffset != 4 || !ltc.Cleanable() {
		t.Fatalf("at 10000: %+v", ltc)
	}
}

// max.compaction.lag.ms forces a pass on a log below
// min.cleanable.dirty.ratio once its oldest dirty data is older than the
// lag; the ratio threshold is strict.
func TestMaxCompactionLagForcesCleaningBelowTheRatio(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"a", "1", 1000}, kv{"b", "1", 1000}, kv{"c", "1", 1000})
	rollNow(t, l)
	appendEach(t, l, kv{"a", "2", 2000})
	rollNow(t, l)
	appendEach(t, l, kv{"z", "z", 3000})
	// Segment 0 is clean (checkpoint 3); segment 3 is dirty: 1 batch of 4.
	cfg := DefaultCleanerLogConfig
	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: cfg}, 3, true, 5000)
	if ltc.CleanableRatio != 0.25 || ltc.Cleanable() {
		t.Fatalf("ratio %v cleanable %v", ltc.CleanableRatio, ltc.Cleanable())
	}
	cfg.MinCleanableRatio = 0.25 // equal is not enough
	if ltc, _ = MeasureLog(CleanCandidate{Log: l, Config: cfg}, 3, true, 5000); ltc.Cleanable() {
		t.Fatal("a ratio equal to min.cleanable.dirty.ratio made the log cleanable")
	}
	cfg.MaxCompactionLagMs = 3000
	ltc, _ = MeasureLog(CleanCandidate{Log: l, Config: cfg}, 3, true, 5000) // the dirty batch (2000) is exactly 3 s old
	if ltc.NeedCompactionNow() {
		t.Fatal("forced at exactly the lag")
	}
	ltc, _ = MeasureLog(CleanCandidate{Log: l, Config: cfg}, 3, true, 5001)
	if ltc.CompactionDelayMs != 1 || !ltc.Cleanable() {
		t.Fatalf("past the lag: delay %d cleanable %v", ltc.CompactionDelayMs, ltc.Cleanable())
	}
	if got, _ := GrabFilthiestLog([]CleanCandidate{{l, cfg}}, map[TopicPartition]int64{fooTP: 3}, 5001); got == nil {
		t.Fatal("max.compaction.lag.ms did not make the log eligible")
	}
	res, err := Clean(&ltc, NewOffsetMap(100), 5001)
	if err != nil {
		t.Fatal(err)
	}
	if got := joined(survivors(t, l)); got != "1:b=1 2:c=1 3:a=2 4:z=z" || res.EndOffset != 4 {
		t.Fatalf("survivors %s end %d", got, res.EndOffset)
	}
}

// GrabFilthiestLog picks the eligible log with the highest dirty ratio,
// skips non-compacted and empty logs, and resets a checkpointed offset
// past a log's end to its start.
func TestGrabFilthiestLogPicksTheDirtiest(t *testing.T) {
	d, _ := newTestDisk()
	mk := func(name string, dirtyAfter int) *Log {
		l, err := CreateLog(d, testLogDir, TopicPartition{name, 0}, "AAAAAAAAAAAAAAAAAAAAAQ", DefaultLogConfig)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			appendEach(t, l, kv{"k", "v", 1})
			if i == dirtyAfter-1 || i == 3 {
				rollNow(t, l)
			}
		}
		return l
	}
	a := mk("a", 2) // [0,2) clean, [2,4) dirty: ratio 0.5 (not above 0.5)
	b := mk("b", 1) // [0,1) clean, [1,4) dirty: ratio 0.75
	c := mk("c", 1) // not compacted
	empty, err := CreateLog(d, testLogDir, TopicPartition{"e", 0}, "AAAAAAAAAAAAAAAAAAAAAQ", DefaultLogConfig)
	if err != nil {
		t.Fatal(err)
	}
	notCompact := DefaultCleanerLogConfig
	notCompact.Compact = false
	cands := []CleanCandidate{{a, DefaultCleanerLogConfig}, {b, DefaultCleanerLogConfig}, {c, notCompact}, {empty, DefaultCleanerLogConfig}}
	ckpt := map[TopicPartition]int64{{"a", 0}: 2, {"b", 0}: 1, {"c", 0}: 0, {"e", 0}: 7}
	got, resets := GrabFilthiestLog(cands, ckpt, 10)
	if got == nil || got.Log != b || got.CleanableRatio != 0.75 {
		t.Fatalf("chose %+v", got)
	}
	if !reflect.DeepEqual(resets, map[TopicPartition]int64{{"e", 0}: 0}) {
		t.Fatalf("resets %v", resets)
	}
	// A lower threshold makes a eligible too, but b is still dirtier; on a
	// tie the first candidate wins.
	low := DefaultCleanerLogConfig
	low.MinCleanableRatio = 0.1
	ckpt[TopicPartition{"b", 0}] = 2
	got, _ = GrabFilthiestLog([]CleanCandidate{{a, low}, {b, low}}, ckpt, 10)
	if got == nil || got.Log != a {
		t.Fatalf("tie: chose %v", got)
	}
}

// Cleaned segments are swapped in through .cleaned and .swap files, with
// their .index and .timeindex; the replaced ones are renamed .deleted
// (removed file.delete.delay.ms later, or at the next start by the
// loader). The cleaned log reopens as it was.
func TestCleanSwapsSegmentsAndReopens(t *testing.T) {
	d, _ := newTestDisk()
	lc := DefaultLogConfig
	lc.SegmentBytes = 1 << 20
	l := mustCreate(t, d, lc)
	sched := &fakeScheduler{}
	l.SetRuntime(sched.schedule, nil)
	appendEach(t, l, kv{"a", "1", 1}, kv{"b", "1", 1})
	rollNow(t, l)
	appendEach(t, l, kv{"a", "2", 2}, kv{"b", "2", 2})
	rollNow(t, l)
	appendEach(t, l, kv{"c", "1", 3})
	cfg := DefaultCleanerLogConfig
	cfg.SegmentBytes = l.Segments()[0].Size // room for one old segment per group
	res := cleanOnce(t, l, cfg, 0, 100, 10)
	if !slices.Equal(res.Segments, []int64{0, 2}) {
		t.Fatalf("cleaned segments %v", res.Segments)
	}
	if !slices.Equal(sched.delays, []time.Duration{time.Minute, time.Minute}) {
		t.Fatalf("scheduled %v, want a deletion after file.delete.delay.ms per group", sched.delays)
	}
	dir := l.Dir()
	want := []string{
		"00000000000000000000.index", "00000000000000000000.index.deleted", "00000000000000000000.log", "00000000000000000000.log.deleted",
		"00000000000000000000.timeindex", "00000000000000000000.timeindex.deleted",
		"00000000000000000002.index", "00000000000000000002.index.deleted", "00000000000000000002.log", "00000000000000000002.log.deleted",
		"00000000000000000002.timeindex", "00000000000000000002.timeindex.deleted",
		"00000000000000000004.index", "00000000000000000004.log", "00000000000000000004.timeindex",
	}
	var got []string
	for _, e := range d.List(dir) {
		if e.Name != LeaderEpochCheckpointFile && e.Name != PartitionMetadataFile {
			got = append(got, e.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	if sz, _ := d.Size(dir + "/00000000000000000000.log"); sz != 0 {
		t.Fatalf("segment 0 should be empty after cleaning, has %d bytes", sz)
	}
	// The cleaned segment 2 keeps both records; its time index holds its
	// largest timestamp, trimmed to that one entry.
	if sz, _ := d.Size(dir + "/00000000000000000002.timeindex"); sz != TimeIndexEntrySize {
		t.Fatalf("cleaned segment's time index has %d bytes", sz)
	}
	before := survivors(t, l)
	// Only the active segment needs a flush: cleaned segments were flushed
	// before the swap, and renames are durable.
	if err := d.Fsync(l.Segments()[2].Path); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	l2, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, l.HighWatermark(), -1, false)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, l2)
	for _, e := range d.List(dir) {
		if strings.HasSuffix(e.Name, DeletedFileSuffix) {
			t.Fatalf("%s left after loading", e.Name)
		}
	}
	if got := survivors(t, l2); !slices.Equal(got, before) || !slices.Equal(before, []string{"2:a=2", "3:b=2", "4:c=1"}) {
		t.Fatalf("reopened %v, before %v", got, before)
	}
	if !slices.Equal(segmentBases(l2), []int64{0, 2, 4}) {
		t.Fatalf("reopened segments %v", segmentBases(l2))
	}
	// Cleaning the same segments again within the delete delay replaces the
	// earlier .deleted file.
	appendEach(t, l, kv{"a", "3", 4})
	rollNow(t, l)
	cfg.SegmentBytes = 1 << 20
	cleanOnce(t, l, cfg, 4, 100, 20)
	if got := joined(survivors(t, l)); got != "3:b=2 4:c=1 5:a=3" {
		t.Fatalf("second pass: %s", got)
	}
}

// The last batch of an active producer stays, emptied, so its sequence
// numbers survive; an emptied batch of a producer that wrote later goes.
func TestCleanKeepsTheLastBatchOfAProducerEmpty(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	p := record.ProducerInfo{ID: 7, Epoch: 0, BaseSequence: 0}
	appendBatch(t, l, p, kv{"k", "1", 1}, kv{"j", "1", 1})
	p.BaseSequence = 2
	appendBatch(t, l, p, kv{"k", "2", 2})
	appendEach(t, l, kv{"k", "3", 3}, kv{"j", "2", 3})
	rollNow(t, l)
	cleanOnce(t, l, DefaultCleanerLogConfig, 0, 100, 10)
	bs := decodeAll(t, mustRead(t, l, 0, 1<<30, 5, true))
	if len(bs) != 3 {
		t.Fatalf("%d batches", len(bs))
	}
	last := bs[0]
	if last.BaseOffset != 2 || last.LastOffset() != 2 || len(last.Records) != 0 || last.ProducerID != 7 || last.BaseSequence != 2 || last.BaseTimestamp != -1 || last.MaxTimestamp != 2 {
		t.Fatalf("producer's last batch %+v", last)
	}
	if got := joined(survivors(t, l)); got != "3:k=3 4:j=2" {
		t.Fatalf("survivors %s", got)
	}
}

// A rebuilt batch keeps its base offset, last offset delta, leader epoch
// and producer fields; keyless records are dropped and counted.
func TestCleanRebuildsSparseBatches(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendBatch(t, l, record.NoProducer(), kv{"a", "1", 10}, kv{"", "x", 11}, kv{"b", "1", 12}, kv{"a", "2", 13}, kv{"c", "1", 14})
	appendBatch(t, l, record.NoProducer(), kv{"c", "2", 20})
	rollNow(t, l)
	res := cleanOnce(t, l, DefaultCleanerLogConfig, 0, 100, 100)
	bs := decodeAll(t, mustRead(t, l, 0, 1<<30, 6, true))
	if len(bs) != 2 {
		t.Fatalf("%d batches", len(bs))
	}
	b := bs[0]
	if b.BaseOffset != 0 || b.LastOffset() != 4 || b.PartitionLeaderEpoch != 0 || b.BaseTimestamp != 12 || b.MaxTimestamp != 13 {
		t.Fatalf("rebuilt batch header %+v", b)
	}
	if got := joined(survivors(t, l)); got != "2:b=1 3:a=2 5:c=2" {
		t.Fatalf("survivors %s", got)
	}
	if res.Stats.InvalidMessages != 1 || res.Stats.MessagesRead != 6 || res.Stats.MessagesWritten != 3 {
		t.Fatalf("stats %+v", res.Stats)
	}
}

func TestCleanerCheckpointFile(t *testing.T) {
	d, _ := newTestDisk()
	if got := ReadCleanerCheckpoint(d, testLogDir); len(got) != 0 {
		t.Fatalf("missing file read as %v", got)
	}
	keep := func(tp TopicPartition) bool { return tp.Topic != "gone" }
	if err := UpdateCleanerCheckpoint(d, testLogDir, keep, map[TopicPartition]int64{{"t", 0}: 8, {"gone", 0}: 3}); err != nil {
		t.Fatal(err)
	}
	if got := string(fileContent(t, d, testLogDir+"/cleaner-offset-checkpoint")); got != "0\n2\ngone 0 3\nt 0 8\n" {
		t.Fatalf("file %q", got)
	}
	if err := UpdateCleanerCheckpoint(d, testLogDir, keep, map[TopicPartition]int64{{"t", 1}: 4}, TopicPartition{"t", 0}); err != nil {
		t.Fatal(err)
	}
	if got := string(fileContent(t, d, testLogDir+"/cleaner-offset-checkpoint")); got != "0\n1\nt 1 4\n" {
		t.Fatalf("file %q", got)
	}
	d.PowerLoss()
	if got := ReadCleanerCheckpoint(d, testLogDir); !reflect.DeepEqual(got, map[TopicPartition]int64{{"t", 1}: 4}) {
		t.Fatalf("after a power loss %v", got)
	}
}

func TestOffsetMapCapacityAtKafkasDefaults(t *testing.T) {
	if got := OffsetMapCapacity(134217728, 1, 0.9); got != 5033164 {
		t.Fatalf("capacity %d", got)
	}
	if got := OffsetMapCapacity(48, 1, 0.75); got != 1 {
		t.Fatalf("two slots at 0.75: %d", got)
	}
}

// Truncating into a cleaned part of the log leaves the LEO at the target,
// as Kafka's LocalLog.truncateTo does, not at the end of the last record
// the cleaner kept before it.
func TestTruncateIntoCleanedGapKeepsTargetAsLogEnd(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"a", "1", 1}, kv{"b", "1", 1}, kv{"a", "2", 1}, kv{"b", "2", 1})
	rollNow(t, l)
	appendEach(t, l, kv{"a", "3", 1}, kv{"c", "1", 1})
	rollNow(t, l)
	appendEach(t, l, kv{"d", "1", 1})
	cleanOnce(t, l, DefaultCleanerLogConfig, 0, 100, 10)
	if got := joined(survivors(t, l)); got != "3:b=2 4:a=3 5:c=1 6:d=1" {
		t.Fatalf("survivors %s", got)
	}
	if err := l.TruncateTo(3); err != nil { // offset 3 survives, 2 does not
		t.Fatal(err)
	}
	checkInvariants(t, l)
	if l.LogEndOffset() != 3 || joined(survivors(t, l)) != "" {
		t.Fatalf("LEO %d survivors %q, want 3 and none", l.LogEndOffset(), joined(survivors(t, l)))
	}
	mustLeaderAppend(t, l, producerBatch(1), 0)
	if got := spans(t, mustRead(t, l, 0, 1<<30, l.LogEndOffset(), true)); !reflect.DeepEqual(got, []span{{3, 3}}) {
		t.Fatalf("after appending: %v", got)
	}
}

// A cleaned segment gets index entries by the index.interval.bytes rule,
// one append per old segment: with an interval of 0, every append after
// the first is indexed, and a lookup through the index finds each batch.
func TestCleanedSegmentHasIndexes(t *testing.T) {
	d, _ := newTestDisk()
	lc := DefaultLogConfig
	lc.IndexIntervalBytes = 0
	l := mustCreate(t, d, lc)
	appendEach(t, l, kv{"a", "1", 1}, kv{"b", "1", 1})
	rollNow(t, l)
	appendEach(t, l, kv{"c", "1", 2}, kv{"d", "1", 2})
	rollNow(t, l)
	appendEach(t, l, kv{"e", "1", 3}, kv{"f", "1", 3})
	rollNow(t, l)
	appendEach(t, l, kv{"g", "1", 4})
	res := cleanOnce(t, l, DefaultCleanerLogConfig, 0, 100, 10)
	if !slices.Equal(res.Segments, []int64{0}) {
		t.Fatalf("cleaned segments %v, want the three merged into one", res.Segments)
	}
	seg := l.Segments()[0]
	// Appends at 0-1, 2-3, 4-5: entries for the second and the third.
	if got := seg.offsetIndex.ents; !reflect.DeepEqual(got, []OffsetPosition{{3, int32(seg.Batch(2).Position)}, {5, int32(seg.Batch(4).Position)}}) {
		t.Fatalf("offset index %v", got)
	}
	if sz, _ := d.Size(seg.IndexPath()); sz != 2*OffsetIndexEntrySize {
		t.Fatalf(".index of %d bytes, want trimmed to its 2 entries", sz)
	}
	if got := joined(survivors(t, l)); got != "0:a=1 1:b=1 2:c=1 3:d=1 4:e=1 5:f=1 6:g=1" {
		t.Fatalf("survivors %s", got)
	}
}

// Segments merge only while their index entries fit in
// segment.index.bytes (Kafka's sizeInBytes: entries, not file length).
func TestGroupSegmentsBySizeCountsIndexEntries(t *testing.T) {
	d, _ := newTestDisk()
	lc := DefaultLogConfig
	lc.IndexIntervalBytes = 0
	l := mustCreate(t, d, lc)
	for i := range 3 {
		appendEach(t, l, kv{"a", "1", int64(i)}, kv{"b", "1", int64(i)}, kv{"c", "1", int64(i)})
		rollNow(t, l)
	}
	segs := l.Segments()[:3] // two offset index entries each
	groups, err := groupSegmentsBySize(segs, 1<<30, 4*OffsetIndexEntrySize, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || len(groups[0]) != 2 || len(groups[1]) != 1 {
		t.Fatalf("groups %v", groups)
	}
}

// The loader finishes what a cleaning left, as Kafka's LogLoader: .cleaned
// files are deleted; a .swap segment from a cleaning whose .cleaned files
// are gone replaces the segments its offsets cover, its indexes rebuilt.
func TestLoaderHandlesCleanedAndSwapFiles(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"a", "1", 1}, kv{"a", "2", 1})
	rollNow(t, l)
	appendEach(t, l, kv{"a", "3", 2}, kv{"b", "1", 2})
	rollNow(t, l)
	appendEach(t, l, kv{"c", "1", 3})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	dir := l.Dir()
	// A cleaned copy of segments 0 and 2 (only a=3 and b=1 survive), left
	// as a .swap with its indexes; a stray .cleaned from a later cleaning.
	seg2, err := d.ReadFile(dir + "/00000000000000000002.log")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"00000000000000000000.log.swap":       seg2,
		"00000000000000000000.index.swap":     nil,
		"00000000000000000000.timeindex.swap": nil,
		"00000000000000000004.log.cleaned":    nil,
	} {
		if err := d.WriteFileDurable(dir+"/"+name, data); err != nil {
			t.Fatal(err)
		}
	}
	l2, rep, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 5, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, l2)
	if !slices.Equal(segmentBases(l2), []int64{0, 4}) || !slices.Contains(rep.RebuiltIndexes, 0) {
		t.Fatalf("segments %v, rebuilt %v", segmentBases(l2), rep.RebuiltIndexes)
	}
	if got := joined(survivors(t, l2)); got != "2:a=3 3:b=1 4:c=1" {
		t.Fatalf("survivors %s", got)
	}
	for _, e := range d.List(dir) {
		if strings.HasSuffix(e.Name, ".swap") || strings.HasSuffix(e.Name, ".cleaned") || strings.HasPrefix(e.Name, "00000000000000000002") {
			t.Fatalf("%s left after loading", e.Name)
		}
	}
}
