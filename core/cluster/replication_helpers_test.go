package cluster

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/client"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// Helpers for the replication tests: topics with a manual assignment and
// configs, a raw protocol client whose requests and answers the test sees
// exactly, and readers of replica state.

// createAssigned creates topic name with one partition per assignment entry
// (replica lists in order: the first is the initial leader) and the given
// topic configs.
func createAssigned(t testing.TB, c *Cluster, name string, assignment [][]int32, configs map[string]string) {
	t.Helper()
	if err := c.CreateTopic("admin", name, -1, -1, assignment, configs); err != nil {
		t.Fatal(err)
	}
	// Every replica learns the topic; followers start fetching.
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
}

// rawClient is a client process with one rpc.Client per connection
// (connection i sends from host:i+1). Requests are built and sent inside the
// process, so they carry the virtual time they were sent at.
type rawClient struct {
	c     *Cluster
	host  string
	conns []*rpc.Client
}

func newRawClient(t testing.TB, c *Cluster, conns int) *rawClient {
	t.Helper()
	rc := &rawClient{c: c}
	host, err := c.SpawnClient("raw", func(host string) sim.Process {
		proc := &client.Process{}
		for i := 0; i < conns; i++ {
			n := rpc.NewClient(sim.Addr(fmt.Sprintf("%s:%d", host, i+1)), "raw-test")
			rc.conns = append(rc.conns, n)
			proc.Handlers = append(proc.Handlers, n)
		}
		return proc
	})
	if err != nil {
		t.Fatal(err)
	}
	rc.host = host
	return rc
}

// call is one request's outcome.
type call struct {
	sentAt sim.Time
	done   bool
	at     sim.Time // when the answer (or failure) arrived
	resp   protocol.Response
	err    error
	order  int // completion order among this client's calls
}

type outgoing struct {
	conn int
	to   int32
	c    *call
	// build makes the request inside the client process.
	build func(env *sim.Env) protocol.Request
}

