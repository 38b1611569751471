package storage

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func mustOpen(t *testing.T, d *Disk, rp, hw, start int64, clean bool) (*Log, RecoveryReport) {
	t.Helper()
	l, rep, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, rp, hw, start, clean)
	if err != nil {
		t.Fatalf("OpenLog: %v", err)
	}
	checkInvariants(t, l)
	return l, rep
}

// threeBatches: a log with batches [0..2] (epoch 0), [3..4] (epoch 1),
// [5..9] (epoch 1), flushed. It returns the batch sizes.
func threeBatches(t *testing.T, d *Disk) (*Log, []int) {
	t.Helper()
	l := mustCreate(t, d, DefaultLogConfig)
	var sizes []int
	for i, n := range []int{3, 2, 5} {
		b := producerBatch(n)
		sizes = append(sizes, len(b))
		mustLeaderAppend(t, l, b, int32(min(i, 1)))
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	return l, sizes
}

func TestOpenLogAfterCleanShutdown(t *testing.T) {
	d, _ := newTestDisk()
	orig, _ := threeBatches(t, d)
	before := mustRead(t, orig, 0, 1<<20, 10, true)
	l, rep := mustOpen(t, d, 0, 5, -1, true)
	if rep.Recovered || rep.TruncatedBytes != 0 {
		t.Fatalf("clean shutdown report %+v: nothing should be recovered", rep)
	}
	if l.LogEndOffset() != 10 || l.HighWatermark() != 5 || l.LogStartOffset() != 0 || l.RecoveryPoint() != 10 {
		t.Fatalf("LEO %d HW %d start %d RP %d", l.LogEndOffset(), l.HighWatermark(), l.LogStartOffset(), l.RecoveryPoint())
	}
	if l.TopicID() != "AAAAAAAAAAAAAAAAAAAAAQ" {
		t.Fatalf("topic id %q from partition.metadata", l.TopicID())
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {1 3}]" {
		t.Fatalf("epoch cache %s", got)
	}
	if got := mustRead(t, l, 0, 1<<20, 10, true); !bytes.Equal(got, before) {
		t.Fatal("reopened log reads different bytes")
	}
	if got := spans(t, mustRead(t, l, 4, 1<<20, 10, true)); !reflect.DeepEqual(got, []span{{3, 4}, {5, 9}}) {
		t.Fatalf("index rebuilt wrongly: Read(4) = %v", got)
	}
	info := mustLeaderAppend(t, l, producerBatch(1), 1)
	if info.FirstOffset != 10 {
		t.Fatalf("append after reopen at %d", info.FirstOffset)
	}
	checkInvariants(t, l)
}

func TestOpenLogAfterCrashWithIntactData(t *testing.T) {
	d, _ := newTestDisk()
	threeBatches(t, d)
	l, rep := mustOpen(t, d, 3, 10, 0, false)
	if !rep.Recovered || rep.TruncatedBytes != 0 || rep.Reason != "" {
		t.Fatalf("report %+v: recovery ran and found nothing wrong", rep)
	}
	if l.LogEndOffset() != 10 {
		t.Fatalf("LEO %d", l.LogEndOffset())
	}
	// Kafka only moves the recovery point on a flush, never on recovery.
	if l.RecoveryPoint() != 3 {
		t.Fatalf("recovery point %d, want the checkpointed 3", l.RecoveryPoint())
	}
	// An absent recovery point (-1) means recover everything.
	l, rep = mustOpen(t, d, -1, 10, 0, false)
	if !rep.Recovered || l.RecoveryPoint() != 0 {
		t.Fatalf("rp -1: report %+v, RP %d", rep, l.RecoveryPoint())
	}
}

