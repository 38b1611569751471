package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// A transaction end to end through the brokers, with raw requests: the
// coordinator is found (FindCoordinator creates __transaction_state),
// InitProducerId gives the id, AddPartitionsToTxn adds the partition, a
// transactional batch is produced, EndTxn commits, and the coordinator's
// markers reach the partition's leader: a read_committed fetch then reads
// the batch and the COMMIT marker, with no aborted transactions. (The
// coordinator, broker 2, follows the partition too: its marker channel
// must not share its fetcher's connection to the leader, where the
// WriteTxnMarkers waits for that very fetch.)
func TestTransactionThroughTheBrokers(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "out", [][]int32{{3, 1, 2}}, nil)
	do := rawCaller(t, c)
	coord, init := initTransactionalID(t, c, do, "copier")
	add := do(coord, func(*sim.Env) protocol.Request {
		return &protocol.AddPartitionsToTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0, Topics: []protocol.TxnTopic{{Name: "out", Partitions: []int32{0}}}}
	}).(*protocol.AddPartitionsToTxnResponse)
	if add.Results[0].Partitions[0].ErrorCode != protocol.NONE {
		t.Fatalf("add: %+v", add.Results)
	}
	b, _, err := record.Decode(record.Build(0, -1, record.ProducerInfo{ID: init.ProducerID, Epoch: 0, BaseSequence: 0}, []record.Record{{Timestamp: 1704067200000, Value: []byte("copied")}}))
	if err != nil {
		t.Fatal(err)
	}
	b.Attributes |= record.TransactionalFlagMask
	prod := do(3, func(*sim.Env) protocol.Request {
		return &protocol.ProduceRequest{Acks: -1, TimeoutMs: 30000, Topics: []protocol.ProduceTopic{{Name: "out", Partitions: []protocol.ProducePartition{{Index: 0, Records: b.AppendTo(nil)}}}}}
	}).(*protocol.ProduceResponse)
	if code := prod.Topics[0].Partitions[0].ErrorCode; code != protocol.NONE {
		t.Fatalf("produce: %v", code)
	}
	end := do(coord, func(*sim.Env) protocol.Request {
		return &protocol.EndTxnRequest{TransactionalID: "copier", ProducerID: init.ProducerID, ProducerEpoch: 0, Committed: true}
	}).(*protocol.EndTxnResponse)
	if end.ErrorCode != protocol.NONE {
		t.Fatalf("end: %v", end.ErrorCode)
	}
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	f := do(3, func(*sim.Env) protocol.Request {
		return &protocol.FetchRequest{ReplicaID: -1, ReplicaEpoch: -1, MaxBytes: 1 << 20, IsolationLevel: protocol.ReadCommitted,
			Topics: []protocol.FetchTopic{{Name: "out", Partitions: []protocol.FetchPartition{{Index: 0, CurrentLeaderEpoch: -1, FetchOffset: 0, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20}}}}}
	}).(*protocol.FetchResponse).Topics[0].Partitions[0]
	var kinds []string
	for pos := 0; pos < len(f.Records); {
		h, err := record.ParseHeader(f.Records[pos:])
		if err != nil {
			t.Fatal(err)
		}
		kind := "data"
		if h.IsControl() {
			kind = "marker"
		}
		kinds = append(kinds, kind)
		pos += h.SizeInBytes()
	}
	if f.LastStableOffset != 2 || !slices.Equal(kinds, []string{"data", "marker"}) || len(f.AbortedTransactions) != 0 {
		t.Fatalf("read_committed: LSO %d, batches %v, aborted %v", f.LastStableOffset, kinds, f.AbortedTransactions)
	}
	if st := c.Node(coord).Broker.TxnCoordinator().Transactions()["copier"]; st.String() != "CompleteCommit" {
		t.Fatalf("coordinator state %s", st)
	}
}

// rawCaller sends raw requests from one client and waits for each answer.
func rawCaller(t *testing.T, c *Cluster) func(to int32, req func(env *sim.Env) protocol.Request) protocol.Response {
	rc := newRawClient(t, c, 1)
	return func(to int32, req func(env *sim.Env) protocol.Request) protocol.Response {
		t.Helper()
		cl := &call{}
		rc.sendAll(t, outgoing{to: to, c: cl, build: req})
		rc.wait(t, cl, time.Minute)
		if cl.err != nil {
			t.Fatal(cl.err)
		}
		return cl.resp
	}
}

