package rpc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

type testReq struct {
	protocol.RequestHeader
	N int
}

func (*testReq) Kind() string { return "TestReq" }

type testResp struct {
	protocol.ResponseHeader
	N int
}

func (*testResp) Kind() string { return "TestResp" }

// outcome is one callback run.
type outcome struct {
	tag  string
	at   sim.Time
	resp *testResp
	err  error
}

func (o outcome) String() string {
	if o.err != nil {
		return fmt.Sprintf("%s:%v@%s", o.tag, o.err, o.at)
	}
	return fmt.Sprintf("%s:resp%d@%s", o.tag, o.resp.N, o.at)
}

// clientProc is a host that owns an rpc.Client and hands it every envelope.
type clientProc struct {
	c         *Client
	results   []outcome
	unhandled []*sim.Envelope
}

func (p *clientProc) Start(env *sim.Env) {}

func (p *clientProc) Receive(env *sim.Env, e *sim.Envelope) {
	if !p.c.Handle(env, e) {
		p.unhandled = append(p.unhandled, e)
	}
}

// cb records the callback's result under tag.
func (p *clientProc) cb(tag string) Callback {
	return func(env *sim.Env, resp protocol.Response, err error) {
		o := outcome{tag: tag, at: env.Now(), err: err}
		if resp != nil {
			o.resp = resp.(*testResp)
		}
		p.results = append(p.results, o)
	}
}

func (p *clientProc) summary() string {
	s := make([]string, len(p.results))
	for i, o := range p.results {
		s[i] = o.String()
	}
	return strings.Join(s, " ")
}

// serverProc answers each request after delay(N) (never if negative), with
// N copied into the response; seen records the requests.
type serverProc struct {
	self   sim.Addr
	delay  func(n int) time.Duration
	seen   []*testReq
	from   []sim.Addr // where each request came from
	closed []sim.Addr // connections closed by the client (sim.Closed)
}

func (s *serverProc) Start(env *sim.Env) {}

func (s *serverProc) Receive(env *sim.Env, e *sim.Envelope) {
	if _, ok := e.Msg.(*sim.Closed); ok {
		s.closed = append(s.closed, e.From)
	}
	req, ok := e.Msg.(*testReq)
	if !ok {
		return
	}
	s.seen = append(s.seen, req)
	s.from = append(s.from, e.From)
	d := time.Duration(0)
	if s.delay != nil {
		d = s.delay(req.N)
	}
	if d < 0 {
		return
	}
	resp := &testResp{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, N: req.N}
	from := e.From
	env.After(d, "answer", func(env *sim.Env) { env.Send(s.self, from, resp) })
}

const (
	clientAddr  sim.Addr = "client:1"
	serverAddr  sim.Addr = "server:9092"
	server2Addr sim.Addr = "server2:9092"
)

type rig struct {
	w      *sim.World
	cp     *clientProc
	s1, s2 *serverProc
	t      *testing.T
}

func newRig(t *testing.T) *rig {
	t.Helper()
	w := sim.NewWorld(1)
	r := &rig{w: w, t: t, cp: &clientProc{c: NewClient(clientAddr, "test-client")},
		s1: &serverProc{self: serverAddr}, s2: &serverProc{self: server2Addr}}
	for host, p := range map[string]sim.Process{"client": r.cp, "server": r.s1, "server2": r.s2} {
		if err := w.Spawn(host, p); err != nil {
			t.Fatal(err)
		}
	}
	r.run(0)
	return r
}

// do runs fn inside the client process now, and processes what is due now.
func (r *rig) do(fn func(env *sim.Env, c *Client)) {
	r.t.Helper()
	if err := r.w.Call("client", "test", func(env *sim.Env) { fn(env, r.cp.c) }); err != nil {
		r.t.Fatal(err)
	}
	r.run(0)
}

func (r *rig) run(d time.Duration) {
	r.t.Helper()
	if err := r.w.RunFor(d); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) send(to sim.Addr, n int, timeout time.Duration) int32 {
	var id int32
	r.do(func(env *sim.Env, c *Client) {
		id = c.Send(env, to, &testReq{N: n}, timeout, r.cp.cb(fmt.Sprint(n)))
	})
	return id
}

