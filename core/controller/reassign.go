package controller

import (
	"fmt"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleAlterPartitionReassignments starts or cancels reassignments
// (ReplicationControlManager.alterPartitionReassignments). Starting one
// writes the target replicas followed by those being removed, with
// addingReplicas and removingReplicas; the leader then adds the new
// replicas to the ISR as they catch up, and the ISR change that holds all
// of them completes the move (see changeBuilder.completeReassignment).
func (c *Controller) handleAlterPartitionReassignments(env *sim.Env, from sim.Addr, req *protocol.AlterPartitionReassignmentsRequest) {
	resp := &protocol.AlterPartitionReassignmentsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var recs []metadata.Record
	for _, t := range req.Topics {
		tr := protocol.ReassignableTopicResponse{Name: t.Name}
		for _, part := range t.Partitions {
			pr := protocol.ReassignablePartitionResponse{PartitionIndex: part.PartitionIndex}
			rec, code, msg := c.reassign(t.Name, part, !req.DisallowReplicationFactorChange)
			pr.ErrorCode, pr.ErrorMessage = code, msg
			if rec != nil {
				recs = append(recs, rec)
				// Apply at once so that a later entry for the same partition
				// sees this one, as Kafka's timeline structures do.
				c.appendRecords(env, rec)
			}
			tr.Partitions = append(tr.Partitions, pr)
		}
		resp.Responses = append(resp.Responses, tr)
	}
	if len(recs) > 0 {
		env.Note(event.ReassignmentsAltered{Partitions: len(recs)})
	}
	c.reply(env, from, resp)
}

func (c *Controller) reassign(topic string, part protocol.ReassignablePartition, allowRFChange bool) (*metadata.PartitionChangeRecord, protocol.ErrorCode, string) {
	t := c.image.Topics[topic]
	if t == nil {
		return nil, protocol.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find a topic named " + topic + "."
	}
	if part.PartitionIndex < 0 || int(part.PartitionIndex) >= len(t.Partitions) {
		return nil, protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("Unable to find partition %s:%d.", topic, part.PartitionIndex)
	}
	p := t.Partitions[part.PartitionIndex]
	if part.Replicas == nil {
		return c.cancelReassignment(t, part.PartitionIndex, p)
	}
	if msg := c.checkAssignment(part.Replicas, part.Replicas); msg != "" {
		return nil, protocol.INVALID_REPLICA_ASSIGNMENT, msg
	}
	if !allowRFChange {
		// validatePartitionReplicationFactorUnchanged (KIP-860): during a
		// reassignment the count is that of replicas and adding replicas
		// without the removing ones.
		n := len(p.Replicas)
		if p.Reassigning() {
			var set []int32
			for _, r := range append(slices.Clone(p.Replicas), p.AddingReplicas...) {
				if !slices.Contains(set, r) && !slices.Contains(p.RemovingReplicas, r) {
					set = append(set, r)
				}
			}
			n = len(set)
		}
		if n != len(part.Replicas) {
			return nil, protocol.INVALID_REPLICATION_FACTOR, fmt.Sprintf("The replication factor is changed from %d to %d", n, len(part.Replicas))
		}
	}
	// removing = current - target, adding = target - current (ascending);
	// the replica list is the target followed by the removing brokers.
	var removing, adding []int32
	for _, r := range p.Replicas {
		if !slices.Contains(part.Replicas, r) {
			removing = append(removing, r)
		}
	}
	for _, r := range part.Replicas {
		if !slices.Contains(p.Replicas, r) {
			adding = append(adding, r)
		}
	}
	slices.Sort(removing)
	slices.Sort(adding)
	b := newChangeBuilder(t.ID, part.PartitionIndex, p, c.electionFor(topic), c.acceptable)
	b.elr = c.elrFor(topic, p)
	b.replicas = append(slices.Clone(part.Replicas), removing...)
	if len(removing) > 0 {
		b.removing = removing
	}
	if len(adding) > 0 {
		b.adding = adding
	}
	return b.build(), protocol.NONE, ""
}

// cancelReassignment reverts to the original replicas: the adding ones
// leave the replica list and the ISR. If no original replica is left in
// the ISR, the first one is put back, which is an unclean election and
// needs the topic to allow it (PartitionReassignmentRevert).
func (c *Controller) cancelReassignment(t *metadata.Topic, index int32, p *metadata.PartitionState) (*metadata.PartitionChangeRecord, protocol.ErrorCode, string) {
	if !p.Reassigning() {
		return nil, protocol.NO_REASSIGNMENT_IN_PROGRESS, protocol.NO_REASSIGNMENT_IN_PROGRESS.Message()
	}
	notAdding := func(ids []int32) []int32 {
		return slices.DeleteFunc(slices.Clone(ids), func(id int32) bool { return slices.Contains(p.AddingReplicas, id) })
	}
	replicas, isr := notAdding(p.Replicas), notAdding(p.ISR)
	et := c.electionFor(t.Name)
	if len(isr) == 0 {
		if et != ElectionUnclean {
			return nil, protocol.INVALID_REPLICA_ASSIGNMENT, fmt.Sprintf("Unable to revert partition assignment for %s:%d because it would require an unclean leader election.", t.Name, index)
		}
		isr = []int32{replicas[0]}
	}
	b := newChangeBuilder(t.ID, index, p, et, c.acceptable)
	b.elr = c.elrFor(t.Name, p)
	b.replicas, b.isr, b.adding, b.removing = replicas, isr, nil, nil
	return b.build(), protocol.NONE, ""
}

// handleListPartitionReassignments lists the partitions being reassigned.
func (c *Controller) handleListPartitionReassignments(env *sim.Env, from sim.Addr, req *protocol.ListPartitionReassignmentsRequest) {
	resp := &protocol.ListPartitionReassignmentsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	add := func(name string, index int32, p *metadata.PartitionState) {
		if !p.Reassigning() {
			return
		}
		op := protocol.OngoingPartitionReassignment{PartitionIndex: index, Replicas: slices.Clone(p.Replicas),
			AddingReplicas: slices.Clone(p.AddingReplicas), RemovingReplicas: slices.Clone(p.RemovingReplicas)}
		if n := len(resp.Topics); n > 0 && resp.Topics[n-1].Name == name {
			resp.Topics[n-1].Partitions = append(resp.Topics[n-1].Partitions, op)
		} else {
			resp.Topics = append(resp.Topics, protocol.OngoingTopicReassignment{Name: name, Partitions: []protocol.OngoingPartitionReassignment{op}})
		}
	}
	if req.Topics == nil {
		c.eachPartition(func(t *metadata.Topic, i int32, p *metadata.PartitionState) { add(t.Name, i, p) })
	} else {
		for _, lt := range req.Topics {
			t := c.image.Topics[lt.Name]
			if t == nil {
				continue
			}
			for _, i := range lt.PartitionIndexes {
				if i >= 0 && int(i) < len(t.Partitions) {
					add(lt.Name, i, t.Partitions[i])
				}
			}
		}
	}
	c.reply(env, from, resp)
}
