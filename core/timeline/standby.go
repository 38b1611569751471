package timeline

import (
	"slices"
	"time"

	"kafkascope/core/sim"
)

// Standby replays make seeking back fast. A world of goroutines cannot be
// copied, but a replay can be paused: a standby is a replay of the branch
// stopped at some moment. Seeking back to t resumes the latest standby at
// or before t and plays only the rest, instead of replaying everything
// from the cluster's creation. Standbys come from two places: the live
// replay a seek leaves behind, and replays built in idle time (Background)
// to fill the largest gap between the moments already covered.
const (
	// MaxStandbys bounds the paused replays kept (each holds a whole
	// simulated cluster; the page keeps fewer when they would not fit in
	// its memory, SetStandbyLimit). Seeks replay from the closest one, so
	// the gaps between them are what a seek costs: in issue 15's session
	// of one simulated hour (a producer, a consumer group, a broker
	// restarted), ten seeks anywhere replayed 259,000 events in all with
	// 6 standbys built in idle time, gaps of 7.5 to 15 minutes, and
	// 103,000 with 12; the 12 hold 120 MB natively. A higher limit gives
	// nothing unless idle time builds that many: each standby replays
	// from the cluster's creation, so twelve spread over that hour cost
	// about 6 simulated hours of replay (1.7 million events, some 20 s of
	// the page's idle time), and the 10 s the benchmark leaves the page
	// paused build 5 or 6 (BenchmarkHourSeeks).
	MaxStandbys = 12
	// minStandbyGap and minStandbyEvents: standbys closer than both this
	// much virtual time and this many events apart would save too little
	// to be worth a cluster's memory (the page replays 2,000 events in
	// about 20 ms: 8 to 13 µs an event in issue 15's benchmarks). Events
	// count too because a seek's cost is the events it replays: an idle
	// cluster runs a few dozen events a simulated second, a 9-broker
	// cluster with two producers at 200 records/s 3,000, and with the
	// time floor alone such a cluster's branch of 25 seconds got no
	// standby at all (each seek back replayed it from the cluster's
	// creation: 1.5 s in the page).
	minStandbyGap    = 20 * time.Second
	minStandbyEvents = 2000
)

// standbys holds the paused replays of the current branch.
//
// Invariants: ready is sorted by time; every replay in ready (and
// building) has applied a prefix of the branch's actions and stands at or
// before the branch's end.
type standbys struct {
	ready    []*replay
	building *replay  // a standby being replayed towards target in idle time
	target   sim.Time // where building stops
	// limit caps ready below MaxStandbys (SetStandbyLimit); 0 means
	// MaxStandbys, negative none.
	limit int
	// events counts the events idle time ran on standbys (Background).
	events uint64
}

// max is how many standbys may be kept.
func (st *standbys) max() int {
	switch {
	case st.limit < 0:
		return 0
	case st.limit == 0:
		return MaxStandbys
	}
	return min(st.limit, MaxStandbys)
}

// reset drops every standby (closing them: see replay.close).
func (st *standbys) reset() {
	for _, r := range st.ready {
		r.close()
	}
	st.building.close()
	*st = standbys{limit: st.limit, events: st.events}
}

// latest is the index of the latest standby at or before t, or -1.
func (st *standbys) latest(t sim.Time) int {
	best := -1
	for i, r := range st.ready {
		if r.at() <= t {
			best = i
		}
	}
	return best
}

// peek returns the latest standby at or before t (keeping it), or nil.
// The one being built counts too, where it has got to: it is a replay of
// the branch like the others, paused at an event (replays of the same
// actions to the same moment are identical, however their runs were
// split), and a seek soon after the page was left alone would otherwise
// replay from the start what idle time had half replayed already.
func (st *standbys) peek(t sim.Time) *replay {
	var best *replay
	if i := st.latest(t); i >= 0 {
		best = st.ready[i]
	}
	if b := st.building; b != nil && b.at() <= t && (best == nil || b.at() > best.at()) {
		best = b
	}
	return best
}

// take removes and returns the latest standby at or before t (peek), or
// nil.
func (st *standbys) take(t sim.Time) *replay {
	r := st.peek(t)
	switch {
	case r == nil:
	case r == st.building:
		st.building = nil
	default:
		st.ready = slices.DeleteFunc(st.ready, func(x *replay) bool { return x == r })
	}
	return r
}

// park keeps r as a standby; beyond MaxStandbys it drops the one whose
// neighbours are closest together (it covers the least).
func (st *standbys) park(r *replay) {
	if r == nil || r.Cluster() == nil {
		return
	}
	i, _ := slices.BinarySearchFunc(st.ready, r.at(), func(x *replay, t sim.Time) int { return int(x.at() - t) })
	st.ready = slices.Insert(st.ready, i, r)
	st.trim()
}

// trim drops standbys beyond the limit, each time the one whose
// neighbours are closest together (it covers the least).
func (st *standbys) trim() {
	for len(st.ready) > st.max() {
		drop, span := 0, sim.Time(-1)
		for j := range st.ready {
			prev := sim.Time(0)
			if j > 0 {
				prev = st.ready[j-1].at()
			}
			next := st.ready[len(st.ready)-1].at()
			if j+1 < len(st.ready) {
				next = st.ready[j+1].at()
			}
			if span < 0 || next-prev < span {
				drop, span = j, next-prev
			}
		}
		st.ready[drop].close()
		st.ready = slices.Delete(st.ready, drop, drop+1)
	}
}