func TestCorrelationIDsAndClientID(t *testing.T) {
	r := newRig(t)
	if r.cp.c.NextCorrelationID() != 0 || r.cp.c.Addr() != clientAddr {
		t.Fatalf("new client: next id %d, addr %s", r.cp.c.NextCorrelationID(), r.cp.c.Addr())
	}
	var ids []int32
	r.do(func(env *sim.Env, c *Client) {
		ids = append(ids, c.Send(env, serverAddr, &testReq{N: 0}, time.Second, r.cp.cb("a")))
		c.SendOneWay(env, serverAddr, &testReq{N: 1})
		ids = append(ids, c.Send(env, serverAddr, &testReq{N: 2, RequestHeader: protocol.RequestHeader{ClientID: "own-id", CorrelationID: 777}}, time.Second, r.cp.cb("c")))
		ids = append(ids, c.Send(env, server2Addr, &testReq{N: 3}, time.Second, r.cp.cb("d")))
	})
	if fmt.Sprint(ids) != "[0 2 3]" || r.cp.c.NextCorrelationID() != 4 {
		t.Fatalf("ids %v, next %d; want [0 2 3] and 4 (the one-way send takes id 1)", ids, r.cp.c.NextCorrelationID())
	}
	r.run(time.Second / 2)
	if len(r.s1.seen) != 3 {
		t.Fatalf("server saw %d requests", len(r.s1.seen))
	}
	for i, want := range []struct {
		id       int32
		clientID string
	}{{0, "test-client"}, {1, "test-client"}, {2, "own-id"}} {
		h := r.s1.seen[i].RequestHeader
		if h.CorrelationID != want.id || h.ClientID != want.clientID {
			t.Errorf("request %d header %+v, want id %d client %q", i, h, want.id, want.clientID)
		}
	}
	if r.s2.seen[0].CorrelationID != 3 {
		t.Errorf("server2 got correlation id %d", r.s2.seen[0].CorrelationID)
	}
	// The one-way request's response (the test server answers everything)
	// has no call to go to: consumed and dropped.
	if got := r.cp.summary(); got != "a:resp0@T+2ms c:resp2@T+2ms d:resp3@T+2ms" {
		t.Fatalf("results %s", got)
	}
	if len(r.cp.unhandled) != 0 || r.cp.c.InFlight("") != 0 {
		t.Fatalf("unhandled %d, in flight %d", len(r.cp.unhandled), r.cp.c.InFlight(""))
	}
}

func TestResponsesMatchedByCorrelationIDOutOfOrder(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(n int) time.Duration { return time.Duration(10-n) * time.Millisecond }
	r.do(func(env *sim.Env, c *Client) {
		for n := range 4 {
			c.Send(env, serverAddr, &testReq{N: n}, time.Second, r.cp.cb(fmt.Sprint(n)))
		}
	})
	r.run(time.Second)
	want := "3:resp3@T+9ms 2:resp2@T+10ms 1:resp1@T+11ms 0:resp0@T+12ms"
	if got := r.cp.summary(); got != want {
		t.Fatalf("results %s\nwant    %s", got, want)
	}
}

func TestTimeoutFiresOnceWithErrTimeout(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return -1 } // never answers
	r.run(5 * time.Millisecond)
	start := r.w.Now()
	r.send(serverAddr, 1, 100*time.Millisecond)
	if r.cp.c.InFlight(serverAddr) != 1 {
		t.Fatal("call not in flight")
	}
	if _, err := r.w.RunWhile(func() bool { return len(r.cp.results) == 0 }, start.Add(100*time.Millisecond-1)); err != nil {
		t.Fatal(err)
	}
	if len(r.cp.results) != 0 {
		t.Fatalf("callback ran before the timeout: %s", r.cp.summary())
	}
	r.run(time.Minute)
	if len(r.cp.results) != 1 {
		t.Fatalf("callback ran %d times: %s", len(r.cp.results), r.cp.summary())
	}
	o := r.cp.results[0]
	if !errors.Is(o.err, ErrTimeout) || o.resp != nil || o.at != start.Add(100*time.Millisecond) {
		t.Fatalf("outcome %s, want ErrTimeout at %s", o, start.Add(100*time.Millisecond))
	}
	if ErrTimeout.Error() != "request timed out" {
		t.Fatalf("ErrTimeout text %q", ErrTimeout)
	}
	if r.cp.c.InFlight("") != 0 {
		t.Fatal("timed-out call still in flight")
	}
}

