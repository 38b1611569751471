package zkcontroller

import (
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// scheduleAutoRebalance arms the auto leader rebalance task
// (auto.leader.rebalance.enable, every
// leader.imbalance.check.interval.seconds; the first run 5 s after the
// controller took over).
func (c *Controller) scheduleAutoRebalance(env *sim.Env, after time.Duration) {
	if !c.cfg.Conf().BrokerBool("auto.leader.rebalance.enable") {
		return
	}
	c.rebalance.Stop()
	c.rebalance = env.After(after, "auto-leader-rebalance", func(env *sim.Env) {
		c.enqueue(env, "AutoPreferredReplicaLeaderElection", c.autoRebalance)
	})
}

// autoRebalance is checkAndTriggerAutoLeaderRebalance: for each broker,
// the share of the partitions it is the preferred leader of that another
// broker leads; above leader.imbalance.per.broker.percentage, those whose
// preferred replica is live and in the ISR get a preferred election.
func (c *Controller) autoRebalance(env *sim.Env, done func(*sim.Env)) {
	if !c.active {
		done(env)
		return
	}
	limit := c.cfg.Conf().BrokerInt("leader.imbalance.per.broker.percentage")
	byPreferred := map[int32][]storage.TopicPartition{}
	for _, tp := range c.ctx.allPartitions() {
		if rs := c.ctx.replicas(tp); len(rs) > 0 && c.ctx.states[tp] != nil {
			byPreferred[rs[0]] = append(byPreferred[rs[0]], tp)
		}
	}
	var elect []storage.TopicPartition
	for _, id := range sortedIDs(byPreferred) {
		tps := byPreferred[id]
		var notLed []storage.TopicPartition
		for _, tp := range tps {
			if c.ctx.states[tp].leader != id {
				notLed = append(notLed, tp)
			}
		}
		if len(notLed)*100 <= int(limit)*len(tps) || !c.ctx.isLive(id) {
			continue
		}
		for _, tp := range notLed {
			if c.ctx.pstate[tp] == onlinePartition {
				elect = append(elect, tp)
			}
		}
	}
	next := func(env *sim.Env) {
		c.scheduleAutoRebalance(env, time.Duration(c.cfg.Conf().BrokerInt("leader.imbalance.check.interval.seconds"))*time.Second)
		done(env)
	}
	c.toOnline(env, elect, preferredElection, c.abortIfMoved(next))
}
