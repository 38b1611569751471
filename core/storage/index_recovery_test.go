package storage

import (
	"path"
	"reflect"
	"testing"
)

// interval100 is Kafka's default config with index.interval.bytes 100.
var interval100 = func() LogConfig { c := DefaultLogConfig; c.IndexIntervalBytes = 100; return c }()

// reopen opens the test log with cfg.
func reopen(t *testing.T, d *Disk, cfg LogConfig, rp, hw int64, clean bool) (*Log, RecoveryReport) {
	t.Helper()
	l, rep, err := OpenLog(d, testLogDir, fooTP, cfg, rp, hw, 0, clean)
	if err != nil {
		t.Fatalf("OpenLog: %v", err)
	}
	checkInvariants(t, l)
	return l, rep
}

// twoBatchAppends: a log with index.interval.bytes 100 and three appends
// of two 76-byte batches each (offsets 0..5), rolled at 6 so the segment is
// closed, then flushed and closed as a clean shutdown does.
func twoBatchAppends(t *testing.T, d *Disk) *Log {
	t.Helper()
	l := mustCreate(t, d, interval100)
	for i := range 3 {
		mustLeaderAppend(t, l, append(tsBatch(1, int64(10*i)), tsBatch(1, int64(10*i+5))...), 0)
	}
	if _, err := l.roll(l.LogEndOffset()); err != nil {
		t.Fatal(err)
	}
	l.UpdateHighWatermark(6)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return l
}

// Appends index whole appends; recovery rebuilds the index batch by batch
// (LogSegment.recover), so after a crash the same bytes can have different
// (equally valid) entries:
//
//	append at 0 (offsets 0, 1), at 152 (2, 3), at 304 (4, 5):
//	  entries (3, 152) and (5, 304): an append's last offset, its start
//	recovery, batches at 0, 76, 152, 228, 304, 380:
//	  entries (2, 152) and (4, 304): a batch's last offset, its start
func TestRecoveryRebuildsIndexesBatchByBatch(t *testing.T) {
	d, _ := newTestDisk()
	l := twoBatchAppends(t, d)
	seg := l.Segments()[0]
	if got := offsetEntries(t, d, seg.IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{3, 152}, {5, 304}}) {
		t.Fatalf("appended entries %v", got)
	}
	// A clean start trusts the files.
	l2, rep := reopen(t, d, interval100, 6, 6, true)
	if len(rep.RebuiltIndexes) != 0 || !reflect.DeepEqual(offsetEntries(t, d, seg.IndexPath(), 0), []OffsetPosition{{3, 152}, {5, 304}}) {
		t.Fatalf("clean start: rebuilt %v, entries %v", rep.RebuiltIndexes, offsetEntries(t, d, seg.IndexPath(), 0))
	}
	_ = l2
	// After a crash, the segments from the recovery point on are
	// recovered: here every segment.
	_, rep = reopen(t, d, interval100, 0, 6, false)
	if !reflect.DeepEqual(rep.RebuiltIndexes, []int64{0, 6}) {
		t.Fatalf("rebuilt %v, want [0 6]", rep.RebuiltIndexes)
	}
	if got := offsetEntries(t, d, seg.IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{2, 152}, {4, 304}}) {
		t.Fatalf("rebuilt entries %v, want [{2 152} {4 304}]", got)
	}
	// The rebuilt time index has an entry per offset entry and the
	// largest timestamp last, trimmed to its entries.
	if got := timeEntries(t, d, seg.TimeIndexPath(), 0); !reflect.DeepEqual(got, []TimestampOffset{{10, 2}, {20, 4}, {25, 5}}) {
		t.Fatalf("rebuilt time entries %v", got)
	}
	if sz, _ := d.Size(seg.TimeIndexPath()); sz != 36 {
		t.Fatalf("rebuilt .timeindex %d bytes", sz)
	}
	// Only from the recovery point: with it at 6 the closed segment is
	// trusted.
	_, rep = reopen(t, d, interval100, 6, 6, false)
	if !reflect.DeepEqual(rep.RebuiltIndexes, []int64{6}) {
		t.Fatalf("rebuilt %v, want [6]", rep.RebuiltIndexes)
	}
}

