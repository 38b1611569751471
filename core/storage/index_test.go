package storage

import (
	"encoding/binary"
	"fmt"
	"path"
	"reflect"
	"testing"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// tsBatch is a producer batch of n records all stamped ts.
func tsBatch(n int, ts int64) []byte {
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{Timestamp: ts, Value: []byte(fmt.Sprintf("v%07d", i))}
	}
	return record.Build(0, -1, record.NoProducer(), recs)
}

// offsetEntries decodes an .index file.
func offsetEntries(t *testing.T, d *Disk, p string, base int64) []OffsetPosition {
	t.Helper()
	data := fileContent(t, d, p)
	var out []OffsetPosition
	for i := 0; i+8 <= len(data); i += 8 {
		rel, pos := int32(binary.BigEndian.Uint32(data[i:])), int32(binary.BigEndian.Uint32(data[i+4:]))
		if rel == 0 && pos == 0 && i > 0 {
			break // the preallocated zeros after the last entry
		}
		out = append(out, OffsetPosition{base + int64(rel), pos})
	}
	return out
}

// timeEntries decodes a .timeindex file.
func timeEntries(t *testing.T, d *Disk, p string, base int64) []TimestampOffset {
	t.Helper()
	data := fileContent(t, d, p)
	var out []TimestampOffset
	for i := 0; i+12 <= len(data); i += 12 {
		ts, rel := int64(binary.BigEndian.Uint64(data[i:])), int32(binary.BigEndian.Uint32(data[i+8:]))
		if ts == 0 && rel == 0 {
			break
		}
		out = append(out, TimestampOffset{ts, base + int64(rel)})
	}
	return out
}

// A worked example of LogSegment.append's rule. Every append is one
// 1-record batch of 76 bytes; index.interval.bytes is 100. Before each
// append the segment compares the bytes appended since the last entry
// (not counting this append) with the interval:
//
//	append  offset  position  bytes since last entry  entry?
//	0       0       0         0                       no
//	1       1       76        76                      no
//	2       2       152       152 > 100               (2, 152), then 0
//	3       3       228       76                      no
//	4       4       304       152 > 100               (4, 304)
//	5       5       380       76                      no
//	6       6       456       152 > 100               (6, 456)
//
// The time index gets an entry with each offset entry, for the largest
// timestamp so far (this append's included) and the last offset of the
// batch that has it.
func TestOffsetIndexEntriesFollowIndexIntervalBytes(t *testing.T) {
	d, _ := newTestDisk()
	cfg := DefaultLogConfig
	cfg.IndexIntervalBytes = 100
	l := mustCreate(t, d, cfg)
	size := len(tsBatch(1, 0))
	if size != 76 {
		t.Fatalf("a 1-record batch is %d bytes; the worked example assumes 76", size)
	}
	for i := range 7 {
		mustLeaderAppend(t, l, tsBatch(1, 5000+int64(i)), 0)
	}
	seg := l.Segments()[0]
	want := []OffsetPosition{{2, 152}, {4, 304}, {6, 456}}
	if got := offsetEntries(t, d, seg.IndexPath(), 0); !reflect.DeepEqual(got, want) {
		t.Fatalf(".index entries %v, want %v", got, want)
	}
	wantTime := []TimestampOffset{{5002, 2}, {5004, 4}, {5006, 6}}
	if got := timeEntries(t, d, seg.TimeIndexPath(), 0); !reflect.DeepEqual(got, wantTime) {
		t.Fatalf(".timeindex entries %v, want %v", got, wantTime)
	}
	// Entries are big-endian: relative offset then position.
	raw := fileContent(t, d, seg.IndexPath())[:8]
	if fmt.Sprintf("% x", raw) != "00 00 00 02 00 00 00 98" {
		t.Fatalf("first entry bytes % x", raw)
	}
	// One append of several batches gets one entry: its last offset and
	// the position where the append starts.
	d2, _ := newTestDisk()
	l2 := mustCreate(t, d2, cfg)
	mustLeaderAppend(t, l2, tsBatch(1, 1), 0)
	mustLeaderAppend(t, l2, tsBatch(1, 1), 0)
	multi := append(tsBatch(1, 2), tsBatch(1, 3)...)
	mustLeaderAppend(t, l2, multi, 0) // offsets 2 and 3 at position 152
	if got := offsetEntries(t, d2, l2.Segments()[0].IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{3, 152}}) {
		t.Fatalf("multi-batch append: entries %v, want [{3 152}]", got)
	}
	// The time index only grows: an append with older timestamps adds no
	// time entry even when it adds an offset entry (152 bytes since the
	// last: entry (4, 304)).
	mustLeaderAppend(t, l2, tsBatch(1, 1), 0)
	if got := offsetEntries(t, d2, l2.Segments()[0].IndexPath(), 0); !reflect.DeepEqual(got, []OffsetPosition{{3, 152}, {4, 304}}) {
		t.Fatalf("entries %v, want [{3 152} {4 304}]", got)
	}
	if got := timeEntries(t, d2, l2.Segments()[0].TimeIndexPath(), 0); !reflect.DeepEqual(got, []TimestampOffset{{3, 3}}) {
		t.Fatalf("time entries %v, want [{3 3}] only", got)
	}
}

