package metrics

import (
	"math"
	"testing"
	"time"

	"kafkascope/core/sim"
)

func at(d time.Duration) sim.Time { return sim.Time(0).Add(d) }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A meter's averages, by hand from Yammer's EWMA: the first tick (5 s
// after creation) takes its own rate, 50 events / 5 s = 10/s, in every
// average; each idle tick after it multiplies by 1-alpha.
func TestMeterMovingAverages(t *testing.T) {
	m := NewMeter(at(0))
	m.Mark(at(2*time.Second), 50)
	r := m.Read(at(4 * time.Second)) // before the first tick
	if r.Count != 50 || r.OneMinute != 0 || !near(r.MeanRate, 12.5) {
		t.Fatalf("before the first tick: %+v, want count 50, 1-min 0, mean 12.5/s", r)
	}
	r = m.Read(at(5 * time.Second))
	if !near(r.OneMinute, 10) || !near(r.FiveMinute, 10) || !near(r.FifteenMinute, 10) {
		t.Fatalf("at the first tick: %+v, want 10/s in every average", r)
	}
	r = m.Read(at(65 * time.Second)) // 12 idle ticks later
	a1 := 1 - math.Exp(-5.0/60)
	if want := 10 * math.Pow(1-a1, 12); !near(r.OneMinute, want) {
		t.Fatalf("1-minute rate after a idle minute %v, want %v", r.OneMinute, want)
	}
	if want := 10 * math.Pow(math.Exp(-5.0/60/5), 12); !near(r.FiveMinute, want) {
		t.Fatalf("5-minute rate %v, want %v", r.FiveMinute, want)
	}
	if !near(r.MeanRate, 50.0/65) {
		t.Fatalf("mean rate %v, want 50/65", r.MeanRate)
	}
}

// Ticks applied one read at a time and in one closed-form jump agree, and
// an event marked on a tick's instant counts after it.
func TestMeterTicksInClosedFormMatchStepByStep(t *testing.T) {
	a, b := NewMeter(at(0)), NewMeter(at(0))
	for i := 1; i <= 40; i++ {
		now := at(time.Duration(i) * 3 * time.Second)
		a.Mark(now, int64(i%7))
		b.Mark(now, int64(i%7))
		a.Read(now)
	}
	ra, rb := a.Read(at(10*time.Minute)), b.Read(at(10*time.Minute))
	if !near(ra.OneMinute, rb.OneMinute) || !near(ra.FifteenMinute, rb.FifteenMinute) || ra.Count != rb.Count {
		t.Fatalf("step by step %+v, in one jump %+v", ra, rb)
	}
	m := NewMeter(at(0))
	m.Mark(at(5*time.Second), 5) // on the first tick: the next one's
	if r := m.Read(at(5 * time.Second)); r.OneMinute != 0 {
		t.Fatalf("an event on the tick's instant went into that tick: %+v", r)
	}
	if r := m.Read(at(10 * time.Second)); !near(r.OneMinute, 0+m1Alpha*1) {
		t.Fatalf("second tick: %+v, want alpha × 1/s", r)
	}
}
