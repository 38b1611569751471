package txncoordinator

import (
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// testHost appends a millisecond later into a log ReadLog returns, and
// has every partition's leader (broker 2 for "out", 3 for the rest)
// write markers: it records them and answers failNext once, then NONE.
type testHost struct {
	sent     []sim.Message
	log      []record.Batch
	markers  []*protocol.WriteTxnMarkersRequest
	failNext protocol.ErrorCode
	nextPID  int64
	// leaderless: partitions the metadata knows without a leader.
	leaderless map[storage.TopicPartition]bool
	tv         int16 // the cluster's transaction.version
}

func (h *testHost) TransactionVersion() int16 { return h.tv }

func (h *testHost) Respond(_ *sim.Env, _ sim.Addr, m sim.Message) { h.sent = append(h.sent, m) }
func (h *testHost) Done(*sim.Env, sim.Addr)                       {}
func (h *testHost) Config(name string) int64 {
	return map[string]int64{"transaction.state.log.num.partitions": 50, "transaction.max.timeout.ms": 900000,
		"transaction.abort.timed.out.transaction.cleanup.interval.ms": 10000,
		"transaction.remove.expired.transaction.cleanup.interval.ms":  3600000, "transactional.id.expiration.ms": 604800000}[name]
}
func (h *testHost) Append(env *sim.Env, _ int32, recs []record.Record, done func(*sim.Env, protocol.ErrorCode)) {
	h.log = append(h.log, record.Batch{BaseOffset: int64(len(h.log)), Records: recs})
	env.After(time.Millisecond, "test-append", func(env *sim.Env) { done(env, protocol.NONE) })
}
func (h *testHost) ReadLog(int32) []record.Batch { return h.log }
func (h *testHost) NodeID() int32                { return 1 }
func (h *testHost) GenerateProducerID(*sim.Env) (int64, bool) {
	h.nextPID++
	return 1000 + h.nextPID, true
}
func (h *testHost) KnownPartition(tp storage.TopicPartition) bool { return tp.Topic != "nope" }
func (h *testHost) GroupPartition(string) int32                   { return 7 }
func (h *testHost) LeaderOf(tp storage.TopicPartition) (int32, bool) {
	if h.leaderless[tp] {
		return 0, false
	}
	if tp.Topic == "out" {
		return 2, true
	}
	return 3, true
}
func (h *testHost) SendMarkers(env *sim.Env, _ int32, req *protocol.WriteTxnMarkersRequest, done func(*sim.Env, *protocol.WriteTxnMarkersResponse)) {
	h.markers = append(h.markers, req)
	code := h.failNext
	h.failNext = protocol.NONE
	resp := &protocol.WriteTxnMarkersResponse{}
	for _, m := range req.Markers {
		mr := protocol.WritableTxnMarkerResult{ProducerID: m.ProducerID}
		for _, t := range m.Topics {
			tr := protocol.TxnTopicResult{Name: t.Name}
			for _, p := range t.Partitions {
				tr.Partitions = append(tr.Partitions, protocol.TxnPartitionResult{PartitionIndex: p, ErrorCode: code})
			}
			mr.Topics = append(mr.Topics, tr)
		}
		resp.Markers = append(resp.Markers, mr)
	}
	env.After(time.Millisecond, "test-markers", func(env *sim.Env) { done(env, resp) })
}

type idle struct{}

func (idle) Start(*sim.Env)                  {}
func (idle) Receive(*sim.Env, *sim.Envelope) {}

type txnTest struct {
	t    *testing.T
	w    *sim.World
	host *testHost
	c    *Coordinator
}

func newTxnTest(t *testing.T) *txnTest {
	tt := &txnTest{t: t, w: sim.NewWorld(3), host: &testHost{}}
	tt.c = New(tt.host)
	if err := tt.w.Spawn("kafka-1", idle{}); err != nil {
		t.Fatal(err)
	}
	tt.call(func(env *sim.Env) { tt.c.OnElection(env, tt.c.PartitionFor("copier"), 4) })
	return tt
}

func (tt *txnTest) call(fn func(env *sim.Env)) {
	tt.t.Helper()
	if err := tt.w.Call("kafka-1", "test", fn); err != nil {
		tt.t.Fatal(err)
	}
	if err := tt.w.RunFor(10 * time.Millisecond); err != nil {
		tt.t.Fatal(err)
	}
}

// do sends a request and returns its answer (the last response).
func do[T sim.Message](tt *txnTest, req sim.Message) T {
	tt.t.Helper()
	n := len(tt.host.sent)
	tt.call(func(env *sim.Env) { tt.c.Handle(env, "client:1", req) })
	if len(tt.host.sent) == n {
		tt.t.Fatalf("%T: no answer", req)
	}
	return tt.host.sent[len(tt.host.sent)-1].(T)
}

func (tt *txnTest) state(id string) State { return tt.c.Transactions()[id] }

// A transaction from InitProducerId to CompleteCommit: the epoch, the
// partitions added (an unknown one refuses the request), EndTxn's answer
// before the markers, one WriteTxnMarkers per leader with the coordinator
// epoch, and the log's records, which a new coordinator loads back. A
// second InitProducerId fences the first producer.
func TestCoordinatorCommits(t *testing.T) {
	tt := newTxnTest(t)
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	if init.ErrorCode != protocol.NONE || init.ProducerID != 1001 || init.ProducerEpoch != 0 {
		t.Fatalf("init: %+v", init)
	}
	pid := init.ProducerID
	add := func(topics ...protocol.TxnTopic) *protocol.AddPartitionsToTxnResponse {
		return do[*protocol.AddPartitionsToTxnResponse](tt, &protocol.AddPartitionsToTxnRequest{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: 0, Topics: topics})
	}
	if r := add(protocol.TxnTopic{Name: "out", Partitions: []int32{0}}, protocol.TxnTopic{Name: "nope", Partitions: []int32{0}}); r.Results[0].Partitions[0].ErrorCode != protocol.OPERATION_NOT_ATTEMPTED || r.Results[1].Partitions[0].ErrorCode != protocol.UNKNOWN_TOPIC_OR_PARTITION {
		t.Fatalf("unknown partition: %+v", r.Results)
	}
	if r := add(protocol.TxnTopic{Name: "out", Partitions: []int32{0, 1}}, protocol.TxnTopic{Name: "other", Partitions: []int32{0}}); r.Results[0].Partitions[0].ErrorCode != protocol.NONE {
		t.Fatalf("add: %+v", r.Results)
	}
	if off := do[*protocol.AddOffsetsToTxnResponse](tt, &protocol.AddOffsetsToTxnRequest{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: 0, GroupID: "g"}); off.ErrorCode != protocol.NONE {
		t.Fatalf("add offsets: %v", off.ErrorCode)
	}
	if tt.state("copier") != Ongoing {
		t.Fatalf("state %s", tt.state("copier"))
	}
	if r := do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: 1, Committed: true}); r.ErrorCode != protocol.PRODUCER_FENCED {
		t.Fatalf("a wrong epoch's end: %v", r.ErrorCode)
	}
	if r := do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: 0, Committed: true}); r.ErrorCode != protocol.NONE {
		t.Fatalf("end: %v", r.ErrorCode)
	}
	if tt.state("copier") != CompleteCommit {
		t.Fatalf("after the markers: %s", tt.state("copier"))
	}
	if len(tt.host.markers) != 2 || tt.host.markers[0].Markers[0].CoordinatorEpoch != 4 || !tt.host.markers[0].Markers[0].Commit {
		t.Fatalf("markers %+v", tt.host.markers)
	}
	var states []State
	for _, b := range tt.host.log {
		v, err := ReadValue(b.Records[0].Value)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, v.State)
	}
	want := []State{Empty, Ongoing, Ongoing, PrepareCommit, CompleteCommit}
	if len(states) != len(want) {
		t.Fatalf("log states %v, want %v", states, want)
	}
	for i := range want {
		if states[i] != want[i] {
			t.Fatalf("log states %v, want %v", states, want)
		}
	}
	// A retried commit is NONE; an abort now is INVALID_TXN_STATE.
	if r := do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: pid, ProducerEpoch: 0, Committed: false}); r.ErrorCode != protocol.INVALID_TXN_STATE {
		t.Fatalf("abort after commit: %v", r.ErrorCode)
	}
	// A new instance bumps the epoch; the old one is fenced.
	again := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	if again.ProducerID != pid || again.ProducerEpoch != 1 {
		t.Fatalf("second init: %+v", again)
	}
	if r := add(protocol.TxnTopic{Name: "out", Partitions: []int32{0}}); r.Results[0].Partitions[0].ErrorCode != protocol.PRODUCER_FENCED {
		t.Fatalf("the fenced producer's add: %+v", r.Results)
	}
	// A new coordinator loads the same state from the log.
	tt.call(func(env *sim.Env) { tt.c.OnElection(env, tt.c.PartitionFor("copier"), 5) })
	if tt.state("copier") != Empty {
		t.Fatalf("loaded: %s", tt.state("copier"))
	}
}

