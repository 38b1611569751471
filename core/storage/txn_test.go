package storage

import (
	"errors"
	"slices"
	"testing"

	"kafkascope/core/record"
)

// txnBatch is a transactional producer's batch of n records.
func txnBatch(pid int64, epoch int16, firstSeq int32, n int) []byte {
	data := idemBatch(pid, epoch, firstSeq, n)
	b, _, err := record.Decode(data)
	if err != nil {
		panic(err)
	}
	b.Attributes |= record.TransactionalFlagMask
	return b.AppendTo(nil)
}

func marker(t *testing.T, l *Log, pid int64, epoch int16, typ record.ControlType, coordinatorEpoch int32) {
	t.Helper()
	if _, err := l.AppendMarkerAsLeader(pid, epoch, record.EndTxnMarker{Type: typ, CoordinatorEpoch: coordinatorEpoch}, 2000, 0); err != nil {
		t.Fatalf("marker for %d: %v", pid, err)
	}
}

func lso(t *testing.T, l *Log) int64 {
	t.Helper()
	v, err := l.LastStableOffset()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Two producers' transactions interleave: the LSO stays at the first
// offset of the earliest one still open (or completed above the HW); an
// aborted transaction's index entry records the LSO when it completed;
// rebuilding the producer state from the log, and truncating it, give the
// same answers (UnifiedLogTest's LSO and aborted-transaction tests).
func TestTransactionsLastStableOffsetAndAbortedIndex(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, txnBatch(1, 0, 0, 2), 0)  // 0-1: producer 1 opens at 0
	mustLeaderAppend(t, l, idemBatch(9, 0, 0, 1), 0) // 2: not transactional
	mustLeaderAppend(t, l, txnBatch(2, 0, 0, 1), 0)  // 3: producer 2 opens at 3
	mustLeaderAppend(t, l, txnBatch(3, 0, 0, 1), 0)  // 4: producer 3 opens at 4
	l.UpdateHighWatermark(5)
	if got := lso(t, l); got != 0 {
		t.Fatalf("LSO %d with producer 1's transaction open at 0", got)
	}
	marker(t, l, 1, 0, record.ControlCommit, 0) // 5
	l.UpdateHighWatermark(6)
	if got := lso(t, l); got != 3 {
		t.Fatalf("LSO %d after producer 1 committed, producer 2 open at 3", got)
	}
	marker(t, l, 2, 0, record.ControlAbort, 0) // 6: producer 3 still open at 4
	if got := lso(t, l); got != 3 {
		t.Fatalf("LSO %d with producer 2's abort marker above the HW", got)
	}
	l.UpdateHighWatermark(7)
	if got := lso(t, l); got != 4 {
		t.Fatalf("LSO %d once the HW passed producer 2's marker", got)
	}
	marker(t, l, 3, 0, record.ControlAbort, 0) // 7
	l.UpdateHighWatermark(8)
	if got := lso(t, l); got != 8 {
		t.Fatalf("LSO %d once the HW passed every marker", got)
	}
	want := []AbortedTxn{{ProducerID: 2, FirstOffset: 3, LastOffset: 6, LastStableOffset: 4}, {ProducerID: 3, FirstOffset: 4, LastOffset: 7, LastStableOffset: 8}}
	if got, err := l.AbortedTxns(0, 8); err != nil || !slices.Equal(got, want) {
		t.Fatalf("aborted %v, %v; want %v", got, err, want)
	}
	if got, _ := l.AbortedTxns(7, 8); !slices.Equal(got, want[1:]) {
		t.Fatalf("aborted from 7: %v", got)
	}
	if got, _ := l.AbortedTxns(0, 4); !slices.Equal(got, want[:1]) {
		t.Fatalf("aborted below 4: %v (the first entry's LSO 4 ends the search)", got)
	}
	if sz, err := d.Size(l.active().txnIndex.path); err != nil || sz != 2*abortedTxnSize {
		t.Fatalf(".txnindex of %d bytes (%v), want two 34-byte entries", sz, err)
	}
	l.forgetProducerState()
	if got := lso(t, l); got != 8 {
		t.Fatalf("LSO %d after rebuilding the producer state", got)
	}
	if err := l.TruncateTo(7); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.AbortedTxns(0, 7); !slices.Equal(got, want[:1]) {
		t.Fatalf("aborted after truncating producer 3's marker away: %v", got)
	}
	if got := lso(t, l); got != 4 {
		t.Fatalf("LSO %d with producer 3's transaction open again", got)
	}
}

// A marker of an older producer epoch, or from an older coordinator epoch,
// is refused; a newer epoch's marker fences the producer's old epoch.
func TestMarkerEpochs(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, txnBatch(1, 3, 0, 1), 0)
	if _, err := l.AppendMarkerAsLeader(1, 2, record.EndTxnMarker{Type: record.ControlAbort, CoordinatorEpoch: 5}, 0, 0); !errors.Is(err, ErrInvalidProducerEpoch) {
		t.Fatalf("older epoch's marker: %v", err)
	}
	marker(t, l, 1, 4, record.ControlAbort, 5) // the coordinator bumped the epoch to abort
	if _, err := l.AppendAsLeader(txnBatch(1, 3, 1, 1), 0); !errors.Is(err, ErrInvalidProducerEpoch) {
		t.Fatalf("the fenced epoch's batch: %v", err)
	}
	mustLeaderAppend(t, l, txnBatch(1, 4, 0, 1), 0)
	if _, err := l.AppendMarkerAsLeader(1, 4, record.EndTxnMarker{Type: record.ControlCommit, CoordinatorEpoch: 4}, 0, 0); !errors.Is(err, ErrTransactionCoordinatorFenced) {
		t.Fatalf("older coordinator's marker: %v", err)
	}
}

// A recovery (an unclean shutdown) writes the recovered segments'
// transaction indexes again from the log: here one lost outright.
func TestTxnIndexRebuiltOnRecovery(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, txnBatch(1, 0, 0, 2), 0)
	mustLeaderAppend(t, l, txnBatch(2, 0, 0, 1), 0)
	marker(t, l, 1, 0, record.ControlAbort, 0)
	marker(t, l, 2, 0, record.ControlCommit, 0)
	l.UpdateHighWatermark(l.LogEndOffset())
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	idx := l.active().txnIndex.path
	before, err := l.AbortedTxns(0, 5)
	if err != nil || len(before) != 1 || before[0].LastStableOffset != 2 {
		t.Fatalf("before: %v, %v (producer 2 was open at 2 when producer 1 aborted)", before, err)
	}
	if err := d.Remove(idx); err != nil {
		t.Fatal(err)
	}
	l2, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 5, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := l2.AbortedTxns(0, 5); err != nil || !slices.Equal(got, before) {
		t.Fatalf("after recovery: %v, %v; want %v", got, err, before)
	}
}
