package zookeeper

import "sort"

// sessionTracker is server/SessionTrackerImpl.java with its
// server/ExpiryQueue.java (release-3.5.9): each session sits in the
// expiry bucket roundToNextInterval(now + timeout), buckets being whole
// multiples of tickTime; a request or ping moves it to a later bucket;
// when the clock reaches a bucket its sessions expire. Times are ms of
// the simulation's clock (Java's Time.currentElapsedTime).
type sessionTracker struct {
	tick     int64
	sessions map[int64]*trackedSession
	buckets  map[int64][]int64 // expiry time → sessions, in the order they entered
}

type trackedSession struct {
	id      int64
	timeout int32
	expiry  int64
	closing bool
}

func newSessionTracker(tick int64) *sessionTracker {
	return &sessionTracker{tick: tick, sessions: map[int64]*trackedSession{}, buckets: map[int64][]int64{}}
}

// roundToNextInterval is ExpiryQueue.roundToNextInterval: the next
// multiple of tickTime strictly after t.
func (st *sessionTracker) roundToNextInterval(t int64) int64 {
	return (t/st.tick + 1) * st.tick
}

// add is addSession: a new session, or a known one touched.
func (st *sessionTracker) add(id int64, timeout int32, now int64) {
	if _, ok := st.sessions[id]; !ok {
		st.sessions[id] = &trackedSession{id: id, timeout: timeout}
	}
	st.update(st.sessions[id], timeout, now)
}

// touch is touchSession: false for an unknown or closing session.
func (st *sessionTracker) touch(id int64, timeout int32, now int64) bool {
	s := st.sessions[id]
	if s == nil || s.closing {
		return false
	}
	st.update(s, timeout, now)
	return true
}

func (st *sessionTracker) update(s *trackedSession, timeout int32, now int64) {
	at := st.roundToNextInterval(now + int64(timeout))
	if at == s.expiry {
		return
	}
	if s.expiry != 0 {
		st.leave(s)
	}
	s.expiry = at
	st.buckets[at] = append(st.buckets[at], s.id)
}

func (st *sessionTracker) leave(s *trackedSession) {
	rest := removeInt64(st.buckets[s.expiry], s.id)
	if len(rest) == 0 {
		delete(st.buckets, s.expiry)
	} else {
		st.buckets[s.expiry] = rest
	}
}

// valid is checkSession's test: the session exists and is not closing.
func (st *sessionTracker) valid(id int64) bool {
	s := st.sessions[id]
	return s != nil && !s.closing
}

// setClosing is setSessionClosing: no more touches.
func (st *sessionTracker) setClosing(id int64) {
	if s := st.sessions[id]; s != nil {
		s.closing = true
	}
}

// remove is removeSession (a closeSession was applied).
func (st *sessionTracker) remove(id int64) {
	if s := st.sessions[id]; s != nil {
		st.leave(s)
		delete(st.sessions, id)
	}
}

// nextExpiry is the earliest non-empty bucket, or false.
func (st *sessionTracker) nextExpiry() (int64, bool) {
	first, ok := int64(0), false
	for at := range st.buckets {
		if !ok || at < first {
			first, ok = at, true
		}
	}
	return first, ok
}

// poll takes every bucket due at now: the sessions to expire, oldest
// bucket first. Java keeps a bucket in a concurrent hash set, whose order
// follows the session ids' hashes; here a bucket keeps the order its
// sessions entered it.
func (st *sessionTracker) poll(now int64) []int64 {
	var due []int64
	for at := range st.buckets {
		if at <= now {
			due = append(due, at)
		}
	}
	sort.Slice(due, func(i, j int) bool { return due[i] < due[j] })
	var out []int64
	for _, at := range due {
		out = append(out, st.buckets[at]...)
		delete(st.buckets, at)
	}
	for _, id := range out {
		st.sessions[id].expiry = 0
	}
	return out
}

func removeInt64(xs []int64, x int64) []int64 {
	for i, y := range xs {
		if y == x {
			return append(xs[:i:i], xs[i+1:]...)
		}
	}
	return xs
}
