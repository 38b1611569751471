package storage

import (
	"errors"
	"testing"

	"kafkascope/core/record"
)

// idemBatch is an idempotent producer's batch of n records.
func idemBatch(pid int64, epoch int16, firstSeq int32, n int) []byte {
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{Timestamp: 1000, Value: []byte("v")}
	}
	return record.Build(0, -1, record.ProducerInfo{ID: pid, Epoch: epoch, BaseSequence: firstSeq}, recs)
}

// followerBatch is an idempotent batch as a leader stored it at base.
func followerBatch(base int64, pid int64, epoch int16, firstSeq int32, n int) []byte {
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{Timestamp: 1000, Value: []byte("v")}
	}
	return record.Build(base, 0, record.ProducerInfo{ID: pid, Epoch: epoch, BaseSequence: firstSeq}, recs)
}

func expectOffsets(t *testing.T, step string, info AppendInfo, err error, first, last int64, dup bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if info.FirstOffset != first || info.LastOffset != last || info.Duplicate != dup {
		t.Fatalf("%s: got offsets %d..%d duplicate=%v, want %d..%d duplicate=%v", step, info.FirstOffset, info.LastOffset, info.Duplicate, first, last, dup)
	}
}

// TestDuplicateAppends follows Kafka's UnifiedLogTest.testDuplicateAppends.
func TestDuplicateAppends(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	const pid = 1
	for seq := int32(0); seq < 6; seq++ {
		info, err := l.AppendAsLeader(idemBatch(pid, 0, seq, 1), 0)
		expectOffsets(t, "step 1", info, err, int64(seq), int64(seq), false)
	}
	info, err := l.AppendAsLeader(idemBatch(pid, 0, 6, 3), 0)
	expectOffsets(t, "step 2", info, err, 6, 8, false)
	info, err = l.AppendAsLeader(idemBatch(pid, 0, 6, 3), 0)
	expectOffsets(t, "step 3 (duplicate)", info, err, 6, 8, true)
	if l.LogEndOffset() != 9 {
		t.Fatalf("duplicate appended: LEO %d", l.LogEndOffset())
	}
	if _, err := l.AppendAsLeader(idemBatch(pid, 0, 7, 2), 0); !errors.Is(err, ErrOutOfOrderSequence) {
		t.Fatalf("step 4: got %v, want out of order sequence", err)
	}
	info, err = l.AppendAsLeader(idemBatch(pid, 0, 2, 1), 0)
	expectOffsets(t, "step 5 (duplicate inside the window)", info, err, 2, 2, true)
	if _, err := l.AppendAsLeader(idemBatch(pid, 0, 1, 1), 0); !errors.Is(err, ErrOutOfOrderSequence) {
		t.Fatalf("step 6: got %v, want out of order sequence", err)
	}
	info, err = l.AppendAsLeader(idemBatch(pid, 0, 9, 1), 0)
	expectOffsets(t, "step 7", info, err, 9, 9, false)
	info, err = l.AppendAsLeader(idemBatch(pid, 0, 9, 1), 0)
	expectOffsets(t, "step 7 (repeat)", info, err, 9, 9, true)
	if l.LogEndOffset() != 10 {
		t.Fatalf("LEO %d, want 10", l.LogEndOffset())
	}
}

// TestOldProducerEpoch is UnifiedLogTest.testOldProducerEpoch.
func TestOldProducerEpoch(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, idemBatch(7, 1, 0, 1), 0)
	if _, err := l.AppendAsLeader(idemBatch(7, 0, 0, 1), 0); !errors.Is(err, ErrInvalidProducerEpoch) {
		t.Fatalf("got %v, want invalid producer epoch", err)
	}
}