func TestOpenLogCutsTornTail(t *testing.T) {
	d, _ := newTestDisk()
	l, _ := threeBatches(t, d)
	seg := l.Segments()[0].Path
	intact := fileContent(t, d, seg)
	next := batchAt(10, 1, 4)
	for _, cut := range []int{len(next) / 2, 7, 12, 20, 61, len(next) - 1} {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			if err := d.WriteFile(seg, intact); err != nil {
				t.Fatal(err)
			}
			if err := d.Append(seg, next[:cut]); err != nil {
				t.Fatal(err)
			}
			l, rep := mustOpen(t, d, 10, 10, 0, false)
			if !rep.Recovered || rep.TruncatedBytes != int64(cut) {
				t.Fatalf("report %+v, want %d bytes truncated", rep, cut)
			}
			if !strings.Contains(rep.Reason, "truncated") {
				t.Fatalf("reason %q does not say the batch was cut short", rep.Reason)
			}
			if got := fileContent(t, d, seg); !bytes.Equal(got, intact) {
				t.Fatalf("file is %d bytes after recovery, want the intact %d", len(got), len(intact))
			}
			if l.LogEndOffset() != 10 {
				t.Fatalf("LEO %d", l.LogEndOffset())
			}
			// The next append lands right after the last whole batch.
			mustLeaderAppend(t, l, producerBatch(1), 1)
			if got := spans(t, mustRead(t, l, 0, 1<<20, 11, true)); !reflect.DeepEqual(got, []span{{0, 2}, {3, 4}, {5, 9}, {10, 10}}) {
				t.Fatalf("after recovery and append: %v", got)
			}
		})
	}
}

