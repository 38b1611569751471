package rpc

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Failure reasons a call can end with instead of a response.
var (
	// ErrTimeout: no response within the call's timeout (Kafka's "request
	// timed out"; the connection is considered broken).
	ErrTimeout = errors.New("request timed out")
	// ErrDisconnected: the peer's host answered with a reset (its process is
	// not running).
	ErrDisconnected = errors.New("disconnected")
)

// Callback receives either the response or a failure.
type Callback func(env *sim.Env, resp protocol.Response, err error)

type call struct {
	id   int32
	from sim.Addr // the local address of the connection it went on
	to   sim.Addr
	kind string
	cb   Callback
	c    *Client
	// timer is the call's timeout (a zero Timer, never armed, when the
	// call has none: stopping it is harmless). It is held here, and the
	// call is its own task, so a request's timeout allocates nothing.
	timer sim.Timer
}

// Fire is the call's timeout.
func (cl *call) Fire(env *sim.Env) {
	c := cl.c
	if cur, ok := c.inflight[cl.id]; ok && cur == cl {
		// Like Kafka's NetworkClient, a timed-out request closes the
		// connection: every call still waiting on it fails too.
		c.failPeer(env, cl.to, ErrTimeout)
	}
}

// MaxInFlight bounds the calls one client may have outstanding.
const MaxInFlight = 4096

// Client sends requests and routes the answers. It holds one connection
// per peer. A node's client sends every connection from its own address;
// a client process's (Reconnecting) opens a connection that replaces a
// closed one from a new local port, as a new socket would, and tells the
// peer when it closes one (sim.Closed).
//
// Invariant: local holds the connections open now; every address in it
// is self or in ports.
type Client struct {
	self      sim.Addr
	clientID  string
	next      int32
	inflight  map[int32]*call
	reconnect bool
	local     map[sim.Addr]sim.Addr // peer -> the open connection's local address
	used      map[sim.Addr]bool     // peers connected to before
	ephemeral map[sim.Addr]bool     // local ports this client opened
	// timerNames is "request-timeout "+kind per request kind, built once:
	// concatenating it for every request was an allocation each (a broker
	// sends a Fetch per follower every few hundred milliseconds).
	timerNames map[string]string
}

// NewClient makes a client sending from self with the given client id.
func NewClient(self sim.Addr, clientID string) *Client {
	return &Client{self: self, clientID: clientID, inflight: map[int32]*call{}, local: map[sim.Addr]sim.Addr{}, used: map[sim.Addr]bool{}, ephemeral: map[sim.Addr]bool{}}
}

// Reconnecting makes c a client process's: the first connection to each
// peer comes from self, each one after it from a new ephemeral port
// (sim.Env.EphemeralPort), and a connection c closes on a timeout is
// closed at the peer too. A broker then answers the new connection's
// requests at once, while the old one's request may still wait in its
// purgatory or forwarding queue (and is carried out, unanswered: Kafka's
// "a timeout does not mean it did not happen").
func (c *Client) Reconnecting() *Client {
	c.reconnect = true
	return c
}

// conn is the local address of the connection to peer, opening one.
func (c *Client) conn(env *sim.Env, peer sim.Addr) sim.Addr {
	if l, ok := c.local[peer]; ok {
		return l
	}
	l := c.self
	if c.reconnect && c.used[peer] {
		l = env.EphemeralPort()
		c.ephemeral[l] = true
	}
	c.used[peer] = true
	c.local[peer] = l
	return l
}

// Addr is the address requests are sent from.
func (c *Client) Addr() sim.Addr { return c.self }

// NextCorrelationID is the id the next request will carry.
func (c *Client) NextCorrelationID() int32 { return c.next }

// Send stamps req with the next correlation id and sends it to to. cb runs
// exactly once: with the response, or with ErrTimeout / ErrDisconnected.
// A zero timeout means the caller relies on other signals only.
func (c *Client) Send(env *sim.Env, to sim.Addr, req protocol.Request, timeout time.Duration, cb Callback) int32 {
	if len(c.inflight) >= MaxInFlight {
		panic(fmt.Sprintf("rpc: %s has %d requests in flight", c.self, len(c.inflight)))
	}
	id := c.next
	c.next++
	h := req.Header()
	h.CorrelationID = id
	if h.ClientID == "" {
		h.ClientID = c.clientID
	}
	from := c.conn(env, to)
	cl := &call{id: id, from: from, to: to, kind: req.Kind(), cb: cb, c: c}
	c.inflight[id] = cl
	if timeout > 0 {
		env.Arm(&cl.timer, timeout, c.timerName(cl.kind), cl)
	}
	env.Send(from, to, req)
	return id
}