// TestProducerStateBasicIdMapping follows ProducerStateManagerTest.testBasicIdMapping.
func TestProducerStateBasicIdMapping(t *testing.T) {
	m := NewProducerStateManager()
	const pid = 1
	if err := m.Check(fooTP, pid, 0, 0, 0); err != nil {
		t.Fatalf("first append: %v", err)
	}
	m.Update(pid, 0, BatchMetadata{FirstSeq: 0, LastSeq: 0, FirstOffset: 0, LastOffset: 0})
	if err := m.Check(fooTP, pid, 0, 1, 1); err != nil {
		t.Fatalf("next sequence: %v", err)
	}
	m.Update(pid, 0, BatchMetadata{FirstSeq: 1, LastSeq: 1, FirstOffset: 1, LastOffset: 1})
	if err := m.Check(fooTP, pid, 0, 5, 2); !errors.Is(err, ErrOutOfOrderSequence) {
		t.Fatalf("sequence 5 when 2 is expected: %v", err)
	}
	if err := m.Check(fooTP, pid, -1, 2, 2); !errors.Is(err, ErrInvalidProducerEpoch) {
		t.Fatalf("older epoch: %v", err)
	}
	if err := m.Check(fooTP, pid, 0, 1, 2); !errors.Is(err, ErrOutOfOrderSequence) {
		t.Fatalf("a repeated sequence sent straight to the state manager: %v", err)
	}
	// A bump must start at 0; an unknown producer may start anywhere.
	if err := m.Check(fooTP, pid, 1, 3, 2); !errors.Is(err, ErrOutOfOrderSequence) {
		t.Fatalf("new epoch at sequence 3: %v", err)
	}
	if err := m.Check(fooTP, pid, 1, 0, 2); err != nil {
		t.Fatalf("new epoch at sequence 0: %v", err)
	}
	if err := m.Check(fooTP, 99, 0, 42, 2); err != nil {
		t.Fatalf("unknown producer: %v", err)
	}
}

// TestSequenceWrap: the only wrap allowed is MaxInt32 → 0.
func TestSequenceWrap(t *testing.T) {
	m := NewProducerStateManager()
	m.Update(1, 0, BatchMetadata{FirstSeq: 2147483646, LastSeq: 2147483647})
	if err := m.Check(fooTP, 1, 0, 0, 0); err != nil {
		t.Fatalf("wrap: %v", err)
	}
	if got := lastSequence(2147483646, 3); got != 1 {
		t.Fatalf("lastSequence wraps to %d, want 1", got)
	}
}

// TestDuplicateAppendToFollower is UnifiedLogTest.testDuplicateAppendToFollower:
// followers skip the checks.
func TestDuplicateAppendToFollower(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	if _, err := l.AppendAsFollower(followerBatch(0, 1, 0, 0, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AppendAsFollower(followerBatch(2, 1, 0, 0, 2)); err != nil {
		t.Fatal(err)
	}
	if l.LogEndOffset() != 4 {
		t.Fatalf("LEO %d, want 4", l.LogEndOffset())
	}
}

// TestProducerStateRebuiltFromLog: a follower that becomes leader, and a
// log reopened, still recognise a retried batch; truncation forgets the
// batches it removes.
func TestProducerStateRebuiltFromLog(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	for seq := int32(0); seq < 3; seq++ {
		if _, err := l.AppendAsFollower(followerBatch(int64(seq), 5, 0, seq, 1)); err != nil {
			t.Fatal(err)
		}
	}
	info, err := l.AppendAsLeader(idemBatch(5, 0, 2, 1), 1)
	expectOffsets(t, "retry on the new leader", info, err, 2, 2, true)

	l2, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 0, 0, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	info, err = l2.AppendAsLeader(idemBatch(5, 0, 1, 1), 1)
	expectOffsets(t, "retry after reopening", info, err, 1, 1, true)

	if err := l2.TruncateTo(2); err != nil {
		t.Fatal(err)
	}
	if ps, err := l2.ProducerState(); err != nil {
		t.Fatal(err)
	} else if e := ps.LastEntry(5); e == nil || e.LastSeq() != 1 {
		t.Fatalf("after truncation: %+v", e)
	}
	info, err = l2.AppendAsLeader(idemBatch(5, 0, 2, 1), 1)
	expectOffsets(t, "the truncated batch again", info, err, 2, 2, false)
}
