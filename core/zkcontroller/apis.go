package zkcontroller

import (
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// AlterIsr queues the AlterIsrReceived event (processAlterIsr): a leader's
// proposed ISRs, each written to its state znode conditionally on the
// version the leader quotes (a newer one is INVALID_UPDATE_VERSION), with
// the leader epoch unchanged; then UpdateMetadata to every broker for the
// partitions written.
func (c *Controller) AlterIsr(env *sim.Env, req *protocol.AlterIsrRequest, reply func(env *sim.Env, resp *protocol.AlterIsrResponse)) {
	c.enqueue(env, "AlterIsrReceived", func(env *sim.Env, done func(*sim.Env)) {
		resp := &protocol.AlterIsrResponse{}
		answer := func(env *sim.Env) {
			reply(env, resp)
			done(env)
		}
		switch {
		case !c.active:
			resp.ErrorCode = protocol.NOT_CONTROLLER
			answer(env)
			return
		case c.ctx.live[req.BrokerID].epoch != req.BrokerEpoch:
			resp.ErrorCode = protocol.STALE_BROKER_EPOCH
			answer(env)
			return
		}
		var props []stateWrite
		results := map[storage.TopicPartition]*protocol.AlterIsrPartitionResponse{}
		var order []storage.TopicPartition
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				tp := storage.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}
				order = append(order, tp)
				pr := &protocol.AlterIsrPartitionResponse{PartitionIndex: p.PartitionIndex}
				results[tp] = pr
				cur := c.ctx.states[tp]
				switch {
				case cur == nil:
					pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
				case p.LeaderEpoch < cur.leaderEpoch:
					pr.ErrorCode = protocol.FENCED_LEADER_EPOCH
				case slices.Equal(p.NewISR, cur.isr) && p.LeaderEpoch == cur.leaderEpoch:
					// Nothing to write: the current state answers.
					fill(pr, cur)
				default:
					props = append(props, stateWrite{tp, &leaderIsr{leader: cur.leader, leaderEpoch: p.LeaderEpoch, isr: slices.Clone(p.NewISR), controllerEpoch: c.epoch}, p.CurrentIsrVersion})
				}
			}
		}
		c.updateLeaderAndIsr(env, props, func(env *sim.Env, moved bool, codes []zookeeper.Code) {
			if moved {
				resp.ErrorCode = protocol.NOT_CONTROLLER
				reply(env, resp)
				c.maybeResign(env, done)
				return
			}
			var updated []storage.TopicPartition
			for i, p := range props {
				pr := results[p.tp]
				switch codes[i] {
				case zookeeper.OK:
					c.ctx.states[p.tp] = p.next
					fill(pr, p.next)
					updated = append(updated, p.tp)
					env.Note(event.ISRChanged{TP: p.tp, ISR: slices.Clone(p.next.isr), Leader: p.next.leader})
				case zookeeper.BadVersion:
					pr.ErrorCode = protocol.INVALID_UPDATE_VERSION
				default:
					pr.ErrorCode = protocol.UNKNOWN_SERVER_ERROR
				}
			}
			for _, tp := range order {
				n := len(resp.Topics)
				if n == 0 || resp.Topics[n-1].Name != tp.Topic {
					resp.Topics = append(resp.Topics, protocol.AlterIsrTopicResponse{Name: tp.Topic})
					n++
				}
				resp.Topics[n-1].Partitions = append(resp.Topics[n-1].Partitions, *results[tp])
			}
			reply(env, resp)
			if len(updated) > 0 {
				b := newBatch()
				c.addUpdateMetadata(b, c.ctx.liveIDs(), updated)
				c.sendBatch(env, b)
			}
			// A successful ISR change may complete a reassignment.
			c.maybeCompleteReassignments(env, updated, done)
		})
	})
}

func fill(pr *protocol.AlterIsrPartitionResponse, li *leaderIsr) {
	pr.LeaderID, pr.LeaderEpoch, pr.ISR, pr.CurrentIsrVersion = li.leader, li.leaderEpoch, slices.Clone(li.isr), li.zkVersion
}

