package zkcontroller

import (
	"errors"
	"fmt"
	"slices"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Partition reassignment (KafkaController.onPartitionReassignment and its
// helpers, 2.8.0). Kafka's notation: RS the replica set, ORS the original
// one, TRS the target, AR the replicas being added, RR those removed.
//
//   - U: the topic znode gets RS = TRS + ORS with AR and RR, written
//     before the context so that a new controller resumes the move
//     (ZooKeeper is the only place the original replicas are kept);
//     replicas an earlier move was adding that this one drops are stopped.
//   - A (TRS not yet in the ISR): the leader epoch goes up, LeaderAndIsr
//     tells RS the new assignment, and the new replicas start fetching.
//   - B (TRS in the ISR): the assignment becomes TRS, the leader moves if
//     it is not in TRS (or is dead), RR leave the ISR and are stopped and
//     deleted, the topic znode gets TRS, the partition leaves
//     /admin/reassign_partitions if it is there, and every broker gets its
//     metadata.
//
// B is reached when the ISR grows to hold TRS: with AlterIsr (2.8's
// default) the controller checks after each ISR change it writes; below
// inter.broker.protocol.version 2.7-IV2, where leaders write ISRs, a data
// watch on the partition's state znode tells it (and so does
// /isr_change_notification).

// reassignDone ends a reassignment step: moved as outcome's; err is the
// exception Kafka's step throws (the API answers UNKNOWN_SERVER_ERROR).
type reassignDone func(env *sim.Env, moved bool, err error)

// onPartitionReassignment takes one partition a step on towards ra.
func (c *Controller) onPartitionReassignment(env *sim.Env, tp storage.TopicPartition, ra assignment, done reassignDone) {
	c.ctx.del.halt(tp.Topic) // "topic reassignment in progress"
	c.updateCurrentReassignment(env, tp, ra, func(env *sim.Env, moved bool, err error) {
		if moved || err != nil {
			done(env, moved, err)
			return
		}
		c.isReassignmentComplete(env, tp, ra, func(env *sim.Env, complete bool) {
			if !complete {
				// A1, A2.
				c.updateLeaderEpochAndSend(env, tp, func(env *sim.Env, moved bool, err error) {
					if moved || err != nil {
						done(env, moved, err)
						return
					}
					c.startNewReplicas(env, tp, ra.adding)
					done(env, false, nil)
				})
				return
			}
			c.completeReassignment(env, tp, ra, done)
		})
	})
}

// completeReassignment is phase B.
func (c *Controller) completeReassignment(env *sim.Env, tp storage.TopicPartition, ra assignment, done reassignDone) {
	// B1: the added replicas become OnlineReplica; from NewReplica that
	// sends nothing (a new controller, whose replicas all start online,
	// would resend the state, which the brokers ignore as not newer).
	completed := assignment{replicas: ra.target()}
	c.ctx.setFull(tp, completed)                                                           // B2
	c.moveLeaderIfRequired(env, tp, completed, func(env *sim.Env, moved bool, err error) { // B3
		if moved || err != nil {
			done(env, moved, err)
			return
		}
		c.stopRemovedReplicas(env, tp, ra.removing, func(env *sim.Env, moved bool) { // B4, B5
			if moved {
				done(env, true, nil)
				return
			}
			c.writeAssignment(env, tp, completed, func(env *sim.Env, moved bool, err error) { // B6
				if moved || err != nil {
					done(env, moved, err)
					return
				}
				c.removeFromReassigning(env, tp, completed, func(env *sim.Env, moved bool) { // B7
					if moved {
						done(env, true, nil)
						return
					}
					b := newBatch() // B8
					c.addUpdateMetadata(b, c.ctx.liveIDs(), []storage.TopicPartition{tp})
					c.sendBatch(env, b)
					env.Note(event.ReassignmentCompleted{TP: tp, Replicas: slices.Clone(completed.replicas)})
					c.ctx.del.resume(tp.Topic)
					c.resumeDeletions(env, func(env *sim.Env) { done(env, false, nil) })
				})
			})
		})
	})
}

// updateCurrentReassignment is phase U: the znode, then the context, then
// the replicas a replaced move no longer needs are stopped. The partition
// is then being reassigned (and, without AlterIsr, its state znode
// watched).
func (c *Controller) updateCurrentReassignment(env *sim.Env, tp storage.TopicPartition, ra assignment, done reassignDone) {
	cur := c.ctx.full(tp)
	finish := func(env *sim.Env) {
		if !c.alterIsrEnabled() {
			c.cfg.ZK.RegisterNodeHandler(kafkazk.TopicPartitionStatePath(tp.Topic, tp.Partition), kafkazk.NodeHandler{
				DataChanged: func(env *sim.Env) { c.enqueue(env, "PartitionReassignmentIsrChange", c.reassignmentIsrChange(tp)) },
			})
		}
		c.ctx.reassigning[tp] = true
		done(env, false, nil)
	}
	if cur.equal(ra) {
		finish(env)
		return
	}
	c.writeAssignment(env, tp, ra, func(env *sim.Env, moved bool, err error) {
		if moved || err != nil {
			done(env, moved, err)
			return
		}
		c.ctx.setFull(tp, ra)
		unneeded := without(cur.replicas, ra.replicas)
		if len(unneeded) == 0 {
			finish(env)
			return
		}
		c.stopRemovedReplicas(env, tp, unneeded, func(env *sim.Env, moved bool) {
			if moved {
				done(env, true, nil)
				return
			}
			finish(env)
		})
	})
}

// alterIsrEnabled is config.interBrokerProtocolVersion.isAlterIsrSupported.
func (c *Controller) alterIsrEnabled() bool {
	return config.AlterIsrSupported(c.cfg.Conf().Broker("inter.broker.protocol.version"))
}

// writeAssignment is updateReplicaAssignmentForPartition: the topic znode
// with the context's assignment and tp's replaced by a, any version,
// guarded by the epoch check.
func (c *Controller) writeAssignment(env *sim.Env, tp storage.TopicPartition, a assignment, done reassignDone) {
	t := c.ctx.topics[tp.Topic]
	if t == nil {
		done(env, false, fmt.Errorf("Failed to update assignment for %s since the topic has no current assignment", tp))
		return
	}
	data := kafkazk.TopicZNodeData{TopicID: t.id, Partitions: map[int32][]int32{}, Adding: map[int32][]int32{}, Removing: map[int32][]int32{}}
	for p, rs := range t.assignment {
		data.Partitions[int32(p)], data.Adding[int32(p)], data.Removing[int32(p)] = rs, t.adding[int32(p)], t.removing[int32(p)]
	}
	data.Partitions[tp.Partition], data.Adding[tp.Partition], data.Removing[tp.Partition] = a.replicas, a.adding, a.removing
	path := kafkazk.TopicPath(tp.Topic)
	c.cfg.ZK.One(env, c.guarded(zookeeper.SetDataOp(path, kafkazk.EncodeTopic(data), -1)), func(env *sim.Env, r kafkazk.Resp) {
		switch {
		case epochCheckFailed(r):
			done(env, true, nil)
		case r.Rc == zookeeper.OK:
			t.dataVersion = r.Results[1].Stat.Version
			done(env, false, nil)
		case guardedCode(r) == zookeeper.NoNode:
			done(env, false, fmt.Errorf("Failed to update assignment for %s since the topic has no current assignment", tp))
		default:
			done(env, false, fmt.Errorf("KeeperErrorCode = %s for %s", guardedCode(r), path))
		}
	})
}

// guardedCode is the code of a guarded write's own op.
func guardedCode(r kafkazk.Resp) zookeeper.Code {
	if len(r.Results) > 1 && r.Results[1].Type == zookeeper.OpError {
		return r.Results[1].Err
	}
	return r.Rc
}

// isReassignmentComplete: not moving, or the state znode's ISR, read
// afresh (not the cache), holds every target replica.
func (c *Controller) isReassignmentComplete(env *sim.Env, tp storage.TopicPartition, ra assignment, then func(env *sim.Env, complete bool)) {
	if !ra.moving() {
		then(env, true)
		return
	}
	c.readStates(env, []storage.TopicPartition{tp}, func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
		li := states[tp]
		if li == nil {
			then(env, false)
			return
		}
		for _, r := range ra.target() {
			if !slices.Contains(li.isr, r) {
				then(env, false)
				return
			}
		}
		then(env, true)
	})
}

// errWrittenByNewer is updateLeaderEpoch's StateChangeFailedException.
var errWrittenByNewer = errors.New("Leader and isr path written by another controller")

// updateLeaderEpochAndSend is updateLeaderEpochAndSendRequest: the leader
// epoch goes up with leader and ISR unchanged (so that the leader takes
// the new replica list), and LeaderAndIsr goes to the original replicas
// and, as new, to the ones being added.
func (c *Controller) updateLeaderEpochAndSend(env *sim.Env, tp storage.TopicPartition, done reassignDone) {
	c.updateLeaderEpoch(env, tp, func(env *sim.Env, moved bool, err error) {
		if moved || err != nil {
			done(env, moved, err)
			return
		}
		ra, li := c.ctx.full(tp), c.ctx.states[tp]
		b := newBatch()
		c.addLeaderAndIsr(b, ra.origin(), tp, li, false)
		c.addLeaderAndIsr(b, ra.adding, tp, li, true)
		c.sendBatch(env, b)
		done(env, false, nil)
	})
}

// updateLeaderEpoch reads the state znode, refuses one a newer controller
// wrote, and writes it back with the next leader epoch and this
// controller's epoch, retrying while the znode's version moves.
func (c *Controller) updateLeaderEpoch(env *sim.Env, tp storage.TopicPartition, done reassignDone) {
	c.readStates(env, []storage.TopicPartition{tp}, func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
		li := states[tp]
		switch {
		case li == nil:
			done(env, false, fmt.Errorf("Cannot update leader epoch for partition %s as leaderAndIsr path is empty", tp))
			return
		case li.controllerEpoch > c.epoch:
			done(env, false, errWrittenByNewer)
			return
		}
		next := &leaderIsr{leader: li.leader, leaderEpoch: li.leaderEpoch + 1, isr: slices.Clone(li.isr), controllerEpoch: c.epoch}
		c.updateLeaderAndIsr(env, []stateWrite{{tp, next, li.zkVersion}}, func(env *sim.Env, moved bool, codes []zookeeper.Code) {
			switch {
			case moved:
				done(env, true, nil)
			case codes[0] == zookeeper.OK:
				c.ctx.states[tp] = next
				done(env, false, nil)
			case codes[0] == zookeeper.BadVersion:
				c.updateLeaderEpoch(env, tp, done)
			default:
				done(env, false, fmt.Errorf("KeeperErrorCode = %s", codes[0]))
			}
		})
	})
}

