package zkcontroller

import (
	"slices"

	"kafkascope/core/kafkazk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// /admin/reassign_partitions (2.8.0): the controller watches for its
// creation (PartitionReassignmentHandler handles only that), starts the
// moves it lists without the API's checks, drops from it the partitions
// that fail to start, and removes each partition as its move completes,
// deleting the znode with the last one and watching for the next.

// zkPartitionReassignment is the ZkPartitionReassignment event
// (processZkPartitionReassignment): it returns, through then, the
// partitions it started.
func (c *Controller) zkPartitionReassignment(env *sim.Env, then func(env *sim.Env, moved bool, started []storage.TopicPartition)) {
	if !c.active || c.ctx == nil {
		then(env, false, nil)
		return
	}
	zk := c.cfg.ZK
	// registerZNodeChangeHandlerAndCheckExistence: an exists that arms the
	// creation watch.
	zk.One(env, kafkazk.Req{Type: opExists, Path: kafkazk.ReassignPartitionsPath}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.OK || c.ctx == nil {
			then(env, false, nil)
			return
		}
		c.readZkReassignment(env, func(env *sim.Env, entries []kafkazk.ReassignmentEntry) {
			if c.ctx == nil {
				then(env, false, nil)
				return
			}
			results := map[storage.TopicPartition]ReassignmentResult{}
			var moves []pendingMove
			for _, e := range entries {
				tp := storage.TopicPartition(e.TopicPartition)
				ra, _ := c.buildReassignment(tp, e.Replicas)
				moves = append(moves, pendingMove{tp, ra})
			}
			c.triggerReassignments(env, moves, results, func(env *sim.Env, moved bool) {
				if moved {
					then(env, true, nil)
					return
				}
				var started []storage.TopicPartition
				failed := map[storage.TopicPartition]bool{}
				for _, m := range moves {
					if results[m.tp].Code == protocol.NONE {
						started = append(started, m.tp)
					} else {
						failed[m.tp] = true // "Failed reassignment through zk"
					}
				}
				if len(failed) == 0 {
					then(env, false, started)
					return
				}
				c.removeFromZkReassignment(env, func(e kafkazk.ReassignmentEntry) bool {
					return failed[storage.TopicPartition(e.TopicPartition)]
				}, func(env *sim.Env, moved bool) { then(env, moved, started) })
			})
		})
	})
}

// zkPartitionReassignmentEvent runs zkPartitionReassignment as an event.
func (c *Controller) zkPartitionReassignmentEvent(env *sim.Env, done func(*sim.Env)) {
	c.zkPartitionReassignment(env, func(env *sim.Env, moved bool, _ []storage.TopicPartition) {
		if moved {
			c.maybeResign(env, done)
			return
		}
		done(env)
	})
}

// readZkReassignment is getPartitionReassignment: the znode's entries, none
// if it is gone or does not parse ("Ignoring partition reassignment due
// to invalid json").
func (c *Controller) readZkReassignment(env *sim.Env, then func(env *sim.Env, entries []kafkazk.ReassignmentEntry)) {
	c.cfg.ZK.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ReassignPartitionsPath}, func(env *sim.Env, r kafkazk.Resp) {
		var entries []kafkazk.ReassignmentEntry
		if r.Rc == zookeeper.OK {
			entries, _ = kafkazk.DecodeReassignment(r.Data)
		}
		then(env, entries)
	})
}

// removeFromZkReassignment is maybeRemoveFromZkReassignment: if the znode
// exists, the entries remove says so leave it; none left deletes it (and
// the event that re-arms the creation watch is queued), otherwise the
// rest is written back in the order of Kafka's Map of it. Both writes are
// guarded by the epoch check.
func (c *Controller) removeFromZkReassignment(env *sim.Env, remove func(kafkazk.ReassignmentEntry) bool, done outcome) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opExists, Path: kafkazk.ReassignPartitionsPath}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.OK {
			done(env, false)
			return
		}
		c.readZkReassignment(env, func(env *sim.Env, entries []kafkazk.ReassignmentEntry) {
			rest := slices.DeleteFunc(slices.Clone(entries), remove)
			if len(rest) == 0 {
				zk.One(env, c.guarded(zookeeper.DeleteOp(kafkazk.ReassignPartitionsPath, -1)), func(env *sim.Env, r kafkazk.Resp) {
					if epochCheckFailed(r) {
						done(env, true)
						return
					}
					c.enqueue(env, "ZkPartitionReassignment", c.zkPartitionReassignmentEvent)
					done(env, false)
				})
				return
			}
			data := kafkazk.EncodeReassignment(kafkazk.InMapOrder(rest))
			zk.One(env, c.guarded(zookeeper.SetDataOp(kafkazk.ReassignPartitionsPath, data, -1)), func(env *sim.Env, r kafkazk.Resp) {
				switch {
				case epochCheckFailed(r):
					done(env, true)
				case guardedCode(r) == zookeeper.NoNode:
					zk.One(env, c.guarded(zookeeper.CreateOp(kafkazk.ReassignPartitionsPath, data, zookeeper.Persistent)), func(env *sim.Env, r kafkazk.Resp) {
						done(env, epochCheckFailed(r))
					})
				default:
					done(env, false)
				}
			})
		})
	})
}

// initializePartitionReassignments is the failover step: the moves
// /admin/reassign_partitions lists start (supplanting any API move of the
// same partitions), then the other moves the topic znodes record resume.
func (c *Controller) initializePartitionReassignments(env *sim.Env, next func(*sim.Env)) {
	c.zkPartitionReassignment(env, func(env *sim.Env, moved bool, started []storage.TopicPartition) {
		if moved {
			c.maybeResign(env, next)
			return
		}
		c.resumeReassignments(env, func(tp storage.TopicPartition, _ assignment) bool {
			return !slices.Contains(started, tp)
		}, next)
	})
}
