package raft

import (
	"sort"
	"time"

	"kafkascope/core/sim"
)

// connState is one destination's request state (RequestManager.ConnectionState):
// ready, awaiting the response to one request, or backing off after a
// failed one. At most one request is in flight per destination.
type connState struct {
	awaiting   bool
	backingOff bool
	inflightID int32
	apiKey     int16 // of the request in flight
	lastSend   sim.Time
	lastFail   sim.Time
}

// requestManager tracks requests to the voters (RequestManager.java): a
// destination is ready when it has no state, when its backoff
// (retry.backoff.ms) ended, or when its request timed out
// (request.timeout.ms). A response counts only if it answers the request in
// flight; everything else is stale and dropped.
type requestManager struct {
	conns          map[int32]*connState
	bootstrap      []int32 // the voters, ascending: where observers look for the leader
	retryBackoff   time.Duration
	requestTimeout time.Duration
	rnd            *sim.Rand
}

func newRequestManager(bootstrap []int32, retryBackoff, requestTimeout time.Duration, rnd *sim.Rand) *requestManager {
	return &requestManager{conns: map[int32]*connState{}, bootstrap: bootstrap, retryBackoff: retryBackoff, requestTimeout: requestTimeout, rnd: rnd}
}

func (c *connState) backoffComplete(now sim.Time, m *requestManager) bool {
	return c.backingOff && now >= c.lastFail.Add(m.retryBackoff)
}

func (c *connState) timedOut(now sim.Time, m *requestManager) bool {
	return c.awaiting && now >= c.lastSend.Add(m.requestTimeout)
}

// sortedIDs lists the destinations with state, ascending, so every scan is
// in the same order in every run.
func (m *requestManager) sortedIDs() []int32 {
	ids := make([]int32, 0, len(m.conns))
	for id := range m.conns {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// hasAnyInflightRequest also forgets connections that timed out or ended
// their backoff (they are ready again).
func (m *requestManager) hasAnyInflightRequest(now sim.Time) bool {
	for _, id := range m.sortedIDs() {
		c := m.conns[id]
		switch {
		case c.timedOut(now, m), c.backoffComplete(now, m):
			delete(m.conns, id)
		case c.awaiting:
			return true
		}
	}
	return false
}

// findReadyBootstrapServer picks a ready voter, starting at a random one,
// when no request is in flight anywhere.
func (m *requestManager) findReadyBootstrapServer(now sim.Time) (int32, bool) {
	if m.hasAnyInflightRequest(now) || len(m.bootstrap) == 0 {
		return 0, false
	}
	start := m.rnd.Intn(len(m.bootstrap))
	for i := range m.bootstrap {
		id := m.bootstrap[(start+i)%len(m.bootstrap)]
		if m.isReady(id, now) {
			return id, true
		}
	}
	return 0, false
}

// backoffBeforeAvailableBootstrapServer is how long until a voter may be
// tried: the in-flight request's remaining time, 0 if one is ready, else
// the shortest backoff left.
func (m *requestManager) backoffBeforeAvailableBootstrapServer(now sim.Time) time.Duration {
	minBackoff := m.retryBackoff
	for _, id := range m.sortedIDs() {
		c := m.conns[id]
		switch {
		case c.timedOut(now, m), c.backoffComplete(now, m):
			delete(m.conns, id)
		case c.awaiting:
			return m.remainingRequestTime(id, now)
		case c.backingOff:
			minBackoff = min(minBackoff, m.remainingBackoff(id, now))
		}
	}
	for _, id := range m.bootstrap {
		if m.isReady(id, now) {
			return 0
		}
	}
	return minBackoff
}

func (m *requestManager) hasRequestTimedOut(id int32, now sim.Time) bool {
	c, ok := m.conns[id]
	return ok && c.timedOut(now, m)
}

func (m *requestManager) isReady(id int32, now sim.Time) bool {
	c, ok := m.conns[id]
	if !ok {
		return true
	}
	if c.backoffComplete(now, m) || c.timedOut(now, m) {
		delete(m.conns, id)
		return true
	}
	return !c.awaiting && !c.backingOff
}

func (m *requestManager) isBackingOff(id int32, now sim.Time) bool {
	c, ok := m.conns[id]
	return ok && c.backingOff && !c.backoffComplete(now, m)
}

func (m *requestManager) remainingRequestTime(id int32, now sim.Time) time.Duration {
	c, ok := m.conns[id]
	if !ok || !c.awaiting || c.timedOut(now, m) {
		return 0
	}
	return c.lastSend.Add(m.requestTimeout).Sub(now)
}

func (m *requestManager) remainingBackoff(id int32, now sim.Time) time.Duration {
	if !m.isBackingOff(id, now) {
		return 0
	}
	return m.conns[id].lastFail.Add(m.retryBackoff).Sub(now)
}

func (m *requestManager) isResponseExpected(id, correlationID int32, apiKey int16) bool {
	c, ok := m.conns[id]
	return ok && c.awaiting && c.inflightID == correlationID && c.apiKey == apiKey
}

// onResponseResult resets the connection after a handled response, or backs
// it off after a failed one.
func (m *requestManager) onResponseResult(id, correlationID int32, apiKey int16, success bool, now sim.Time) {
	if !m.isResponseExpected(id, correlationID, apiKey) {
		return
	}
	if success {
		delete(m.conns, id)
		return
	}
	c := m.conns[id]
	c.awaiting, c.backingOff, c.lastFail = false, true, now
}

func (m *requestManager) onRequestSent(id, correlationID int32, apiKey int16, now sim.Time) {
	c, ok := m.conns[id]
	if !ok {
		c = &connState{}
		m.conns[id] = c
	}
	c.awaiting, c.backingOff, c.inflightID, c.apiKey, c.lastSend = true, false, correlationID, apiKey, now
}

func (m *requestManager) reset(id int32) { delete(m.conns, id) }

// resetAll forgets every connection: responses to requests sent before a
// state transition are ignored.
func (m *requestManager) resetAll() { m.conns = map[int32]*connState{} }
