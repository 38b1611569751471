package client

import (
	"kafkascope/core/group"
	"kafkascope/core/sim"
)

// OnRebalance sets the ConsumerRebalanceListener of a consumer-protocol
// member: onRevoked with what it gives up (only when something is), onAssigned
// with what it takes at every reconciliation (even nothing, AKC:236-245),
// onLost with what it lost when fenced or failed (nil: onRevoked, as
// ConsumerRebalanceListener's default onPartitionsLost does). Partitions
// come sorted by topic and partition. The classic consumer calls it as
// ConsumerCoordinator does: onJoinPrepare (eager: onRevoked with everything,
// even nothing), onJoinComplete (cooperative: onRevoked with what it lost,
// if anything; onAssigned with what it gained, even nothing), onLeavePrepare
// on close, and onLost when its generation is reset.
func (c *Consumer) OnRebalance(onRevoked, onAssigned, onLost func(env *sim.Env, partitions []group.TopicPartition)) {
	c.onRevoked, c.onAssigned, c.onLost = onRevoked, onAssigned, onLost
	if c.onLost == nil {
		c.onLost = onRevoked
	}
}

func groupTPs(tps []topicPartition) []group.TopicPartition {
	out := make([]group.TopicPartition, len(tps))
	for i, tp := range tps {
		out[i] = group.TopicPartition{Topic: tp.topic, Partition: tp.partition}
	}
	return out
}

// revokeWithListener gives partitions up through onPartitionsRevoked.
func (c *Consumer) revokeWithListener(env *sim.Env, tps []topicPartition) {
	if len(tps) == 0 {
		return
	}
	if c.onRevoked != nil {
		c.onRevoked(env, groupTPs(tps))
	}
	c.metrics.revokedCB.Record(env.Now(), 0)
	c.revoke(env, tps)
}

// invokeRevoked calls onPartitionsRevoked even with no partitions (the
// eager protocol's onJoinPrepare does), then gives them up.
func (c *Consumer) invokeRevoked(env *sim.Env, tps []topicPartition) {
	if c.onRevoked != nil {
		c.onRevoked(env, groupTPs(tps))
	}
	c.metrics.revokedCB.Record(env.Now(), 0)
	c.revoke(env, tps)
}

// invokeAssigned calls onPartitionsAssigned (even with no partitions).
func (c *Consumer) invokeAssigned(env *sim.Env, tps []topicPartition) {
	if c.onAssigned != nil {
		c.onAssigned(env, groupTPs(tps))
	}
	c.metrics.assignedCB.Record(env.Now(), 0)
}

// lose gives partitions up through onPartitionsLost (nothing committed).
// The listener's calls take no virtual time: their latency metrics read 0.
func (c *Consumer) lose(env *sim.Env, tps []topicPartition) {
	if len(tps) == 0 {
		return
	}
	if c.onLost != nil {
		c.onLost(env, groupTPs(tps))
	}
	c.metrics.lostCB.Record(env.Now(), 0)
	c.revoke(env, tps)
}

// pause marks partitions pending revocation: they are neither fetched nor
// returned (AMM.markPendingRevocationToPauseFetching).
func (c *Consumer) pause(tps []topicPartition) {
	for _, tp := range tps {
		if ps := c.pos[tp]; ps != nil {
			ps.paused = true
		}
	}
}

// unpause ends every pending revocation (an aborted reconciliation).
func (c *Consumer) unpause() {
	for _, tp := range c.assigned {
		c.pos[tp].paused = false
	}
}
