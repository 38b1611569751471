package dashboard

import (
	"testing"
	"time"

	"kafkascope/core/sim"
)

func at(d time.Duration) sim.Time { return sim.Time(0).Add(d) }

// The sampling instants: every second for ten minutes, then every 10 s to
// two hours, every minute to a day, every 5 minutes after; the first
// instant of a stretch is a multiple of its own interval.
func TestSamplingInstants(t *testing.T) {
	for _, c := range []struct{ after, next time.Duration }{
		{0, time.Second},
		{1500 * time.Millisecond, 2 * time.Second},
		{10*time.Minute - time.Second, 10 * time.Minute},
		{10 * time.Minute, 10*time.Minute + 10*time.Second},
		{2*time.Hour - time.Second, 2 * time.Hour},
		{2 * time.Hour, 2*time.Hour + time.Minute},
		{24 * time.Hour, 24*time.Hour + 5*time.Minute},
	} {
		if got := nextInstant(at(c.after)); got != at(c.next) {
			t.Errorf("after %v: next instant %v, want %v", c.after, got, at(c.next))
		}
	}
}

// A board's history starts at its creation, between two instants: a page
// opened on a fresh cluster shows figures at once, and the next sample
// comes at the next instant.
func TestFirstSampleAtCreation(t *testing.T) {
	var asked []sim.Time
	b := New(at(300*time.Millisecond), func(t sim.Time) Values {
		asked = append(asked, t)
		var v Values
		v.V[ActiveControllers], v.Ok[ActiveControllers] = 1, true
		return v
	})
	if v, ok := b.Series[ActiveControllers].At(at(300 * time.Millisecond)); !ok || v != 1 {
		t.Fatalf("at creation the series reads %v (ok %v), want 1", v, ok)
	}
	b.Advance(at(300*time.Millisecond), at(1500*time.Millisecond))
	want := []sim.Time{at(300 * time.Millisecond), at(time.Second)}
	if len(asked) != len(want) || asked[0] != want[0] || asked[1] != want[1] {
		t.Errorf("sampled at %v, want %v", asked, want)
	}
}

// A Window metric keeps its Count's increase over the last minute: it
// rises with events, falls back to 0 a minute after the last one, and a
// Count that drops (a broker restarted) counts from 0 again.
func TestWindowCountsTheLastMinute(t *testing.T) {
	count := 0.0
	b := New(0, func(sim.Time) Values {
		var v Values
		v.V[FailedProduce], v.Ok[FailedProduce] = count, true
		return v
	})
	step := func(to time.Duration) { b.Advance(b.next-1, at(to)) }
	step(10 * time.Second)
	count = 4
	step(20 * time.Second)
	count = 6
	step(40 * time.Second)
	s := &b.Series[FailedProduce]
	for _, c := range []struct {
		at   time.Duration
		want float64
	}{{10 * time.Second, 0}, {20 * time.Second, 4}, {40 * time.Second, 6}} {
		if v, _ := s.At(at(c.at)); v != c.want {
			t.Errorf("at %v: %v, want %v", c.at, v, c.want)
		}
	}
	step(81 * time.Second) // 4 of them were counted at 11 s, 2 at 21 s
	if v, _ := s.At(at(75 * time.Second)); v != 2 {
		t.Errorf("a minute after the first four: %v, want 2", v)
	}
	if v, _ := s.At(at(81 * time.Second)); v != 0 {
		t.Errorf("a minute after the last: %v, want 0", v)
	}
	count = 1 // the broker restarted: its Count starts over
	step(85 * time.Second)
	if v, _ := s.At(at(85 * time.Second)); v != 1 {
		t.Errorf("after a restart: %v, want 1", v)
	}
}

// Changes lists a gauge that moved, a rate that started, stopped or at
// least doubled, and not a rate that only decayed.
func TestChangesLeaveDecayOut(t *testing.T) {
	b := &Board{}
	b.Series[UnderReplicated].Points = []Point{{at(0), 0}, {at(5 * time.Second), 3}}
	b.Series[BytesIn].Points = []Point{{at(0), 1000}, {at(5 * time.Second), 300}}
	b.Series[MessagesIn].Points = []Point{{at(0), 1}, {at(5 * time.Second), 3}}
	b.Series[BytesOut].Points = []Point{{at(0), 0}, {at(5 * time.Second), 10}}
	got := map[MetricID]Change{}
	for _, c := range b.Changes(at(time.Second), at(6*time.Second)) {
		got[c.ID] = c
	}
	if c, ok := got[UnderReplicated]; !ok || c.Before != 0 || c.After != 3 || !c.Alert {
		t.Errorf("under-replicated: %+v", c)
	}
	if _, ok := got[BytesIn]; ok {
		t.Error("a decaying rate is listed")
	}
	if _, ok := got[MessagesIn]; !ok {
		t.Error("a tripled rate is not listed")
	}
	if _, ok := got[BytesOut]; !ok {
		t.Error("a rate that started is not listed")
	}
}