// initTransactionalID finds the id's coordinator (FindCoordinator creates
// __transaction_state) and has it give the id a producer id and epoch.
func initTransactionalID(t *testing.T, c *Cluster, do func(int32, func(*sim.Env) protocol.Request) protocol.Response, id string) (int32, *protocol.InitProducerIdResponse) {
	t.Helper()
	var coord int32 = -1
	for i := 0; i < 20 && coord < 0; i++ {
		r := do(1, func(*sim.Env) protocol.Request {
			return &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeTransaction, CoordinatorKeys: []string{id}}
		}).(*protocol.FindCoordinatorResponse)
		if r.Coordinators[0].ErrorCode == protocol.NONE {
			coord = r.Coordinators[0].NodeID
		} else if err := c.Advance(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if coord < 0 {
		t.Fatal("no transaction coordinator")
	}
	var init *protocol.InitProducerIdResponse
	for i := 0; i < 20; i++ {
		init = do(coord, func(*sim.Env) protocol.Request {
			return &protocol.InitProducerIdRequest{TransactionalID: id, TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}
		}).(*protocol.InitProducerIdResponse)
		if init.ErrorCode != protocol.COORDINATOR_LOAD_IN_PROGRESS {
			break
		}
		_ = c.Advance(100 * time.Millisecond)
	}
	if init.ErrorCode != protocol.NONE || init.ProducerEpoch != 0 {
		t.Fatalf("init: %+v", init)
	}
	return coord, init
}

// recordStep makes callbacks that note a named step in *steps (with its
// error, which ends the chain) and go on to next.
func recordStep(steps *[]string) func(name string, next func(env *sim.Env)) func(env *sim.Env, err *client.Error) {
	return func(name string, next func(env *sim.Env)) func(env *sim.Env, err *client.Error) {
		return func(env *sim.Env, err *client.Error) {
			if err != nil {
				*steps = append(*steps, name+": "+err.Error())
				return
			}
			*steps = append(*steps, name)
			if next != nil {
				next(env)
			}
		}
	}
}

// The client's transactions: a transactional producer commits two
// records and aborts a third once it is written; a read_committed
// consumer gets the two, a read_uncommitted one all three, and neither a
// marker.
func TestTransactionalProducerAndReadCommitted(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "out", [][]int32{{3, 1, 2}}, nil)
	var steps []string
	var p *client.Producer
	step := recordStep(&steps)
	send := func(env *sim.Env, v string, then func(env *sim.Env)) {
		p.Send(env, client.ProducerRecord{Topic: "out", Partition: 0, Value: []byte(v)}, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
			if err != nil {
				steps = append(steps, "send "+v+": "+err.Error())
			} else if then != nil {
				then(env)
			}
		})
	}
	// afterSends runs fn once send has returned: KafkaProducer.send blocks
	// the application's thread while the topic's metadata is unknown.
	var unblocked func(env *sim.Env)
	afterSends := func(env *sim.Env, fn func(env *sim.Env)) {
		if p.Blocked() {
			unblocked = fn
			return
		}
		fn(env)
	}
	cfg := client.DefaultProducerConfig(c.Release().Version)
	cfg.ClientID, cfg.TransactionalID = "copier", "copier"
	host, err := c.SpawnClient("producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("test-producer"), func(client.Level, string, string) {})
		p.OnUnblock(func(env *sim.Env) {
			if fn := unblocked; fn != nil {
				unblocked = nil
				fn(env)
			}
		})
		return &client.Process{Handlers: []client.Handler{p}, OnStart: func(env *sim.Env) {
			p.InitTransactions(env, step("init", func(env *sim.Env) {
				if err := p.BeginTransaction(); err != nil {
					t.Error(err)
				}
				send(env, "a", nil)
				send(env, "b", nil)
				afterSends(env, func(env *sim.Env) {
					p.CommitTransaction(env, step("commit", func(env *sim.Env) {
						if err := p.BeginTransaction(); err != nil {
							t.Error(err)
						}
						// Acknowledged, then aborted: it stays in the log.
						send(env, "c", func(env *sim.Env) { p.AbortTransaction(env, step("abort", nil)) })
					}))
				})
			}))
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60 && len(steps) < 3; i++ {
		advance(t, c, time.Second)
	}
	c.StopClient(host)
	if fmt.Sprint(steps) != "[init commit abort]" {
		t.Fatalf("steps %v", steps)
	}
	read := func(isolation string) []string {
		var got []string
		cfg := client.DefaultConsumerConfig()
		cfg.IsolationLevel = isolation
		var cons *client.Consumer
		h, err := c.SpawnClient("consumer", func(host string) sim.Process {
			cons = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, func(client.Level, string, string) {})
			cons.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) {
				for _, r := range recs {
					got = append(got, string(r.Value))
				}
			})
			return &client.Process{Handlers: []client.Handler{cons}, OnStart: func(env *sim.Env) { cons.Assign(env, "out", []int32{0}, client.SeekEarliest) }}
		})
		if err != nil {
			t.Fatal(err)
		}
		advance(t, c, 3*time.Second)
		c.StopClient(h)
		return got
	}
	if got := read("read_committed"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("read_committed: %v", got)
	}
	if got := read("read_uncommitted"); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("read_uncommitted: %v", got)
	}
}

