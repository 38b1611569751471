package groupcoordinator

import (
	"kafkascope/core/jdk"
	"kafkascope/core/jmx"
	"kafkascope/core/metrics"
	"kafkascope/core/sim"
)

// coordinatorSensors are the sensors of Kafka 4.x's group coordinator
// (GroupCoordinatorMetrics' global sensors, in the broker's own metrics
// registry), recorded where GroupMetadataManager and OffsetMetadataManager
// record them: each a Meter over a WindowedSum.
type coordinatorSensors struct {
	offsetCommits      *metrics.Sensor // the offsets of a commit, once validated (records.size())
	offsetDeletions    *metrics.Sensor // the offsets an OffsetDelete removes
	classicRebalances  *metrics.Sensor // a classic group becoming Stable once its assignment is stored
	consumerRebalances *metrics.Sensor // a consumer group's epoch bump
}

func (c *Coordinator) sensors() *coordinatorSensors {
	if c.metrics == nil {
		s := metrics.NewSensor
		c.metrics = &coordinatorSensors{offsetCommits: s(), offsetDeletions: s(), classicRebalances: s(), consumerRebalances: s()}
	}
	return c.metrics
}

// countEpochBump records consumer-group-rebalance when a heartbeat or a
// migration bumped the group epoch (GroupMetadataManager records it as it
// decides the bump, at nowMs).
func (c *Coordinator) countEpochBump(cg *consumerGroup, epoch int32, nowMs int64) {
	if epoch != cg.groupEpoch {
		c.sensors().consumerRebalances.Record(sim.FromUnixMilli(nowMs), 1)
	}
}

// MBeans4 are Kafka 4.x's group coordinator metrics as JMX shows them
// (GroupCoordinatorMetrics, Kafka 4.1's source): the Yammer gauges kept
// from the old coordinator (kafka.coordinator.group:type=GroupMetadataManager:
// NumOffsets, and NumGroups by state for classic groups only), and the
// Kafka metrics of group group-coordinator-metrics, which JmxReporter
// shows as kafka.server:type=group-coordinator-metrics with one MBean per
// tag (protocol=..., state=...), every value a Double. Share and streams
// groups are not simulated: their counts read 0.
func (c *Coordinator) MBeans4(now sim.Time) []jmx.MBean {
	classic, consumer := map[string]int64{}, map[string]int64{}
	var offsets, classicGroups, consumerGroups int64
	for _, g := range c.Groups() {
		offsets += int64(len(g.Offsets))
		if g.Type == "consumer" {
			consumerGroups++
			consumer[g.State]++
		} else {
			classicGroups++
			classic[g.State]++
		}
	}
	const gmm = "kafka.coordinator.group:type=GroupMetadataManager,name="
	beans := []jmx.MBean{
		jmx.Gauge(gmm+"NumOffsets", offsets),
		jmx.Gauge(gmm+"NumGroups", classicGroups),
		jmx.Gauge(gmm+"NumGroupsPreparingRebalance", classic["PreparingRebalance"]),
		jmx.Gauge(gmm+"NumGroupsCompletingRebalance", classic["CompletingRebalance"]),
		jmx.Gauge(gmm+"NumGroupsStable", classic["Stable"]),
		jmx.Gauge(gmm+"NumGroupsDead", classic["Dead"]),
		jmx.Gauge(gmm+"NumGroupsEmpty", classic["Empty"]),
	}
	d := func(x float64) string { return jdk.DoubleToString(x) }
	count := func(n int64) string { return d(float64(n)) }
	s := c.sensors()
	meter := func(name string, m *metrics.Sensor) []jmx.Attribute {
		return []jmx.Attribute{{Name: name + "-rate", Value: d(m.Rate(now))}, {Name: name + "-count", Value: d(m.Total())}}
	}
	const gcm = "kafka.server:type=group-coordinator-metrics"
	var global []jmx.Attribute
	global = append(global, meter("offset-commit", s.offsetCommits)...)
	global = append(global, []jmx.Attribute{{Name: "offset-expiration-rate", Value: "0.0"}, {Name: "offset-expiration-count", Value: "0.0"}}...)
	global = append(global, meter("offset-deletion", s.offsetDeletions)...)
	global = append(global, meter("group-completed-rebalance", s.classicRebalances)...)
	global = append(global, meter("consumer-group-rebalance", s.consumerRebalances)...)
	global = append(global, []jmx.Attribute{{Name: "streams-group-rebalance-rate", Value: "0.0"}, {Name: "streams-group-rebalance-count", Value: "0.0"}}...)
	beans = append(beans, jmx.MBean{Name: jmx.MustObjectName(gcm), Attrs: global})
	group := func(tag string, attrs ...jmx.Attribute) {
		beans = append(beans, jmx.MBean{Name: jmx.MustObjectName(gcm + "," + tag), Attrs: attrs})
	}
	group("protocol=classic", jmx.Attribute{Name: "group-count", Value: count(classicGroups)})
	group("protocol=consumer", jmx.Attribute{Name: "group-count", Value: count(consumerGroups)})
	group("protocol=share", jmx.Attribute{Name: "group-count", Value: "0.0"}, jmx.Attribute{Name: "rebalance-rate", Value: "0.0"}, jmx.Attribute{Name: "rebalance-count", Value: "0.0"})
	group("protocol=streams", jmx.Attribute{Name: "group-count", Value: "0.0"})
	for _, st := range []string{"Empty", "Assigning", "Reconciling", "Stable", "Dead", "NotReady"} {
		var attrs []jmx.Attribute
		if st != "NotReady" {
			attrs = append(attrs, jmx.Attribute{Name: "consumer-group-count", Value: count(consumer[st])})
		}
		if st == "Empty" || st == "Stable" || st == "Dead" {
			attrs = append(attrs, jmx.Attribute{Name: "share-group-count", Value: "0.0"})
		}
		attrs = append(attrs, jmx.Attribute{Name: "streams-group-count", Value: "0.0"})
		group("state="+st, attrs...)
	}
	return beans
}