// startNewReplicas moves each added replica to NewReplica: LeaderAndIsr,
// as new, with the partition's state, one batch per replica; a replica
// that leads the partition cannot be new.
func (c *Controller) startNewReplicas(env *sim.Env, tp storage.TopicPartition, adding []int32) {
	li := c.ctx.states[tp]
	if li == nil {
		return
	}
	for _, r := range adding {
		if r == li.leader {
			continue
		}
		b := newBatch()
		c.addLeaderAndIsr(b, []int32{r}, tp, li, true)
		c.sendBatch(env, b)
	}
}

// moveLeaderIfRequired is moveReassignedPartitionLeaderIfRequired: a
// leader outside the new replicas, or dead, is replaced by an election
// (ReassignPartitionLeaderElectionStrategy; if none is possible the move
// goes on, as Kafka's does); a live one in them gets the new epoch and
// assignment.
func (c *Controller) moveLeaderIfRequired(env *sim.Env, tp storage.TopicPartition, completed assignment, done reassignDone) {
	li := c.ctx.states[tp]
	if li != nil && slices.Contains(completed.replicas, li.leader) && c.ctx.isLive(li.leader) {
		c.updateLeaderEpochAndSend(env, tp, done)
		return
	}
	c.toOnline(env, []storage.TopicPartition{tp}, reassignElection, func(env *sim.Env, moved bool) { done(env, moved, nil) })
}