// sendOffsetsToTransaction end to end: a transaction's offsets reach the
// group only with its COMMIT marker. The first transaction commits group
// g's offset 5 for in-0, the second sends 9 and aborts; the group keeps
// 5, and a stable fetch sees no pending offset once both markers are in.
func TestSendOffsetsToTransaction(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "out", [][]int32{{3, 1, 2}}, nil)
	createAssigned(t, c, "in", [][]int32{{1, 2, 3}}, nil)
	var steps []string
	var p *client.Producer
	md := client.ConsumerGroupMetadata{GroupID: "g", GenerationID: -1}
	step := recordStep(&steps)
	transaction := func(env *sim.Env, value string, offset int64, commit bool, next func(env *sim.Env)) {
		if err := p.BeginTransaction(); err != nil {
			t.Error(err)
			return
		}
		p.Send(env, client.ProducerRecord{Topic: "out", Partition: 0, Value: []byte(value)}, nil)
		p.SendOffsetsToTransaction(env, []client.TxnOffset{{TP: group.TopicPartition{Topic: "in", Partition: 0}, Offset: offset, LeaderEpoch: -1}}, md,
			step("offsets "+value, func(env *sim.Env) {
				if commit {
					p.CommitTransaction(env, step("commit", next))
				} else {
					p.AbortTransaction(env, step("abort", next))
				}
			}))
	}
	cfg := client.DefaultProducerConfig(c.Release().Version)
	cfg.ClientID, cfg.TransactionalID = "copier", "copier"
	host, err := c.SpawnClient("producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("test-producer"), func(client.Level, string, string) {})
		return &client.Process{Handlers: []client.Handler{p}, OnStart: func(env *sim.Env) {
			p.InitTransactions(env, step("init", func(env *sim.Env) {
				transaction(env, "a", 5, true, func(env *sim.Env) { transaction(env, "b", 9, false, nil) })
			}))
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60 && len(steps) < 5; i++ {
		advance(t, c, time.Second)
	}
	advance(t, c, time.Second) // the markers
	c.StopClient(host)
	if fmt.Sprint(steps) != "[init offsets a commit offsets b abort]" {
		t.Fatalf("steps %v", steps)
	}
	rc := newRawClient(t, c, 1)
	var offset int64 = -2
	var code protocol.ErrorCode
	for id := int32(1); id <= 3 && offset == -2; id++ {
		cl := &call{}
		rc.sendAll(t, outgoing{to: id, c: cl, build: func(*sim.Env) protocol.Request {
			return &protocol.OffsetFetchRequest{RequireStable: true, Groups: []protocol.OffsetFetchRequestGroup{{GroupID: "g", MemberEpoch: -1,
				Topics: []protocol.OffsetFetchRequestTopics{{Name: "in", PartitionIndexes: []int32{0}}}}}}
		}})
		rc.wait(t, cl, time.Minute)
		if cl.err != nil {
			t.Fatal(cl.err)
		}
		g := cl.resp.(*protocol.OffsetFetchResponse).Groups[0]
		if g.ErrorCode == protocol.NOT_COORDINATOR {
			continue
		}
		pr := g.Topics[0].Partitions[0]
		offset, code = pr.CommittedOffset, pr.ErrorCode
	}
	if offset != 5 || code != protocol.NONE {
		t.Fatalf("group g's stable offset for in-0: %d %v, want 5", offset, code)
	}
}

// A send that fails before its record is in a batch (here its topic's
// metadata never comes: TimeoutException after max.block.ms) leaves the
// transaction abortable, as KafkaProducer.doSend's catch does
// (maybeTransitionToErrorState): the commit fails, so the record sent
// before it never becomes visible alone, and the abort succeeds.
func TestSendTimeoutMakesTheTransactionAbortable(t *testing.T) {
	c := newCluster(t, config.Static{"auto.create.topics.enable": "false"})
	createAssigned(t, c, "out", [][]int32{{3, 1, 2}}, nil)
	var steps []string
	var p *client.Producer
	cfg := client.DefaultProducerConfig(c.Release().Version)
	cfg.ClientID, cfg.TransactionalID, cfg.MaxBlock = "copier", "copier", 2*time.Second
	host, err := c.SpawnClient("producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("test-producer"), func(client.Level, string, string) {})
		return &client.Process{Handlers: []client.Handler{p}, OnStart: func(env *sim.Env) {
			p.InitTransactions(env, func(env *sim.Env, err *client.Error) {
				if err != nil {
					t.Error(err)
					return
				}
				if err := p.BeginTransaction(); err != nil {
					t.Error(err)
				}
				p.Send(env, client.ProducerRecord{Topic: "out", Partition: 0, Value: []byte("a")}, func(env *sim.Env, _ client.RecordMetadata, err *client.Error) {
					steps = append(steps, fmt.Sprintf("a: %v", err))
				})
				p.Send(env, client.ProducerRecord{Topic: "missing", Partition: 0, Value: []byte("b")}, func(env *sim.Env, _ client.RecordMetadata, err *client.Error) {
					steps = append(steps, fmt.Sprintf("b: %v", err != nil))
					p.CommitTransaction(env, func(env *sim.Env, err *client.Error) {
						steps = append(steps, fmt.Sprintf("commit: %v", err != nil))
						p.AbortTransaction(env, func(env *sim.Env, err *client.Error) { steps = append(steps, fmt.Sprintf("abort: %v", err)) })
					})
				})
			})
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30 && len(steps) < 4; i++ {
		advance(t, c, time.Second)
	}
	c.StopClient(host)
	if want := "[a: <nil> b: true commit: true abort: <nil>]"; fmt.Sprint(steps) != want {
		t.Fatalf("steps %v, want %s", steps, want)
	}
}
