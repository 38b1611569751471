package sim

import (
	"cmp"
	"time"
)

// The order of a leap's events (World.Leap).
//
// A stepped run orders events due at one instant by sequence number, that
// is by push order: by the time each was queued, then by the order in
// which the handlers that queued them ran at that instant (themselves
// events due at one instant, so ordered the same way), then by the order
// of the pushes within one handler. Going back push by push, every event a
// leap queues reaches an event queued before the span (the loop's pending
// event when the span began), whose place in the queue is known. Two
// events' paths are compared level by level: the first difference in push
// time decides; when both reach their base events together, the bases'
// sequence order does. Paths of loops that have run in step for a long
// time agree on many levels (a fetcher and the quorum both answered at a
// NoOp's instant, their requests both sent when those answers arrived), so
// the comparison goes as deep as it must.

// A PushPath is how an event came to be queued: Push(0) is when the event
// was queued, Push(1) when the event whose handler queued it was queued,
// and so on, up to an event queued before the span (base true), whose
// sequence number is Seq. Rank(l) is the place of the level-l event among
// the pushes of the handler that queued it (level 0's comes with the
// event: LeapEvent.Rank, LeapOp.Rank).
type PushPath interface {
	Push(level int) (t Time, base bool)
	Rank(level int) int
	Seq() uint64
}

// ComparePaths orders two events, queued along paths a and b (their own
// ranks ra and rb), as a stepped run orders their pushes (or, for two
// events due at one instant, runs them): the first difference in push
// time going back decides; paths that agree all the way to their base
// events are decided by the bases' order, and paths from one base by the
// first push, going forward from it, where they part (two pushes of one
// handler: the one it made first). Paths of equal times reach their bases
// at one level (a base was queued before the span, the others within it).
func ComparePaths(a PushPath, ra int, b PushPath, rb int) int {
	// byRank is what the ranks decide, at the deepest level (the nearest
	// the bases) where they differ.
	byRank := cmp.Compare(ra, rb)
	for l := 0; ; l++ {
		ta, ba := a.Push(l)
		tb, bb := b.Push(l)
		if c := cmp.Compare(ta, tb); c != 0 {
			return c
		}
		switch {
		case ba && bb:
			if c := cmp.Compare(a.Seq(), b.Seq()); c != 0 {
				return c
			}
			return byRank
		case ba:
			return -1 // queued before the span, the other within it
		case bb:
			return 1
		}
		if l > 0 {
			if c := cmp.Compare(a.Rank(l), b.Rank(l)); c != 0 {
				byRank = c
			}
		}
		// Two runs of one period from the same time agree on as many
		// levels as the shorter has, ranks included (a periodic run's
		// are 0): go to the last of them at once, or a long span's
		// paths would cost their length.
		if pa, ok := a.(periodicRun); ok {
			if pb, ok := b.(periodicRun); ok {
				na, da := pa.run(l)
				nb, db := pb.run(l)
				if n := min(na, nb); n > 1 && da == db {
					l += n - 1
				}
			}
		}
		// Two loops running in step (two followers fetching from one
		// leader over links of one latency) agree from here to the
		// shorter one's base: skip to it.
		if sa, ok := a.(SameRun); ok {
			if n := sa.SameLevels(b, l); n > 1 {
				l += n - 1
			}
		}
	}
}

// periodicRun is a path that can tell how many levels from level l on go
// back by one period each (n, counting l itself; n <= 1: none).
type periodicRun interface {
	run(l int) (n int, period Time)
}

// SameRun is a path that can tell, once it agrees with other at level l,
// for how many levels from l on (l included) the two push at equal times
// with equal ranks without being at their bases (0 or 1: it cannot tell),
// so that ComparePaths need not walk them one by one.
type SameRun interface {
	SameLevels(other PushPath, l int) int
}

// BasePath is the path of an event queued before the span: queued at
// Pushed, with sequence number SeqNo.
type BasePath struct {
	Pushed Time
	SeqNo  uint64
}

// PathOf is e's path: e was queued before the span.
func PathOf(e QueuedEvent) BasePath { return BasePath{Pushed: e.PushedAt, SeqNo: e.Seq} }

func (p BasePath) Push(int) (Time, bool) { return p.Pushed, true }
func (p BasePath) Rank(int) int          { return 0 }
func (p BasePath) Seq() uint64           { return p.SeqNo }

// PeriodicPath is the path of what the last of Runs runs of a periodic
// event queued, each run queued by the one before (a timer re-arming
// itself): the runs at Last, Last-Period, ..., then From, the first run's
// path (the event pending when the span began). Runs 0: From itself.
type PeriodicPath struct {
	Last   Time
	Period time.Duration
	Runs   int
	From   PushPath
}

func (p PeriodicPath) Push(l int) (Time, bool) {
	if l < p.Runs {
		return p.Last - Time(l)*Time(p.Period), false
	}
	return p.From.Push(l - p.Runs)
}

func (p PeriodicPath) run(l int) (int, Time) {
	if l < p.Runs {
		return p.Runs - l, Time(p.Period)
	}
	if r, ok := p.From.(periodicRun); ok {
		return r.run(l - p.Runs)
	}
	return 0, 0
}

// Rank: a run queues the next run's event first of its pushes.
func (p PeriodicPath) Rank(l int) int {
	if l < p.Runs {
		return 0
	}
	return p.From.Rank(l - p.Runs)
}

func (p PeriodicPath) Seq() uint64 { return p.From.Seq() }

// LeadPath is a path whose first levels are Lead's times (Lead[0] when
// the event was queued) with Ranks' ranks (0 where Ranks is short), then
// Then's.
type LeadPath struct {
	Lead  []Time
	Ranks []int
	Then  PushPath
}

func (p LeadPath) Push(l int) (Time, bool) {
	if l < len(p.Lead) {
		return p.Lead[l], false
	}
	return p.Then.Push(l - len(p.Lead))
}

func (p LeadPath) run(l int) (int, Time) {
	if l < len(p.Lead) {
		return 0, 0
	}
	if r, ok := p.Then.(periodicRun); ok {
		return r.run(l - len(p.Lead))
	}
	return 0, 0
}

func (p LeadPath) Rank(l int) int {
	switch {
	case l >= len(p.Lead):
		return p.Then.Rank(l - len(p.Lead))
	case l < len(p.Ranks):
		return p.Ranks[l]
	}
	return 0
}

func (p LeadPath) Seq() uint64 { return p.Then.Seq() }