func TestLateResponseAfterTimeoutIsIgnored(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return 50 * time.Millisecond }
	r.send(serverAddr, 7, 20*time.Millisecond)
	r.run(time.Second)
	if got := r.cp.summary(); got != "7:request timed out@T+20ms" {
		t.Fatalf("results %s", got)
	}
	if len(r.cp.unhandled) != 0 {
		t.Fatal("the late response was not consumed by the client")
	}
	// The id is not reused: a new call gets a new id, and the stale answer
	// (still id 0) could not be mistaken for it.
	if id := r.send(serverAddr, 8, time.Second); id != 1 {
		t.Fatalf("next id %d", id)
	}
	r.run(time.Second)
	if got := r.cp.summary(); got != "7:request timed out@T+20ms 8:resp8@T+1.052s" {
		t.Fatalf("results %s", got)
	}
}

func TestResponseBeforeTimeoutStopsTimer(t *testing.T) {
	r := newRig(t)
	r.send(serverAddr, 1, 10*time.Millisecond)
	r.run(time.Minute)
	if got := r.cp.summary(); got != "1:resp1@T+2ms" {
		t.Fatalf("results %s: the timeout must not fire after a response", got)
	}
	for _, e := range r.w.Trace().Recent(0) {
		if e.Kind == sim.TraceTimer && strings.HasPrefix(e.Detail, "request-timeout") {
			t.Fatalf("a stopped timeout fired: %+v", e)
		}
	}
}

func TestZeroTimeoutWaitsForever(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return time.Hour }
	r.send(serverAddr, 1, 0)
	r.run(59 * time.Minute)
	if len(r.cp.results) != 0 || r.cp.c.InFlight(serverAddr) != 1 {
		t.Fatalf("zero-timeout call ended early: %s", r.cp.summary())
	}
	r.run(2 * time.Minute)
	if len(r.cp.results) != 1 || r.cp.results[0].err != nil {
		t.Fatalf("results %s", r.cp.summary())
	}
}

func TestResponseFromAnotherPeerIsIgnored(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return -1 }
	id := r.send(serverAddr, 1, time.Second)
	// server2 sends an answer carrying the same correlation id.
	if err := r.w.Call("server2", "forge", func(env *sim.Env) {
		env.Send(server2Addr, clientAddr, &testResp{ResponseHeader: protocol.ResponseHeader{CorrelationID: id}, N: 99})
	}); err != nil {
		t.Fatal(err)
	}
	r.run(10 * time.Millisecond)
	if len(r.cp.results) != 0 || r.cp.c.InFlight(serverAddr) != 1 {
		t.Fatalf("a response from the wrong peer completed the call: %s", r.cp.summary())
	}
	if len(r.cp.unhandled) != 0 {
		t.Fatal("the stray response was not consumed")
	}
}

func TestHandleIgnoresOtherTraffic(t *testing.T) {
	r := newRig(t)
	r.send(serverAddr, 1, time.Second)
	var handled []bool
	r.do(func(env *sim.Env, c *Client) {
		handled = append(handled,
			c.Handle(env, &sim.Envelope{From: serverAddr, To: "client:2", Msg: &testResp{}}),                         // another local port
			c.Handle(env, &sim.Envelope{From: serverAddr, To: clientAddr, Msg: &testReq{}}),                          // a request, not a response
			c.Handle(env, &sim.Envelope{From: serverAddr, To: "client:2", Msg: &sim.Disconnected{Peer: serverAddr}}), // not ours
		)
	})
	if fmt.Sprint(handled) != "[false false false]" {
		t.Fatalf("Handle = %v", handled)
	}
	if r.cp.c.InFlight(serverAddr) != 1 {
		t.Fatal("foreign traffic touched the call")
	}
}

