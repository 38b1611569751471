package cluster

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// The partition side of a transaction, without a coordinator yet: a
// transactional batch holds back the last stable offset, so a
// read_committed fetch (and ListOffsets) stops before it while a
// read_uncommitted one sees it; the ABORT marker a coordinator has the
// leader write releases the LSO past the marker, and read_committed
// fetches then name the aborted transaction for the consumer to skip.
func TestTxnMarkersAndReadCommitted(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "t", [][]int32{{2, 3, 1}}, nil)
	rc := newRawClient(t, c, 1)
	const pid = 4000
	txn := func() []byte {
		b, _, err := record.Decode(record.Build(0, -1, record.ProducerInfo{ID: pid, Epoch: 0, BaseSequence: 0},
			[]record.Record{{Timestamp: 1, Value: []byte("in-txn")}}))
		if err != nil {
			t.Fatal(err)
		}
		b.Attributes |= record.TransactionalFlagMask
		return b.AppendTo(nil)
	}()
	plain := record.Build(0, -1, record.NoProducer(), []record.Record{{Timestamp: 1, Value: []byte("plain")}})
	do := func(req func(env *sim.Env) protocol.Request) protocol.Response {
		t.Helper()
		cl := &call{}
		rc.sendAll(t, outgoing{to: 2, c: cl, build: req})
		rc.wait(t, cl, time.Minute)
		if cl.err != nil {
			t.Fatal(cl.err)
		}
		return cl.resp
	}
	produce := func(data []byte) {
		t.Helper()
		r := do(func(*sim.Env) protocol.Request {
			return &protocol.ProduceRequest{Acks: -1, TimeoutMs: 30000, Topics: []protocol.ProduceTopic{{Name: "t", Partitions: []protocol.ProducePartition{{Index: 0, Records: data}}}}}
		}).(*protocol.ProduceResponse)
		if code := r.Topics[0].Partitions[0].ErrorCode; code != protocol.NONE {
			t.Fatalf("produce: %v", code)
		}
	}
	fetch := func(isolation int8) protocol.FetchPartitionResponse {
		t.Helper()
		r := do(func(*sim.Env) protocol.Request {
			return &protocol.FetchRequest{ReplicaID: -1, ReplicaEpoch: -1, MaxBytes: 1 << 20, IsolationLevel: isolation,
				Topics: []protocol.FetchTopic{{Name: "t", Partitions: []protocol.FetchPartition{{Index: 0, CurrentLeaderEpoch: -1, FetchOffset: 0, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20}}}}}
		}).(*protocol.FetchResponse)
		return r.Topics[0].Partitions[0]
	}
	latest := func(isolation int8) int64 {
		t.Helper()
		r := do(func(*sim.Env) protocol.Request {
			return &protocol.ListOffsetsRequest{ReplicaID: -1, IsolationLevel: isolation, Topics: []protocol.ListOffsetsTopic{{Name: "t", Partitions: []protocol.ListOffsetsPartition{{Index: 0, CurrentLeaderEpoch: -1, Timestamp: protocol.LatestTimestamp}}}}}
		}).(*protocol.ListOffsetsResponse)
		return r.Topics[0].Partitions[0].Offset
	}
	offsets := func(data []byte) []int64 {
		var out []int64
		for pos := 0; pos < len(data); {
			h, err := record.ParseHeader(data[pos:])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h.BaseOffset)
			pos += h.SizeInBytes()
		}
		return out
	}
	produce(txn)   // 0
	produce(plain) // 1
	if p := fetch(protocol.ReadCommitted); p.HighWatermark != 2 || p.LastStableOffset != 0 || len(p.Records) != 0 || p.AbortedTransactions == nil {
		t.Fatalf("read_committed with the transaction open: HW %d LSO %d, %d bytes, aborted %v", p.HighWatermark, p.LastStableOffset, len(p.Records), p.AbortedTransactions)
	}
	if p := fetch(protocol.ReadUncommitted); !slices.Equal(offsets(p.Records), []int64{0, 1}) || p.AbortedTransactions != nil {
		t.Fatalf("read_uncommitted: batches at %v, aborted %v", offsets(p.Records), p.AbortedTransactions)
	}
	if u, c := latest(protocol.ReadUncommitted), latest(protocol.ReadCommitted); u != 2 || c != 0 {
		t.Fatalf("latest offsets: read_uncommitted %d, read_committed %d", u, c)
	}
	m := do(func(*sim.Env) protocol.Request {
		return &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{ProducerID: pid, ProducerEpoch: 0, Commit: false, CoordinatorEpoch: 0,
			Topics: []protocol.TxnTopic{{Name: "t", Partitions: []int32{0}}}}}}
	}).(*protocol.WriteTxnMarkersResponse)
	if code := m.Markers[0].Topics[0].Partitions[0].ErrorCode; code != protocol.NONE {
		t.Fatalf("marker: %v", code)
	}
	p := fetch(protocol.ReadCommitted)
	// The marker's timestamp (the broker's clock) is far from the test's
	// records' (1 ms), so the marker rolled a new segment: a read stays in
	// one segment, but the aborted transaction is found in the next one's
	// index.
	if p.LastStableOffset != 3 || !slices.Equal(offsets(p.Records), []int64{0, 1}) || !slices.Equal(p.AbortedTransactions, []protocol.AbortedTransaction{{ProducerID: pid, FirstOffset: 0}}) {
		t.Fatalf("read_committed after the abort: LSO %d, batches at %v, aborted %v", p.LastStableOffset, offsets(p.Records), p.AbortedTransactions)
	}
	if c := latest(protocol.ReadCommitted); c != 3 {
		t.Fatalf("read_committed latest after the abort: %d", c)
	}
	// A stale epoch's marker is refused.
	m = do(func(*sim.Env) protocol.Request {
		return &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{ProducerID: pid, ProducerEpoch: -1, Commit: true,
			Topics: []protocol.TxnTopic{{Name: "t", Partitions: []int32{0}}}}}}
	}).(*protocol.WriteTxnMarkersResponse)
	if code := m.Markers[0].Topics[0].Partitions[0].ErrorCode; code != protocol.INVALID_PRODUCER_EPOCH {
		t.Fatalf("stale marker: %v", code)
	}
}
