package sim

import "container/heap"

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

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	*q = old[:n-1]
	return e
}

func (q *eventQueue) push(e *event) { heap.Push(q, e) }
func (q *eventQueue) pop() *event   { return heap.Pop(q).(*event) }
