package controller

import (
	"slices"

	"kafkascope/core/jmx"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// MBeans are the controller's kafka.controller:type=KafkaController
// gauges, read now. In KRaft every controller, active or not, publishes
// the metadata gauges from the committed metadata it has replayed
// (ControllerMetadataMetricsPublisher, 3.8.0), so a standby reports the
// same counts as the active one; ActiveControllerCount is 1 on the
// active controller alone (QuorumControllerMetrics), and summed over the
// cluster it must be exactly 1.
//   - GlobalTopicCount, GlobalPartitionCount: every topic and partition.
//   - OfflinePartitionsCount: partitions without a leader.
//   - PreferredReplicaImbalanceCount: partitions whose leader is not the
//     first replica (PartitionRegistration.hasPreferredLeader).
//   - ActiveBrokerCount, FencedBrokerCount: registered brokers unfenced
//     and fenced.
//   - MetadataErrorCount (0), ZkMigrationState and MigratingZkBrokerCount
//     (before 4.0; 0), and QuorumControllerMetrics' log offsets
//     (offsets.go), TimedOutBrokerHeartbeatCount (0) and
//     NewActiveControllersCount. EventQueueOperationsStartedCount,
//     -TimedOutCount and ControllerEventManager's queue histograms are
//     not registered: the simulated controller has no event queue.
//
// From Kafka 3.9 (KAFKA-12670) each controller also meters
// kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec.
func (c *Controller) MBeans(now sim.Time) []jmx.MBean {
	g := MetadataGauges(c.committed)
	active := int64(0)
	if c.active {
		active = 1
	}
	const kc = "kafka.controller:type=KafkaController,name="
	beans := []jmx.MBean{
		jmx.Gauge(kc+"ActiveControllerCount", active),
		jmx.Gauge(kc+"ActiveBrokerCount", int64(g.ActiveBrokerCount)),
		jmx.Gauge(kc+"FencedBrokerCount", int64(g.FencedBrokerCount)),
		jmx.Gauge(kc+"GlobalTopicCount", int64(g.GlobalTopicCount)),
		jmx.Gauge(kc+"GlobalPartitionCount", int64(g.GlobalPartitionCount)),
		jmx.Gauge(kc+"OfflinePartitionsCount", int64(g.OfflinePartitionsCount)),
		jmx.Gauge(kc+"PreferredReplicaImbalanceCount", int64(g.PreferredReplicaImbalanceCount)),
		// Nothing in the simulated metadata fails to apply.
		jmx.Gauge(kc+"MetadataErrorCount", 0),
		jmx.Gauge(kc+"LastAppliedRecordOffset", c.quorum.lastApplied),
		jmx.Gauge(kc+"LastCommittedRecordOffset", c.quorum.lastCommitted),
		jmx.Gauge(kc+"LastAppliedRecordTimestamp", c.quorum.appliedMs),
		jmx.Gauge(kc+"LastAppliedRecordLagMs", now.UnixMilli()-c.quorum.appliedMs),
		// A broker heartbeat times out in Kafka's controller only when it
		// waits in the event queue past its deadline; the simulated
		// controller handles each at once.
		jmx.Gauge(kc+"TimedOutBrokerHeartbeatCount", 0),
		jmx.Gauge(kc+"NewActiveControllersCount", c.newActiveControllers),
	}
	if !c.cfg.Release.Version.AtLeast(4, 0) {
		// The ZooKeeper migration's gauges, until 4.0 removed them
		// (KAFKA-18598): a cluster formatted as KRaft is in state NONE
		// (0) and has no ZooKeeper brokers.
		beans = append(beans, jmx.Gauge(kc+"ZkMigrationState", 0), jmx.Gauge(kc+"MigratingZkBrokerCount", 0))
	}
	if c.uncleanElections != nil {
		beans = append(beans, jmx.Meter("kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec", "elections", c.uncleanElections.Read(now)))
	}
	return beans
}

// HandleLeaderChange (raft.Listener) counts NewActiveControllersCount:
// every controller, active or not, counts each leader change that names a
// leader (QuorumMetaLogListener.handleLeaderChange).
func (c *Controller) HandleLeaderChange(_ *sim.Env, le raft.LeaderAndEpoch) {
	if le.HasLeader() {
		c.newActiveControllers++
	}
}

// countUncleanElection marks UncleanLeaderElectionsPerSec for a committed
// partition change whose new leader was not in the ISR before it
// (ControllerMetricsChanges.handlePartitionChange with
// PartitionRegistration.electionWasClean: no leader counts as clean). A
// new partition, or one a snapshot loads, has no before and is clean.
func (c *Controller) countUncleanElection(env *sim.Env, r metadata.Record, before *metadata.PartitionState) {
	pc, ok := r.(*metadata.PartitionChangeRecord)
	if !ok || before == nil || c.uncleanElections == nil {
		return
	}
	t := c.committed.TopicByID(pc.TopicID)
	if t == nil || int(pc.PartitionID) >= len(t.Partitions) {
		return
	}
	if leader := t.Partitions[pc.PartitionID].Leader; leader >= 0 && !slices.Contains(before.ISR, leader) {
		c.uncleanElections.Mark(env.Now(), 1)
	}
}

// ControllerMetadataGauges are the counts the metadata gauges report.
type ControllerMetadataGauges struct {
	ActiveBrokerCount, FencedBrokerCount                   int
	GlobalTopicCount, GlobalPartitionCount                 int
	OfflinePartitionsCount, PreferredReplicaImbalanceCount int
}

// MetadataGauges counts img as ControllerMetadataMetricsPublisher's
// snapshot path does (its deltas keep the same counts).
func MetadataGauges(img *metadata.Image) ControllerMetadataGauges {
	var g ControllerMetadataGauges
	if img == nil {
		return g
	}
	for _, b := range img.Brokers {
		if b.Fenced {
			g.FencedBrokerCount++
		} else {
			g.ActiveBrokerCount++
		}
	}
	g.GlobalTopicCount = len(img.Topics)
	for _, t := range img.Topics {
		for _, p := range t.Partitions {
			if p == nil {
				continue
			}
			g.GlobalPartitionCount++
			if p.Leader < 0 {
				g.OfflinePartitionsCount++
			}
			preferred := int32(-1) // no replicas: no preferred leader to miss
			if len(p.Replicas) > 0 {
				preferred = p.Replicas[0]
			}
			if p.Leader != preferred {
				g.PreferredReplicaImbalanceCount++
			}
		}
	}
	return g
}

// OfflinePartitions is OfflinePartitionsCount now: the partitions of the
// committed image without a leader.
func (c *Controller) OfflinePartitions() int {
	return MetadataGauges(c.committed).OfflinePartitionsCount
}
