package metrics

import "kafkascope/core/sim"

// Sensor is a Kafka client Sensor with the stats the clients hang on one:
// Avg, Max, a Meter's Rate (over a WindowedSum) and its CumulativeSum
// total. Kafka gives each stat its own SampledStat; they are all recorded
// at the same instants, so their windows open and close together, and one
// WindowedSum serves Avg and Rate alike (Avg is the windows' sum over
// their event count, Rate the same sum over their span).
type Sensor struct {
	sum    *SampledStat
	max    *SampledStat
	min    *SampledStat // nil unless made by NewSensorWithMin
	total  float64
	events int64
	last   float64
}

// NewSensor is a sensor with the default metrics.num.samples and
// metrics.sample.window.ms.
func NewSensor() *Sensor { return &Sensor{sum: NewWindowedSum(), max: NewMax()} }

// NewSensorWithMin is NewSensor with a Min stat too (the few metrics that
// report one: records-lead-min): every other sensor skips its record.
func NewSensorWithMin() *Sensor {
	s := NewSensor()
	s.min = NewMin()
	return s
}

// Record records value at now (Sensor.record).
func (s *Sensor) Record(now sim.Time, value float64) {
	s.sum.Record(now, value)
	s.max.Record(now, value)
	if s.min != nil {
		s.min.Record(now, value)
	}
	s.total += value
	s.events++
	s.last = value
}

// Min is the live windows' smallest value (NaN when none: Min); the
// sensor must have been made by NewSensorWithMin.
func (s *Sensor) Min(now sim.Time) float64 { return s.min.Min(now) }

// EventRate is the records per second over the live windows (a Meter
// over a WindowedCount: request rates); EventRateHour per hour
// (Rate(TimeUnit.HOURS, WindowedCount): rebalance-rate-per-hour).
func (s *Sensor) EventRate(now sim.Time) float64 { return s.sum.EventRate(now) }

// EventRateHour is EventRate per hour.
func (s *Sensor) EventRateHour(now sim.Time) float64 { return s.sum.EventRate(now) * 3600 }

// Count is how many values were ever recorded (CumulativeCount; a
// WindowedCount Meter's total).
func (s *Sensor) Count() float64 { return float64(s.events) }

// Last is the last value recorded (Value: 0 before any).
func (s *Sensor) Last() float64 { return s.last }

// Avg is the live windows' mean (NaN when none recorded: Avg).
func (s *Sensor) Avg(now sim.Time) float64 { return s.sum.Avg(now) }

// Max is the live windows' largest value (NaN when none: Max).
func (s *Sensor) Max(now sim.Time) float64 { return s.max.Max(now) }

// Rate is the live windows' sum per second (a Meter's rate).
func (s *Sensor) Rate(now sim.Time) float64 { return s.sum.Rate(now) }

// Total is every value recorded, added up (a Meter's CumulativeSum).
func (s *Sensor) Total() float64 { return s.total }
