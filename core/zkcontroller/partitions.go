package zkcontroller

import (
	"maps"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// strategy is a PartitionLeaderElectionStrategy.
type strategy uint8

const (
	offlineElection            strategy = iota // OfflinePartitionLeaderElectionStrategy(false)
	controlledShutdownElection                 // ControlledShutdownPartitionLeaderElectionStrategy
	preferredElection                          // PreferredReplicaPartitionLeaderElectionStrategy
	uncleanElection                            // OfflinePartitionLeaderElectionStrategy(true): an admin's unclean election
	reassignElection                           // ReassignPartitionLeaderElectionStrategy: a completed move's leader left
)

// String is the strategy as Kafka prints it in a failed election's message.
func (s strategy) String() string {
	return [...]string{"OfflinePartitionLeaderElectionStrategy(false)", "ControlledShutdownPartitionLeaderElectionStrategy",
		"PreferredReplicaPartitionLeaderElectionStrategy", "OfflinePartitionLeaderElectionStrategy(true)",
		"ReassignPartitionLeaderElectionStrategy"}[s]
}

// outcome ends a state change: moved says a guarded write met a newer
// controller epoch (ControllerMovedException), which aborts the event.
type outcome func(env *sim.Env, moved bool)

// triggerOnlinePartitionStateChange elects leaders for every new or
// offline partition, as one batch.
func (c *Controller) triggerOnlinePartitionStateChange(env *sim.Env, next func(*sim.Env)) {
	tps := c.ctx.partitionsInState(newPartition, offlinePartition)
	c.toOnline(env, tps, offlineElection, c.abortIfMoved(next))
}

// abortIfMoved continues with next, or resigns if the controller moved.
func (c *Controller) abortIfMoved(next func(*sim.Env)) outcome {
	return func(env *sim.Env, moved bool) {
		if moved {
			c.maybeResign(env, next)
			return
		}
		next(env)
	}
}

// toOnline is PartitionStateMachine.handleStateChanges(…, OnlinePartition):
// new partitions get their first leader and state znode; the others an
// election by strategy. Every ZooKeeper write of the batch is back before
// the batch's requests go to the brokers.
func (c *Controller) toOnline(env *sim.Env, tps []storage.TopicPartition, s strategy, done outcome) {
	c.toOnlineElected(env, tps, s, func(env *sim.Env, moved bool, _ map[storage.TopicPartition]int32) { done(env, moved) })
}

// toOnlineElected is toOnline that also says which partitions an election
// gave a leader, and which.
func (c *Controller) toOnlineElected(env *sim.Env, tps []storage.TopicPartition, s strategy, done func(env *sim.Env, moved bool, elected map[storage.TopicPartition]int32)) {
	b := newBatch()
	var fresh, elect []storage.TopicPartition
	for _, tp := range tps {
		if c.ctx.pstate[tp] == newPartition {
			fresh = append(fresh, tp)
		} else {
			elect = append(elect, tp)
		}
	}
	c.initializeLeaderAndIsr(env, b, fresh, func(env *sim.Env, moved bool) {
		if moved {
			done(env, true, nil)
			return
		}
		c.electLeaders(env, b, elect, s, func(env *sim.Env, moved bool) {
			if !moved {
				c.sendBatch(env, b)
			}
			done(env, moved, b.elected)
		})
	})
}

// initializeLeaderAndIsr is initializeLeaderAndIsrForPartitions: the
// first live replica leads, the live replicas are the ISR, and the state
// znode is created (with its parents) under the epoch check.
func (c *Controller) initializeLeaderAndIsr(env *sim.Env, b *batch, tps []storage.TopicPartition, done outcome) {
	var ready []storage.TopicPartition
	states := map[storage.TopicPartition]*leaderIsr{}
	topics := map[string]bool{}
	for _, tp := range tps {
		var live []int32
		for _, r := range c.ctx.replicas(tp) {
			if c.ctx.isLive(r) {
				live = append(live, r)
			}
		}
		if len(live) == 0 {
			continue // "No assigned replica is alive": it stays new
		}
		states[tp] = &leaderIsr{leader: live[0], isr: live, controllerEpoch: c.epoch}
		ready = append(ready, tp)
		topics[tp.Topic] = true
	}
	if len(ready) == 0 {
		done(env, false)
		return
	}
	zk := c.cfg.ZK
	var parents, partitions, creates []kafkazk.Req
	for _, t := range sortedKeys(topics) {
		parents = append(parents, c.guarded(zookeeper.CreateOp(kafkazk.TopicPartitionsPath(t), nil, zookeeper.Persistent)))
	}
	for _, tp := range ready {
		partitions = append(partitions, c.guarded(zookeeper.CreateOp(kafkazk.TopicPartitionPath(tp.Topic, tp.Partition), nil, zookeeper.Persistent)))
		creates = append(creates, c.guarded(zookeeper.CreateOp(kafkazk.TopicPartitionStatePath(tp.Topic, tp.Partition), kafkazk.EncodePartitionState(states[tp].state()), zookeeper.Persistent)))
	}
	zk.Do(env, parents, func(env *sim.Env, r1 []kafkazk.Resp) {
		zk.Do(env, partitions, func(env *sim.Env, r2 []kafkazk.Resp) {
			zk.Do(env, creates, func(env *sim.Env, r3 []kafkazk.Resp) {
				if anyMoved(r1) || anyMoved(r2) || anyMoved(r3) {
					done(env, true)
					return
				}
				for i, tp := range ready {
					if r3[i].Rc != zookeeper.OK {
						continue // the state znode exists: "already exists" fails it
					}
					li := states[tp]
					c.ctx.states[tp] = li
					c.ctx.pstate[tp] = onlinePartition
					// A new partition's first leader is not an election
					// (no LeaderElected, as a KRaft PartitionRecord).
					c.addLeaderAndIsr(b, li.isr, tp, li, true)
				}
				done(env, false)
			})
		})
	})
}

func anyMoved(rs []kafkazk.Resp) bool {
	for _, r := range rs {
		if epochCheckFailed(r) {
			return true
		}
	}
	return false
}

// electLeaders is doElectLeaderForPartitions, retried for the partitions
// whose state znode changed under it (BADVERSION): read each state,
// refuse one a newer controller wrote, elect, and write the results with
// one guarded conditional setData per partition.
func (c *Controller) electLeaders(env *sim.Env, b *batch, tps []storage.TopicPartition, s strategy, done outcome) {
	if len(tps) == 0 {
		done(env, false)
		return
	}
	c.readStates(env, tps, func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
		var candidates []storage.TopicPartition
		uncleanTopics := map[string]bool{}
		for _, tp := range tps {
			li := states[tp]
			if li == nil || li.controllerEpoch > c.epoch {
				continue // "already written by another controller"
			}
			c.ctx.states[tp] = li
			candidates = append(candidates, tp)
			if (s == offlineElection || s == uncleanElection) && c.liveISRLeader(tp, li) < 0 {
				uncleanTopics[tp.Topic] = true
			}
		}
		c.uncleanEnabled(env, sortedKeys(uncleanTopics), func(env *sim.Env, unclean map[string]bool) {
			var writes []stateWrite
			uncleanly := map[storage.TopicPartition]bool{}
			for _, tp := range candidates {
				li := c.ctx.states[tp]
				next, wasUnclean := c.electLeader(tp, li, s, unclean[tp.Topic] || s == uncleanElection)
				if next == nil {
					continue // "Failed to elect leader for partition …"
				}
				if wasUnclean {
					c.markUnclean(env.Now()) // offlinePartitionLeaderElection
				}
				uncleanly[tp] = wasUnclean
				writes = append(writes, stateWrite{tp, next, li.zkVersion})
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
						tp, li := w.tp, w.next
						prev := c.ctx.states[tp]
						c.ctx.states[tp] = li
						c.ctx.pstate[tp] = onlinePartition
						c.addLeaderAndIsr(b, c.ctx.replicas(tp), tp, li, false)
						b.elected[tp] = li.leader
						env.Note(event.LeaderElected{TP: tp, Leader: li.leader, Epoch: li.leaderEpoch, ISR: slices.Clone(li.isr), Unclean: uncleanly[tp], PrevISR: slices.Clone(prev.isr)})
					case zookeeper.BadVersion:
						retry = append(retry, w.tp)
					}
				}
				c.electLeaders(env, b, retry, s, done)
			})
		})
	})
}

