package zkcontroller

import (
	"time"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// step is one stage of an event: it calls next when its ZooKeeper work is
// back.
type step func(env *sim.Env, next func(env *sim.Env))

// chain runs an active controller's steps one after the other, then
// done; it stops early if the controller resigned meanwhile (a guarded
// write found a newer epoch), as ControllerMovedException ends the event.
func (c *Controller) chain(env *sim.Env, done func(env *sim.Env), steps ...step) {
	if len(steps) == 0 || c.ctx == nil {
		done(env)
		return
	}
	steps[0](env, func(env *sim.Env) { c.chain(env, done, steps[1:]...) })
}

// onControllerFailover is what a new controller does before it acts
// (KafkaController.onControllerFailover, 2.8.0): make sure /feature
// exists, watch brokers, topics and the admin paths, clear the
// notification queues, load the whole cluster from ZooKeeper
// (initializeControllerContext), tell every broker what it holds, and
// elect leaders for partitions that have none. Every read is a ZooKeeper
// round trip (pipelined ten at a time): the load grows with brokers,
// topics and partitions.
func (c *Controller) onControllerFailover(env *sim.Env, done func(env *sim.Env)) {
	c.ctx = newContext()
	c.channel = newChannel(c)
	zk := c.cfg.ZK
	won := env.Now()
	c.chain(env, done,
		c.setupFeatureVersioning,
		func(env *sim.Env, next func(*sim.Env)) {
			zk.RegisterChildHandler(kafkazk.BrokerIdsPath, func(env *sim.Env) { c.enqueue(env, "BrokerChange", c.brokerChange) })
			zk.RegisterChildHandler(kafkazk.TopicsPath, func(env *sim.Env) { c.enqueue(env, "TopicChange", c.topicChange) })
			zk.RegisterChildHandler(kafkazk.DeleteTopicsPath, func(env *sim.Env) { c.enqueue(env, "TopicDeletion", c.topicDeletion) })
			zk.RegisterChildHandler(kafkazk.LogDirEventNotificationPath, func(env *sim.Env) {})
			zk.RegisterChildHandler(kafkazk.IsrChangeNotificationPath, func(env *sim.Env) {
				c.enqueue(env, "IsrChangeNotification", c.isrChangeNotification)
			})
			zk.RegisterNodeHandler(kafkazk.PreferredReplicaElectionPath, kafkazk.NodeHandler{})
			zk.RegisterNodeHandler(kafkazk.ReassignPartitionsPath, kafkazk.NodeHandler{
				Created: func(env *sim.Env) { c.enqueue(env, "ZkPartitionReassignment", c.zkPartitionReassignmentEvent) },
			})
			zk.Do(env, []kafkazk.Req{
				{Type: opExists, Path: kafkazk.PreferredReplicaElectionPath},
				{Type: opExists, Path: kafkazk.ReassignPartitionsPath},
			}, func(env *sim.Env, _ []kafkazk.Resp) { next(env) })
		},
		c.clearNotifications(kafkazk.LogDirEventNotificationPath),
		c.clearNotifications(kafkazk.IsrChangeNotificationPath),
		c.loadBrokers,
		c.loadTopics,
		c.loadPartitionStates,
		func(env *sim.Env, next func(*sim.Env)) {
			env.Note(event.ZkControllerLoaded{Node: c.cfg.BrokerID, Epoch: c.epoch, Brokers: len(c.ctx.live), Topics: len(c.ctx.topics), Partitions: len(c.ctx.states), Took: env.Now().Sub(won)})
			next(env)
		},
		func(env *sim.Env, next func(*sim.Env)) {
			// sendUpdateMetadataRequest(all live brokers, no partitions),
			// then the replica state machine's startup (every replica on a
			// live broker is online: LeaderAndIsr with its state), then the
			// partition state machine's (elect where there is no leader).
			b := newBatch()
			c.addUpdateMetadata(b, c.ctx.liveIDs(), nil)
			c.sendBatch(env, b)
			b = newBatch()
			for _, tp := range c.ctx.allPartitions() {
				li := c.ctx.states[tp]
				if li == nil {
					continue
				}
				var online []int32
				for _, r := range c.ctx.replicas(tp) {
					if c.ctx.isLive(r) {
						online = append(online, r)
					}
				}
				c.addLeaderAndIsr(b, online, tp, li, false)
			}
			c.sendBatch(env, b)
			var offline []step
			for _, id := range c.deadReplicaBrokers() {
				offline = append(offline, func(env *sim.Env, next func(*sim.Env)) {
					c.offlineReplicas(env, id, c.ctx.partitionsOn(id), c.abortIfMoved(next))
				})
			}
			c.chain(env, next, offline...)
		},
		func(env *sim.Env, next func(*sim.Env)) {
			c.initializePartitionState()
			c.triggerOnlinePartitionStateChange(env, next)
		},
		c.initializePartitionReassignments,
		// The deletions in progress (fetchTopicDeletionsInProgress, then
		// tryTopicDeletion).
		c.topicDeletion,
		func(env *sim.Env, next func(*sim.Env)) {
			c.scheduleAutoRebalance(env, 5*time.Second)
			next(env)
		},
	)
}

// setupFeatureVersioning reads /feature and creates it when absent
// (maybeSetupFeatureVersioning with IBP >= 2.7-IV0: enabled, no features).
func (c *Controller) setupFeatureVersioning(env *sim.Env, next func(*sim.Env)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.FeaturePath}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc == zookeeper.OK {
			next(env)
			return
		}
		zk.One(env, kafkazk.Req{Type: opCreate, Path: kafkazk.FeaturePath, Data: kafkazk.EncodeFeature()}, func(env *sim.Env, _ kafkazk.Resp) { next(env) })
	})
}

