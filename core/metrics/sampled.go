package metrics

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// Kafka's metric defaults (MetricConfig; the brokers' and clients'
// metrics.num.samples and metrics.sample.window.ms).
const (
	DefaultSamples = 2
	DefaultWindow  = 30 * time.Second
)

// sample is one window of a SampledStat (SampledStat.Sample).
type sample struct {
	value     float64
	events    int64
	start     sim.Time
	lastEvent sim.Time
}

func (s *sample) reset(now sim.Time, initial float64) {
	*s = sample{value: initial, start: now, lastEvent: now}
}

// combiner folds a sample's value with a recorded one (update).
type combiner int

const (
	combineSum combiner = iota // WindowedSum: the values added
	combineMax                 // Max: the largest value
	combineMin                 // Min: the smallest value
)

// SampledStat is Kafka's SampledStat over windows of virtual time: a
// record goes to the current window, or starts the next one once the
// current one is Window old; up to Samples+1 windows are kept (one
// overlapping the monitored span); a window with no event in the last
// Samples×Window is reset when measured (purgeObsoleteSamples).
type SampledStat struct {
	Samples int
	Window  time.Duration
	kind    combiner
	initial float64
	windows []sample
	current int
}

// NewWindowedSum is a SampledStat adding values up (WindowedSum), the
// stat under Rate and Avg.
func NewWindowedSum() *SampledStat {
	return &SampledStat{Samples: DefaultSamples, Window: DefaultWindow, kind: combineSum}
}

// NewMax is a SampledStat keeping the largest value (Max).
func NewMax() *SampledStat {
	return &SampledStat{Samples: DefaultSamples, Window: DefaultWindow, kind: combineMax, initial: math.Inf(-1)}
}

// NewMin is a SampledStat keeping the smallest value (Min).
func NewMin() *SampledStat {
	return &SampledStat{Samples: DefaultSamples, Window: DefaultWindow, kind: combineMin, initial: math.Inf(1)}
}

func (st *SampledStat) cur(now sim.Time) *sample {
	if len(st.windows) == 0 {
		st.windows = append(st.windows, sample{value: st.initial, start: now, lastEvent: now})
	}
	return &st.windows[st.current]
}

// Record adds value at now (SampledStat.record).
func (st *SampledStat) Record(now sim.Time, value float64) {
	s := st.cur(now)
	if now.Sub(s.start) >= st.Window {
		st.current = (st.current + 1) % (st.Samples + 1)
		if st.current >= len(st.windows) {
			st.windows = append(st.windows, sample{value: st.initial, start: now, lastEvent: now})
		} else {
			st.windows[st.current].reset(now, st.initial)
		}
		s = &st.windows[st.current]
	}
	switch st.kind {
	case combineSum:
		s.value += value
	case combineMax:
		s.value = max(s.value, value)
	case combineMin:
		s.value = min(s.value, value)
	}
	s.events++
	s.lastEvent = now
}

// purge resets the windows with no event in the last Samples×Window.
func (st *SampledStat) purge(now sim.Time) {
	expire := time.Duration(st.Samples) * st.Window
	for i := range st.windows {
		if now.Sub(st.windows[i].lastEvent) >= expire {
			st.windows[i].reset(now, st.initial)
		}
	}
}

// totals is the live windows' values combined and their event count.
func (st *SampledStat) totals(now sim.Time) (float64, int64) {
	st.purge(now)
	v, n := st.initial, int64(0)
	if st.kind == combineSum {
		v = 0
	}
	for _, s := range st.windows {
		switch st.kind {
		case combineSum:
			v += s.value
		case combineMax:
			v = max(v, s.value)
		case combineMin:
			v = min(v, s.value)
		}
		n += s.events
	}
	return v, n
}

// Min is the smallest value recorded in the live windows (NaN if none:
// Min.combine). The stat's own combine (min for a Min stat) decides:
// Min and Max read the same combination.
func (st *SampledStat) Min(now sim.Time) float64 { return st.extreme(now) }

// Max is the largest value recorded in the live windows (NaN if none:
// Max.combine).
func (st *SampledStat) Max(now sim.Time) float64 { return st.extreme(now) }

// extreme is the live windows' combined value: the largest for a Max
// stat, the smallest for a Min stat (NaN if none).
func (st *SampledStat) extreme(now sim.Time) float64 {
	v, n := st.totals(now)
	if n == 0 {
		return math.NaN()
	}
	return v
}

// Avg is the live windows' values over their event count (NaN if none:
// Avg.combine).
func (st *SampledStat) Avg(now sim.Time) float64 {
	v, n := st.totals(now)
	if n == 0 {
		return math.NaN()
	}
	return v / float64(n)
}

// Rate is the live windows' sum per second (Rate.measure over a
// WindowedSum): over the time since the oldest live window began, but
// never less than Samples-1 whole windows, nor less than 1 ms
// (Rate.windowSize).
func (st *SampledStat) Rate(now sim.Time) float64 {
	v, _ := st.totals(now)
	return v / st.span(now)
}

// EventRate is the live windows' events per second (Rate over a
// WindowedCount, Kafka's Meter of request counts).
func (st *SampledStat) EventRate(now sim.Time) float64 {
	_, n := st.totals(now)
	return float64(n) / st.span(now)
}

// span is Rate.windowSize in seconds.
func (st *SampledStat) span(now sim.Time) float64 {
	oldest := now
	if len(st.windows) == 0 {
		st.cur(now)
	}
	for _, s := range st.windows {
		oldest = min(oldest, s.start)
	}
	elapsed := now.Sub(oldest).Milliseconds()
	window := st.Window.Milliseconds()
	if full, least := elapsed/window, int64(st.Samples-1); full < least {
		elapsed += (least - full) * window
	}
	return float64(max(elapsed, 1)) / 1000
}