// A transaction left open past its timeout is fenced and aborted by the
// coordinator's task: the ABORT markers carry the bumped epoch.
func TestCoordinatorAbortsTimedOut(t *testing.T) {
	tt := newTxnTest(t)
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 1000, ProducerID: -1, ProducerEpoch: -1})
	do[*protocol.AddPartitionsToTxnResponse](tt, &protocol.AddPartitionsToTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0,
		Topics: []protocol.TxnTopic{{Name: "out", Partitions: []int32{0}}}})
	if err := tt.w.RunFor(11 * time.Second); err != nil {
		t.Fatal(err)
	}
	if tt.state("copier") != CompleteAbort {
		t.Fatalf("after the timeout: %s", tt.state("copier"))
	}
	if n := len(tt.host.markers); n != 1 || tt.host.markers[0].Markers[0].Commit || tt.host.markers[0].Markers[0].ProducerEpoch != 1 {
		t.Fatalf("abort markers %+v", tt.host.markers)
	}
	if r := do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0, Committed: true}); r.ErrorCode != protocol.PRODUCER_FENCED {
		t.Fatalf("the timed-out producer's commit: %v", r.ErrorCode)
	}
}

// A transactional id whose transaction is over expires after
// transactional.id.expiration.ms (7 days), at the next hourly check: its
// tombstone is written and the id leaves the cache; an Ongoing one stays.
// The next InitProducerId for it is a new producer id.
func TestTransactionalIDsExpire(t *testing.T) {
	tt := newTxnTest(t)
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	if init.ErrorCode != protocol.NONE {
		t.Fatal(init.ErrorCode)
	}
	if err := tt.w.RunFor(7*24*time.Hour - time.Hour); err != nil {
		t.Fatal(err)
	}
	if tt.state("copier") != Empty {
		t.Fatalf("expired early: %v", tt.c.Transactions())
	}
	if err := tt.w.RunFor(2 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, ok := tt.c.Transactions()["copier"]; ok {
		t.Fatalf("not expired after 7 days and an hour: %v", tt.c.Transactions())
	}
	last := tt.host.log[len(tt.host.log)-1]
	if id, _, _ := ReadKey(last.Records[0].Key); id != "copier" || last.Records[0].Value != nil {
		t.Fatalf("no tombstone: %+v", last.Records)
	}
	again := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	if again.ErrorCode != protocol.NONE || again.ProducerID == init.ProducerID || again.ProducerEpoch != 0 {
		t.Fatalf("after expiry: %+v (first was %+v)", again, init)
	}
}

// A partition without a leader keeps its marker pending (Kafka's
// markersQueueForUnknownBroker): the transaction stays PrepareCommit
// until a leader is elected and has written it; it is not dropped.
func TestMarkerWaitsForALeader(t *testing.T) {
	tt := newTxnTest(t)
	init := do[*protocol.InitProducerIdResponse](tt, &protocol.InitProducerIdRequest{TransactionalID: "copier", TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1})
	add := do[*protocol.AddPartitionsToTxnResponse](tt, &protocol.AddPartitionsToTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0,
		Topics: []protocol.TxnTopic{{Name: "out", Partitions: []int32{0}}, {Name: "other", Partitions: []int32{0}}}})
	if add.Results[0].Partitions[0].ErrorCode != protocol.NONE {
		t.Fatalf("add: %+v", add.Results)
	}
	orphan := storage.TopicPartition{Topic: "other", Partition: 0}
	tt.host.leaderless = map[storage.TopicPartition]bool{orphan: true}
	if r := do[*protocol.EndTxnResponse](tt, &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0, Committed: true}); r.ErrorCode != protocol.NONE {
		t.Fatalf("end: %v", r.ErrorCode)
	}
	if err := tt.w.RunFor(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if tt.state("copier") != PrepareCommit {
		t.Fatalf("completed without the leaderless partition's marker: %s", tt.state("copier"))
	}
	for _, req := range tt.host.markers {
		for _, tr := range req.Markers[0].Topics {
			if tr.Name == "other" {
				t.Fatalf("a marker sent with no leader: %+v", req)
			}
		}
	}
	tt.host.leaderless = nil
	if err := tt.w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	if tt.state("copier") != CompleteCommit {
		t.Fatalf("after the election: %s", tt.state("copier"))
	}
	last := tt.host.markers[len(tt.host.markers)-1].Markers[0]
	if len(last.Topics) != 1 || last.Topics[0].Name != "other" || !last.Commit {
		t.Fatalf("the last marker: %+v", last)
	}
}