// clearNotifications reads a notification queue (arming its child watch)
// and deletes what is in it, each delete guarded by the epoch check.
func (c *Controller) clearNotifications(path string) step {
	return func(env *sim.Env, next func(*sim.Env)) {
		zk := c.cfg.ZK
		zk.One(env, kafkazk.Req{Type: opGetChildren, Path: path, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
			var reqs []kafkazk.Req
			for _, child := range r.Children {
				reqs = append(reqs, c.guarded(zookeeper.DeleteOp(path+"/"+child, -1)))
			}
			zk.Do(env, reqs, func(env *sim.Env, _ []kafkazk.Resp) { next(env) })
		})
	}
}

// guarded wraps a write in the controller-epoch check: a multi whose
// first op checks /controller_epoch's version (wrapRequestWithControllerEpochCheck).
func (c *Controller) guarded(op zookeeper.Op) kafkazk.Req {
	return kafkazk.Req{Type: opMulti, Ops: []zookeeper.Op{zookeeper.CheckOp(kafkazk.ControllerEpochPath, c.epochZkVersion), op}}
}

// epochCheckFailed: the check op of a guarded write failed, so another
// controller has bumped the epoch (ControllerMovedException).
func epochCheckFailed(r kafkazk.Resp) bool {
	return len(r.Results) > 0 && r.Results[0].Type == zookeeper.OpError && r.Results[0].Err == zookeeper.BadVersion
}

// loadBrokers is getAllBrokerAndEpochsInCluster (getChildren with the
// watch, then each broker's znode) and registerBrokerModificationsHandler
// (an exists with a watch on each).
func (c *Controller) loadBrokers(env *sim.Env, next func(*sim.Env)) {
	c.readBrokers(env, func(env *sim.Env, brokers map[int32]liveBroker) {
		c.ctx.live = brokers
		var reqs []kafkazk.Req
		for _, id := range c.ctx.liveIDs() {
			c.cfg.ZK.RegisterNodeHandler(kafkazk.BrokerIDPath(id), kafkazk.NodeHandler{})
			reqs = append(reqs, kafkazk.Req{Type: opExists, Path: kafkazk.BrokerIDPath(id)})
			if addr, err := brokerAddr(c.ctx.live[id]); err == nil {
				c.channel.addBroker(id, addr)
			}
		}
		c.cfg.ZK.Do(env, reqs, func(env *sim.Env, _ []kafkazk.Resp) { next(env) })
	})
}

// readBrokers reads /brokers/ids and every registration in it.
func (c *Controller) readBrokers(env *sim.Env, then func(env *sim.Env, brokers map[int32]liveBroker)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetChildren, Path: kafkazk.BrokerIdsPath, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		var reqs []kafkazk.Req
		for _, child := range r.Children {
			reqs = append(reqs, kafkazk.Req{Type: opGetData, Path: kafkazk.BrokerIdsPath + "/" + child})
		}
		zk.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
			out := map[int32]liveBroker{}
			for i, br := range resps {
				if br.Rc != zookeeper.OK {
					continue
				}
				id, err := parseID(r.Children[i])
				if err != nil {
					continue
				}
				info, err := kafkazk.DecodeBrokerInfo(id, br.Data)
				if err != nil {
					continue
				}
				out[id] = liveBroker{info: info, epoch: br.Stat.Czxid}
			}
			then(env, out)
		})
	})
}

