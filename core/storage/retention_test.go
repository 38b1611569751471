package storage

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeScheduler keeps the tasks a log schedules, to run them by hand.
type fakeScheduler struct {
	delays []time.Duration
	tasks  []func()
}

func (f *fakeScheduler) schedule(delay time.Duration, _ string, fn func()) {
	f.delays = append(f.delays, delay)
	f.tasks = append(f.tasks, fn)
}

func (f *fakeScheduler) runAll() {
	tasks := f.tasks
	f.tasks, f.delays = nil, nil
	for _, fn := range tasks {
		fn()
	}
}

// fifteenRecords is UnifiedLogTest's fixture: 15 one-record batches stamped
// 10, five to a segment, the HW at the LEO.
func fifteenRecords(t *testing.T, cfg LogConfig) (*Disk, *Log, int64) {
	t.Helper()
	d, _ := newTestDisk()
	size := int64(len(tsBatch(1, 10)))
	cfg.SegmentBytes = 5 * size
	l := mustCreate(t, d, cfg)
	for range 15 {
		mustLeaderAppend(t, l, tsBatch(1, 10), 0)
	}
	l.UpdateHighWatermark(l.LogEndOffset())
	if n := len(l.Segments()); n != 3 {
		t.Fatalf("fixture: %d segments", n)
	}
	return d, l, size
}

func bases(l *Log) []int64 {
	var out []int64
	for _, s := range l.Segments() {
		out = append(out, s.BaseOffset)
	}
	return out
}

// shouldDeleteTimeBasedSegmentsReadyToBeDeleted: every segment, the active
// one included, is older than retention.ms; the log rolls an empty segment
// at the LEO and deletes the three.
func TestRetentionByTime(t *testing.T) {
	cfg := DefaultLogConfig
	cfg.RetentionMs = 10000
	_, l, _ := fifteenRecords(t, cfg)
	dels, err := l.DeleteOldSegments(10 + 10000) // not yet: exactly retention.ms old
	if err != nil || len(dels) != 0 {
		t.Fatalf("at the limit: %+v %v", dels, err)
	}
	dels, err = l.DeleteOldSegments(10 + 10001)
	if err != nil {
		t.Fatal(err)
	}
	if len(dels) != 1 || dels[0].Reason != DeletedRetentionMs || !reflect.DeepEqual(dels[0].Bases, []int64{0, 5, 10}) || !dels[0].Rolled {
		t.Fatalf("deletions %+v", dels)
	}
	if got := bases(l); !reflect.DeepEqual(got, []int64{15}) {
		t.Fatalf("segments %v, want [15]", got)
	}
	if l.LogStartOffset() != 15 || l.LogEndOffset() != 15 || dels[0].LogStartOffset != 15 {
		t.Fatalf("log start %d, LEO %d", l.LogStartOffset(), l.LogEndOffset())
	}
	// An empty active segment is never deleted.
	if dels, _ := l.DeleteOldSegments(1 << 50); len(dels) != 0 {
		t.Fatalf("the empty active segment went: %+v", dels)
	}
	if _, err := l.Read(0, 1<<20, 15, true); !errors.Is(err, ErrOffsetOutOfRange) {
		t.Fatalf("read below the log start: %v", err)
	}
	checkInvariants(t, l)
}

// shouldDeleteSizeBasedSegments and
// shouldNotDeleteSizeBasedSegmentsWhenUnderRetentionSize: whole segments go,
// oldest first, while what is left stays at or above retention.bytes.
func TestRetentionBySize(t *testing.T) {
	for _, c := range []struct {
		records int64 // retention.bytes in records
		want    []int64
	}{
		{10, []int64{5, 10}},
		{15, []int64{0, 5, 10}},
		{11, []int64{0, 5, 10}}, // 4 records over: no whole segment fits in them
		{9, []int64{5, 10}},     // 6 over: one segment goes, a second would leave 4 < 9
		{5, []int64{10}},
		{0, []int64{15}}, // all three, the active one too, after a roll
	} {
		cfg := DefaultLogConfig
		_, l, size := fifteenRecords(t, cfg)
		cfg = l.Config()
		cfg.RetentionBytes = c.records * size
		l.SetConfig(cfg)
		if _, err := l.DeleteOldSegments(0); err != nil {
			t.Fatal(err)
		}
		if got := bases(l); !reflect.DeepEqual(got, c.want) {
			t.Errorf("retention.bytes = %d records: segments %v, want %v", c.records, got, c.want)
		}
		if l.Size() < cfg.RetentionBytes {
			t.Errorf("retention.bytes = %d records: %d bytes left, below the limit", c.records, l.Size())
		}
	}
}