// stopRemovedReplicas is stopRemovedReplicasOfReassignedPartition: the
// replicas go offline (out of the ISR, StopReplica keeping the log), as
// one batch, then a StopReplica that deletes their logs.
func (c *Controller) stopRemovedReplicas(env *sim.Env, tp storage.TopicPartition, removed []int32, done outcome) {
	b := newBatch()
	steps := make([]step, len(removed))
	for i, r := range removed {
		steps[i] = func(env *sim.Env, next func(*sim.Env)) {
			c.offlineReplicasInto(env, b, r, []storage.TopicPartition{tp}, func(env *sim.Env, moved bool) {
				if moved {
					done(env, true)
					return
				}
				next(env)
			})
		}
	}
	c.chain(env, func(env *sim.Env) {
		c.sendBatch(env, b)
		del := newBatch()
		c.addStopReplica(del, removed, tp, true)
		c.sendBatch(env, del)
		done(env, false)
	}, steps...)
}

// removeFromReassigning is removePartitionFromReassigningPartitions: the
// state znode's watch goes, the partition leaves /admin/reassign_partitions
// if it is there with these replicas, and the context's list.
func (c *Controller) removeFromReassigning(env *sim.Env, tp storage.TopicPartition, completed assignment, done outcome) {
	if !c.alterIsrEnabled() {
		c.cfg.ZK.UnregisterNodeHandler(kafkazk.TopicPartitionStatePath(tp.Topic, tp.Partition))
	}
	c.removeFromZkReassignment(env, func(e kafkazk.ReassignmentEntry) bool {
		return e.Topic == tp.Topic && e.Partition == tp.Partition && slices.Equal(e.Replicas, completed.replicas)
	}, func(env *sim.Env, moved bool) {
		delete(c.ctx.reassigning, tp)
		done(env, moved)
	})
}

