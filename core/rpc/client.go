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
	id    int32
	to    sim.Addr
	kind  string
	cb    Callback
	timer *sim.Timer
}

// MaxInFlight bounds the calls one client may have outstanding.
const MaxInFlight = 4096

// Client sends requests from one local address and routes the answers.
type Client struct {
	self     sim.Addr
	clientID string
	next     int32
	inflight map[int32]*call
}

// NewClient makes a client sending from self with the given client id.
func NewClient(self sim.Addr, clientID string) *Client {
	return &Client{self: self, clientID: clientID, inflight: map[int32]*call{}}
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
	cl := &call{id: id, to: to, kind: req.Kind(), cb: cb}
	c.inflight[id] = cl
	if timeout > 0 {
		cl.timer = env.After(timeout, "request-timeout "+req.Kind(), func(env *sim.Env) {
			if cur, ok := c.inflight[id]; ok && cur == cl {
				// Like Kafka's NetworkClient, a timed-out request closes the
				// connection: every call still waiting on it fails too.
				c.failPeer(env, to, ErrTimeout)
			}
		})
	}
	env.Send(c.self, to, req)
	return id
}

// SendOneWay sends a request that gets no response (Produce with acks=0).
func (c *Client) SendOneWay(env *sim.Env, to sim.Addr, req protocol.Request) {
	h := req.Header()
	h.CorrelationID = c.next
	c.next++
	if h.ClientID == "" {
		h.ClientID = c.clientID
	}
	env.Send(c.self, to, req)
}

// Handle consumes e if it answers one of this client's calls (a response or
// a reset); it reports whether it did.
func (c *Client) Handle(env *sim.Env, e *sim.Envelope) bool {
	if e.To != c.self {
		return false
	}
	switch m := e.Msg.(type) {
	case *sim.Disconnected:
		c.failPeer(env, m.Peer, ErrDisconnected)
		return true
	case protocol.Response:
		cl, ok := c.inflight[m.Correlation()]
		if !ok || cl.to != e.From {
			return true // a late answer to a call that already failed
		}
		delete(c.inflight, cl.id)
		cl.timer.Stop()
		cl.cb(env, m, nil)
		return true
	}
	return false
}

// failPeer fails every call to peer, oldest first, with err.
func (c *Client) failPeer(env *sim.Env, peer sim.Addr, err error) {
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
