package metrics

import (
	"math"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// Worked by hand: 2, 4, 4, 4, 5, 5, 7, 9 have mean 5 and a sample
// standard deviation of sqrt(32/7); with fewer values than the reservoir
// holds, the percentiles interpolate over all of them at position
// q × (n+1): the median at 4.5 between 4 and 5 is 4.5, the 75th at 6.75
// between 5 and 7 is 6.5, and anything from 8/9 up is the maximum.
func TestHistogramFiguresByHand(t *testing.T) {
	h := NewHistogram(0, sim.NewRand(1, "h"))
	if r := h.Read(); r != (HistogramReading{}) {
		t.Fatalf("empty: %+v", r)
	}
	for _, v := range []int64{4, 2, 9, 4, 5, 4, 7, 5} {
		h.Update(at(time.Second), v)
	}
	r := h.Read()
	if r.Count != 8 || r.Min != 2 || r.Max != 9 || r.Mean != 5 || !near(r.StdDev, math.Sqrt(32.0/7)) {
		t.Fatalf("count, min, max, mean, stddev: %+v", r)
	}
	if r.P50 != 4.5 || r.P75 != 6.5 || r.P99 != 9 || r.P999 != 9 {
		t.Fatalf("percentiles: %+v", r)
	}
}

// The sample keeps 1028 values and favours recent ones: after ten
// minutes of 1 and then one minute of 100, more than half the reservoir
// holds 100, though 100 was a tenth of the values; the lifetime figures
// still count every value.
func TestHistogramFavoursRecentValues(t *testing.T) {
	h := NewHistogram(0, sim.NewRand(2, "h"))
	n := 0
	for s := 0; s < 660; s++ {
		v := int64(1)
		if s >= 600 {
			v = 100
		}
		for k := 0; k < 10; k++ {
			h.Update(at(time.Duration(s)*time.Second), v)
			n++
		}
	}
	if len(h.vals) != histogramReservoir {
		t.Fatalf("the sample holds %d values", len(h.vals))
	}
	recent := 0
	for _, v := range h.vals {
		if v == 100 {
			recent++
		}
	}
	if recent <= histogramReservoir/2 {
		t.Fatalf("only %d of %d sampled values are from the last minute", recent, histogramReservoir)
	}
	r := h.Read()
	if r.Count != int64(n) || r.Min != 1 || r.Max != 100 || r.P50 != 100 {
		t.Fatalf("%+v", r)
	}
}

// An hour on, the priorities are rescaled and the count brought back to
// the sample's size; values keep being accepted.
func TestHistogramRescales(t *testing.T) {
	h := NewHistogram(0, sim.NewRand(3, "h"))
	for i := 0; i < 2000; i++ {
		h.Update(at(time.Duration(i)*time.Second), 1)
	}
	before := h.start
	h.Update(at(2*time.Hour), 5)
	if h.start == before || h.sampleCount != histogramReservoir+1 && h.sampleCount != histogramReservoir {
		t.Fatalf("start %v (was %v), sample count %d", h.start, before, h.sampleCount)
	}
	if r := h.Read(); r.Max != 5 || r.Count != 2001 {
		t.Fatalf("%+v", r)
	}
}