// reassignmentIsrChange is the PartitionReassignmentIsrChange event of a
// watched state znode changing.
func (c *Controller) reassignmentIsrChange(tp storage.TopicPartition) func(env *sim.Env, done func(*sim.Env)) {
	return func(env *sim.Env, done func(*sim.Env)) {
		if !c.active || c.ctx == nil || !c.ctx.reassigning[tp] {
			done(env)
			return
		}
		c.maybeCompleteReassignment(env, tp, done)
	}
}

// maybeCompleteReassignment resumes a move whose target replicas have all
// joined the ISR.
func (c *Controller) maybeCompleteReassignment(env *sim.Env, tp storage.TopicPartition, done func(*sim.Env)) {
	ra := c.ctx.full(tp)
	c.isReassignmentComplete(env, tp, ra, func(env *sim.Env, complete bool) {
		if !complete || c.ctx == nil {
			done(env)
			return
		}
		c.stepOn(env, tp, ra, done)
	})
}

// stepOn is onPartitionReassignment as an event's step: a newer
// controller found on the way makes this one resign.
func (c *Controller) stepOn(env *sim.Env, tp storage.TopicPartition, ra assignment, next func(*sim.Env)) {
	c.onPartitionReassignment(env, tp, ra, func(env *sim.Env, moved bool, _ error) {
		if moved {
			c.maybeResign(env, next)
			return
		}
		next(env)
	})
}

// eachReassigning runs fn, one after the other, for each of tps that is
// still being reassigned when its turn comes.
func (c *Controller) eachReassigning(env *sim.Env, tps []storage.TopicPartition, fn func(env *sim.Env, tp storage.TopicPartition, next func(*sim.Env)), done func(*sim.Env)) {
	steps := make([]step, len(tps))
	for i, tp := range tps {
		steps[i] = func(env *sim.Env, next func(*sim.Env)) {
			if c.ctx == nil || !c.ctx.reassigning[tp] {
				next(env)
				return
			}
			fn(env, tp, next)
		}
	}
	c.chain(env, done, steps...)
}

// maybeCompleteReassignments is maybeCompleteReassignment for each of tps
// being reassigned.
func (c *Controller) maybeCompleteReassignments(env *sim.Env, tps []storage.TopicPartition, done func(*sim.Env)) {
	c.eachReassigning(env, tps, c.maybeCompleteReassignment, done)
}

// resumeReassignments is maybeResumeReassignments: each partition being
// reassigned for which should says so goes through onPartitionReassignment
// again (a new controller; a target broker that came back).
func (c *Controller) resumeReassignments(env *sim.Env, should func(tp storage.TopicPartition, ra assignment) bool, done func(*sim.Env)) {
	c.eachReassigning(env, sortedTPs(c.ctx.reassigning), func(env *sim.Env, tp storage.TopicPartition, next func(*sim.Env)) {
		if ra := c.ctx.full(tp); should(tp, ra) {
			c.stepOn(env, tp, ra, next)
			return
		}
		next(env)
	}, done)
}
