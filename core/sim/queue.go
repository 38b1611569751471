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
	at  Time
	seq uint64
	// pushed is when the event was queued (a leap queues some as of an
	// earlier instant: World.Leap).
	pushed Time
	kind   eventKind
	proc   *proc
	inc    uint64 // the process incarnation a start or timer belongs to
	env    *Envelope
	timer  *Timer
	// idx is the event's place in eventQueue.events, for life (it is kept
	// when the event is recycled).
	idx int32
}

// queued is an event's place in the heap: its order key and its index in
// eventQueue.events. It holds no pointer, so moving it costs no write
// barrier: with *event in the heap, each swap of a push or pop went through
// the collector's write barrier while it marked (in WebAssembly, where the
// collector shares the page's thread, the barrier's buffer flushes under
// push and pop were a twentieth of an idle cluster's time), and comparing
// two events read both from memory.
type queued struct {
	at  Time
	seq uint64
	idx int32
}

func (a queued) before(b queued) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// eventQueue is a binary min-heap of events by (at, seq), written out
// (container/heap's interface calls and boxing cost a fifth of an idle
// cluster's scheduling), with a free list: a popped event is recycled by the
// next push, so a long run allocates no events. Stopped timers' events are
// taken out in bulk as the heap grows (compact).
//
// Invariants: events[i].idx == i; every event is either in h (by its
// index, with its at and seq, which do not change while it is queued), in
// free, or handed out by alloc or pop and not yet pushed or recycled.
type eventQueue struct {
	h      []queued
	events []*event // every event this queue made, by idx
	free   []int32  // indexes of recycled events
	chunk  []event  // events made but not handed out yet
	// compactAt is the heap length at which the next push compacts it
	// first (0 until the first push sets it: compact runs on an empty
	// heap at once and sets it to minCompact).
	compactAt int
}

func (q *eventQueue) len() int { return len(q.h) }

// peek is the next event; the queue must not be empty.
func (q *eventQueue) peek() *event { return q.events[q.h[0].idx] }

// each calls fn for every queued event, in no particular order.
func (q *eventQueue) each(fn func(e *event)) {
	for _, k := range q.h {
		fn(q.events[k.idx])
	}
}

// alloc returns a zeroed event to fill in and push.
func (q *eventQueue) alloc() *event {
	if n := len(q.free); n > 0 {
		i := q.free[n-1]
		q.free = q.free[:n-1]
		return q.events[i]
	}
	if len(q.chunk) == 0 {
		q.chunk = make([]event, eventChunk)
	}
	e := &q.chunk[0]
	q.chunk = q.chunk[1:]
	e.idx = int32(len(q.events))
	q.events = append(q.events, e)
	return e
}

// eventChunk is how many events the queue makes at a time. Events live as
// long as the queue (recycled, never freed), so making them in chunks
// costs no memory, and the collector has a chunk's worth fewer objects to
// mark: a 1000-partition topic's fetches keep about 18,000 events.
const eventChunk = 256

// recycle gives back a popped event no one refers to any more.
func (q *eventQueue) recycle(e *event) {
	*e = event{idx: e.idx}
	q.free = append(q.free, e.idx)
}

func (q *eventQueue) push(e *event) {
	if len(q.h) >= q.compactAt {
		q.compact()
	}
	q.h = append(q.h, queued{at: e.at, seq: e.seq, idx: e.idx})
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
	q.h = h[:n]
	q.down(0)
	return q.events[top.idx]
}

// down moves the entry at i down the heap to its place.
func (q *eventQueue) down(i int) {
	h := q.h
	n := len(h)
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
}

// minCompact is the smallest heap compact looks at: below it, a few dead
// entries cost less than the scan.
const minCompact = 64

// compact takes the events of stopped timers out of the heap, recycling
// them, and re-heapifies what is left; it then waits until the heap has
// doubled again (so its scan costs a push at most two steps, amortized).
//
// Timer.Stop leaves its event in the heap (finding it there would cost
// every event a position to keep up to date), and most timers are stopped:
// every request's timeout (30 s for a follower's Fetch, answered within
// 502 ms) is. On an idle cluster the heap held about 400 entries of which
// some 30 were live, and a quarter of the events popped were dead ones;
// every push and pop walked the extra levels. Live events pop in the same
// (at, seq) order however the heap is arranged, so runs are unchanged.
func (q *eventQueue) compact() {
	q.remove(func(*event) bool { return false })
}

// remove takes out of the heap every stopped timer's event and every event
// drop reports, recycling them, re-heapifies what is left, and waits until
// the heap has doubled again before compact runs next.
func (q *eventQueue) remove(drop func(e *event) bool) {
	live := q.h[:0]
	for _, k := range q.h {
		if e := q.events[k.idx]; e.kind == evTimer && e.timer == nil || drop(e) {
			q.recycle(e)
			continue
		}
		live = append(live, k)
	}
	q.h = live
	for i := len(live)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
	q.compactAt = max(2*len(live), minCompact)
}
