package zkcontroller

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// brokerChange is the BrokerChange event (processBrokerChange): read
// /brokers/ids again and compare. A broker gone is dead; a new one
// started; one whose znode is newer (a larger czxid, the broker epoch) was
// bounced: it failed and started again in between.
func (c *Controller) brokerChange(env *sim.Env, done func(*sim.Env)) {
	if !c.active {
		done(env)
		return
	}
	c.readBrokers(env, func(env *sim.Env, cur map[int32]liveBroker) {
		var added, dead, bounced []int32
		for _, id := range sortedIDs(cur) {
			old, ok := c.ctx.live[id]
			switch {
			case !ok:
				added = append(added, id)
			case cur[id].epoch > old.epoch:
				bounced = append(bounced, id)
			}
		}
		for _, id := range c.ctx.liveIDs() {
			if _, ok := cur[id]; !ok {
				dead = append(dead, id)
			}
		}
		for _, id := range bounced {
			c.channel.removeBroker(id)
		}
		for _, id := range append(slices.Clone(added), bounced...) {
			if addr, err := brokerAddr(cur[id]); err == nil {
				c.channel.addBroker(id, addr)
			}
		}
		for _, id := range dead {
			c.channel.removeBroker(id)
		}
		steps := []step{}
		if len(added) > 0 {
			steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
				for _, id := range added {
					c.ctx.live[id] = cur[id]
				}
				c.onBrokerStartup(env, added, next)
			})
		}
		if len(bounced) > 0 {
			steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
				for _, id := range bounced {
					delete(c.ctx.live, id)
				}
				c.onBrokerFailure(env, bounced, func(env *sim.Env) {
					for _, id := range bounced {
						c.ctx.live[id] = cur[id]
					}
					c.onBrokerStartup(env, bounced, next)
				})
			})
		}
		if len(dead) > 0 {
			steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
				for _, id := range dead {
					delete(c.ctx.live, id)
				}
				c.onBrokerFailure(env, dead, next)
			})
		}
		c.chain(env, done, steps...)
	})
}

// onBrokerStartup tells the other brokers of the new ones, gives the new
// ones the whole cluster, makes their replicas online (LeaderAndIsr), and
// elects leaders where none could be elected before.
func (c *Controller) onBrokerStartup(env *sim.Env, ids []int32, done func(*sim.Env)) {
	for _, id := range ids {
		env.Note(event.BrokerRegistered{Broker: id, Epoch: c.ctx.live[id].epoch})
	}
	var existing []int32
	for _, id := range c.ctx.liveIDs() {
		if !slices.Contains(ids, id) {
			existing = append(existing, id)
		}
	}
	b := newBatch()
	c.addUpdateMetadata(b, existing, nil)
	c.sendBatch(env, b)
	b = newBatch()
	c.addUpdateMetadata(b, ids, nil)
	b.updateAll = true
	c.sendBatch(env, b)
	for _, id := range ids {
		c.onlineReplicas(env, id, c.ctx.partitionsOn(id))
		c.cfg.ZK.RegisterNodeHandler(kafkazk.BrokerIDPath(id), kafkazk.NodeHandler{})
	}
	c.triggerOnlinePartitionStateChange(env, func(env *sim.Env) {
		if c.ctx == nil {
			done(env) // resigned meanwhile (ControllerMovedException ends the event)
			return
		}
		// maybeResumeReassignments: the moves whose target has a new broker.
		c.resumeReassignments(env, func(_ storage.TopicPartition, ra assignment) bool {
			return slices.ContainsFunc(ra.target(), func(r int32) bool { return slices.Contains(ids, r) })
		}, func(env *sim.Env) {
			if c.ctx == nil {
				done(env)
				return
			}
			c.resumeDeletionOn(ids)
			c.resumeDeletions(env, func(env *sim.Env) {
				var reqs []kafkazk.Req
				for _, id := range ids {
					reqs = append(reqs, kafkazk.Req{Type: opExists, Path: kafkazk.BrokerIDPath(id)})
				}
				c.cfg.ZK.Do(env, reqs, func(env *sim.Env, _ []kafkazk.Resp) { done(env) })
			})
		})
	})
}

// onBrokerFailure is what a dead broker's partitions go through
// (onReplicasBecomeOffline): those it led go offline, every new or
// offline partition gets an election (one batch: all the writes, then the
// LeaderAndIsr requests), then each dead broker's replicas go offline
// (out of the ISRs they were in).
func (c *Controller) onBrokerFailure(env *sim.Env, ids []int32, done func(*sim.Env)) {
	for _, id := range ids {
		delete(c.ctx.shuttingDown, id)
		c.cfg.ZK.UnregisterNodeHandler(kafkazk.BrokerIDPath(id))
		env.Note(event.BrokerFenced{Broker: id, Reason: "zookeeper-session"})
	}
	offlineLeader := false
	for _, tp := range c.ctx.allPartitions() {
		li := c.ctx.states[tp]
		if li != nil && !c.ctx.isLive(li.leader) {
			c.ctx.pstate[tp] = offlinePartition
			offlineLeader = true
		}
	}
	steps := []step{c.triggerOnlinePartitionStateChange}
	for _, id := range ids {
		steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
			c.offlineReplicas(env, id, c.ctx.partitionsOn(id), c.abortIfMoved(next))
		})
	}
	if !offlineLeader {
		steps = append(steps, func(env *sim.Env, next func(*sim.Env)) {
			b := newBatch()
			c.addUpdateMetadata(b, c.ctx.liveIDs(), nil)
			c.sendBatch(env, b)
			next(env)
		})
	}
	c.chain(env, done, steps...)
}

// deadReplicaBrokers lists brokers that hold replicas but are not live.
func (c *Controller) deadReplicaBrokers() []int32 {
	seen := map[int32]bool{}
	for _, tp := range c.ctx.allPartitions() {
		for _, r := range c.ctx.replicas(tp) {
			if !c.ctx.isLiveOrShuttingDown(r) {
				seen[r] = true
			}
		}
	}
	return sortedIDs(seen)
}

// endpointOf is a registration's endpoint as the metadata cache keeps it.
func endpointOf(e kafkazk.Endpoint) metadata.Endpoint {
	return metadata.Endpoint{Name: e.Listener, Host: e.Host, Port: e.Port}
}

func parseID(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("broker id %q: %v", s, err)
	}
	return int32(n), nil
}
