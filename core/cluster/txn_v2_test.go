package cluster

import (
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// txnBatch is a transactional batch of one record.
func txnBatch(t *testing.T, pid int64, epoch int16, seq int32) []byte {
	t.Helper()
	b, _, err := record.Decode(record.Build(0, -1, record.ProducerInfo{ID: pid, Epoch: epoch, BaseSequence: seq}, []record.Record{{Timestamp: 1704067200000, Value: []byte("v")}}))
	if err != nil {
		t.Fatal(err)
	}
	b.Attributes |= record.TransactionalFlagMask
	return b.AppendTo(nil)
}

// Transactions v2 through the brokers of a Kafka 4.3 cluster
// (transaction.version 2): a Produce v12 with no AddPartitionsToTxn
// before it has the leader add the partition at the coordinator
// (Ongoing with out-0); EndTxn v5 answers the bumped epoch and the
// markers carry it; the old epoch is then refused, the new one starts at
// sequence 0; a commit with nothing sent is INVALID_TXN_STATE, while an
// abort with nothing sent is allowed and bumps again.
func TestTransactionsV2ThroughTheBrokers(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "out", [][]int32{{3, 1, 2}}, nil)
	do := rawCaller(t, c)
	coord, init := initTransactionalID(t, c, do, "copier")
	pid := init.ProducerID
	produce := func(epoch int16, seq int32) protocol.ErrorCode {
		t.Helper()
		r := do(3, func(*sim.Env) protocol.Request {
			return &protocol.ProduceRequest{Version: protocol.ProduceVersionTransactionV2, TransactionalID: "copier", Acks: -1, TimeoutMs: 30000,
				Topics: []protocol.ProduceTopic{{Name: "out", Partitions: []protocol.ProducePartition{{Index: 0, Records: txnBatch(t, pid, epoch, seq)}}}}}
		}).(*protocol.ProduceResponse)
		return r.Topics[0].Partitions[0].ErrorCode
	}
	end := func(epoch int16, commit bool) *protocol.EndTxnResponse {
		t.Helper()
		return do(coord, func(*sim.Env) protocol.Request {
			return &protocol.EndTxnRequest{Version: protocol.EndTxnVersionTransactionV2, TransactionalID: "copier", ProducerID: pid, ProducerEpoch: epoch, Committed: commit}
		}).(*protocol.EndTxnResponse)
	}
	if code := produce(0, 0); code != protocol.NONE {
		t.Fatalf("first v12 produce: %v", code)
	}
	if st := c.Node(coord).Broker.TxnCoordinator().Transactions()["copier"]; st.String() != "Ongoing" {
		t.Fatalf("after the leader's add: %s", st)
	}
	state := func() *storage.ProducerStateEntry {
		t.Helper()
		ps, err := c.Node(3).Broker.Partition(storage.TopicPartition{Topic: "out", Partition: 0}).Log().ProducerState()
		if err != nil {
			t.Fatal(err)
		}
		return ps.LastEntry(pid)
	}
	if e := state(); e == nil || e.CurrentTxnFirstOffset != 0 {
		t.Fatalf("the partition's open transaction: %+v", e)
	}
	if r := end(0, true); r.ErrorCode != protocol.NONE || r.ProducerID != pid || r.ProducerEpoch != 1 {
		t.Fatalf("EndTxn v5: %+v", r)
	}
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if e := state(); e == nil || e.Epoch != 1 || e.CurrentTxnFirstOffset != -1 {
		t.Fatalf("the partition after the marker: %+v", e)
	}
	if code := produce(0, 1); code != protocol.INVALID_PRODUCER_EPOCH {
		t.Fatalf("the old epoch after the bump: %v", code)
	}
	if code := produce(1, 0); code != protocol.NONE {
		t.Fatalf("the new epoch from sequence 0: %v", code)
	}
	if r := end(1, false); r.ErrorCode != protocol.NONE || r.ProducerEpoch != 2 {
		t.Fatalf("abort: %+v", r)
	}
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if r := end(2, true); r.ErrorCode != protocol.INVALID_TXN_STATE {
		t.Fatalf("a commit with nothing sent: %+v", r)
	}
	if r := end(2, false); r.ErrorCode != protocol.NONE || r.ProducerEpoch != 3 {
		t.Fatalf("an abort with nothing sent: %+v", r)
	}
}
