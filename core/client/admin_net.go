package client

import (
	"fmt"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// The admin client's NetworkClient: one connection per node id (a
// bootstrap address is node -1, -2, ..., a different connection from the
// same broker's own id), correlation ids counted per client, request
// timeouts that close the connection, and reconnect backoff
// (ClusterConnectionStates).
//
// The simulated network has no connection handshake: a connection is ready
// at once, and learns that the host refused it when its first request comes
// back as a reset (sim.Disconnected). Kafka would have spent a correlation
// id on the ApiVersions request that opens every connection; the client
// counts one too, so the ids in its messages are Kafka's, and gives both
// back when the connection turns out to be refused (Kafka never sent
// either).

type connState uint8

const (
	connNone         connState = iota // never connected
	connReady                         // open
	connDisconnected                  // closed; reconnect after the backoff
)

// connection is ClusterConnectionStates' NodeConnectionState.
type connection struct {
	// local is the address the connection sends from: the client's own
	// for a node's first connection, a new ephemeral port for each one
	// after it (a new socket; the broker must not see the closed one's
	// muted requests in its way).
	local       sim.Addr
	opened      bool // a connection to the node was opened before
	state       connState
	answered    bool     // a response came back since the connection opened
	lastAttempt sim.Time // when it last connected or disconnected
	backoff     time.Duration
	failures    int // failed connection attempts in a row
}

// request is one request in flight.
type request struct {
	corr    int32
	node    int32
	from    sim.Addr // the connection's local address
	to      sim.Addr
	call    *call
	timer   *sim.Timer
	opened  bool  // this request opened the connection
	corrWas int32 // the id counter before this request (and its handshake)
}

// addr is a node's listener address.
func (a *Admin) addr(id int32) (sim.Addr, bool) {
	for _, n := range a.md.nodes {
		if n.ID == id {
			return n.Addr, true
		}
	}
	return "", false
}

// blackedOut is ClusterConnectionStates.isBlackedOut.
func (a *Admin) blackedOut(id int32, now sim.Time) bool {
	cn := a.conns[id]
	return cn != nil && cn.state == connDisconnected && now.Sub(cn.lastAttempt) < cn.backoff
}

// connectionFailed is NetworkClient.connectionFailed: the node's
// connection is closed (a refused connect, or a closed connection not yet
// reopened).
func (a *Admin) connectionFailed(id int32) bool {
	cn := a.conns[id]
	return cn != nil && cn.state == connDisconnected
}

// ready is NetworkClient.ready: true when a request may go to the node now,
// opening the connection if it may.
func (a *Admin) ready(env *sim.Env, id int32) bool {
	cn := a.conns[id]
	if cn == nil {
		cn = &connection{}
		a.conns[id] = cn
	}
	switch {
	case cn.state == connReady:
		return true
	case a.blackedOut(id, env.Now()):
		return false
	}
	if _, ok := a.addr(id); !ok {
		return false
	}
	cn.state, cn.answered, cn.lastAttempt = connReady, false, env.Now()
	cn.local = a.self
	if cn.opened {
		cn.local = env.EphemeralPort()
		a.ephemeral[cn.local] = true
	}
	cn.opened = true
	return true
}

// leastLoaded is NetworkClient.leastLoadedNode over the metadata's nodes:
// an open connection with nothing in flight wins at once; otherwise the
// least busy open one; otherwise a node it may connect to, the one whose
// last attempt is oldest. Kafka starts the scan at a random node; the
// simulator starts at the first (lowest id, or first bootstrap address).
func (a *Admin) leastLoaded(env *sim.Env) (int32, bool) {
	now := env.Now()
	var ready, canConnect int32
	haveReady, haveCanConnect := false, false
	busiest := int(^uint(0) >> 1)
	for _, n := range a.md.nodes {
		cn := a.conns[n.ID]
		switch {
		case cn != nil && cn.state == connReady:
			inflight := 0
			if a.inFlight[n.ID] != nil {
				inflight = 1
			}
			if inflight == 0 {
				return n.ID, true
			}
			if inflight < busiest {
				busiest, ready, haveReady = inflight, n.ID, true
			}
		case !a.blackedOut(n.ID, now):
			if !haveCanConnect || a.lastAttempt(canConnect) > a.lastAttempt(n.ID) {
				canConnect, haveCanConnect = n.ID, true
			}
		}
	}
	if haveReady {
		return ready, true
	}
	return canConnect, haveCanConnect
}

func (a *Admin) lastAttempt(id int32) sim.Time {
	if cn := a.conns[id]; cn != nil {
		return cn.lastAttempt
	}
	return 0
}

// send puts a call's request on the wire with the next correlation id.
func (a *Admin) send(env *sim.Env, id int32, c *call, msg sim.Message, timeoutMs int32) {
	to, _ := a.addr(id)
	cn := a.conns[id]
	r := &request{node: id, from: cn.local, to: to, call: c, corrWas: a.nextCorr}
	if !cn.answered && !a.hasRequestTo(id) {
		r.opened = true
		a.nextCorr++ // the ApiVersions request that opens a connection
	}
	r.corr = a.nextCorr
	a.nextCorr++
	switch m := msg.(type) {
	case protocol.Request:
		h := m.Header()
		h.CorrelationID = r.corr
		if h.ClientID == "" {
			h.ClientID = a.cfg.ClientID
		}
	case raft.ClientRequest:
		m.SetClientCorrelation(r.corr)
	}
	a.inflight[r.corr] = r
	// NetworkClient expires a request once more than its timeout has
	// passed since it was sent.
	r.timer = env.After(time.Duration(timeoutMs)*time.Millisecond+time.Millisecond, "request-timeout "+msg.Kind(), func(env *sim.Env) {
		if a.inflight[r.corr] == r {
			a.disconnect(env, r.node, true)
			a.poll(env)
		}
	})
	env.Send(cn.local, to, msg)
}

func (a *Admin) hasRequestTo(id int32) bool {
	for _, r := range a.inflight {
		if r.node == id {
			return true
		}
	}
	return false
}

// disconnect closes a node's connection (a request timed out, or the peer
// reset it): every request in flight on it fails with a
// DisconnectException, and the metadata is refreshed
// (AdminMetadataUpdater.handleServerDisconnect). The client closing it
// (byClient) tells the broker, which then never answers what it still
// holds from this connection.
func (a *Admin) disconnect(env *sim.Env, id int32, byClient bool) {
	cn := a.conns[id]
	if cn == nil || cn.state != connReady {
		return
	}
	if to, ok := a.addr(id); ok && byClient {
		env.Send(cn.local, to, &sim.Closed{})
	}
	if cn.answered {
		cn.failures = 0 // the connection had been established
	}
	cn.state, cn.lastAttempt = connDisconnected, env.Now()
	cn.backoff = a.reconnect.backoff(cn.failures)
	cn.failures++
	a.md.requestUpdate()
	for _, corr := range sortedIDs(a.inflight) {
		r := a.inflight[corr]
		if r.node != id {
			continue
		}
		a.finish(r)
		a.fail(env, r.call, &Error{Class: classDisconnect, retriable: true,
			Message: fmt.Sprintf("Cancelled %s request with correlation id %d due to node %d being disconnected", r.call.name, r.corr, id)})
	}
}

// finish forgets a request.
func (a *Admin) finish(r *request) {
	delete(a.inflight, r.corr)
	r.timer.Stop()
	if a.inFlight[r.node] == r.call {
		delete(a.inFlight, r.node)
	}
}

// onReset handles a refused request. On a connection that never answered,
// it is a refused connect: the call was never sent, so it goes back to be
// assigned again without counting a try, and the correlation ids are given
// back. On an established connection it is a reset that fails the call.
func (a *Admin) onReset(env *sim.Env, m *sim.Disconnected) {
	var corr int32
	switch q := m.Request.(type) {
	case protocol.Request:
		corr = q.Header().CorrelationID
	case raft.ClientRequest:
		corr = q.ClientCorrelation()
	case nil:
		// The peer's process died with connections open: each of them
		// closes, failing what is in flight on it.
		nodes := map[int32]bool{}
		for _, r := range a.inflight {
			if r.to == m.Peer {
				nodes[r.node] = true
			}
		}
		for id := range a.conns {
			if addr, ok := a.addr(id); ok && addr == m.Peer {
				nodes[id] = true
			}
		}
		for _, id := range sortedIDs(nodes) {
			a.disconnect(env, id, false)
		}
		a.poll(env)
		return
	default:
		return
	}
	r, ok := a.inflight[corr]
	if !ok || r.to != m.Peer {
		return
	}
	cn := a.conns[r.node]
	if cn.answered || !r.opened {
		a.disconnect(env, r.node, false)
		a.poll(env)
		return
	}
	a.finish(r)
	if a.nextCorr == r.corr+1 {
		a.nextCorr = r.corrWas
	}
	cn.state, cn.lastAttempt = connDisconnected, env.Now()
	cn.backoff = a.reconnect.backoff(cn.failures)
	cn.failures++
	a.md.requestUpdate()
	r.call.hasNode = false
	a.pending = append(a.pending, r.call)
	a.poll(env)
}

// onResponse hands an answer to its call (handleResponses).
func (a *Admin) onResponse(env *sim.Env, from, at sim.Addr, corr int32, resp sim.Message) {
	r, ok := a.inflight[corr]
	if !ok || r.to != from || r.from != at {
		return // a late answer on a connection that was closed
	}
	a.finish(r)
	cn := a.conns[r.node]
	cn.answered, cn.failures = true, 0
	if err := r.call.onResponse(env, resp); err != nil {
		a.fail(env, r.call, err)
	}
	a.poll(env)
}
