package zkcontroller

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The three ways a reassignment starts on ZooKeeper (2.8.0): the
// AlterPartitionReassignments API (KIP-455), the /admin/reassign_partitions
// znode the deprecated --zookeeper tool writes, and a new controller
// resuming the moves its topic znodes record.

// Reassignment is one partition's part of an AlterPartitionReassignments:
// its target replicas, nil to cancel the move in progress.
type Reassignment struct {
	TP       storage.TopicPartition
	Replicas []int32
}

// ReassignmentResult is one partition's answer.
type ReassignmentResult struct {
	TP      storage.TopicPartition
	Code    protocol.ErrorCode
	Message string // "" for Kafka's null
}

// AlterPartitionReassignments queues the ApiPartitionReassignment event
// (processApiPartitionReassignment): each target is checked
// (validateReplicas), a cancellation of a partition not moving is
// NO_REASSIGNMENT_IN_PROGRESS, the partitions asked for leave any
// ZooKeeper-started move, and each partition then takes its first step
// (maybeTriggerPartitionReassignment), in the order Kafka's Map of them
// iterates. The answer comes when every step's ZooKeeper work is back;
// code is NOT_CONTROLLER when this controller is not (or no longer) active.
func (c *Controller) AlterPartitionReassignments(env *sim.Env, reqs []Reassignment, reply func(env *sim.Env, code protocol.ErrorCode, results []ReassignmentResult)) {
	c.enqueue(env, "ApiPartitionReassignment", func(env *sim.Env, done func(*sim.Env)) {
		if !c.active {
			reply(env, protocol.NOT_CONTROLLER, nil)
			done(env)
			return
		}
		reqs = inMapOrder(reqs)
		results := map[storage.TopicPartition]ReassignmentResult{}
		var start []pendingMove
		for _, r := range reqs {
			if r.Replicas != nil {
				if code, msg := c.validateReplicas(r.TP, r.Replicas); code != protocol.NONE {
					results[r.TP] = ReassignmentResult{r.TP, code, msg}
					continue
				}
			}
			ra, ok := c.buildReassignment(r.TP, r.Replicas)
			if !ok {
				results[r.TP] = ReassignmentResult{r.TP, protocol.NO_REASSIGNMENT_IN_PROGRESS, protocol.NO_REASSIGNMENT_IN_PROGRESS.Message()}
				continue
			}
			start = append(start, pendingMove{r.TP, ra})
		}
		// The latest reassignment, by API or through ZooKeeper, wins.
		c.removeFromZkReassignment(env, func(e kafkazk.ReassignmentEntry) bool {
			return slices.ContainsFunc(start, func(m pendingMove) bool { return m.tp == storage.TopicPartition(e.TopicPartition) })
		}, func(env *sim.Env, moved bool) {
			if moved {
				reply(env, protocol.NOT_CONTROLLER, nil)
				c.maybeResign(env, done)
				return
			}
			c.triggerReassignments(env, start, results, func(env *sim.Env, moved bool) {
				if moved {
					reply(env, protocol.NOT_CONTROLLER, nil)
					c.maybeResign(env, done)
					return
				}
				out := make([]ReassignmentResult, 0, len(reqs))
				for _, r := range reqs {
					out = append(out, results[r.TP])
				}
				reply(env, protocol.NONE, out)
				done(env)
			})
		})
	})
}

// inMapOrder orders the request's partitions as Kafka's Map of them
// (KafkaApis' .toMap) iterates: a partition named twice keeps its first
// place and its last target.
func inMapOrder(reqs []Reassignment) []Reassignment {
	var es []kafkazk.ReassignmentEntry
	at := map[storage.TopicPartition]int{}
	cancel := map[storage.TopicPartition]bool{}
	for _, r := range reqs {
		cancel[r.TP] = r.Replicas == nil
		if i, ok := at[r.TP]; ok {
			es[i].Replicas = r.Replicas
			continue
		}
		at[r.TP] = len(es)
		es = append(es, kafkazk.ReassignmentEntry{TopicPartition: kafkazk.TopicPartition(r.TP), Replicas: r.Replicas})
	}
	out := make([]Reassignment, 0, len(es))
	for _, e := range kafkazk.InMapOrder(es) {
		tp := storage.TopicPartition(e.TopicPartition)
		r := Reassignment{TP: tp, Replicas: e.Replicas}
		if !cancel[tp] && r.Replicas == nil {
			r.Replicas = []int32{}
		}
		out = append(out, r)
	}
	return out
}