func TestOpenLogCleanShutdownWithTornTailIsAnError(t *testing.T) {
	d, _ := newTestDisk()
	l, _ := threeBatches(t, d)
	if err := d.Append(l.Segments()[0].Path, batchAt(10, 1, 1)[:30]); err != nil {
		t.Fatal(err)
	}
	_, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 10, 10, 0, true)
	if err == nil || !strings.Contains(err.Error(), "corrupt after a clean shutdown") {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenLogTruncatesCorruptLastBatch(t *testing.T) {
	d, _ := newTestDisk()
	l, sizes := threeBatches(t, d)
	seg := l.Segments()[0].Path
	// Flip one byte in the last record's value of the last batch.
	end := int64(sizes[0] + sizes[1] + sizes[2])
	if err := d.WriteAt(seg, end-3, []byte{'X'}); err != nil {
		t.Fatal(err)
	}
	l2, rep := mustOpen(t, d, 0, 10, 0, false)
	if rep.TruncatedBytes != int64(sizes[2]) || !strings.Contains(rep.Reason, "crc") {
		t.Fatalf("report %+v, want %d bytes cut for a CRC mismatch", rep, sizes[2])
	}
	if l2.LogEndOffset() != 5 || l2.HighWatermark() != 5 {
		t.Fatalf("LEO %d HW %d, want 5", l2.LogEndOffset(), l2.HighWatermark())
	}
	if sz, _ := d.Size(seg); sz != int64(sizes[0]+sizes[1]) {
		t.Fatalf("segment %d bytes", sz)
	}
	// Epoch 1 still starts at 3 (batch [3..4] survived).
	if got := fmt.Sprint(l2.Epochs().Entries()); got != "[{0 0} {1 3}]" {
		t.Fatalf("epoch cache %s", got)
	}
}

func TestOpenLogCorruptMiddleBatchCutsEverythingAfter(t *testing.T) {
	d, _ := newTestDisk()
	l, sizes := threeBatches(t, d)
	// A byte inside batch [3..4]'s CRC-covered region.
	if err := d.WriteAt(l.Segments()[0].Path, int64(sizes[0]+30), []byte{0xEE}); err != nil {
		t.Fatal(err)
	}
	l2, rep := mustOpen(t, d, 0, 10, 0, false)
	if l2.LogEndOffset() != 3 || rep.TruncatedBytes != int64(sizes[1]+sizes[2]) {
		t.Fatalf("LEO %d, report %+v", l2.LogEndOffset(), rep)
	}
	if got := fmt.Sprint(l2.Epochs().Entries()); got != "[{0 0}]" {
		t.Fatalf("epoch cache %s: epoch 1 started at 3, beyond the new LEO", got)
	}
}

func TestOpenLogCorruptionInEarlierSegmentDropsLaterSegments(t *testing.T) {
	d, l, size := rollFixture(t) // segments 0: [0][1], 2: [2][3], 4: [4]
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteAt(l.Segments()[1].Path, int64(size+40), []byte{0xEE}); err != nil { // batch [3]
		t.Fatal(err)
	}
	l2, rep := mustOpen(t, d, 0, 5, 0, false)
	if l2.LogEndOffset() != 3 {
		t.Fatalf("LEO %d, want 3", l2.LogEndOffset())
	}
	if rep.TruncatedBytes != int64(2*size) {
		t.Fatalf("truncated %d bytes, want %d (batch 3 and segment 4)", rep.TruncatedBytes, 2*size)
	}
	if got := segmentFiles(d, l2.Dir()); !reflect.DeepEqual(got, []string{"00000000000000000000.log", "00000000000000000002.log"}) {
		t.Fatalf("segment files %v", got)
	}
	if l2.HighWatermark() != 3 {
		t.Fatalf("HW %d not clamped to the LEO", l2.HighWatermark())
	}
}

// A batch whose offsets do not increase is invalid on recovery: it must be
// cut off together with everything after it, and the report must count its
// bytes. (Scan counts a batch its callback refuses in validBytes, so the
// caller must not take validBytes as the cut point in that case.)
func TestOpenLogCutsBatchWithOffsetsOutOfOrder(t *testing.T) {
	for _, trailing := range []bool{false, true} {
		t.Run(fmt.Sprintf("followed by another batch: %v", trailing), func(t *testing.T) {
			d, _ := newTestDisk()
			l, sizes := threeBatches(t, d)
			seg := l.Segments()[0].Path
			good := int64(sizes[0] + sizes[1] + sizes[2])
			bad := batchAt(3, 1, 1) // offset 3 again, after offset 9
			if err := d.Append(seg, bad); err != nil {
				t.Fatal(err)
			}
			want := int64(len(bad))
			if trailing {
				more := batchAt(10, 1, 1)
				if err := d.Append(seg, more); err != nil {
					t.Fatal(err)
				}
				want += int64(len(more))
			}
			l2, rep, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 10, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			if l2.LogEndOffset() != 10 {
				t.Errorf("LEO %d, want 10", l2.LogEndOffset())
			}
			if sz, _ := d.Size(seg); sz != good {
				t.Errorf("segment is %d bytes after recovery, want %d (the out-of-order batch must go)", sz, good)
			}
			if rep.TruncatedBytes != want {
				t.Errorf("TruncatedBytes %d, want %d", rep.TruncatedBytes, want)
			}
			if rep.Reason != "offsets out of order" {
				t.Errorf("reason %q", rep.Reason)
			}
			checkInvariants(t, l2)
			// What is appended after recovery must survive the next recovery.
			info := mustLeaderAppend(t, l2, producerBatch(2), 2)
			if err := l2.Flush(); err != nil {
				t.Fatal(err)
			}
			l3, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 10, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			if l3.LogEndOffset() != info.LastOffset+1 {
				t.Errorf("flushed append [%d..%d] lost by the next recovery: LEO %d", info.FirstOffset, info.LastOffset, l3.LogEndOffset())
			}
		})
	}
}

func TestOpenLogAfterPowerLoss(t *testing.T) {
	s := time.Second
	// The log dir is created at 0 and its empty segment is written back by
	// 30s; the appends happen at 40s, so they are dirty until 70s.
	setup := func(t *testing.T) (*Disk, *testClock, *Log) {
		d, clk := newTestDisk()
		l := mustCreate(t, d, DefaultLogConfig)
		clk.at(40 * s)
		mustLeaderAppend(t, l, producerBatch(3), 0)
		mustLeaderAppend(t, l, producerBatch(2), 0)
		return d, clk, l
	}
	t.Run("unflushed writes are lost", func(t *testing.T) {
		d, clk, _ := setup(t)
		clk.at(50 * s)
		d.PowerLoss()
		l, rep := mustOpen(t, d, 0, 5, 0, false)
		if l.LogEndOffset() != 0 || l.HighWatermark() != 0 || !rep.Recovered {
			t.Fatalf("LEO %d HW %d report %+v; the data was never flushed", l.LogEndOffset(), l.HighWatermark(), rep)
		}
		if len(l.Epochs().Entries()) != 0 {
			t.Fatalf("epoch cache %v: its entry starts at 0, beyond nothing", l.Epochs().Entries())
		}
		if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n0\n" {
			t.Fatalf("checkpoint not rewritten after trimming: %q", got)
		}
	})
	t.Run("fsynced writes are kept", func(t *testing.T) {
		d, clk, l := setup(t)
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
		clk.at(50 * s)
		mustLeaderAppend(t, l, producerBatch(4), 2) // 5..8, unflushed
		d.PowerLoss()
		l2, _ := mustOpen(t, d, 5, 9, 0, false)
		if l2.LogEndOffset() != 5 {
			t.Fatalf("LEO %d, want the flushed 5", l2.LogEndOffset())
		}
		if l2.HighWatermark() != 5 {
			t.Fatalf("HW %d not clamped to LEO 5", l2.HighWatermark())
		}
		// The checkpoint knew epoch 2 at 5 (written durably) but the data is
		// gone, so the entry goes.
		if got := fmt.Sprint(l2.Epochs().Entries()); got != "[{0 0}]" {
			t.Fatalf("epoch cache %s", got)
		}
	})
	t.Run("writeback saves the data after 30 s", func(t *testing.T) {
		d, clk, _ := setup(t)
		clk.at(70 * s)
		d.PowerLoss()
		l, _ := mustOpen(t, d, 0, 5, 0, false)
		if l.LogEndOffset() != 5 {
			t.Fatalf("LEO %d, want 5", l.LogEndOffset())
		}
	})
	t.Run("a process crash keeps the page cache", func(t *testing.T) {
		d, clk, _ := setup(t)
		clk.at(41 * s)
		l, _ := mustOpen(t, d, 0, 5, 0, false)
		if l.LogEndOffset() != 5 {
			t.Fatalf("LEO %d, want 5", l.LogEndOffset())
		}
	})
	t.Run("segment file never flushed, its creation committed", func(t *testing.T) {
		d, clk := newTestDisk()
		l := mustCreate(t, d, DefaultLogConfig)
		mustLeaderAppend(t, l, producerBatch(3), 0)
		clk.at(10 * s) // the journal committed the creation (by 5 s); the data was never written back
		d.PowerLoss()
		if got := segmentFiles(d, l.Dir()); !slices.Contains(got, "00000000000000000000.log") {
			t.Fatalf("the segment file is gone (files %v): its creation was committed", got)
		}
		if n, _ := d.Size(l.Dir() + "/00000000000000000000.log"); n != 0 {
			t.Fatalf("the segment file holds %d bytes after the power loss, want 0", n)
		}
		l2, _ := mustOpen(t, d, 0, 0, -1, false)
		if l2.LogEndOffset() != 0 || len(l2.Segments()) != 1 {
			t.Fatalf("LEO %d, %d segments", l2.LogEndOffset(), len(l2.Segments()))
		}
	})
}

