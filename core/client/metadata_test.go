package client

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// metadataBroker answers every Metadata request after delay with one
// partition (led by broker 1) for each topic asked about.
type metadataBroker struct {
	self  sim.Addr
	delay time.Duration
	asked [][]string
}

func (b *metadataBroker) Start(*sim.Env) {}

func (b *metadataBroker) Receive(env *sim.Env, e *sim.Envelope) {
	req, ok := e.Msg.(*protocol.MetadataRequest)
	if !ok {
		return
	}
	b.asked = append(b.asked, slices.Clone(req.Topics))
	resp := &protocol.MetadataResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
		Brokers: []protocol.MetadataBroker{{NodeID: 1, Host: "kafka-1", Port: 9092}}}
	for _, t := range req.Topics {
		resp.Topics = append(resp.Topics, protocol.MetadataTopic{Name: t,
			Partitions: []protocol.MetadataPartition{{Index: 0, LeaderID: 1, Replicas: []int32{1}, ISR: []int32{1}}}})
	}
	from := e.From
	env.After(b.delay, "metadata-answer", func(env *sim.Env) { env.Send(b.self, from, resp) })
}

type metadataClient struct{ net *rpc.Client }

func (c *metadataClient) Start(*sim.Env)                        {}
func (c *metadataClient) Receive(env *sim.Env, e *sim.Envelope) { c.net.Handle(env, e) }

// A waiter added while a request is in flight waits for the answer to the
// next request, which names the topics tracked now: the group leader that
// adds the other members' topics (ConsumerCoordinator.updateGroupSubscription)
// must not assign with an answer that left them out.
func TestMetadataAwaitWaitsForARequestSentAfterIt(t *testing.T) {
	w := sim.NewWorld(1)
	broker := &metadataBroker{self: "kafka-1:9092", delay: 10 * time.Millisecond}
	cl := &metadataClient{net: rpc.NewClient("client:1", "test")}
	for host, p := range map[string]sim.Process{"kafka-1": broker, "client": cl} {
		if err := w.Spawn(host, p); err != nil {
			t.Fatal(err)
		}
	}
	m := NewMetadata(cl.net, []sim.Addr{"kafka-1:9092"}, false, func(Level, string) {})
	var sawB []bool
	call := func(fn func(env *sim.Env)) {
		t.Helper()
		if err := w.Call("client", "test", fn); err != nil {
			t.Fatal(err)
		}
	}
	call(func(env *sim.Env) {
		m.Add("a")
		m.RequestUpdate(env) // in flight, asking for [a]
		if !m.Add("b") || m.Add("b") {
			t.Error("Add reports a new topic once")
		}
		m.Await(env, func(env *sim.Env) { sawB = append(sawB, m.Topic("b") != nil) })
	})
	if err := w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sawB, []bool{true}) {
		t.Fatalf("waiter ran %d times, saw b: %v; want once, after an answer about b", len(sawB), sawB)
	}
	if len(broker.asked) != 2 || !slices.Equal(broker.asked[1], []string{"a", "b"}) {
		t.Fatalf("requests asked for %v; want [a] then [a b]", broker.asked)
	}

	// Remove drops the topic from the next request and from the cache.
	call(func(env *sim.Env) {
		m.Remove("b")
		if m.Topic("b") != nil {
			t.Error("removed topic still cached")
		}
		m.RequestUpdate(env)
	})
	if err := w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	if got := broker.asked[len(broker.asked)-1]; !slices.Equal(got, []string{"a"}) || m.Topic("b") != nil {
		t.Fatalf("after Remove the request asked for %v, b cached: %v", got, m.Topic("b") != nil)
	}
}