// sendAll sends every request in order, in one handler run (so at the same
// virtual instant, and in this order on each connection).
func (rc *rawClient) sendAll(t testing.TB, reqs ...outgoing) {
	t.Helper()
	completed := 0
	err := rc.c.World.Call(rc.host, "send", func(env *sim.Env) {
		for _, o := range reqs {
			o := o
			o.c.sentAt = env.Now()
			rc.conns[o.conn].Send(env, BrokerAddr(o.to), o.build(env), time.Minute, func(env *sim.Env, resp protocol.Response, err error) {
				completed++
				o.c.done, o.c.at, o.c.resp, o.c.err, o.c.order = true, env.Now(), resp, err, completed
			})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wait runs the world until c completes (at most limit).
func (rc *rawClient) wait(t testing.TB, c *call, limit time.Duration) {
	t.Helper()
	if err := rc.c.RunUntil(func() bool { return c.done }, limit); err != nil {
		t.Fatal(err)
	}
	if !c.done {
		t.Fatalf("no answer within %s", limit)
	}
	if c.err != nil {
		t.Fatalf("call failed: %v", c.err)
	}
}

// buildProduce returns a request builder for one batch of values to one
// partition.
func buildProduce(topic string, partition int32, acks int16, timeoutMs int32, values ...string) func(env *sim.Env) protocol.Request {
	return func(env *sim.Env) protocol.Request {
		var recs []record.Record
		for _, v := range values {
			recs = append(recs, record.Record{Timestamp: env.Now().UnixMilli(), Value: []byte(v)})
		}
		return &protocol.ProduceRequest{Acks: acks, TimeoutMs: timeoutMs, Topics: []protocol.ProduceTopic{{
			Name: topic, Partitions: []protocol.ProducePartition{{Index: partition, Records: record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), recs)}},
		}}}
	}
}

// produce sends one batch to broker `to` and waits for the answer.
func (rc *rawClient) produce(t testing.TB, to int32, topic string, acks int16, timeoutMs int32, values ...string) (protocol.ProducePartitionResponse, *call) {
	t.Helper()
	c := &call{}
	rc.sendAll(t, outgoing{to: to, c: c, build: buildProduce(topic, 0, acks, timeoutMs, values...)})
	rc.wait(t, c, time.Duration(timeoutMs)*time.Millisecond+time.Minute)
	return producePart(t, c), c
}

func producePart(t testing.TB, c *call) protocol.ProducePartitionResponse {
	t.Helper()
	r, ok := c.resp.(*protocol.ProduceResponse)
	if !ok || len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 {
		t.Fatalf("unexpected produce answer %#v", c.resp)
	}
	return r.Topics[0].Partitions[0]
}

// replica returns broker id's replica of topic-0 (it must exist).
func replica(t testing.TB, c *Cluster, id int32, topic string) *broker.Partition {
	t.Helper()
	p := c.Node(id).Broker.Partition(tpOf(topic, 0))
	if p == nil {
		t.Fatalf("broker %d has no replica of %s-0", id, topic)
	}
	return p
}

// ctlPartition is the controller's committed state of topic-0.
func ctlPartition(t testing.TB, c *Cluster, topic string) metadata.PartitionState {
	t.Helper()
	ctl := c.Controller()
	if ctl == nil {
		t.Fatal("no active controller")
	}
	st := ctl.Image().Partition(topic, 0)
	if st == nil {
		t.Fatalf("controller does not know %s-0", topic)
	}
	return *st.Clone()
}

// values lists every record value in the replica's log, in offset order.
func values(t testing.TB, p *broker.Partition) []string {
	t.Helper()
	bs, err := p.Log().Batches(p.Log().LogStartOffset(), p.Log().LogEndOffset())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range bs {
		for _, r := range b.Records {
			out = append(out, string(r.Value))
		}
	}
	return out
}

// batchEpochs lists each batch's partition leader epoch.
func batchEpochs(t testing.TB, p *broker.Partition) []int32 {
	t.Helper()
	bs, err := p.Log().Batches(p.Log().LogStartOffset(), p.Log().LogEndOffset())
	if err != nil {
		t.Fatal(err)
	}
	var out []int32
	for _, b := range bs {
		out = append(out, b.PartitionLeaderEpoch)
	}
	return out
}

// logBytes is the replica's whole log as stored.
func logBytes(t testing.TB, p *broker.Partition) []byte {
	t.Helper()
	l := p.Log()
	data, err := l.Read(l.LogStartOffset(), 1<<30, l.LogEndOffset(), true)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func sameBytes(a, b []byte) bool { return bytes.Equal(a, b) }

// lastDelivery is the time of the latest delivered message from host `from`
// to address `to` of the given kind, still in the trace window (-1 if none).
func lastDelivery(c *Cluster, from string, to sim.Addr, kind string) sim.Time {
	at := sim.Time(-1)
	for _, e := range c.World.Trace().Recent(sim.DefaultTraceLimit) {
		if e.Kind == sim.TraceDeliver && e.Env != nil && e.Env.From.Host() == from && e.Env.To == to && e.Env.Msg.Kind() == kind {
			at = e.At
		}
	}
	return at
}

// messagesFrom makes the trace keep every message from now on (the ring's
// length, not sim.MessageWindow) and returns where now is, for a test that
// reads the messages of what follows with traceSince.
func messagesFrom(c *Cluster) uint64 {
	c.World.Trace().SetMessageWindow(sim.DefaultTraceLimit)
	return c.World.Trace().Count()
}

// traceSince returns the events recorded after sequence number seq.
func traceSince(c *Cluster, seq uint64) []sim.TraceEvent {
	return c.World.Trace().Since(seq)
}

// nextTick is the first isr-expiration tick strictly after t: the task runs
// at broker start (virtual time 0 for brokers created with the cluster) and
// then every replica.lag.time.max.ms / 2.
func nextTick(t sim.Time, period time.Duration) sim.Time {
	k := int64(t)/int64(period) + 1
	return sim.Time(k * int64(period))
}

func advance(t testing.TB, c *Cluster, d time.Duration) {
	t.Helper()
	if err := c.Advance(d); err != nil {
		t.Fatal(err)
	}
}

func runUntil(t testing.TB, c *Cluster, cond func() bool, limit time.Duration, what string) {
	t.Helper()
	if err := c.RunUntil(cond, limit); err != nil {
		t.Fatal(err)
	}
	if !cond() {
		t.Fatalf("%s did not happen within %s (now %s)", what, limit, c.World.Now())
	}
}

func eqISR(got []int32, want ...int32) bool { return slices.Equal(got, want) }
