package jmx

import (
	"strconv"

	"kafkascope/core/jdk"
	"kafkascope/core/metrics"
)

// Attribute is one MBean attribute and its value as Java's toString
// prints it (what JmxTool writes).
type Attribute struct {
	Name, Value string
}

// MBean is one registered MBean, read at one instant.
type MBean struct {
	Name  ObjectName
	Attrs []Attribute
}

// Gauge is a Yammer Gauge's MBean (JmxReporter.GaugeMBean): Value.
func Gauge(name string, value int64) MBean {
	return MBean{Name: MustObjectName(name), Attrs: []Attribute{{"Value", strconv.FormatInt(value, 10)}}}
}

// Meter is a Yammer Meter's MBean (JmxReporter.MeterMBean, metrics-core
// 2.2.0): Count, EventType, RateUnit (Kafka's meters all count per
// SECONDS) and the mean and 1-, 5- and 15-minute rates.
func Meter(name, eventType string, r metrics.MeterReading) MBean {
	return MBean{Name: MustObjectName(name), Attrs: []Attribute{
		{"Count", strconv.FormatInt(r.Count, 10)},
		{"EventType", eventType},
		{"RateUnit", "SECONDS"},
		{"MeanRate", jdk.DoubleToString(r.MeanRate)},
		{"OneMinuteRate", jdk.DoubleToString(r.OneMinute)},
		{"FiveMinuteRate", jdk.DoubleToString(r.FiveMinute)},
		{"FifteenMinuteRate", jdk.DoubleToString(r.FifteenMinute)},
	}}
}

// Histogram is a Yammer Histogram's MBean (JmxReporter.HistogramMBean,
// metrics-core 2.2.0): Count, Min, Max, Mean, StdDev and the 50th, 75th,
// 95th, 98th, 99th and 99.9th percentiles.
func Histogram(name string, r metrics.HistogramReading) MBean {
	d := jdk.DoubleToString
	return MBean{Name: MustObjectName(name), Attrs: []Attribute{
		{"Count", strconv.FormatInt(r.Count, 10)},
		{"Min", d(r.Min)}, {"Max", d(r.Max)}, {"Mean", d(r.Mean)}, {"StdDev", d(r.StdDev)},
		{"50thPercentile", d(r.P50)}, {"75thPercentile", d(r.P75)}, {"95thPercentile", d(r.P95)},
		{"98thPercentile", d(r.P98)}, {"99thPercentile", d(r.P99)}, {"999thPercentile", d(r.P999)},
	}}
}

// Timer is a Yammer Timer's MBean (JmxReporter.TimerMBean, metrics-core
// 2.2.0): a Meter's attributes (its events are "calls") and a
// Histogram's, the durations in LatencyUnit (Kafka's timers: ms).
func Timer(name string, m metrics.MeterReading, h metrics.HistogramReading) MBean {
	b := Meter(name, "calls", m)
	b.Attrs = append(b.Attrs, Histogram(name, h).Attrs[1:]...)
	b.Attrs = append(b.Attrs, Attribute{"LatencyUnit", "MILLISECONDS"})
	return b
}

// Registry is what a process has registered, read now.
type Registry interface {
	MBeans() []MBean
}

// Find is the registered beans the queries match, each once, in
// registration order (queryNames; a nil query list is every bean).
func Find(beans []MBean, queries []ObjectName) []MBean {
	if queries == nil {
		return beans
	}
	var out []MBean
	for _, b := range beans {
		for _, q := range queries {
			if q.Matches(b.Name) {
				out = append(out, b)
				break
			}
		}
	}
	return out
}
