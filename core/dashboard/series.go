package dashboard

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// Point is a series' value from T until the next point.
type Point struct {
	T sim.Time
	V float64
}

// Series is one metric's history as a step function: Points in time
// order, each differing in value from the one before.
type Series struct {
	Points []Point
}

// add records v at t (after every point so far; NaN: no value, a gap);
// a value equal to the current one adds nothing.
func (s *Series) add(t sim.Time, v float64) {
	if n := len(s.Points); n > 0 && (s.Points[n-1].V == v || math.IsNaN(v) && math.IsNaN(s.Points[n-1].V)) {
		return
	}
	s.Points = append(s.Points, Point{t, v})
}

// At is the value at t: the last point at or before t (ok false before
// the first, or in a gap).
func (s *Series) At(t sim.Time) (float64, bool) {
	lo, hi := 0, len(s.Points)
	for lo < hi {
		mid := (lo + hi) / 2
		if s.Points[mid].T <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 || math.IsNaN(s.Points[lo-1].V) {
		return 0, false
	}
	return s.Points[lo-1].V, true
}

// Max is the largest value the series takes over [from, to].
func (s *Series) Max(from, to sim.Time) float64 {
	m, _ := s.At(from)
	for _, p := range s.Points {
		if p.T > from && p.T <= to && !math.IsNaN(p.V) {
			m = math.Max(m, p.V)
		}
	}
	return m
}

// Interval is the time between two samples around t: finer early in a
// session, where scenarios play, coarser later (a week of virtual time
// keeps about 4,300 samples).
func Interval(t sim.Time) time.Duration {
	switch elapsed := time.Duration(t); {
	case elapsed < 10*time.Minute:
		return time.Second
	case elapsed < 2*time.Hour:
		return 10 * time.Second
	case elapsed < 24*time.Hour:
		return time.Minute
	}
	return 5 * time.Minute
}

// nextInstant is the first sampling instant after t.
func nextInstant(t sim.Time) sim.Time {
	step := Interval(t)
	next := sim.Time((time.Duration(t)/step + 1) * step)
	// Crossing into a coarser stretch: its first instant is a multiple of
	// its own interval.
	if s := Interval(next); s != step {
		return sim.Time((time.Duration(next) + s - 1) / s * s)
	}
	return next
}

// quantize keeps three significant digits of a rate and calls anything
// under a thousandth zero, so that a decaying moving average settles into
// one stored value instead of a new one every sample.
func quantize(v float64) float64 {
	if math.Abs(v) < 1e-3 {
		return 0
	}
	mag := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	return math.Round(v/mag) * mag
}
