package metrics

import (
	"math"
	"slices"
	"time"

	"kafkascope/core/sim"
)

// Histogram is Yammer metrics-core 2.2.0's biased Histogram, as Kafka's
// KafkaMetricsGroup.newHistogram makes them (RequestMetrics' TotalTimeMs
// and its parts): the count, minimum, maximum, mean and standard
// deviation of every value ever recorded, and percentiles of an
// ExponentiallyDecayingSample of 1028 values with alpha 0.015, which
// favours the last five minutes or so.
//
// The sample keeps the values of the highest priorities, a value's
// priority being exp(alpha × its age in whole seconds since the sample's
// start) divided by a uniform random draw; every hour the priorities are
// rescaled and the start moved to now. The draws come from a stream of
// the simulation's seed (Yammer's from ThreadLocalRandom).
type Histogram struct {
	rand        *sim.Rand
	count, sum  int64
	min, max    int64
	varM, varS  float64 // Welford's running mean and sum of squares
	created     sim.Time
	start       sim.Time // the sample's start (whole seconds count from it)
	nextRescale sim.Time
	sampleCount int64     // the sample's counter (reset to its size by a rescale)
	prio        []float64 // the sample's priorities, ascending
	vals        []int64   // their values
}

// The sample's size and decay (KafkaMetricsGroup: new
// ExponentiallyDecayingSample(1028, 0.015)) and rescale period
// (RESCALE_THRESHOLD).
const (
	histogramReservoir = 1028
	histogramAlpha     = 0.015
	histogramRescale   = time.Hour
)

// NewHistogram is a histogram created at now, drawing from r.
func NewHistogram(now sim.Time, r *sim.Rand) *Histogram {
	return &Histogram{rand: r, start: now, nextRescale: now.Add(histogramRescale), min: math.MaxInt64, max: math.MinInt64}
}

// Update records value at now.
func (h *Histogram) Update(now sim.Time, value int64) {
	h.count++
	h.sampleUpdate(now, value)
	h.max = max(h.max, value)
	h.min = min(h.min, value)
	h.sum += value
	if h.count == 1 {
		h.varM, h.varS = float64(value), 0
	} else {
		m := h.varM + (float64(value)-h.varM)/float64(h.count)
		h.varS += (float64(value) - h.varM) * (float64(value) - m)
		h.varM = m
	}
}

// wholeSeconds is t in whole seconds (Yammer's timestamps are whole
// seconds of the wall clock, TimeUnit.MILLISECONDS.toSeconds; the virtual
// clock starts on a whole second).
func wholeSeconds(t sim.Time) int64 { return int64(time.Duration(t) / time.Second) }

func (h *Histogram) sampleUpdate(now sim.Time, value int64) {
	if now >= h.nextRescale {
		h.rescale(now)
	}
	p := math.Exp(histogramAlpha*float64(wholeSeconds(now)-wholeSeconds(h.start))) / h.rand.Float64()
	h.sampleCount++
	i, found := slices.BinarySearch(h.prio, p)
	if h.sampleCount <= histogramReservoir {
		if found { // put replaces the value of an equal priority
			h.vals[i] = value
			return
		}
		h.prio = slices.Insert(h.prio, i, p)
		h.vals = slices.Insert(h.vals, i, value)
		return
	}
	if h.prio[0] < p && !found {
		h.prio = slices.Insert(h.prio, i, p)
		h.vals = slices.Insert(h.vals, i, value)
		h.prio, h.vals = h.prio[1:], h.vals[1:] // the lowest priority goes
	}
}

// rescale scales every priority down by exp(-alpha × the seconds since
// the old start) and starts again from now.
func (h *Histogram) rescale(now sim.Time) {
	h.nextRescale = now.Add(histogramRescale)
	old := h.start
	h.start = now
	f := math.Exp(-histogramAlpha * float64(wholeSeconds(now)-wholeSeconds(old)))
	for i := range h.prio {
		h.prio[i] *= f
	}
	h.sampleCount = int64(len(h.prio))
}

// HistogramReading is what JMX shows of a histogram.
type HistogramReading struct {
	Count                         int64
	Min, Max, Mean, StdDev        float64
	P50, P75, P95, P98, P99, P999 float64
}

// Read is the histogram's figures (reading changes nothing).
func (h *Histogram) Read() HistogramReading {
	r := HistogramReading{Count: h.count}
	if h.count > 0 {
		r.Min, r.Max, r.Mean = float64(h.min), float64(h.max), float64(h.sum)/float64(h.count)
	}
	if h.count > 1 {
		r.StdDev = math.Sqrt(h.varS / float64(h.count-1))
	}
	sorted := make([]float64, len(h.vals))
	for i, v := range h.vals {
		sorted[i] = float64(v)
	}
	slices.Sort(sorted)
	q := func(quantile float64) float64 { return quantileOf(sorted, quantile) }
	r.P50, r.P75, r.P95, r.P98, r.P99, r.P999 = q(0.5), q(0.75), q(0.95), q(0.98), q(0.99), q(0.999)
	return r
}

// quantileOf is Yammer's Snapshot.getValue: linear interpolation at
// position quantile × (n+1) of the sorted values.
func quantileOf(sorted []float64, quantile float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	pos := quantile * float64(n+1)
	if pos < 1 {
		return sorted[0]
	}
	if pos >= float64(n) {
		return sorted[n-1]
	}
	lower, upper := sorted[int(pos)-1], sorted[int(pos)]
	return lower + (pos-math.Floor(pos))*(upper-lower)
}