func TestDisconnectedFailsEveryCallToPeerInOrder(t *testing.T) {
	r := newRig(t)
	r.s2.delay = func(int) time.Duration { return 5 * time.Millisecond }
	if err := r.w.Kill("server", false); err != nil { // the host stays up and answers with resets
		t.Fatal(err)
	}
	r.do(func(env *sim.Env, c *Client) {
		for n := range 20 {
			to := serverAddr
			if n%5 == 2 {
				to = server2Addr
			}
			c.Send(env, to, &testReq{N: n}, time.Minute, r.cp.cb(fmt.Sprint(n)))
		}
	})
	if r.cp.c.InFlight(serverAddr) != 16 || r.cp.c.InFlight(server2Addr) != 4 || r.cp.c.InFlight("") != 20 {
		t.Fatalf("InFlight: %d to server, %d to server2, %d total", r.cp.c.InFlight(serverAddr), r.cp.c.InFlight(server2Addr), r.cp.c.InFlight(""))
	}
	r.run(time.Second)
	var failed, ok []string
	for _, o := range r.cp.results {
		switch {
		case errors.Is(o.err, ErrDisconnected):
			failed = append(failed, o.tag)
		case o.err == nil:
			ok = append(ok, o.tag)
		default:
			t.Errorf("unexpected outcome %s", o)
		}
	}
	if got := strings.Join(failed, ","); got != "0,1,3,4,5,6,8,9,10,11,13,14,15,16,18,19" {
		t.Fatalf("failed in order %s", got)
	}
	if got := strings.Join(ok, ","); got != "2,7,12,17" {
		t.Fatalf("succeeded %s", got)
	}
	// All 16 failed on the first reset, at the same instant.
	for _, o := range r.cp.results {
		if o.err != nil && o.at != r.cp.results[0].at {
			t.Fatalf("%s failed at %s, not with the first reset at %s", o.tag, o.at, r.cp.results[0].at)
		}
	}
	if len(r.cp.results) != 20 || r.cp.c.InFlight("") != 0 {
		t.Fatalf("%d callbacks, %d in flight", len(r.cp.results), r.cp.c.InFlight(""))
	}
	if ErrDisconnected.Error() != "disconnected" {
		t.Fatalf("ErrDisconnected text %q", ErrDisconnected)
	}
}

func TestDisconnectedStopsTimeouts(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return -1 }
	r.send(serverAddr, 1, 50*time.Millisecond)
	r.do(func(env *sim.Env, c *Client) {
		if !c.Handle(env, &sim.Envelope{From: serverAddr, To: clientAddr, Msg: &sim.Disconnected{Peer: serverAddr}}) {
			t.Error("Handle refused a reset addressed to the client")
		}
	})
	r.run(time.Second)
	if got := r.cp.summary(); got != "1:disconnected@T+0s" {
		t.Fatalf("results %s: the call must fail once, by the reset", got)
	}
	// A reset for a peer with nothing in flight is consumed quietly.
	r.do(func(env *sim.Env, c *Client) {
		if !c.Handle(env, &sim.Envelope{From: server2Addr, To: clientAddr, Msg: &sim.Disconnected{Peer: server2Addr}}) {
			t.Error("reset not consumed")
		}
	})
	if len(r.cp.results) != 1 {
		t.Fatal("a reset with nothing in flight ran a callback")
	}
}

func TestAbandonRunsNoCallbacks(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(n int) time.Duration {
		if n == 0 {
			return 10 * time.Millisecond
		}
		return -1
	}
	r.send(serverAddr, 0, time.Second)         // would get a response
	r.send(serverAddr, 1, 20*time.Millisecond) // would time out
	r.send(server2Addr, 2, time.Second)
	r.do(func(env *sim.Env, c *Client) { c.Abandon() })
	if r.cp.c.InFlight("") != 0 {
		t.Fatal("calls in flight after Abandon")
	}
	r.run(time.Minute)
	if len(r.cp.results) != 0 {
		t.Fatalf("callbacks ran after Abandon: %s", r.cp.summary())
	}
	// Abandoned timeouts are stopped, so the trace shows none firing.
	for _, e := range r.w.Trace().Recent(0) {
		if e.Kind == sim.TraceTimer && strings.HasPrefix(e.Detail, "request-timeout") {
			t.Fatalf("an abandoned call's timeout fired: %+v", e)
		}
	}
	// The client still works afterwards, with fresh ids.
	if id := r.send(serverAddr, 0, time.Second); id != 3 {
		t.Fatalf("id after Abandon %d", id)
	}
	r.run(time.Second)
	if len(r.cp.results) != 1 || r.cp.results[0].err != nil {
		t.Fatalf("results %s", r.cp.summary())
	}
}

