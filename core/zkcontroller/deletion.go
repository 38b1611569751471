package zkcontroller

import (
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Topic deletion (TopicDeletionManager, 2.8.0). A topic is deleted when a
// znode /admin/delete_topics/T appears (the DeleteTopics API and
// kafka-topics --zookeeper --delete both create it): the controller tells
// every broker to drop it from its metadata (UpdateMetadata with leader
// -2, LeaderDuringDelete), stops its replicas and then deletes them
// (StopReplica with deletePartition); when every replica has answered it
// deletes the topic's znodes. A replica on a dead broker makes the topic
// ineligible until that broker is back.

// leaderDuringDelete is LeaderAndIsr.LeaderDuringDelete.
const leaderDuringDelete = -2

// replicaDeletion is a replica's state in a deletion (ReplicaDeletionStarted,
// ReplicaDeletionSuccessful, ReplicaDeletionIneligible).
type replicaDeletion uint8

const (
	deletionStarted replicaDeletion = iota + 1
	deletionSuccessful
	deletionIneligible
)

type topicReplica struct {
	tp     storage.TopicPartition
	broker int32
}

// deletions is the deletion manager's part of the context.
type deletions struct {
	queued   map[string]bool // topicsToBeDeleted
	started  map[string]bool // topicsWithDeletionStarted
	replicas map[topicReplica]replicaDeletion
	halted   map[string]bool // queued topics with a partition being reassigned (ineligible until it completes)
}

func newDeletions() deletions {
	return deletions{queued: map[string]bool{}, started: map[string]bool{}, replicas: map[topicReplica]replicaDeletion{}, halted: map[string]bool{}}
}

// halt is markTopicIneligibleForDeletion for a reassignment: a topic
// queued for deletion waits while one of its partitions moves.
func (d deletions) halt(topic string) {
	if d.queued[topic] {
		d.halted[topic] = true
	}
}

// resume is resumeDeletionForTopics once a move has completed.
func (d deletions) resume(topic string) { delete(d.halted, topic) }

// topicDeletion is the TopicDeletion event: read /admin/delete_topics
// (re-arming its watch), drop entries for topics that do not exist, and
// queue the others, or with delete.topic.enable=false drop them all.
func (c *Controller) topicDeletion(env *sim.Env, done func(*sim.Env)) {
	if !c.active {
		done(env)
		return
	}
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetChildren, Path: kafkazk.DeleteTopicsPath, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		if c.ctx == nil {
			done(env)
			return
		}
		children := slices.Clone(r.Children)
		slices.Sort(children)
		var drop, queue []string
		enabled := c.cfg.Conf().BrokerBool("delete.topic.enable")
		for _, t := range children {
			if _, ok := c.ctx.topics[t]; !ok || !enabled {
				drop = append(drop, t)
			} else if !c.ctx.del.queued[t] {
				queue = append(queue, t)
			}
		}
		c.deleteDeletionZnodes(env, drop, func(env *sim.Env, moved bool) {
			if moved {
				c.maybeResign(env, done)
				return
			}
			for _, t := range queue {
				c.ctx.del.queued[t] = true
				for tp := range c.ctx.reassigning {
					if tp.Topic == t {
						c.ctx.del.halt(t) // "topic reassignment in progress"
					}
				}
			}
			c.resumeDeletions(env, done)
		})
	})
}

// deleteDeletionZnodes deletes /admin/delete_topics/T for each topic.
func (c *Controller) deleteDeletionZnodes(env *sim.Env, topics []string, done outcome) {
	reqs := make([]kafkazk.Req, len(topics))
	for i, t := range topics {
		reqs[i] = c.guarded(zookeeper.DeleteOp(kafkazk.DeleteTopicPath(t), -1))
	}
	c.cfg.ZK.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) { done(env, anyMoved(resps)) })
}

