package metrics

import "kafkascope/core/sim"

// Sensor is a Kafka client Sensor with the stats the clients hang on one:
// Avg, Max, a Meter's Rate (over a WindowedSum) and its CumulativeSum
// total. Kafka gives each stat its own SampledStat; they are all recorded
// at the same instants, so their windows open and close together, and one
// WindowedSum serves Avg and Rate alike (Avg is the windows' sum over
// their event count, Rate the same sum over their span).
type Sensor struct {
	sum   *SampledStat
	max   *SampledStat
	total float64
}

// NewSensor is a sensor with the default metrics.num.samples and
// metrics.sample.window.ms.
func NewSensor() *Sensor { return &Sensor{sum: NewWindowedSum(), max: NewMax()} }

// Record records value at now (Sensor.record).
func (s *Sensor) Record(now sim.Time, value float64) {
	s.sum.Record(now, value)
	s.max.Record(now, value)
	s.total += value
}

// Avg is the live windows' mean (NaN when none recorded: Avg).
func (s *Sensor) Avg(now sim.Time) float64 { return s.sum.Avg(now) }

// Max is the live windows' largest value (NaN when none: Max).
func (s *Sensor) Max(now sim.Time) float64 { return s.max.Max(now) }

// Rate is the live windows' sum per second (a Meter's rate).
func (s *Sensor) Rate(now sim.Time) float64 { return s.sum.Rate(now) }

// Total is every value recorded, added up (a Meter's CumulativeSum).
func (s *Sensor) Total() float64 { return s.total }
