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
