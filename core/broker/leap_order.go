package broker

import (
	"cmp"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// The order of a leap's events (sim.World.Leap), shared by every loop
// kind.
//
// A loop's events in a span form a chain: the loop's pending event at the
// span's start (its base, already queued), then each event pushed by the
// handler of the one before (a follower's Fetch arrives, the leader parks
// it, the expiry answers it, the answer makes the follower send again).
// A stepped run orders events due at one instant by sequence number, that
// is by push order: by the time each was pushed, then by the order in
// which the handlers that pushed them ran at that instant (themselves
// events due at one instant, so ordered the same way), then by the order
// of the pushes within one handler. Base events were pushed before the
// span, so before every event the span pushes, and among themselves in
// their sequence order. seqCmp follows these rules back along the chains;
// it decides which of two sends at one instant takes the lower
// correlation id, and which of two fetches a leader parks first. The
// events a leap queues carry the same rules as a push path (chainPath,
// sim.PushPath), which orders them against every other loop kind's.

// chain is a loop's events in a span: event 0 is the base, event j+1 is
// pushed by event j's handler, due delta[s] after it (s: event j's step in
// the loop's cycle of m steps).
type chain struct {
	seq    uint64 // the base event's sequence number
	at     sim.Time
	pushed sim.Time                // when the base event was queued
	step   int                     // the base event's step
	m      int                     // steps in a cycle
	delta  [maxSteps]time.Duration // from each step's event to the next step's
	rank   [maxSteps]int           // the place of the next step's push among its pusher's pushes
	period sim.Time                // the sum of delta
	// within[r] is how long after a cycle's first event its r-th comes
	// (the first r deltas from step on): eventAt is asked for often
	// (every comparison of two paths), so it adds, not loops.
	within [maxSteps]sim.Time
}

// maxSteps bounds a loop's cycle (held in arrays: a leap looks for loops
// often, and a chain is part of its loop's value).
const maxSteps = 4

// init makes c the chain from base, at step of a cycle of len(delta)
// steps.
func (c *chain) init(base sim.QueuedEvent, step int, delta []time.Duration, rank []int) {
	if len(delta) > maxSteps || len(rank) != len(delta) {
		panic("broker: a loop's cycle has more steps than a chain holds")
	}
	*c = chain{seq: base.Seq, at: base.At, pushed: base.PushedAt, step: step, m: len(delta)}
	copy(c.delta[:], delta)
	copy(c.rank[:], rank)
	for _, d := range delta {
		c.period += sim.Time(d)
	}
	for r := 1; r < c.m; r++ {
		c.within[r] = c.within[r-1] + sim.Time(c.delta[(c.step+r-1)%c.m])
	}
}

func newChain(base sim.QueuedEvent, step int, delta []time.Duration, rank []int) *chain {
	c := new(chain)
	c.init(base, step, delta, rank)
	return c
}

// stepOf is event j's step.
func (c *chain) stepOf(j int) int { return (c.step + j) % c.m }

// eventAt is when event j is due.
func (c *chain) eventAt(j int) sim.Time {
	return c.at + sim.Time(j/c.m)*c.period + c.within[j%c.m]
}

// before counts the events due before t: events 0..n-1.
func (c *chain) before(t sim.Time) int {
	if c.at >= t {
		return 0
	}
	m := c.m
	k := int((t - 1 - c.at) / c.period) // event k*m is the last cycle start before t
	n, at := k*m+1, c.at+sim.Time(k)*c.period
	for i := 0; i < m-1; i++ {
		at += sim.Time(c.delta[(c.step+i)%m])
		if at >= t {
			break
		}
		n++
	}
	return n
}

// ofStep counts the events of step s among events 0..n-1.
func (c *chain) ofStep(s, n int) int {
	first := (s - c.step + c.m) % c.m
	if n <= first {
		return 0
	}
	return (n-1-first)/c.m + 1
}

// lastOf is the last event of step s among events 0..n-1 (-1: none).
func (c *chain) lastOf(s, n int) int {
	k := c.ofStep(s, n)
	if k == 0 {
		return -1
	}
	return (s-c.step+c.m)%c.m + (k-1)*c.m
}

// ev is event j of a chain.
type ev struct {
	c *chain
	j int
}

func (e ev) at() sim.Time { return e.c.eventAt(e.j) }

// seqCmp orders two events of the span due at the same instant as a
// stepped run runs them (their sequence order).
func seqCmp(a, b ev) int {
	if a.c != b.c && a.j > 0 && b.j > 0 && inStep(a, b) && a.at() == b.at() {
		// The two agree on every level back to the nearer base: skip
		// there (two followers fetching from one leader over links of
		// one latency walked the whole span, a twentieth of a leaped
		// week).
		k := min(a.j, b.j)
		a.j, b.j = a.j-k, b.j-k
	}
	for a != b {
		switch {
		case a.j == 0 && b.j == 0:
			return cmp.Compare(a.c.seq, b.c.seq)
		case a.j == 0:
			return -1
		case b.j == 0:
			return 1
		}
		pa, pb := ev{a.c, a.j - 1}, ev{b.c, b.j - 1}
		if c := cmp.Compare(pa.at(), pb.at()); c != 0 {
			return c
		}
		a, b = pa, pb // distinct chains' events: distinct pushers
	}
	return 0
}

// inStep says whether a and b go back level by level by equal steps:
// the delta before each of their events is the same on both, down to the
// nearer base. Their chains' cycles repeat, so one cycle tells.
func inStep(a, b ev) bool {
	if a.c.m != b.c.m {
		return false
	}
	for i := 1; i <= a.c.m && i <= a.j && i <= b.j; i++ {
		if a.c.delta[a.c.stepOf(a.j-i)] != b.c.delta[b.c.stepOf(b.j-i)] {
			return false
		}
	}
	return true
}

// pushed is an event a leap queues: pushed by event by's handler, rank-th
// among its pushes.
type pushed struct {
	by   ev
	rank int
}

// nextPush is the push of chain event j+1 by event j.
func nextPush(e ev) pushed { return pushed{e, e.c.rank[e.c.stepOf(e.j)]} }

// leapAdd is an event to queue and the push that queues it.
type leapAdd struct {
	e  sim.LeapEvent
	by pushed
}

// ranked sets each event's PushedAt, Path and Rank from its push: the
// pusher's time, the pusher's chain back to its base (sim.PushPath), and
// its place among the pusher's pushes. Every loop kind's events order
// against these by their paths.
func ranked(adds []leapAdd) []sim.LeapEvent {
	out := make([]sim.LeapEvent, len(adds))
	for i, a := range adds {
		a.e.PushedAt, a.e.Path, a.e.Rank = a.by.by.at(), chainPath(a.by.by), a.by.rank
		out[i] = a.e
	}
	return out
}

// chainPath is the push path (sim.PushPath) of what chain event e's
// handler queues: e's time, then each earlier event's back to the base,
// then when the base was queued.
type chainPath ev

func (p chainPath) Push(l int) (sim.Time, bool) {
	if l <= p.j {
		return p.c.eventAt(p.j - l), false
	}
	return p.c.pushed, true
}

// Rank: chain event j-l+1's place among event j-l's pushes.
func (p chainPath) Rank(l int) int {
	if l < 1 || l > p.j {
		return 0
	}
	return p.c.rank[p.c.stepOf(p.j-l)]
}

func (p chainPath) Seq() uint64 { return p.c.seq }

// SameLevels (sim.SameRun): two chains whose cycles have the same steps
// (delays and push ranks, read from the events at level l on) and that
// agree at level l agree down to the shorter one's first event. A
// comparison of two such paths walked every event of the span before.
func (p chainPath) SameLevels(other sim.PushPath, l int) int {
	q, ok := other.(chainPath)
	if !ok || l > p.j || l > q.j || p.c.m != q.c.m {
		return 0
	}
	m, sp, sq := p.c.m, p.c.stepOf(p.j-l), q.c.stepOf(q.j-l)
	for r := 0; r < m; r++ {
		// Going back from step s, the event before is at step s-1.
		a, b := (sp-r+m)%m, (sq-r+m)%m
		if p.c.delta[a] != q.c.delta[b] || p.c.rank[a] != q.c.rank[b] {
			return 0
		}
	}
	return min(p.j, q.j) - l + 1
}

// sender is a loop that sends requests through its broker's client, one
// at each of its chain's events of step step, n of its events in the
// span. Its last send's correlation id is set in id.
type sender struct {
	b    *Broker
	c    *chain
	step int
	n    int
	id   int32
}

// spanSender is the sender of a loop on chain c that sends at each event
// of step step, for the span up to horizon.
func spanSender(b *Broker, c *chain, step int, horizon sim.Time) sender {
	return sender{b: b, c: c, step: step, n: c.before(horizon)}
}

// sends is how many requests it sends in the span.
func (s *sender) sends() int { return s.c.ofStep(s.step, s.n) }

// sentBefore counts its sends in the span that run before event e.
func (s *sender) sentBefore(e ev) int {
	t := e.at()
	k := s.c.ofStep(s.step, min(s.c.before(t), s.n)) // sends before t
	j := (s.step-s.c.step+s.c.m)%s.c.m + k*s.c.m
	if j < s.n && s.c.eventAt(j) == t && seqCmp(ev{s.c, j}, e) < 0 {
		k++ // its send at t itself runs first
	}
	return k
}

// numberSends gives each loop's last send its correlation id: each
// broker's client numbers requests in the order they were sent, across
// its loops. It moves the clients' next ids past the span's sends.
func numberSends(senders []*sender) {
	// A leap's loops come grouped by host; sort them so that each
	// broker's are contiguous, in their order.
	sorts.StableFunc(senders, func(a, b *sender) int { return cmp.Compare(a.b.cfg.Host, b.b.cfg.Host) })
	for i := 0; i < len(senders); {
		b := senders[i].b
		k := i + 1
		for k < len(senders) && senders[k].b == b {
			k++
		}
		group := senders[i:k]
		i = k
		next := b.net.NextCorrelationID()
		total := 0
		for _, s := range group {
			n := s.sends()
			total += n
			if n == 0 {
				continue
			}
			last := ev{s.c, s.c.lastOf(s.step, s.n)}
			before := 0
			for _, o := range group {
				before += o.sentBefore(last)
			}
			s.id = next + int32(before)
		}
		b.net.SetNextCorrelationID(next + int32(total))
	}
}
