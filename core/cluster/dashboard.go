package cluster

import (
	"kafkascope/core/dashboard"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The on-call dashboard's history (core/dashboard), sampled from the
// nodes' own gauges and meters as the clock passes each instant: the same
// values JmxTool reads, summed over the running nodes.

// Dashboard is the history, or nil when the cluster keeps none
// (Config.Dashboard).
func (c *Cluster) Dashboard() *dashboard.Board { return c.dash }

// startDashboard begins the history at the cluster's creation.
func (c *Cluster) startDashboard() {
	c.dash = dashboard.New(c.World.Now(), c.dashboardSample)
	c.World.SetClockHook(c.dash.Advance)
}

// dashboardSample reads every metric at instant at, the world standing as
// it is now.
func (c *Cluster) dashboardSample(at sim.Time) dashboard.Values {
	var v dashboard.Values
	offline := -1
	for _, id := range c.NodeIDs() {
		if c.state[id] != NodeRunning {
			continue
		}
		n := c.nodes[id]
		bv := dashboard.BrokerValues{ID: id}
		set := func(m dashboard.MetricID, x float64) { bv.V[m], bv.Ok[m] = x, true }
		g := n.Broker.ReplicaManagerGauges()
		set(dashboard.UnderReplicated, float64(g.UnderReplicatedPartitions))
		set(dashboard.UnderMinIsr, float64(g.UnderMinIsrPartitionCount))
		m := n.Broker.DashboardMeters(at)
		set(dashboard.BytesIn, m.BytesIn.OneMinute)
		set(dashboard.BytesOut, m.BytesOut.OneMinute)
		set(dashboard.MessagesIn, m.MessagesIn.OneMinute)
		set(dashboard.FailedProduce, float64(m.FailedProduce.Count))
		set(dashboard.IsrShrinks, float64(m.IsrShrinks.Count))
		if m.ProduceCount > 0 {
			set(dashboard.ProduceLatency, m.ProduceP99)
		}
		if m.FetchCount > 0 {
			set(dashboard.FetchLatency, m.FetchP99)
		}
		v.Pending = v.Pending || m.Pending
		if n.Controller != nil {
			set(dashboard.ActiveControllers, 0)
			if n.Controller.Active() {
				set(dashboard.ActiveControllers, 1)
				offline = n.Controller.OfflinePartitions()
			}
		}
		if z := n.ZkController; z != nil {
			// The ZooKeeper era: every broker runs a controller, one
			// of them active.
			set(dashboard.ActiveControllers, 0)
			if z.Active() {
				set(dashboard.ActiveControllers, 1)
				offline = z.OfflinePartitions()
			}
		}
		v.Brokers = append(v.Brokers, bv)
		// The cluster's figure: the sum, or for a latency the slowest
		// broker's.
		for i := range bv.V {
			if !bv.Ok[i] {
				continue
			}
			if i == int(dashboard.ProduceLatency) || i == int(dashboard.FetchLatency) {
				v.V[i] = max(v.V[i], bv.V[i])
			} else {
				v.V[i] += bv.V[i]
			}
			v.Ok[i] = true
		}
	}
	if offline >= 0 {
		v.V[dashboard.OfflinePartitions], v.Ok[dashboard.OfflinePartitions] = float64(offline), true
	}
	if lag, ok := c.consumerLag(); ok {
		v.V[dashboard.ConsumerLag], v.Ok[dashboard.ConsumerLag] = float64(lag), true
	}
	return v
}

// consumerLag is the lag of every committed offset the running
// coordinators hold, summed: the partition's high watermark on its leader
// minus the offset (what kafka-consumer-groups.sh --describe shows as
// LAG), counting a group once (false: no group has committed anything).
func (c *Cluster) consumerLag() (int64, bool) {
	img := c.ControllerImage()
	if img == nil {
		return 0, false
	}
	seen := map[string]bool{}
	var lag int64
	any := false
	for _, id := range c.NodeIDs() {
		if c.state[id] != NodeRunning {
			continue
		}
		for _, g := range c.nodes[id].Broker.GroupCoordinator().Groups() {
			if seen[g.ID] {
				continue
			}
			seen[g.ID] = true
			for _, o := range g.Offsets {
				hw, ok := c.leaderHW(img, o.Topic, o.Partition)
				if !ok || o.Offset < 0 {
					continue
				}
				any = true
				lag += max(hw-o.Offset, 0)
			}
		}
	}
	return lag, any
}

// leaderHW is the high watermark of a partition on its leader, if the
// leader runs.
func (c *Cluster) leaderHW(img *metadata.Image, topic string, partition int32) (int64, bool) {
	st := img.Partition(topic, partition)
	if st == nil || st.Leader < 0 || c.state[st.Leader] != NodeRunning {
		return 0, false
	}
	p := c.nodes[st.Leader].Broker.Partition(storage.TopicPartition{Topic: topic, Partition: partition})
	if p == nil || !p.IsLeader() {
		return 0, false
	}
	return p.Log().HighWatermark(), true
}
