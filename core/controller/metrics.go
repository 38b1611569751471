package controller

import (
	"kafkascope/core/jmx"
	"kafkascope/core/metadata"
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
func (c *Controller) MBeans() []jmx.MBean {
	g := MetadataGauges(c.committed)
	active := int64(0)
	if c.active {
		active = 1
	}
	const kc = "kafka.controller:type=KafkaController,name="
	return []jmx.MBean{
		jmx.Gauge(kc+"ActiveControllerCount", active),
		jmx.Gauge(kc+"ActiveBrokerCount", int64(g.ActiveBrokerCount)),
		jmx.Gauge(kc+"FencedBrokerCount", int64(g.FencedBrokerCount)),
		jmx.Gauge(kc+"GlobalTopicCount", int64(g.GlobalTopicCount)),
		jmx.Gauge(kc+"GlobalPartitionCount", int64(g.GlobalPartitionCount)),
		jmx.Gauge(kc+"OfflinePartitionsCount", int64(g.OfflinePartitionsCount)),
		jmx.Gauge(kc+"PreferredReplicaImbalanceCount", int64(g.PreferredReplicaImbalanceCount)),
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
