package cluster

import (
	"fmt"
	"slices"
	"strings"
)

// CheckReplicaMarks compares what the notes told the loss check of every
// replica (replicaMarks) with the replicas themselves, read directly (a
// test may; the loss check may not): each broker's partitions, their
// leader epochs and their HWs, for running and dead brokers alike.
func (c *Cluster) CheckReplicaMarks() error {
	var bad []string
	for _, id := range c.NodeIDs() {
		n := c.nodes[id]
		if n == nil || n.Broker == nil {
			continue
		}
		for _, p := range n.Broker.Partitions() {
			tp := p.TopicPartition()
			r, ok := c.marks[tp][id]
			switch {
			case !ok:
				bad = append(bad, fmt.Sprintf("broker %d's %s is not in the marks", id, tp))
			case r.epoch != p.LeaderEpoch():
				bad = append(bad, fmt.Sprintf("broker %d's %s: epoch %d in the marks, %d in the replica", id, tp, r.epoch, p.LeaderEpoch()))
			case r.hwSet && r.hw != p.Log().HighWatermark() || !r.hwSet && p.Log().HighWatermark() != 0:
				bad = append(bad, fmt.Sprintf("broker %d's %s: HW %d (set %v) in the marks, %d in the replica", id, tp, r.hw, r.hwSet, p.Log().HighWatermark()))
			}
		}
	}
	for tp, rs := range c.marks {
		for id := range rs {
			if n := c.nodes[id]; n == nil || n.Broker == nil || n.Broker.Partition(tp) == nil {
				bad = append(bad, fmt.Sprintf("the marks hold broker %d's %s, which it does not have", id, tp))
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return fmt.Errorf("%s", strings.Join(bad, "\n"))
}

// CheckSupersededLeaderships turns off the loss check's rule for
// leaderships already superseded (loss.go), for the test that pins it.
func (c *Cluster) CheckSupersededLeaderships() { c.checkSuperseded = true }
