package broker

import (
	"kafkascope/core/jmx"
	"kafkascope/core/sim"
)

// groupMBeans are Kafka 3.8's group coordinator gauges
// (kafka.coordinator.group:type=GroupMetadataManager, registered by the
// old coordinator, 3.8's default with group.coordinator.new.enable=false):
// the groups this broker coordinates, by state, and their committed
// offsets, counted on each read (GroupMetadataManager.recreateGauge).
// Kafka 4.x's coordinator keeps these for classic groups and adds
// group-coordinator-metrics (groupcoordinator.MBeans4).
func (b *Broker) groupMBeans(now sim.Time) []jmx.MBean {
	if b.cfg.Release.Version.AtLeast(4, 0) {
		return b.coordinator.MBeans4(now)
	}
	groups := b.coordinator.Groups()
	offsets := 0
	byState := map[string]int64{}
	for _, g := range groups {
		offsets += len(g.Offsets)
		byState[g.State]++
	}
	const gmm = "kafka.coordinator.group:type=GroupMetadataManager,name="
	return []jmx.MBean{
		jmx.Gauge(gmm+"NumOffsets", int64(offsets)),
		jmx.Gauge(gmm+"NumGroups", int64(len(groups))),
		jmx.Gauge(gmm+"NumGroupsPreparingRebalance", byState["PreparingRebalance"]),
		jmx.Gauge(gmm+"NumGroupsCompletingRebalance", byState["CompletingRebalance"]),
		jmx.Gauge(gmm+"NumGroupsStable", byState["Stable"]),
		jmx.Gauge(gmm+"NumGroupsDead", byState["Dead"]),
		jmx.Gauge(gmm+"NumGroupsEmpty", byState["Empty"]),
	}
}
