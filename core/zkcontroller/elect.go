package zkcontroller

import (
	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// Op codes under their Kafka request names.
const (
	opCreate      = zookeeper.OpCreate
	opDelete      = zookeeper.OpDelete
	opSetData     = zookeeper.OpSetData
	opGetData     = zookeeper.OpGetData
	opExists      = zookeeper.OpExists
	opGetChildren = zookeeper.OpGetChildren2
	opMulti       = zookeeper.OpMulti
)

// elect is KafkaController.elect: if /controller names a broker, that
// one is the controller; otherwise one multi creates /controller (our
// ephemeral) and bumps /controller_epoch conditionally on its version.
// Losing the race (NODEEXISTS, BADVERSION) is ControllerMovedException:
// read who won and resign if we were active.
func (c *Controller) elect(env *sim.Env, done func(env *sim.Env)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ControllerPath}, func(env *sim.Env, r kafkazk.Resp) {
		if id, ok := controllerID(r); ok {
			c.activeID = id
			done(env)
			return
		}
		c.readEpoch(env, func(env *sim.Env, epoch, version int32) {
			info := kafkazk.EncodeController(kafkazk.ControllerInfo{BrokerID: c.cfg.BrokerID, Timestamp: env.Now().UnixMilli()})
			ops := []zookeeper.Op{
				zookeeper.CreateOp(kafkazk.ControllerPath, info, zookeeper.Ephemeral),
				zookeeper.SetDataOp(kafkazk.ControllerEpochPath, kafkazk.EncodeControllerEpoch(epoch+1), version),
			}
			won := func(env *sim.Env, zkVersion int32) {
				c.activeID = c.cfg.BrokerID
				c.active = true
				c.epoch = epoch + 1
				c.epochZkVersion = zkVersion
				env.Note(event.ControllerActivated{Node: c.cfg.BrokerID, Epoch: c.epoch})
				c.onControllerFailover(env, done)
			}
			zk.One(env, kafkazk.Req{Type: opMulti, Ops: ops}, func(env *sim.Env, r kafkazk.Resp) {
				switch r.Rc {
				case zookeeper.OK:
					won(env, r.Results[1].Stat.Version)
				case zookeeper.NodeExists, zookeeper.BadVersion:
					c.checkControllerAndEpoch(env, epoch+1, won, done)
				default:
					// The session is gone: the election is lost.
					c.maybeResign(env, done)
				}
			})
		})
	})
}

// checkControllerAndEpoch is registerControllerAndIncrementControllerEpoch's
// answer to NODEEXISTS or BADVERSION: if /controller is ours and
// /controller_epoch is the epoch we wrote, our multi was applied (its
// answer was lost with a connection, and the resent multi found its own
// work), and we won with that epoch's version; otherwise another broker
// won (ControllerMovedException).
func (c *Controller) checkControllerAndEpoch(env *sim.Env, epoch int32, won func(*sim.Env, int32), lost func(*sim.Env)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ControllerPath}, func(env *sim.Env, r kafkazk.Resp) {
		if id, ok := controllerID(r); !ok || id != c.cfg.BrokerID {
			c.maybeResign(env, lost)
			return
		}
		zk.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ControllerEpochPath}, func(env *sim.Env, er kafkazk.Resp) {
			if got, err := kafkazk.DecodeControllerEpoch(er.Data); er.Rc == zookeeper.OK && err == nil && got == epoch {
				won(env, er.Stat.Version)
				return
			}
			c.maybeResign(env, lost)
		})
	})
}

// readEpoch reads /controller_epoch and its version, creating it with 0
// when absent (KafkaZkClient.getControllerEpoch, createControllerEpochRaw;
// InitialControllerEpoch = 0, so the first controller's epoch is 1).
func (c *Controller) readEpoch(env *sim.Env, then func(env *sim.Env, epoch, version int32)) {
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ControllerEpochPath}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc == zookeeper.OK {
			epoch, _ := kafkazk.DecodeControllerEpoch(r.Data)
			then(env, epoch, r.Stat.Version)
			return
		}
		zk.One(env, kafkazk.Req{Type: opCreate, Path: kafkazk.ControllerEpochPath, Data: kafkazk.EncodeControllerEpoch(0)}, func(env *sim.Env, cr kafkazk.Resp) {
			if cr.Rc == zookeeper.OK {
				then(env, 0, 0)
				return
			}
			c.readEpoch(env, then) // another broker created it first
		})
	})
}

// controllerID is the broker /controller names, from a getData answer.
func controllerID(r kafkazk.Resp) (int32, bool) {
	if r.Rc != zookeeper.OK {
		return -1, false
	}
	info, err := kafkazk.DecodeController(r.Data)
	if err != nil {
		return -1, false
	}
	return info.BrokerID, true
}

// maybeResign re-reads /controller (re-arming its watch) and, if this
// controller was active and is not any more, resigns.
func (c *Controller) maybeResign(env *sim.Env, done func(env *sim.Env)) {
	c.cfg.ZK.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.ControllerPath}, func(env *sim.Env, r kafkazk.Resp) {
		id, _ := controllerID(r)
		c.activeID = id
		if c.active && id != c.cfg.BrokerID {
			c.resign(env)
		}
		done(env)
	})
}

// controllerChange is the ControllerChange event.
func (c *Controller) controllerChange(env *sim.Env, done func(env *sim.Env)) {
	c.maybeResign(env, done)
}

// reelect is the Reelect event (and RegisterBrokerAndReelect, whose
// re-registration the broker makes itself when its session is back).
func (c *Controller) reelect(env *sim.Env, done func(env *sim.Env)) {
	c.maybeResign(env, func(env *sim.Env) { c.elect(env, done) })
}

// expire is the Expire event: the session is gone, so is any claim.
func (c *Controller) expire(env *sim.Env, done func(env *sim.Env)) {
	c.activeID = -1
	if c.active {
		c.resign(env)
	}
	done(env)
}

// resign is onControllerResignation: drop the handlers, the channel and
// the context.
func (c *Controller) resign(env *sim.Env) {
	zk := c.cfg.ZK
	for _, p := range []string{kafkazk.BrokerIdsPath, kafkazk.TopicsPath, kafkazk.DeleteTopicsPath, kafkazk.IsrChangeNotificationPath, kafkazk.LogDirEventNotificationPath} {
		zk.UnregisterChildHandler(p)
	}
	if c.ctx != nil {
		for _, name := range c.ctx.topicNames() {
			zk.UnregisterNodeHandler(kafkazk.TopicPath(name))
		}
		for _, id := range c.ctx.liveIDs() {
			zk.UnregisterNodeHandler(kafkazk.BrokerIDPath(id))
		}
		// unregisterPartitionReassignmentIsrChangeHandlers
		for tp := range c.ctx.reassigning {
			zk.UnregisterNodeHandler(kafkazk.TopicPartitionStatePath(tp.Topic, tp.Partition))
		}
	}
	zk.UnregisterNodeHandler(kafkazk.PreferredReplicaElectionPath)
	zk.UnregisterNodeHandler(kafkazk.ReassignPartitionsPath)
	c.rebalance.Stop()
	if c.channel != nil {
		c.channel.stop()
	}
	c.channel = nil
	c.ctx = nil
	c.active = false
	env.Note(event.ControllerDeactivated{Node: c.cfg.BrokerID, Epoch: c.epoch})
}