func TestOpenLogClampsHighWatermarkAndLogStart(t *testing.T) {
	cases := []struct {
		hw, start         int64
		wantHW, wantStart int64
	}{
		{5, 0, 5, 0},
		{15, 0, 10, 0},  // HW beyond the LEO
		{-1, -1, 0, 0},  // no checkpoints
		{2, 4, 4, 4},    // HW below the log start
		{8, 4, 8, 4},    // log start inside the first segment is kept
		{8, 12, 12, 12}, // the log ends below its start: Kafka deletes it and starts at 12
		{10, 10, 10, 10},
	}
	for _, c := range cases {
		d, _ := newTestDisk()
		threeBatches(t, d)
		l, _ := mustOpen(t, d, 10, c.hw, c.start, true)
		if l.HighWatermark() != c.wantHW || l.LogStartOffset() != c.wantStart {
			t.Errorf("hw %d start %d: got HW %d start %d, want HW %d start %d",
				c.hw, c.start, l.HighWatermark(), l.LogStartOffset(), c.wantHW, c.wantStart)
		}
	}
	// A recovery point beyond the LEO is clamped too.
	d, _ := newTestDisk()
	threeBatches(t, d)
	l, _ := mustOpen(t, d, 50, 10, 0, false)
	if l.RecoveryPoint() != 10 {
		t.Errorf("recovery point %d, want it clamped to 10", l.RecoveryPoint())
	}
}

func TestOpenLogWithNoSegmentsStartsAtLogStart(t *testing.T) {
	d, _ := newTestDisk()
	d.MkdirAll(path.Join(testLogDir, "foo-0"))
	l, _ := mustOpen(t, d, 0, 0, 50, false)
	if l.LogStartOffset() != 50 || l.LogEndOffset() != 50 || l.HighWatermark() != 50 {
		t.Fatalf("start %d LEO %d HW %d", l.LogStartOffset(), l.LogEndOffset(), l.HighWatermark())
	}
	if got := segmentFiles(d, l.Dir()); !reflect.DeepEqual(got, []string{"00000000000000000050.log"}) {
		t.Fatalf("segment files %v", got)
	}
	if l.TopicID() != "" {
		t.Fatalf("topic id %q without partition.metadata", l.TopicID())
	}
}