// dropAfter forgets the standbys a fork invalidates: those that applied
// more than the first applied actions or stand after now.
func (st *standbys) dropAfter(applied int, now sim.Time) {
	st.ready = slices.DeleteFunc(st.ready, func(r *replay) bool {
		if r.applied > applied || r.at() > now {
			r.close()
			return true
		}
		return false
	})
	if st.building != nil && (st.building.applied > applied || st.target > now) {
		st.building.close()
		st.building = nil
	}
}

// nextTarget is where idle time builds the next standby (splitStretch),
// if there is room for one. It splits no stretch shorter than twice
// minGap: minStandbyGap, or less where the branch runs minStandbyEvents
// in less on average (events is how many it ran up to live).
func (st *standbys) nextTarget(live, end sim.Time, events uint64) (sim.Time, bool) {
	if len(st.ready) >= st.max() || events == 0 {
		return 0, false
	}
	minGap := min(sim.Time(minStandbyGap), sim.Time(float64(live)*minStandbyEvents/float64(events)))
	points := []sim.Time{0, live, end}
	for _, r := range st.ready {
		points = append(points, r.at())
	}
	slices.Sort(points)
	return splitStretch(points, max(minGap, sim.Time(time.Millisecond)))
}

// splitStretch picks the middle of a long stretch between the sorted
// moments already covered (the branch's start, the standbys, the live
// moment and the end): of the stretches at least cheapStretch of the
// longest, the earliest. A standby costs every event up to its moment
// (it replays from the cluster's creation), so of two stretches about
// as long, the earlier gives as much for less. Halving the longest let
// later stretches win such ties by a hair (cutting moments to
// milliseconds, or the live moment just past a halving point, makes
// them a little longer): in issue 15's hour session, with the idle time
// the page had in its benchmark (714,000 events), that rule built 5
// standbys and left a seek to a moment picked at random 5m34s of replay
// on average; this one builds 6 and leaves 4m35s, as halving did before
// moments were cut to milliseconds (BenchmarkHourSeeks). None is worth
// splitting below twice minGap.
func splitStretch(points []sim.Time, minGap sim.Time) (sim.Time, bool) {
	var longest sim.Time
	for i := 1; i < len(points); i++ {
		longest = max(longest, points[i]-points[i-1])
	}
	if longest < 2*minGap {
		return 0, false
	}
	for i := 1; i < len(points); i++ {
		if gap := points[i] - points[i-1]; float64(gap) >= cheapStretch*float64(longest) {
			return onMillis(points[i-1] + gap/2), true
		}
	}
	return 0, false // not reached: the longest qualifies
}

// cheapStretch: a stretch this share of the longest counts as about as
// long (splitStretch).
const cheapStretch = 2.0 / 3

// onMillis is t cut down to a whole millisecond. A standby stands where a
// seek can name it: the scrubber, links and the terminal speak whole
// milliseconds, and a seek resumes only a standby at or before its
// target, so one at 30m3.5875s served no seek to 30m3.587s (issue 15's
// benchmark seeks to the middle of its hour, where idle time had put a
// standby, and replayed 7.5 minutes from the one before it).
func onMillis(t sim.Time) sim.Time { return t - t%sim.Time(time.Millisecond) }

// Background spends up to maxSteps simulation events of idle time on
// standbys: it continues the one being built, or starts the next. It
// reports whether there was anything to do (false: the standbys are
// complete for now).
func (s *Session) Background(maxSteps int) (bool, error) {
	if s.Cluster() == nil || len(s.actions) == 0 || s.pending != nil {
		return false, nil // a seek under way has the time
	}
	st := &s.standby
	if st.building == nil {
		target, ok := st.nextTarget(s.Now(), s.End(), s.Cluster().World.Steps())
		if !ok {
			return false, nil
		}
		r, err := s.fresh()
		if err != nil {
			return false, err
		}
		st.building, st.target = r, target
		return true, nil
	}
	c := st.building.Cluster()
	before := c.World.Steps()
	done, err := st.building.runTo(s.actions, st.target, maxSteps)
	st.events += c.World.Steps() - before
	if err != nil {
		st.building.close()
		st.building = nil
		return false, err
	}
	if done {
		st.park(st.building)
		st.building = nil
	}
	return true, nil
}

// BackgroundEvents is how many events idle time (Background) has run on
// standbys, for the frames that count them and for tests.
func (s *Session) BackgroundEvents() uint64 { return s.standby.events }

// BackgroundStarts reports whether the next Background call would start a
// standby: that replays the branch's first action, which creates the
// cluster in one step (cluster.New runs it to startup), the costliest
// step of all.
func (s *Session) BackgroundStarts() bool { return s.standby.building == nil }

// SetStandbyLimit keeps at most n standby replays (n is capped at
// MaxStandbys; 0 keeps none): each holds a whole cluster, and the page
// lowers the limit when a large cluster's replays would not fit in its
// memory. Extra standbys are dropped at once, as is one being built when
// none may be kept.
func (s *Session) SetStandbyLimit(n int) {
	st := &s.standby
	st.limit = n
	if n <= 0 {
		st.limit = -1
		st.building.close()
		st.building = nil
	}
	st.trim()
}

// Standbys reports the moments standby replays are paused at (for the
// scrubber and for tests).
func (s *Session) Standbys() []sim.Time {
	out := make([]sim.Time, len(s.standby.ready))
	for i, r := range s.standby.ready {
		out[i] = r.at()
	}
	return out
}