// An owner that shuts down when a connection drops abandons its other
// calls from inside a failure callback. The remaining calls must then be
// dropped silently, not crash the process.
func TestAbandonFromDisconnectCallback(t *testing.T) {
	r := newRig(t)
	r.do(func(env *sim.Env, c *Client) {
		c.Send(env, serverAddr, &testReq{N: 0}, time.Minute, func(env *sim.Env, resp protocol.Response, err error) {
			r.cp.results = append(r.cp.results, outcome{tag: "0", at: env.Now(), err: err})
			c.Abandon()
		})
		for n := 1; n < 4; n++ {
			c.Send(env, serverAddr, &testReq{N: n}, time.Minute, r.cp.cb(fmt.Sprint(n)))
		}
	})
	err := r.w.Call("client", "reset", func(env *sim.Env) {
		r.cp.c.Handle(env, &sim.Envelope{From: serverAddr, To: clientAddr, Msg: &sim.Disconnected{Peer: serverAddr}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.w.RunFor(time.Second); err != nil {
		t.Fatalf("the world failed: %v", err)
	}
	if got := r.cp.summary(); got != "0:disconnected@T+0s" {
		t.Fatalf("results %s: only the first call's callback should run", got)
	}
}

func TestMaxInFlight(t *testing.T) {
	r := newRig(t)
	r.s1.delay = func(int) time.Duration { return -1 }
	var panicked any
	r.do(func(env *sim.Env, c *Client) {
		for range MaxInFlight {
			c.Send(env, serverAddr, &testReq{}, 0, func(*sim.Env, protocol.Response, error) {})
		}
		defer func() { panicked = recover() }()
		c.Send(env, serverAddr, &testReq{}, 0, func(*sim.Env, protocol.Response, error) {})
	})
	if panicked == nil || !strings.Contains(fmt.Sprint(panicked), "4096 requests in flight") {
		t.Fatalf("request %d: panic %v", MaxInFlight+1, panicked)
	}
	if r.cp.c.InFlight("") != MaxInFlight {
		t.Fatalf("in flight %d", r.cp.c.InFlight(""))
	}
}

// A client process that gives up on a request closes the connection at the
// server too, and sends what follows on a new connection from a new port:
// the late answer to the closed one goes nowhere. A node's client sends
// everything from its own address and closes nothing at the peer.
func TestReconnectingClientOpensANewConnectionAfterATimeout(t *testing.T) {
	for _, reconnecting := range []bool{true, false} {
		r := newRig(t)
		if reconnecting {
			r.cp.c.Reconnecting()
		}
		r.s1.delay = func(n int) time.Duration { return time.Duration(2-n) * time.Second } // 0: 2 s, 1: 1 s, 2: at once
		r.send(serverAddr, 0, time.Second)
		r.run(1500 * time.Millisecond) // 0 timed out at 1 s
		r.send(serverAddr, 2, time.Second)
		r.send(server2Addr, 3, time.Second)
		r.run(3 * time.Second)
		got := fmt.Sprint(r.s1.from, r.s1.closed, r.s2.from) + " " + r.cp.summary()
		want := "[client:1 client:1] [] [client:1] 0:request timed out@T+1s 2:resp2@T+1.502s 3:resp3@T+1.502s"
		if reconnecting {
			want = "[client:1 client:32768] [client:1] [client:1] 0:request timed out@T+1s 2:resp2@T+1.502s 3:resp3@T+1.502s"
		}
		if got != want {
			t.Errorf("reconnecting %v:\n got  %s\n want %s", reconnecting, got, want)
		}
		if len(r.cp.unhandled) != 0 {
			t.Errorf("reconnecting %v: the late answer was not consumed: %v", reconnecting, r.cp.unhandled)
		}
	}
}