func TestOpenLogMultipleSegments(t *testing.T) {
	d, l, _ := rollFixture(t)
	before := mustRead(t, l, 0, 1<<20, 5, true)
	for _, clean := range []bool{true, false} {
		l2, rep := mustOpen(t, d, 4, 5, 0, clean)
		if rep.TruncatedBytes != 0 || l2.LogEndOffset() != 5 || len(l2.Segments()) != 3 {
			t.Fatalf("clean %v: report %+v, LEO %d, %d segments", clean, rep, l2.LogEndOffset(), len(l2.Segments()))
		}
		if got := mustRead(t, l2, 0, 1<<20, 5, true); !bytes.Equal(got, before) {
			t.Fatalf("clean %v: bytes differ after reopening", clean)
		}
		if got := spans(t, mustRead(t, l2, 3, 1<<20, 5, true)); !reflect.DeepEqual(got, []span{{3, 3}}) {
			t.Fatalf("clean %v: Read(3) = %v (a read ends with its segment)", clean, got)
		}
		if bs, err := l2.Batches(0, 5); err != nil || len(bs) != 5 {
			t.Fatalf("clean %v: Batches(0, 5) = %d batches, %v", clean, len(bs), err)
		}
	}
}

func TestOpenLogLearnsEpochsMissingFromCheckpoint(t *testing.T) {
	d, _ := newTestDisk()
	l, _ := threeBatches(t, d)
	// An old checkpoint that only knows epoch 0.
	if err := d.WriteFileDurable(path.Join(l.Dir(), LeaderEpochCheckpointFile), []byte("0\n1\n0 0\n")); err != nil {
		t.Fatal(err)
	}
	l2, _ := mustOpen(t, d, 10, 10, 0, true)
	if got := fmt.Sprint(l2.Epochs().Entries()); got != "[{0 0} {1 3}]" {
		t.Fatalf("epoch cache %s, want epoch 1 learnt from the batches", got)
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n2\n0 0\n1 3\n" {
		t.Fatalf("checkpoint %q", got)
	}
	// A checkpoint that cannot be parsed is rebuilt from the batches.
	if err := d.WriteFileDurable(path.Join(l.Dir(), LeaderEpochCheckpointFile), []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	l3, _ := mustOpen(t, d, 10, 10, 0, true)
	if got := fmt.Sprint(l3.Epochs().Entries()); got != "[{0 0} {1 3}]" {
		t.Fatalf("epoch cache %s after a bad checkpoint", got)
	}
}

// KIP-101 scenario 2, in storage terms: A led epoch 0
// with m1@0 and m2@1; B holds only m1. B leads epoch 1 and writes m3@1. A
// asks B for the end of epoch 0, gets 1, truncates there and refetches:
// both logs end up byte-identical, m2 gone.
func TestKIP101DivergentLogsConverge(t *testing.T) {
	dA, _ := newTestDisk()
	dB, _ := newTestDisk()
	a := mustCreate(t, dA, DefaultLogConfig)
	b := mustCreate(t, dB, DefaultLogConfig)
	mustLeaderAppend(t, a, producerBatch(1), 0) // m1@0
	if _, err := b.AppendAsFollower(mustRead(t, a, 0, 1<<20, 1, true)); err != nil {
		t.Fatal(err)
	}
	mustLeaderAppend(t, a, producerBatch(1), 0) // m2@1, never reaches B
	if err := b.AssignEpoch(1); err != nil {
		t.Fatal(err)
	}
	mustLeaderAppend(t, b, producerBatch(1), 1) // m3@1
	e, end := b.EndOffsetForEpoch(a.LatestEpoch())
	if e != 0 || end != 1 {
		t.Fatalf("leader's end of epoch 0 = (%d, %d), want (0, 1)", e, end)
	}
	fe, fEnd := a.EndOffsetForEpoch(e)
	if fe != e {
		t.Fatalf("follower's own epoch for %d is %d", e, fe)
	}
	if err := a.TruncateTo(min(end, fEnd, a.LogEndOffset())); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AppendAsFollower(mustRead(t, b, a.LogEndOffset(), 1<<20, b.LogEndOffset(), true)); err != nil {
		t.Fatal(err)
	}
	ra := mustRead(t, a, 0, 1<<20, a.LogEndOffset(), true)
	rb := mustRead(t, b, 0, 1<<20, b.LogEndOffset(), true)
	if !bytes.Equal(ra, rb) {
		t.Fatal("logs differ after truncation and refetch")
	}
	if fmt.Sprint(a.Epochs().Entries()) != "[{0 0} {1 1}]" || fmt.Sprint(b.Epochs().Entries()) != "[{0 0} {1 1}]" {
		t.Fatalf("epoch caches %v and %v", a.Epochs().Entries(), b.Epochs().Entries())
	}
}

// A follower truncates a batch of epoch 0 that the leader of epoch 1 does
// not have, then appends epoch 1's batch at the same offset; the epoch
// checkpoint (fsynced) now says epoch 1 starts there. Power is lost before
// the new batch is written back. The truncation must not come back while
// the checkpoint written after it survives: that left a batch of epoch 0
// where the cache says epoch 1 starts, so the replica's last fetched epoch
// (1) hid the divergence from the leader for good (found by TestChaos,
// seeds 245 and 275).
func TestPowerLossAfterFollowerTruncationKeepsLogAndEpochsConsistent(t *testing.T) {
	s := time.Second
	d, clk := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 0) // 0..2, epoch 0
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	clk.at(40 * s)
	mustLeaderAppend(t, l, producerBatch(2), 0) // 3..4, epoch 0: dirty
	clk.at(70 * s)                              // written back
	clk.at(80 * s)
	if err := l.TruncateTo(3); err != nil { // the new leader's epoch 1 starts at 3
		t.Fatal(err)
	}
	if _, err := l.AppendAsFollower(batchAt(3, 1, 4)); err != nil { // 3..6, epoch 1
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {1 3}]" {
		t.Fatalf("setup: epochs %s", got)
	}
	clk.at(81 * s)
	d.PowerLoss()
	l2, _ := mustOpen(t, d, 3, 3, 0, false)
	if l2.LogEndOffset() != 3 {
		t.Fatalf("LEO %d after the power loss, want 3: the truncation was committed by the checkpoint's fsync, the epoch-1 batch never flushed", l2.LogEndOffset())
	}
	if got := fmt.Sprint(l2.Epochs().Entries()); got != "[{0 0}]" {
		t.Fatalf("epoch cache %s, want [{0 0}]", got)
	}
	for _, b := range decodeAll(t, mustRead(t, l2, 0, 1<<20, l2.LogEndOffset(), true)) {
		if e := l2.Epochs().EpochForOffset(b.BaseOffset); e != b.PartitionLeaderEpoch {
			t.Fatalf("batch at %d has epoch %d, the cache says %d", b.BaseOffset, b.PartitionLeaderEpoch, e)
		}
	}
}