// loadTopics is getAllTopicsInCluster (with the watch) and
// getReplicaAssignmentAndTopicIdForTopics (each topic's znode, watched by
// its partition-modifications handler), then processTopicIds.
func (c *Controller) loadTopics(env *sim.Env, next func(*sim.Env)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetChildren, Path: kafkazk.TopicsPath, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		c.readTopics(env, r.Children, func(env *sim.Env, _ []string) {
			for _, tp := range c.ctx.allPartitions() {
				if c.ctx.full(tp).moving() {
					c.ctx.reassigning[tp] = true
				}
			}
			next(env)
		})
	})
}

// readTopics reads the named topics' znodes into the context and gives
// any without a topic id one (setTopicIds, guarded).
func (c *Controller) readTopics(env *sim.Env, names []string, then func(env *sim.Env, read []string)) {
	zk := c.cfg.ZK
	var reqs []kafkazk.Req
	for _, n := range names {
		mods := c.partitionModifications(n)
		zk.RegisterNodeHandler(kafkazk.TopicPath(n), kafkazk.NodeHandler{DataChanged: func(env *sim.Env) { c.enqueue(env, "PartitionModifications", mods) }})
		reqs = append(reqs, kafkazk.Req{Type: opGetData, Path: kafkazk.TopicPath(n)})
	}
	zk.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		var read []string
		var setIDs []kafkazk.Req
		for i, tr := range resps {
			if tr.Rc != zookeeper.OK {
				continue
			}
			data, err := kafkazk.DecodeTopic(tr.Data)
			if err != nil {
				continue
			}
			t := &topicInfo{id: data.TopicID, dataVersion: tr.Stat.Version}
			for p := int32(0); ; p++ {
				rs, ok := data.Partitions[p]
				if !ok {
					break
				}
				t.assignment = append(t.assignment, rs)
				t.setMoving(p, data.Adding[p], data.Removing[p])
			}
			if t.id == (metadata.Uuid{}) {
				t.id = metadata.RandomUuid(env.Rand("zk-controller/topic-ids").Uint64)
				data.TopicID = t.id
				setIDs = append(setIDs, c.guarded(zookeeper.SetDataOp(kafkazk.TopicPath(names[i]), kafkazk.EncodeTopic(data), tr.Stat.Version)))
			}
			c.ctx.topics[names[i]] = t
			read = append(read, names[i])
		}
		zk.Do(env, setIDs, func(env *sim.Env, _ []kafkazk.Resp) { then(env, read) })
	})
}

// loadPartitionStates is updateLeaderAndIsrCache: one getData per
// partition state znode.
func (c *Controller) loadPartitionStates(env *sim.Env, next func(*sim.Env)) {
	c.readStates(env, c.ctx.allPartitions(), func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
		for tp, li := range states {
			c.ctx.states[tp] = li
		}
		next(env)
	})
}

// readStates reads partitions' state znodes (those present).
func (c *Controller) readStates(env *sim.Env, tps []storage.TopicPartition, then func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr)) {
	reqs := make([]kafkazk.Req, len(tps))
	for i, tp := range tps {
		reqs[i] = kafkazk.Req{Type: opGetData, Path: kafkazk.TopicPartitionStatePath(tp.Topic, tp.Partition)}
	}
	c.cfg.ZK.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		out := map[storage.TopicPartition]*leaderIsr{}
		for i, r := range resps {
			if r.Rc != zookeeper.OK {
				continue
			}
			st, err := kafkazk.DecodePartitionState(r.Data)
			if err != nil {
				continue
			}
			out[tps[i]] = &leaderIsr{leader: st.Leader, leaderEpoch: st.LeaderEpoch, isr: st.ISR, controllerEpoch: st.ControllerEpoch, zkVersion: r.Stat.Version}
		}
		then(env, out)
	})
}

// initializePartitionState is PartitionStateMachine.initializePartitionState:
// a partition with a live leader is online, one with a leader that is
// gone offline, one with no state znode new.
func (c *Controller) initializePartitionState() {
	for _, tp := range c.ctx.allPartitions() {
		li := c.ctx.states[tp]
		switch {
		case li == nil:
			c.ctx.pstate[tp] = newPartition
		case c.ctx.isLive(li.leader):
			c.ctx.pstate[tp] = onlinePartition
		default:
			c.ctx.pstate[tp] = offlinePartition
		}
	}
}