// liveISRLeader is the first replica in assignment order that is live and
// in the ISR, or -1.
func (c *Controller) liveISRLeader(tp storage.TopicPartition, li *leaderIsr) int32 {
	for _, r := range c.ctx.replicas(tp) {
		if c.ctx.isLive(r) && slices.Contains(li.isr, r) {
			return r
		}
	}
	return -1
}

// electLeader picks a partition's next leader and ISR by strategy (Election.scala),
// nil if there is none; the leader epoch goes up by one
// (LeaderAndIsr.newLeaderAndIsr).
func (c *Controller) electLeader(tp storage.TopicPartition, li *leaderIsr, s strategy, uncleanOK bool) (*leaderIsr, bool) {
	assignment := c.ctx.replicas(tp)
	next := &leaderIsr{leaderEpoch: li.leaderEpoch + 1, controllerEpoch: c.epoch, leader: -1}
	unclean := false
	switch s {
	case offlineElection, uncleanElection:
		next.leader = c.liveISRLeader(tp, li)
		if next.leader < 0 && uncleanOK {
			for _, r := range assignment {
				if c.ctx.isLive(r) {
					next.leader, unclean = r, true
					break
				}
			}
		}
		if next.leader < 0 {
			return nil, false
		}
		if slices.Contains(li.isr, next.leader) {
			for _, r := range li.isr {
				if c.ctx.isLive(r) {
					next.isr = append(next.isr, r)
				}
			}
		} else {
			next.isr = []int32{next.leader}
		}
	case controlledShutdownElection:
		for _, r := range assignment {
			if c.ctx.isLiveOrShuttingDown(r) && slices.Contains(li.isr, r) && !c.ctx.shuttingDown[r] {
				next.leader = r
				break
			}
		}
		if next.leader < 0 {
			return nil, false
		}
		for _, r := range li.isr {
			if !c.ctx.shuttingDown[r] {
				next.isr = append(next.isr, r)
			}
		}
	case reassignElection:
		// leaderForReassign: the first target replica that is live and in
		// the ISR (the assignment is the target by now); the ISR stays.
		for _, r := range assignment {
			if c.ctx.isLive(r) && slices.Contains(li.isr, r) {
				next.leader = r
				break
			}
		}
		if next.leader < 0 {
			return nil, false
		}
		next.isr = slices.Clone(li.isr)
	case preferredElection:
		if len(assignment) == 0 || !c.ctx.isLive(assignment[0]) || !slices.Contains(li.isr, assignment[0]) || li.leader == assignment[0] {
			return nil, false
		}
		next.leader = assignment[0]
		next.isr = slices.Clone(li.isr)
	}
	return next, unclean
}

// uncleanEnabled reads the topics' unclean.leader.election.enable: each
// topic's /config/topics znode over the broker's configs (getLogConfigs).
func (c *Controller) uncleanEnabled(env *sim.Env, topics []string, then func(env *sim.Env, on map[string]bool)) {
	reqs := make([]kafkazk.Req, len(topics))
	for i, t := range topics {
		reqs[i] = kafkazk.Req{Type: opGetData, Path: kafkazk.ConfigEntityPath("topics", t)}
	}
	c.cfg.ZK.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		on := map[string]bool{}
		for i, t := range topics {
			var over map[string]string
			if resps[i].Rc == zookeeper.OK {
				over, _ = kafkazk.DecodeEntityConfig(resps[i].Data)
			}
			on[t] = c.cfg.Conf().TopicBool(over, "unclean.leader.election.enable")
		}
		then(env, on)
	})
}

// sortedKeys is m's names in order.
func sortedKeys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