// ControlledShutdown queues the ControlledShutdown event
// (doControlledShutdown): the broker is marked shutting down; the
// replicated partitions it leads get a leader among the others in the ISR
// (one batch); those it follows are stopped on it and it leaves their
// ISRs; the answer lists the replicated partitions it still leads.
func (c *Controller) ControlledShutdown(env *sim.Env, req *protocol.ControlledShutdownRequest, reply func(env *sim.Env, resp *protocol.ControlledShutdownResponse)) {
	c.enqueue(env, "ControlledShutdown", func(env *sim.Env, done func(*sim.Env)) {
		resp := &protocol.ControlledShutdownResponse{}
		if !c.active {
			resp.ErrorCode = protocol.NOT_CONTROLLER
			reply(env, resp)
			done(env)
			return
		}
		id := req.BrokerID
		lb, ok := c.ctx.live[id]
		switch {
		case !ok:
			resp.ErrorCode = protocol.BROKER_NOT_AVAILABLE
		case req.BrokerEpoch < lb.epoch:
			resp.ErrorCode = protocol.STALE_BROKER_EPOCH
		}
		if resp.ErrorCode != protocol.NONE {
			reply(env, resp)
			done(env)
			return
		}
		c.ctx.shuttingDown[id] = true
		var led, followed []storage.TopicPartition
		for _, tp := range c.ctx.partitionsOn(id) {
			li := c.ctx.states[tp]
			if len(c.ctx.replicas(tp)) <= 1 || li == nil {
				continue
			}
			if li.leader == id {
				led = append(led, tp)
			} else {
				followed = append(followed, tp)
			}
		}
		c.toOnline(env, led, controlledShutdownElection, func(env *sim.Env, moved bool) {
			if moved {
				resp.ErrorCode = protocol.NOT_CONTROLLER
				reply(env, resp)
				c.maybeResign(env, done)
				return
			}
			b := newBatch()
			for _, tp := range followed {
				c.addStopReplica(b, []int32{id}, tp, false)
			}
			c.sendBatch(env, b)
			c.offlineReplicas(env, id, followed, func(env *sim.Env, moved bool) {
				if c.ctx != nil {
					for _, tp := range c.ctx.partitionsOn(id) {
						if li := c.ctx.states[tp]; li != nil && li.leader == id && len(c.ctx.replicas(tp)) > 1 {
							resp.RemainingPartitions = append(resp.RemainingPartitions, protocol.TopicPartitionName{TopicName: tp.Topic, PartitionIndex: tp.Partition})
						}
					}
				}
				reply(env, resp)
				if moved {
					c.maybeResign(env, done)
					return
				}
				done(env)
			})
		})
	})
}

// ElectLeaders queues the ReplicaLeaderElection event
// (processReplicaLeaderElection, 2.8.0) for an admin's ElectLeaders:
// unknown partitions are UNKNOWN_TOPIC_OR_PARTITION, those of topics
// being deleted INVALID_TOPIC_EXCEPTION, those whose leader is already
// what the election would give ELECTION_NOT_NEEDED (preferred: the
// preferred replica leads; unclean: a live broker leads); the rest get an
// election, one batch, and those it could not move fail with
// PREFERRED_LEADER_NOT_AVAILABLE or ELIGIBLE_LEADERS_NOT_AVAILABLE. reply
// gets each partition's result and, on success, its new leader.
func (c *Controller) ElectLeaders(env *sim.Env, tps []storage.TopicPartition, unclean bool, reply func(env *sim.Env, results map[storage.TopicPartition]protocol.ElectPartitionResult, leaders map[storage.TopicPartition]int32)) {
	c.enqueue(env, "ReplicaLeaderElection", func(env *sim.Env, done func(*sim.Env)) {
		results := map[storage.TopicPartition]protocol.ElectPartitionResult{}
		if !c.active {
			for _, tp := range tps {
				results[tp] = protocol.ElectPartitionResult{PartitionID: tp.Partition, ErrorCode: protocol.NOT_CONTROLLER}
			}
			reply(env, results, nil)
			done(env)
			return
		}
		var electable []storage.TopicPartition
		for _, tp := range tps {
			li := c.ctx.states[tp]
			r := protocol.ElectPartitionResult{PartitionID: tp.Partition}
			switch {
			case len(c.ctx.replicas(tp)) == 0 || li == nil:
				r.ErrorCode, r.ErrorMessage = protocol.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist."
			case c.ctx.del.queued[tp.Topic]:
				r.ErrorCode, r.ErrorMessage = protocol.INVALID_TOPIC_EXCEPTION, "The topic is being deleted"
			case !unclean && li.leader == c.ctx.replicas(tp)[0],
				unclean && li.leader != -1 && c.ctx.isLive(li.leader):
				r.ErrorCode = protocol.ELECTION_NOT_NEEDED
			default:
				electable = append(electable, tp)
				continue
			}
			results[tp] = r
		}
		s, code := preferredElection, protocol.PREFERRED_LEADER_NOT_AVAILABLE
		if unclean {
			s, code = uncleanElection, protocol.ELIGIBLE_LEADERS_NOT_AVAILABLE
		}
		c.toOnlineElected(env, electable, s, func(env *sim.Env, moved bool, elected map[storage.TopicPartition]int32) {
			for _, tp := range electable {
				if _, ok := elected[tp]; ok {
					results[tp] = protocol.ElectPartitionResult{PartitionID: tp.Partition}
				} else {
					results[tp] = protocol.ElectPartitionResult{PartitionID: tp.Partition, ErrorCode: code,
						ErrorMessage: "Failed to elect leader for partition " + tp.String() + " under strategy " + s.String()}
				}
			}
			reply(env, results, elected)
			if moved {
				c.maybeResign(env, done)
				return
			}
			done(env)
		})
	})
}