// Segments at or above the HW never go: a segment may be deleted only if
// the HW is at or above its end (testDeleteOldSegments).
func TestRetentionNeverPassesTheHighWatermark(t *testing.T) {
	cfg := DefaultLogConfig
	cfg.RetentionMs = 0
	for _, c := range []struct {
		hw   int64
		want []int64
	}{
		{0, []int64{0, 5, 10}},
		{4, []int64{0, 5, 10}},
		{5, []int64{5, 10}},
		{9, []int64{5, 10}},
		{10, []int64{10}},
		{14, []int64{10}},
		{15, []int64{15}},
	} {
		_, l, _ := fifteenRecords(t, cfg)
		l.UpdateHighWatermark(c.hw)
		if _, err := l.DeleteOldSegments(1 << 50); err != nil {
			t.Fatal(err)
		}
		if got := bases(l); !reflect.DeepEqual(got, c.want) {
			t.Errorf("HW %d: segments %v, want %v", c.hw, got, c.want)
		}
		if l.LogStartOffset() > l.HighWatermark() {
			t.Errorf("HW %d: log start %d passed it", c.hw, l.LogStartOffset())
		}
	}
}

// With cleanup.policy=compact only the log start pass runs: a segment goes
// only when the log start offset is at or past the next segment's base.
func TestRetentionOfACompactedLog(t *testing.T) {
	cfg := DefaultLogConfig
	cfg.Delete, cfg.Compact, cfg.RetentionMs, cfg.RetentionBytes = false, true, 0, 0
	_, l, _ := fifteenRecords(t, cfg)
	if dels, _ := l.DeleteOldSegments(1 << 50); len(dels) != 0 {
		t.Fatalf("compacted log lost segments to retention: %+v", dels)
	}
	if err := l.MaybeIncrementLogStartOffset(7); err != nil {
		t.Fatal(err)
	}
	dels, _ := l.DeleteOldSegments(1 << 50)
	if len(dels) != 1 || dels[0].Reason != DeletedBelowLogStart || !reflect.DeepEqual(bases(l), []int64{5, 10}) {
		t.Fatalf("deletions %+v, segments %v", dels, bases(l))
	}
	if l.LogStartOffset() != 7 {
		t.Fatalf("log start %d, want 7 (it does not move to the segment's base)", l.LogStartOffset())
	}
}

// Deleted segments' files are renamed .deleted at once and removed when
// the scheduled task runs, file.delete.delay.ms later.
func TestDeletedFilesLingerForTheDelay(t *testing.T) {
	cfg := DefaultLogConfig
	cfg.RetentionBytes = 0
	d, l, _ := fifteenRecords(t, cfg)
	sched := &fakeScheduler{}
	l.SetRuntime(sched.schedule, nil)
	if _, err := l.DeleteOldSegments(0); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sched.delays, []time.Duration{time.Minute}) {
		t.Fatalf("scheduled %v, want one task after file.delete.delay.ms", sched.delays)
	}
	var deleted, live []string
	for _, e := range d.List(l.Dir()) {
		switch {
		case strings.HasSuffix(e.Name, ".deleted"):
			deleted = append(deleted, e.Name)
		case strings.HasPrefix(e.Name, "000"):
			live = append(live, e.Name)
		}
	}
	want := []string{
		"00000000000000000000.index.deleted", "00000000000000000000.log.deleted", "00000000000000000000.timeindex.deleted",
		"00000000000000000005.index.deleted", "00000000000000000005.log.deleted", "00000000000000000005.timeindex.deleted",
		"00000000000000000010.index.deleted", "00000000000000000010.log.deleted", "00000000000000000010.timeindex.deleted",
	}
	if !reflect.DeepEqual(deleted, want) {
		t.Fatalf(".deleted files %v", deleted)
	}
	// The new active segment: its indexes appear on first use, and the
	// retention.ms pass that ran after the size pass read its largest
	// timestamp, opening its time index, as Kafka's does.
	if !reflect.DeepEqual(live, []string{"00000000000000000015.log", "00000000000000000015.timeindex"}) {
		t.Fatalf("live files %v", live)
	}
	sched.runAll()
	for _, e := range d.List(l.Dir()) {
		if strings.HasSuffix(e.Name, ".deleted") {
			t.Fatalf("%s left after the delay", e.Name)
		}
	}
}

// The log start offset moves only up, never past the HW; the epoch cache
// forgets epochs wholly below it.
func TestMaybeIncrementLogStartOffset(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 0) // 0..2
	mustLeaderAppend(t, l, producerBatch(3), 1) // 3..5
	l.UpdateHighWatermark(5)
	if err := l.MaybeIncrementLogStartOffset(6); !errors.Is(err, ErrOffsetOutOfRange) {
		t.Fatalf("past the HW: %v", err)
	}
	if err := l.MaybeIncrementLogStartOffset(4); err != nil {
		t.Fatal(err)
	}
	if err := l.MaybeIncrementLogStartOffset(2); err != nil || l.LogStartOffset() != 4 {
		t.Fatalf("moving down: %v, start %d", err, l.LogStartOffset())
	}
	if got := l.Epochs().Entries(); !reflect.DeepEqual(got, []EpochEntry{{Epoch: 1, StartOffset: 4}}) {
		t.Fatalf("epoch cache %v", got)
	}
	if got := spans(t, mustRead(t, l, 4, 1<<20, 6, true)); !reflect.DeepEqual(got, []span{{3, 5}}) {
		t.Fatalf("read from the log start: %v (the whole batch holding it)", got)
	}
}
