package sim

type eventKind uint8

const (
	evStart eventKind = iota + 1
	evDeliver
	evTimer
)

// event is one entry of the scheduler's queue. Events are ordered by (at,
// seq); seq is unique, so the order is total and every run pops events in the
// same order.
type event struct {
	at    Time
	seq   uint64
	kind  eventKind
	proc  *proc
	inc   uint64 // the process incarnation a start or timer belongs to
	env   *Envelope
	timer *Timer
}

func (e *event) before(f *event) bool {
	if e.at != f.at {
		return e.at < f.at
	}
	return e.seq < f.seq
}

// eventQueue is a binary min-heap of events by (at, seq), written out for
// *event (container/heap's interface calls and boxing cost a fifth of an
// idle cluster's scheduling), with a free list: a popped event is recycled
// by the next push, so a long run allocates no events.
type eventQueue struct {
	h    []*event
	free []*event
}

func (q *eventQueue) len() int { return len(q.h) }

// peek is the next event; the queue must not be empty.
func (q *eventQueue) peek() *event { return q.h[0] }

// alloc returns a zeroed event to fill in and push.
func (q *eventQueue) alloc() *event {
	if n := len(q.free); n > 0 {
		e := q.free[n-1]
		q.free = q.free[:n-1]
		return e
	}
	return &event{}
}

// recycle gives back a popped event no one refers to any more.
func (q *eventQueue) recycle(e *event) {
	*e = event{}
	q.free = append(q.free, e)
}

func (q *eventQueue) push(e *event) {
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *eventQueue) pop() *event {
	h := q.h
	n := len(h) - 1
	top := h[0]
	h[0] = h[n]
	h[n] = nil
	h = h[:n]
	q.h = h
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}