// timerName names the timeout timer of a request of kind.
func (c *Client) timerName(kind string) string {
	name, ok := c.timerNames[kind]
	if !ok {
		if c.timerNames == nil {
			c.timerNames = map[string]string{}
		}
		name = "request-timeout " + kind
		c.timerNames[kind] = name
	}
	return name
}

// SendOneWay sends a request that gets no response (Produce with acks=0).
func (c *Client) SendOneWay(env *sim.Env, to sim.Addr, req protocol.Request) {
	h := req.Header()
	h.CorrelationID = c.next
	c.next++
	if h.ClientID == "" {
		h.ClientID = c.clientID
	}
	env.Send(c.conn(env, to), to, req)
}

// Handle consumes e if it answers one of this client's calls (a response or
// a reset); it reports whether it did.
func (c *Client) Handle(env *sim.Env, e *sim.Envelope) bool {
	if e.To != c.self && !c.ephemeral[e.To] {
		return false
	}
	switch m := e.Msg.(type) {
	case *sim.Disconnected:
		if c.local[m.Peer] == e.To { // not a connection closed before
			c.failPeer(env, m.Peer, ErrDisconnected)
		}
		return true
	case protocol.Response:
		cl, ok := c.inflight[m.Correlation()]
		if !ok || cl.to != e.From || cl.from != e.To {
			return true // a late answer to a call that already failed
		}
		delete(c.inflight, cl.id)
		cl.timer.Stop()
		cl.cb(env, m, nil)
		return true
	}
	return false
}

// failPeer closes the connection to peer: every call on it fails, oldest
// first, with err. A client process that gave up on a request tells the
// peer (a reset came from the peer: nothing to tell).
func (c *Client) failPeer(env *sim.Env, peer sim.Addr, err error) {
	if l, ok := c.local[peer]; ok && c.reconnect && err == ErrTimeout {
		env.Send(l, peer, &sim.Closed{})
	}
	delete(c.local, peer)
	var ids []int32
	for id, cl := range c.inflight {
		if cl.to == peer {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		cl, ok := c.inflight[id]
		if !ok {
			continue // an earlier callback already ended it (e.g. Abandon)
		}
		delete(c.inflight, id)
		cl.timer.Stop()
		cl.cb(env, nil, err)
	}
}

// InFlight counts the calls outstanding to peer ("" for all).
func (c *Client) InFlight(peer sim.Addr) int {
	n := 0
	for _, cl := range c.inflight {
		if peer == "" || cl.to == peer {
			n++
		}
	}
	return n
}

// Abandon forgets every outstanding call without running callbacks (the
// owner is shutting down).
func (c *Client) Abandon() {
	for id, cl := range c.inflight {
		cl.timer.Stop()
		delete(c.inflight, id)
	}
}

// The calls of a leap (sim.World.Leap): a long poll's cycles run in closed
// form, and the leap keeps the client as the cycles would have left it.

// CallTimer is outstanding call id's timeout timer and the peer it went
// to (nil if there is no such call).
func (c *Client) CallTimer(id int32) (*sim.Timer, sim.Addr) {
	cl, ok := c.inflight[id]
	if !ok {
		return nil, ""
	}
	return &cl.timer, cl.to
}

// LeapAnswered forgets call id: its answer came within a leap, which did
// the callback's work. Its timer left the queue with the leap.
func (c *Client) LeapAnswered(id int32) { delete(c.inflight, id) }

// LeapSent records a call Send made within a leap, on the open connection
// to to: req is stamped with id (ids count on from there). The leap arms
// the returned timeout timer, as task, under name.
func (c *Client) LeapSent(id int32, to sim.Addr, req protocol.Request, cb Callback) (t *sim.Timer, name string, task sim.Task) {
	from, ok := c.local[to]
	if !ok {
		panic(fmt.Sprintf("rpc: %s leaped a call to %s with no connection open", c.self, to))
	}
	h := req.Header()
	h.CorrelationID = id
	if h.ClientID == "" {
		h.ClientID = c.clientID
	}
	cl := &call{id: id, from: from, to: to, kind: req.Kind(), cb: cb, c: c}
	c.inflight[id] = cl
	return &cl.timer, c.timerName(cl.kind), cl
}

// Connected reports whether the client has a connection open to peer (a
// leap sends only on open connections), and from which local address.
func (c *Client) Connected(peer sim.Addr) (sim.Addr, bool) {
	l, ok := c.local[peer]
	return l, ok
}

// SetNextCorrelationID sets the id the next request will carry (a leap's
// count of the requests its cycles sent).
func (c *Client) SetNextCorrelationID(id int32) { c.next = id }
