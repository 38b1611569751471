package metrics

import (
	"math"
	"testing"
	"time"
)

// Kafka's Rate over a WindowedSum with 2 windows of 30 s, by hand: the
// window it divides by is never less than one whole window, then grows
// with the oldest live window's age, and windows idle for 60 s are reset.
func TestRateWindows(t *testing.T) {
	st := NewWindowedSum()
	st.Record(at(0), 30)
	for _, c := range []struct {
		now  time.Duration
		want float64
	}{
		{0, 1},                        // 30 / 30 s (the minimum window)
		{10 * time.Second, 0.75},      // 30 / 40 s
		{59 * time.Second, 30.0 / 59}, // one whole window elapsed: no minimum added
		{60 * time.Second, 0},         // no event in the last 60 s: reset
	} {
		if got := st.Rate(at(c.now)); !near(got, c.want) {
			t.Errorf("rate at %v: %v, want %v", c.now, got, c.want)
		}
	}
	// A record 30 s after a window began starts the next one; the third
	// wraps onto the first (samples + 1 windows are kept).
	st = NewWindowedSum()
	st.Record(at(0), 6)
	st.Record(at(30*time.Second), 6)
	st.Record(at(45*time.Second), 6)
	if got := st.Rate(at(50 * time.Second)); !near(got, 18.0/50) {
		t.Errorf("rate over two windows: %v, want 18/50 s", got)
	}
	st.Record(at(61*time.Second), 6) // the third window
	st.Record(at(91*time.Second), 6) // wraps: the first window (0-30 s) is reused
	// Live: the reused window (6), the one from 30 s (12) and the one from
	// 61 s (6); the oldest began at 30 s.
	if got := st.Rate(at(91 * time.Second)); !near(got, 24.0/61) {
		t.Errorf("rate after the wrap: %v, want 24 over 61 s", got)
	}
}

func TestAvgAndMax(t *testing.T) {
	sum, mx := NewWindowedSum(), NewMax()
	if !math.IsNaN(sum.Avg(at(0))) || !math.IsNaN(mx.Max(at(0))) {
		t.Fatal("with no event Avg and Max are NaN, as Kafka's are")
	}
	for i, v := range []float64{4, 10, 1} {
		now := at(time.Duration(i) * 20 * time.Second)
		sum.Record(now, v)
		mx.Record(now, v)
	}
	if got := sum.Avg(at(40 * time.Second)); !near(got, 5) {
		t.Errorf("avg %v, want 5", got)
	}
	if got := mx.Max(at(40 * time.Second)); got != 10 {
		t.Errorf("max %v, want 10", got)
	}
	if got := mx.Max(at(81 * time.Second)); got != 1 {
		t.Errorf("max once the window holding 10 went idle 60 s: %v, want 1", got)
	}
}