// A missing .index is rebuilt even after a clean shutdown; a missing
// .timeindex alone is created empty (LogSegment.sanityCheck), and the
// segment's largest timestamp is then unknown.
func TestMissingIndexFiles(t *testing.T) {
	d, _ := newTestDisk()
	l := twoBatchAppends(t, d)
	seg := l.Segments()[0]
	if err := d.Remove(seg.IndexPath()); err != nil {
		t.Fatal(err)
	}
	l2, rep := reopen(t, d, interval100, 6, 6, true)
	if !reflect.DeepEqual(rep.RebuiltIndexes, []int64{0}) {
		t.Fatalf("rebuilt %v, want [0]", rep.RebuiltIndexes)
	}
	if err := l2.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := l2.Close(); err != nil {
		t.Fatal(err)
	}
	if got := offsetEntries(t, d, seg.IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{2, 152}, {4, 304}}) {
		t.Fatalf("rebuilt entries %v", got)
	}
	if err := d.Remove(seg.TimeIndexPath()); err != nil {
		t.Fatal(err)
	}
	l3, rep := reopen(t, d, interval100, 6, 6, true)
	if len(rep.RebuiltIndexes) != 0 {
		t.Fatalf("rebuilt %v for a missing time index", rep.RebuiltIndexes)
	}
	if sz, err := d.Size(seg.TimeIndexPath()); err != nil || sz != 0 {
		t.Fatalf(".timeindex %d bytes (%v), want an empty file", sz, err)
	}
	if ts, _ := l3.Segments()[0].LargestTimestamp(); ts == 25 {
		t.Fatal("the largest timestamp survived the loss of the time index")
	}
}

// Loading removes .deleted files a previous run left (its deletion task
// died with it) and index files whose .log is gone.
func TestLoadRemovesStrayFiles(t *testing.T) {
	d, _ := newTestDisk()
	l := twoBatchAppends(t, d)
	dir := l.Dir()
	for _, name := range []string{"00000000000000000099.log.deleted", "00000000000000000099.index.deleted", "00000000000000000042.index", "00000000000000000042.timeindex", "00000000000000000007-0000000001.checkpoint.deleted"} {
		if err := d.WriteFile(path.Join(dir, name), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	reopen(t, d, interval100, 6, 6, true)
	var names []string
	for _, e := range d.List(dir) {
		names = append(names, e.Name)
	}
	want := []string{
		"00000000000000000000.index", "00000000000000000000.log", "00000000000000000000.timeindex",
		"00000000000000000006.index", "00000000000000000006.log", "00000000000000000006.timeindex",
		"00000000000000000007-0000000001.checkpoint.deleted", // the metadata log's own business
		"leader-epoch-checkpoint", "partition.metadata",
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
}

// A power loss takes the active segment's unflushed index entries with
// its unflushed batches; the restart recovers it and rebuilds its indexes
// from what survived.
func TestPowerLossRebuildsTheActiveSegmentsIndexes(t *testing.T) {
	d, clk := newTestDisk()
	cfg := DefaultLogConfig
	cfg.IndexIntervalBytes = 0
	l := mustCreate(t, d, cfg)
	for i := range 3 {
		mustLeaderAppend(t, l, tsBatch(1, int64(i)), 0)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		mustLeaderAppend(t, l, tsBatch(1, int64(10+i)), 0)
	}
	clk.at(1)
	d.PowerLoss()
	l2, rep := reopen(t, d, cfg, 3, 3, false)
	if l2.LogEndOffset() != 3 || !reflect.DeepEqual(rep.RebuiltIndexes, []int64{0}) {
		t.Fatalf("LEO %d, rebuilt %v", l2.LogEndOffset(), rep.RebuiltIndexes)
	}
	seg := l2.Segments()[0]
	if got := offsetEntries(t, d, seg.IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{1, 76}, {2, 152}}) {
		t.Fatalf("entries %v", got)
	}
	if sz, _ := d.Size(seg.IndexPath()); sz != 10485760 {
		t.Fatalf("active .index %d bytes after recovery, want it preallocated again", sz)
	}
	for start := int64(0); start < 3; start++ {
		if got := spans(t, mustRead(t, l2, start, 1<<20, 3, true)); got[0].base != start {
			t.Fatalf("Read(%d) starts at %v", start, got)
		}
	}
}
