package groupcoordinator

import (
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// fetchOffset asks for t-0's committed offset of group g, stable or not:
// the offset, or the partition's error.
func (gt *groupTest) fetchOffset(stable bool) (int64, protocol.ErrorCode) {
	gt.t.Helper()
	corr := gt.send("c", &protocol.OffsetFetchRequest{RequireStable: stable, Groups: []protocol.OffsetFetchRequestGroup{{GroupID: "g",
		MemberEpoch: -1, Topics: []protocol.OffsetFetchRequestTopics{{Name: "t", PartitionIndexes: []int32{0}}}}}})
	r := answer[*protocol.OffsetFetchResponse](gt, corr)
	if r == nil {
		gt.t.Fatal("no OffsetFetch answer")
	}
	p := r.Groups[0].Topics[0].Partitions[0]
	return p.CommittedOffset, p.ErrorCode
}

func (gt *groupTest) txnCommit(pid int64, offset int64) protocol.ErrorCode {
	gt.t.Helper()
	corr := gt.send("p", &protocol.TxnOffsetCommitRequest{TransactionalID: "copier", GroupID: "g", ProducerID: pid, GenerationID: -1,
		Topics: []protocol.TxnOffsetCommitTopic{{Name: "t", Partitions: []protocol.TxnOffsetCommitPartition{{PartitionIndex: 0, CommittedOffset: offset, CommittedLeaderEpoch: -1}}}}})
	gt.run(10 * time.Millisecond)
	r := answer[*protocol.TxnOffsetCommitResponse](gt, corr)
	if r == nil {
		gt.t.Fatal("no TxnOffsetCommit answer")
	}
	return r.Topics[0].Partitions[0].ErrorCode
}

// A transactional offset is pending until its transaction's marker: a
// stable fetch gets UNSTABLE_OFFSET_COMMIT, any other the offset committed
// before; COMMIT makes it the group's, ABORT drops it.
func TestTxnOffsetCommitWaitsForTheMarker(t *testing.T) {
	gt := newGroupTest(t)
	if code := gt.txnCommit(7, 10); code != protocol.NONE {
		t.Fatalf("TxnOffsetCommit: %v", code)
	}
	if _, code := gt.fetchOffset(true); code != protocol.UNSTABLE_OFFSET_COMMIT {
		t.Fatalf("stable fetch while pending: %v", code)
	}
	if off, code := gt.fetchOffset(false); off != -1 || code != protocol.NONE {
		t.Fatalf("unstable fetch while pending: %d %v", off, code)
	}
	gt.call(func(env *sim.Env) { gt.c.OnTxnCompleted(env, 7, []int32{gt.c.PartitionFor("g")}, true) })
	if off, code := gt.fetchOffset(true); off != 10 || code != protocol.NONE {
		t.Fatalf("after COMMIT: %d %v", off, code)
	}
	if code := gt.txnCommit(8, 20); code != protocol.NONE {
		t.Fatalf("TxnOffsetCommit: %v", code)
	}
	gt.call(func(env *sim.Env) { gt.c.OnTxnCompleted(env, 8, []int32{gt.c.PartitionFor("g")}, false) })
	if off, code := gt.fetchOffset(true); off != 10 || code != protocol.NONE {
		t.Fatalf("after ABORT: %d %v", off, code)
	}
}

// A new coordinator loads transactional offsets from the log: a
// committed transaction's offsets count, an aborted one's do not, and an
// open one's stay pending until its marker.
func TestTxnOffsetsLoadWithTheirMarkers(t *testing.T) {
	gt := newGroupTest(t)
	for _, c := range []struct {
		pid    int64
		offset int64
	}{{1, 10}, {2, 20}, {3, 30}} {
		if code := gt.txnCommit(c.pid, c.offset); code != protocol.NONE {
			t.Fatal(code)
		}
	}
	marker := func(pid int64, typ record.ControlType) record.Batch {
		b, _, err := record.Decode(record.BuildEndTxnMarker(int64(len(gt.host.log)), 0, pid, 0, 0, record.EndTxnMarker{Type: typ}))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gt.host.log = append(gt.host.log, marker(1, record.ControlCommit), marker(2, record.ControlAbort))
	reloaded := newGroupTestOn(t, gt.host)
	if _, code := reloaded.fetchOffset(true); code != protocol.UNSTABLE_OFFSET_COMMIT {
		t.Fatalf("producer 3's transaction is open: %v", code)
	}
	if off, _ := reloaded.fetchOffset(false); off != 10 {
		t.Fatalf("loaded offset %d, want 10 (1 committed, 2 aborted)", off)
	}
	reloaded.call(func(env *sim.Env) { reloaded.c.OnTxnCompleted(env, 3, []int32{reloaded.c.PartitionFor("g")}, true) })
	if off, code := reloaded.fetchOffset(true); off != 30 || code != protocol.NONE {
		t.Fatalf("after producer 3's COMMIT: %d %v", off, code)
	}
}