// resumeDeletions is resumeDeletions: complete the topics whose replicas
// are all deleted, and start (or retry) those that can go on.
func (c *Controller) resumeDeletions(env *sim.Env, done func(*sim.Env)) {
	var complete, eligible []string
	for _, t := range sortedKeys(c.ctx.del.queued) {
		reps := c.topicReplicas(t)
		all, anyStarted := true, false
		for _, r := range reps {
			st := c.ctx.del.replicas[r]
			all = all && st == deletionSuccessful
			anyStarted = anyStarted || st == deletionStarted
		}
		switch {
		case all && c.ctx.del.started[t]:
			complete = append(complete, t)
		case !anyStarted && !c.ctx.del.halted[t]:
			eligible = append(eligible, t)
		}
	}
	steps := []step{}
	for _, t := range complete {
		steps = append(steps, func(env *sim.Env, next func(*sim.Env)) { c.completeDeleteTopic(env, t, next) })
	}
	if len(eligible) > 0 {
		steps = append(steps, func(env *sim.Env, next func(*sim.Env)) { c.onTopicDeletion(env, eligible, next) })
	}
	c.chain(env, done, steps...)
}

// topicReplicas is every replica of a topic, in order.
func (c *Controller) topicReplicas(topic string) []topicReplica {
	var out []topicReplica
	t := c.ctx.topics[topic]
	if t == nil {
		return nil
	}
	for p, rs := range t.assignment {
		for _, r := range rs {
			out = append(out, topicReplica{storage.TopicPartition{Topic: topic, Partition: int32(p)}, r})
		}
	}
	return out
}

// onTopicDeletion starts (or retries) deleting topics: the brokers drop
// them from their metadata, the live replicas are stopped and then
// deleted; replicas on dead brokers wait.
func (c *Controller) onTopicDeletion(env *sim.Env, topics []string, done func(*sim.Env)) {
	var parts []storage.TopicPartition
	for _, t := range topics {
		for p := range c.ctx.topics[t].assignment {
			tp := storage.TopicPartition{Topic: t, Partition: int32(p)}
			parts = append(parts, tp)
			if !c.ctx.del.started[t] {
				c.ctx.pstate[tp] = nonExistentPartition
			}
		}
		c.ctx.del.started[t] = true
	}
	// sendMetadataUpdate: every broker, the partitions with leader -2.
	b := newBatch()
	c.addUpdateMetadata(b, c.ctx.liveIDs(), parts)
	b.deleting = true
	c.sendBatch(env, b)
	byBroker := map[int32][]storage.TopicPartition{}
	for _, t := range topics {
		for _, r := range c.topicReplicas(t) {
			switch {
			case c.ctx.del.replicas[r] == deletionSuccessful:
			case !c.ctx.isLive(r.broker):
				c.ctx.del.replicas[r] = deletionIneligible
			default:
				byBroker[r.broker] = append(byBroker[r.broker], r.tp)
			}
		}
	}
	var steps []step
	for _, id := range sortedIDs(byBroker) {
		tps := byBroker[id]
		steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
			c.offlineReplicas(env, id, tps, func(env *sim.Env, moved bool) {
				if moved {
					c.maybeResign(env, next)
					return
				}
				// ReplicaDeletionStarted: StopReplica with deletePartition,
				// whose answer moves each replica on.
				req := &protocol.StopReplicaRequest{}
				for _, tp := range tps {
					c.ctx.del.replicas[topicReplica{tp, id}] = deletionStarted
					n := len(req.TopicStates)
					if n == 0 || req.TopicStates[n-1].TopicName != tp.Topic {
						req.TopicStates = append(req.TopicStates, protocol.StopReplicaTopicState{TopicName: tp.Topic})
						n++
					}
					req.TopicStates[n-1].PartitionStates = append(req.TopicStates[n-1].PartitionStates, protocol.StopReplicaPartitionState{PartitionIndex: tp.Partition, LeaderEpoch: leaderDuringDelete, DeletePartition: true})
				}
				req.ControllerHeader = protocol.ControllerHeader{ControllerID: c.cfg.BrokerID, ControllerEpoch: c.epoch, BrokerEpoch: c.ctx.live[id].epoch}
				c.channel.sendThen(env, id, req, func(env *sim.Env, resp protocol.Response) {
					c.enqueue(env, "TopicDeletionStopReplicaResponseReceived", func(env *sim.Env, done func(*sim.Env)) {
						c.stopReplicaDeleted(env, id, resp, done)
					})
				})
				next(env)
			})
		})
	}
	c.chain(env, done, steps...)
}

