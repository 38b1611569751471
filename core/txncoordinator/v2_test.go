package txncoordinator

import (
	"testing"

	"kafkascope/core/protocol"
)

// addFromLeader is a leader's AddPartitionsToTxn (v5, VerifyOnly as
// given) for the copier's transaction.
func addFromLeader(tt *txnTest, pid int64, epoch int16, verifyOnly bool, topics ...protocol.TxnTopic) *protocol.AddPartitionsToTxnResponse {
	tt.t.Helper()
	return do[*protocol.AddPartitionsToTxnResponse](tt, &protocol.AddPartitionsToTxnRequest{Transactions: []protocol.AddPartitionsToTxnTransaction{
		{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: epoch, VerifyOnly: verifyOnly, Topics: topics}}})
}

func firstCode(r *protocol.AddPartitionsToTxnResponse) protocol.ErrorCode {
	return r.ResultsByTransaction[0].TopicResults[0].Partitions[0].ErrorCode
}

func endV2(tt *txnTest, pid int64, epoch int16, commit bool) *protocol.EndTxnResponse {
	tt.t.Helper()
	return do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{Version: protocol.EndTxnVersionTransactionV2, TransactionalID: "copier", ProducerID: pid, ProducerEpoch: epoch, Committed: commit})
}

// Transactions v2 on a cluster at transaction.version 2: a leader adds
// the partition (the Ongoing record says clientTransactionVersion 2, in
// value version 1); EndTxn v5 bumps the epoch, writes PrepareCommit and
// the markers at the new epoch and answers it; a retry with the old
// epoch is NONE with the current one; the next transaction runs at the
// new epoch; an abort with nothing added is allowed, a commit is not.
func TestTransactionsV2EndBumpsTheEpoch(t *testing.T) {
	tt := newTxnTest(t)
	tt.host.tv = 2
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	pid := init.ProducerID
	if r := addFromLeader(tt, pid, 0, false, protocol.TxnTopic{Name: "out", Partitions: []int32{0}}); firstCode(r) != protocol.NONE {
		t.Fatalf("leader's add: %v", firstCode(r))
	}
	if r := addFromLeader(tt, pid, 0, true, protocol.TxnTopic{Name: "out", Partitions: []int32{0, 1}}); r.ResultsByTransaction[0].TopicResults[0].Partitions[0].ErrorCode != protocol.NONE ||
		r.ResultsByTransaction[0].TopicResults[0].Partitions[1].ErrorCode != protocol.TRANSACTION_ABORTABLE {
		t.Fatalf("verify only: %+v", r.ResultsByTransaction)
	}
	if r := endV2(tt, pid, 0, true); r.ErrorCode != protocol.NONE || r.ProducerID != pid || r.ProducerEpoch != 1 {
		t.Fatalf("EndTxn v5: %+v", r)
	}
	if tt.state("copier") != CompleteCommit || len(tt.host.markers) != 1 || tt.host.markers[0].Markers[0].ProducerEpoch != 1 {
		t.Fatalf("state %s, markers %+v", tt.state("copier"), tt.host.markers)
	}
	var got []LogValue
	for _, b := range tt.host.log {
		v, err := ReadValue(b.Records[0].Value)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	// Empty (the first init: a version-0 client), Ongoing, PrepareCommit
	// and CompleteCommit of a v2 client, the last two at the new epoch.
	want := []struct {
		state State
		epoch int16
		ctv   int16
	}{{Empty, 0, 0}, {Ongoing, 0, 2}, {PrepareCommit, 1, 2}, {CompleteCommit, 1, 2}}
	if len(got) != len(want) {
		t.Fatalf("log %+v", got)
	}
	for i, w := range want {
		if g := got[i]; g.Version != 1 || g.State != w.state || g.ProducerEpoch != w.epoch || g.ClientTransactionVersion != w.ctv {
			t.Fatalf("record %d: %+v, want %+v in version 1", i, g, w)
		}
	}
	if r := endV2(tt, pid, 0, true); r.ErrorCode != protocol.NONE || r.ProducerEpoch != 1 {
		t.Fatalf("retried commit: %+v", r)
	}
	if r := endV2(tt, pid, 0, false); r.ErrorCode != protocol.INVALID_TXN_STATE {
		t.Fatalf("retried end with the other result: %+v", r)
	}
	if r := endV2(tt, pid, 1, true); r.ErrorCode != protocol.INVALID_TXN_STATE {
		t.Fatalf("commit with nothing added: %+v", r)
	}
	if r := addFromLeader(tt, pid, 0, false, protocol.TxnTopic{Name: "out", Partitions: []int32{0}}); firstCode(r) != protocol.PRODUCER_FENCED {
		t.Fatalf("old epoch's add: %v", firstCode(r))
	}
	// An abort with nothing added: PrepareAbort and CompleteAbort, no markers.
	if r := endV2(tt, pid, 1, false); r.ErrorCode != protocol.NONE || r.ProducerEpoch != 2 {
		t.Fatalf("empty abort: %+v", r)
	}
	if tt.state("copier") != CompleteAbort || len(tt.host.markers) != 1 {
		t.Fatalf("after the empty abort: %s, %d marker requests", tt.state("copier"), len(tt.host.markers))
	}
}

// A v2 end at an exhausted epoch (32766) rotates the producer id:
// PrepareCommit and the markers at (P, 32767), CompleteCommit at (P', 0),
// and the answer (P', 0); a retry with (P, 32766) is recognised.
func TestTransactionsV2RotateTheProducerID(t *testing.T) {
	tt := newTxnTest(t)
	tt.host.tv = 2
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	pid := init.ProducerID
	tt.c.partitions[tt.c.PartitionFor("copier")].txns["copier"].epoch = 32766
	if r := addFromLeader(tt, pid, 32766, false, protocol.TxnTopic{Name: "out", Partitions: []int32{0}}); firstCode(r) != protocol.NONE {
		t.Fatalf("add: %v", firstCode(r))
	}
	r := endV2(tt, pid, 32766, true)
	if r.ErrorCode != protocol.NONE || r.ProducerID == pid || r.ProducerEpoch != 0 {
		t.Fatalf("end at the last epoch: %+v", r)
	}
	next := r.ProducerID
	if m := tt.host.markers[0].Markers[0]; m.ProducerID != pid || m.ProducerEpoch != 32767 {
		t.Fatalf("markers %+v", m)
	}
	last, err := ReadValue(tt.host.log[len(tt.host.log)-1].Records[0].Value)
	if err != nil || last.State != CompleteCommit || last.ProducerID != next || last.ProducerEpoch != 0 {
		t.Fatalf("CompleteCommit %+v, %v", last, err)
	}
	if r := endV2(tt, pid, 32766, true); r.ErrorCode != protocol.NONE || r.ProducerID != next || r.ProducerEpoch != 0 {
		t.Fatalf("retry across the rotation: %+v", r)
	}
	if r := addFromLeader(tt, next, 0, false, protocol.TxnTopic{Name: "out", Partitions: []int32{0}}); firstCode(r) != protocol.NONE {
		t.Fatalf("the new id's transaction: %v", firstCode(r))
	}
}