// The active segment's index files are preallocated to segment.index.bytes
// (rounded down to whole entries) as sparse files; a roll trims the closed
// segment's files to their entries and adds the largest timestamp to its
// time index; a clean close trims the active one, and opening the log again
// preallocates it again.
func TestIndexFilesArePreallocatedAndTrimmed(t *testing.T) {
	d, _ := newTestDisk()
	size := int64(len(tsBatch(1, 0)))
	l := mustCreate(t, d, withSegmentBytes(2*size))
	seg := l.Segments()[0]
	for p, want := range map[string]int64{seg.IndexPath(): 10485760, seg.TimeIndexPath(): 10485756} {
		if sz, err := d.Size(p); err != nil || sz != want {
			t.Fatalf("%s: %d bytes (%v), want %d", p, sz, err, want)
		}
	}
	if d.Bytes() > 1000 {
		t.Fatalf("preallocated indexes take %d bytes of disk", d.Bytes())
	}
	mustLeaderAppend(t, l, tsBatch(1, 100), 0)
	mustLeaderAppend(t, l, tsBatch(1, 300), 0)
	mustLeaderAppend(t, l, tsBatch(1, 200), 0) // rolls: segment 2
	if sz, _ := d.Size(seg.IndexPath()); sz != 0 {
		t.Fatalf("closed .index %d bytes, want 0 (no entry)", sz)
	}
	if got := timeEntries(t, d, seg.TimeIndexPath(), 0); !reflect.DeepEqual(got, []TimestampOffset{{300, 1}}) {
		t.Fatalf("closed .timeindex %v, want the largest timestamp [{300 1}]", got)
	}
	if sz, _ := d.Size(seg.TimeIndexPath()); sz != 12 {
		t.Fatalf("closed .timeindex %d bytes, want 12", sz)
	}
	active := l.Segments()[1]
	if sz, _ := d.Size(active.IndexPath()); sz != 10485760 {
		t.Fatalf("new active .index %d bytes", sz)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if sz, _ := d.Size(active.IndexPath()); sz != 0 {
		t.Fatalf("closed active .index %d bytes", sz)
	}
	if sz, _ := d.Size(active.TimeIndexPath()); sz != 12 {
		t.Fatalf("closed active .timeindex %d bytes, want its one entry", sz)
	}
	l2, rep := mustOpen(t, d, 3, 3, 0, true)
	if len(rep.RebuiltIndexes) != 0 {
		t.Fatalf("a clean start rebuilt indexes %v", rep.RebuiltIndexes)
	}
	if sz, _ := d.Size(l2.Segments()[1].IndexPath()); sz != 10485760 {
		t.Fatalf("reopened active .index %d bytes, want it preallocated", sz)
	}
	if ts, _ := l2.Segments()[0].LargestTimestamp(); ts != 300 {
		t.Fatalf("largest timestamp after reopening %d, want 300 from the time index", ts)
	}
}

// Index files appear when a segment is first used, as Kafka's LazyIndex
// creates them: a log truncated fully starts with a bare .log.
func TestIndexFilesAppearOnFirstUse(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(2), 0)
	if err := l.TruncateFullyAndStartAt(10); err != nil {
		t.Fatal(err)
	}
	seg := l.Segments()[0]
	if d.Exists(seg.IndexPath()) || d.Exists(seg.TimeIndexPath()) {
		t.Fatal("index files exist before the segment was used")
	}
	if _, err := l.AppendAsFollower(batchAt(10, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if !d.Exists(seg.IndexPath()) || !d.Exists(seg.TimeIndexPath()) {
		t.Fatal("index files missing after an append")
	}
}

// A read finds its start through the offset index and a scan of batch
// headers from there; for every start offset it returns what a scan of the
// batches from the segment's start would.
func TestIndexLookupEqualsScan(t *testing.T) {
	for _, interval := range []int64{0, 50, 100, 300, 4096} {
		d, _ := newTestDisk()
		cfg := withSegmentBytes(1000)
		cfg.IndexIntervalBytes = interval
		l := mustCreate(t, d, cfg)
		r := sim.NewRand(uint64(interval), "lookup")
		for range 60 {
			mustLeaderAppend(t, l, producerBatch(1+r.Intn(4)), 0)
		}
		for start := l.LogStartOffset(); start < l.LogEndOffset(); start++ {
			got := mustRead(t, l, start, 1<<20, l.LogEndOffset(), true)
			seg := l.segments[l.floorSegment(start)]
			file := fileContent(t, d, seg.Path)
			i := seg.find(start)
			if i == seg.NumBatches() {
				t.Fatalf("interval %d: no batch for %d in its segment", interval, start)
			}
			want := file[seg.Batch(i).Position:seg.Size]
			if string(got) != string(want) {
				t.Fatalf("interval %d: Read(%d) = %d bytes, the scan finds %d from position %d", interval, start, len(got), len(want), seg.Batch(i).Position)
			}
			at, ok, err := seg.translateOffset(start)
			if err != nil || !ok || at.position != int64(seg.Batch(i).Position) {
				t.Fatalf("interval %d: translateOffset(%d) = %+v %v %v", interval, start, at, ok, err)
			}
		}
		if interval == 0 {
			// Every append after the first in a segment has an entry.
			seg := l.Segments()[0]
			if n := len(offsetEntries(t, d, seg.IndexPath(), seg.BaseOffset)); n == 0 || n != seg.NumBatches()-1 {
				t.Fatalf("interval 0: %d entries for %d batches", n, seg.NumBatches())
			}
		}
	}
}

// A segment's index files sit next to its .log, named by the base offset.
func TestSegmentIndexFileNames(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	seg := l.Segments()[0]
	if seg.IndexPath() != path.Join(l.Dir(), "00000000000000000000.index") || seg.TimeIndexPath() != path.Join(l.Dir(), "00000000000000000000.timeindex") {
		t.Fatalf("index paths %s, %s", seg.IndexPath(), seg.TimeIndexPath())
	}
}