// validateReplicas is KafkaController.validateReplicas.
func (c *Controller) validateReplicas(tp storage.TopicPartition, replicas []int32) (protocol.ErrorCode, string) {
	distinct := map[int32]bool{}
	for _, r := range replicas {
		distinct[r] = true
	}
	switch {
	case len(replicas) == 0:
		return protocol.INVALID_REPLICA_ASSIGNMENT, "Empty replica list specified in partition reassignment."
	case len(distinct) != len(replicas):
		return protocol.INVALID_REPLICA_ASSIGNMENT, "Duplicate replica ids in partition reassignment replica list: " + scalaSeq("ArrayBuffer", replicas)
	case slices.ContainsFunc(replicas, func(r int32) bool { return r < 0 }):
		return protocol.INVALID_REPLICA_ASSIGNMENT, "Invalid broker id in replica list: " + scalaSeq("ArrayBuffer", replicas)
	}
	adding := c.ctx.full(tp).reassignTo(replicas).adding
	for _, r := range adding {
		if !c.ctx.isLive(r) {
			var live []int32
			for _, id := range c.ctx.liveIDs() {
				if c.ctx.isLive(id) {
					live = append(live, id)
				}
			}
			return protocol.INVALID_REPLICA_ASSIGNMENT, "Replica assignment has brokers that are not alive. Replica list: " +
				scalaSeq("ArrayBuffer", adding) + ", live broker list: " + scalaSeq("Set", live)
		}
	}
	return protocol.NONE, ""
}

// scalaSeq is a Scala collection's toString: Name(1, 2, 3). (The live
// brokers are a Set, whose order from five members on is its hash order;
// here they are listed in id order.)
func scalaSeq(name string, ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// buildReassignment is maybeBuildReassignment: a partition being moved
// goes to targets (cancelled: back to its original replicas); one not
// moving goes to targets, and a cancellation of it is none (false).
func (c *Controller) buildReassignment(tp storage.TopicPartition, targets []int32) (assignment, bool) {
	cur := c.ctx.full(tp)
	if cur.moving() {
		if targets == nil {
			targets = cur.origin()
		}
		return cur.reassignTo(targets), true
	}
	if targets == nil {
		return assignment{}, false
	}
	return cur.reassignTo(targets), true
}

// pendingMove is a partition and the assignment it is to take.
type pendingMove struct {
	tp storage.TopicPartition
	ra assignment
}

// triggerReassignments is maybeTriggerPartitionReassignment: a topic
// queued for deletion, or a partition not known, is
// UNKNOWN_TOPIC_OR_PARTITION; the others take their first step, one after
// the other, and fail with UNKNOWN_SERVER_ERROR where Kafka's step
// throws. moved: a guarded write met a newer controller (the remaining
// partitions are not tried).
func (c *Controller) triggerReassignments(env *sim.Env, moves []pendingMove, results map[storage.TopicPartition]ReassignmentResult, done outcome) {
	steps := make([]step, len(moves))
	for i, m := range moves {
		steps[i] = func(env *sim.Env, next func(*sim.Env)) {
			tp := m.tp
			if c.ctx.del.queued[tp.Topic] || len(c.ctx.replicas(tp)) == 0 {
				results[tp] = ReassignmentResult{tp, protocol.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist."}
				next(env)
				return
			}
			c.onPartitionReassignment(env, tp, m.ra, func(env *sim.Env, moved bool, err error) {
				switch {
				case moved:
					done(env, true)
					return
				case err != nil:
					results[tp] = ReassignmentResult{tp, protocol.UNKNOWN_SERVER_ERROR, protocol.UNKNOWN_SERVER_ERROR.Message()}
				default:
					results[tp] = ReassignmentResult{TP: tp}
				}
				next(env)
			})
		}
	}
	c.chain(env, func(env *sim.Env) {
		n := 0
		for _, m := range moves {
			if r, ok := results[m.tp]; ok && r.Code == protocol.NONE {
				n++
			}
		}
		if n > 0 {
			env.Note(event.ReassignmentsAltered{Partitions: n})
		}
		done(env, c.ctx == nil)
	}, steps...)
}

// ListPartitionReassignments queues the ListPartitionReassignments event
// (processListPartitionReassignments): the partitions asked for (nil: all
// being reassigned) that are moving, with their full assignments, by
// topic and partition.
func (c *Controller) ListPartitionReassignments(env *sim.Env, tps []storage.TopicPartition, reply func(env *sim.Env, code protocol.ErrorCode, moving []protocol.OngoingTopicReassignment)) {
	c.enqueue(env, "ListPartitionReassignments", func(env *sim.Env, done func(*sim.Env)) {
		if !c.active || c.ctx == nil {
			reply(env, protocol.NOT_CONTROLLER, nil)
			done(env)
			return
		}
		if tps == nil {
			tps = sortedTPs(c.ctx.reassigning)
		} else {
			tps = slices.Clone(tps)
			slices.SortFunc(tps, storage.ComparePartitions)
			tps = slices.Compact(tps)
		}
		var out []protocol.OngoingTopicReassignment
		for _, tp := range tps {
			ra := c.ctx.full(tp)
			if !ra.moving() {
				continue
			}
			n := len(out)
			if n == 0 || out[n-1].Name != tp.Topic {
				out = append(out, protocol.OngoingTopicReassignment{Name: tp.Topic})
				n++
			}
			out[n-1].Partitions = append(out[n-1].Partitions, protocol.OngoingPartitionReassignment{
				PartitionIndex: tp.Partition, Replicas: slices.Clone(ra.replicas),
				AddingReplicas: slices.Clone(ra.adding), RemovingReplicas: slices.Clone(ra.removing),
			})
		}
		reply(env, protocol.NONE, out)
		done(env)
	})
}