// stopReplicaDeleted takes a broker's answer to a deleting StopReplica.
func (c *Controller) stopReplicaDeleted(env *sim.Env, id int32, resp protocol.Response, done func(*sim.Env)) {
	r, ok := resp.(*protocol.StopReplicaResponse)
	if !c.active || c.ctx == nil || !ok {
		done(env)
		return
	}
	for _, pe := range r.PartitionErrors {
		key := topicReplica{storage.TopicPartition{Topic: pe.TopicName, Partition: pe.PartitionIndex}, id}
		if c.ctx.del.replicas[key] != deletionStarted {
			continue
		}
		if r.ErrorCode == protocol.NONE && pe.ErrorCode == protocol.NONE {
			c.ctx.del.replicas[key] = deletionSuccessful
		} else {
			c.ctx.del.replicas[key] = deletionIneligible
		}
	}
	c.resumeDeletions(env, done)
}

// completeDeleteTopic deletes the topic's znodes (/brokers/topics/T with
// its partitions, /config/topics/T, /admin/delete_topics/T), each delete
// guarded, and forgets the topic.
func (c *Controller) completeDeleteTopic(env *sim.Env, topic string, done func(*sim.Env)) {
	zk := c.cfg.ZK
	zk.UnregisterNodeHandler(kafkazk.TopicPath(topic))
	t := c.ctx.topics[topic]
	var states, partitions []kafkazk.Req
	for p := range t.assignment {
		states = append(states, c.guarded(zookeeper.DeleteOp(kafkazk.TopicPartitionStatePath(topic, int32(p)), -1)))
		partitions = append(partitions, c.guarded(zookeeper.DeleteOp(kafkazk.TopicPartitionPath(topic, int32(p)), -1)))
	}
	last := []kafkazk.Req{
		c.guarded(zookeeper.DeleteOp(kafkazk.TopicPartitionsPath(topic), -1)),
	}
	rest := []kafkazk.Req{
		c.guarded(zookeeper.DeleteOp(kafkazk.TopicPath(topic), -1)),
		c.guarded(zookeeper.DeleteOp(kafkazk.ConfigEntityPath("topics", topic), -1)),
		c.guarded(zookeeper.DeleteOp(kafkazk.DeleteTopicPath(topic), -1)),
	}
	// deleteRecursive works from the leaves up.
	zk.Do(env, states, func(env *sim.Env, r1 []kafkazk.Resp) {
		zk.Do(env, partitions, func(env *sim.Env, r2 []kafkazk.Resp) {
			zk.Do(env, last, func(env *sim.Env, r3 []kafkazk.Resp) {
				zk.Do(env, rest, func(env *sim.Env, r4 []kafkazk.Resp) {
					if anyMoved(r1) || anyMoved(r2) || anyMoved(r3) || anyMoved(r4) {
						c.maybeResign(env, done)
						return
					}
					for _, r := range c.topicReplicas(topic) {
						delete(c.ctx.del.replicas, r)
					}
					delete(c.ctx.del.queued, topic)
					delete(c.ctx.del.started, topic)
					c.removeTopic(topic)
					env.Note(event.TopicDeleted{Topic: topic})
					done(env)
				})
			})
		})
	})
}

// resumeDeletionOn retries the deletions that waited for a broker that
// is back (onBrokerStartup's resumeDeletionForTopics).
func (c *Controller) resumeDeletionOn(ids []int32) {
	for r, st := range c.ctx.del.replicas {
		if st == deletionIneligible && slices.Contains(ids, r.broker) {
			delete(c.ctx.del.replicas, r)
		}
	}
}
