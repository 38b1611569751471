package zkcontroller

import (
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// offlineReplicas is ReplicaStateMachine.handleStateChanges(…,
// OfflineReplica) for broker id's replicas of tps, as one batch: a
// StopReplica (kept, not deleted) to the broker if it can still hear it,
// and the broker taken out of each ISR it is in
// (removeReplicasFromIsr): the leader becomes -1 if it was the leader, an
// ISR of one is left as it is, and the leader epoch goes up by one. The
// other replicas get the new state.
func (c *Controller) offlineReplicas(env *sim.Env, id int32, tps []storage.TopicPartition, done outcome) {
	b := newBatch()
	c.offlineReplicasInto(env, b, id, tps, func(env *sim.Env, moved bool) {
		if !moved {
			c.sendBatch(env, b)
		}
		done(env, moved)
	})
}

// offlineReplicasInto is offlineReplicas adding its requests to b, for a
// state change of several brokers' replicas sent as one batch.
func (c *Controller) offlineReplicasInto(env *sim.Env, b *batch, id int32, tps []storage.TopicPartition, done outcome) {
	var withInfo []storage.TopicPartition
	for _, tp := range tps {
		c.addStopReplica(b, []int32{id}, tp, false)
		if c.ctx.states[tp] != nil {
			withInfo = append(withInfo, tp)
		}
	}
	c.removeFromIsr(env, b, id, withInfo, done)
}

// removeFromIsr reads the states, writes those that list id, and retries
// those that changed meanwhile.
func (c *Controller) removeFromIsr(env *sim.Env, b *batch, id int32, tps []storage.TopicPartition, done outcome) {
	if len(tps) == 0 {
		done(env, false)
		return
	}
	c.readStates(env, tps, func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
		var writes []stateWrite
		for _, tp := range tps {
			li := states[tp]
			if li == nil || li.controllerEpoch > c.epoch {
				continue
			}
			c.ctx.states[tp] = li
			if !slices.Contains(li.isr, id) {
				continue
			}
			n := &leaderIsr{leader: li.leader, leaderEpoch: li.leaderEpoch + 1, controllerEpoch: c.epoch, isr: li.isr}
			if li.leader == id {
				n.leader = -1
			}
			if len(li.isr) > 1 {
				n.isr = slices.DeleteFunc(slices.Clone(li.isr), func(r int32) bool { return r == id })
			}
			writes = append(writes, stateWrite{tp, n, li.zkVersion})
		}
		c.updateLeaderAndIsr(env, writes, func(env *sim.Env, moved bool, codes []zookeeper.Code) {
			if moved {
				done(env, true)
				return
			}
			var retry []storage.TopicPartition
			for i, w := range writes {
				switch codes[i] {
				case zookeeper.OK:
					tp, n := w.tp, w.next
					prev := c.ctx.states[tp]
					c.ctx.states[tp] = n
					if !c.ctx.del.queued[tp.Topic] {
						recipients := slices.DeleteFunc(slices.Clone(c.ctx.replicas(tp)), func(r int32) bool { return r == id })
						c.addLeaderAndIsr(b, recipients, tp, n, false)
					}
					if n.leader != prev.leader {
						env.Note(event.LeaderElected{TP: tp, Leader: n.leader, Epoch: n.leaderEpoch, ISR: slices.Clone(n.isr), PrevISR: slices.Clone(prev.isr)})
					} else {
						env.Note(event.ISRChanged{TP: tp, ISR: slices.Clone(n.isr), Leader: n.leader})
					}
				case zookeeper.BadVersion:
					retry = append(retry, w.tp)
				}
			}
			c.removeFromIsr(env, b, id, retry, done)
		})
	})
}

// onlineReplicas is handleStateChanges(…, OnlineReplica) for replicas
// that existed before (a broker coming back, a new controller): each gets
// LeaderAndIsr with its partition's state.
func (c *Controller) onlineReplicas(env *sim.Env, id int32, tps []storage.TopicPartition) {
	b := newBatch()
	for _, tp := range tps {
		if li := c.ctx.states[tp]; li != nil {
			c.addLeaderAndIsr(b, []int32{id}, tp, li, false)
		}
	}
	c.sendBatch(env, b)
}