// A Log object of a broker that is gone still indexes the batches it wrote;
// after a power loss reverted the files, reading it must fail, not panic
// (the cluster's loss record reads a dead broker's log; TestChaos seeds 62,
// 348 and 850 crashed the simulation there).
func TestReadOfStaleLogAfterPowerLossFails(t *testing.T) {
	d, clk := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 0)
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	mustLeaderAppend(t, l, producerBatch(2), 0) // 3..4, unflushed
	clk.at(time.Second)
	d.PowerLoss()
	data, err := l.Read(0, 1<<20, 5, true)
	if !errors.Is(err, ErrSegmentShorterThanIndex) {
		t.Fatalf("Read of the stale log: %v, want ErrSegmentShorterThanIndex", err)
	}
	if got := spans(t, data); !reflect.DeepEqual(got, []span{{0, 2}}) {
		t.Fatalf("read %v before the missing batch, want [{0 2}]", got)
	}
	if _, err := l.Batches(0, 5); err == nil {
		t.Fatal("Batches of the stale log succeeded")
	}
}

// A batch whose offset is more than 2^31-1 past its segment's base cannot
// be in the segment (its .index could not address it; a segment rolls
// before that): recovery cuts it off like a batch out of order.
func TestOpenLogCutsBatchBeyondTheIndexRange(t *testing.T) {
	d, _ := newTestDisk()
	l, sizes := threeBatches(t, d)
	seg := l.Segments()[0].Path
	good := int64(sizes[0] + sizes[1] + sizes[2])
	bad := batchAt(1<<31, 1, 1)
	if err := d.Append(seg, bad); err != nil {
		t.Fatal(err)
	}
	l2, rep, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 10, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if l2.LogEndOffset() != 10 || rep.TruncatedBytes != int64(len(bad)) || rep.Reason != "offset beyond the segment's index range" {
		t.Errorf("LEO %d, cut %d bytes (want %d): %q", l2.LogEndOffset(), rep.TruncatedBytes, len(bad), rep.Reason)
	}
	if sz, _ := d.Size(seg); sz != good {
		t.Errorf("segment is %d bytes after recovery, want %d", sz, good)
	}
	checkInvariants(t, l2)
}
