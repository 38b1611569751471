package groupcoordinator

import (
	kgroup "kafkascope/core/group"
)

// Replaying consumer group records into memory: GroupMetadataManager's
// replay methods for ConsumerGroupMetadata, ConsumerGroupMemberMetadata,
// ConsumerGroupTargetAssignmentMember/Metadata and
// ConsumerGroupCurrentMemberAssignment (GMM:5212-5530). A heartbeat
// replays the records it makes at once (Kafka applies them to its
// timeline structures before the write commits); loading a partition
// replays its log.

// consumerGroupFor is getOrMaybeCreatePersistedConsumerGroup: the
// consumer group g holds, made if create (a record with a value), nil if
// absent and !create.
func (c *Coordinator) consumerGroupFor(id string, partition int32, now int64, create bool) *group {
	g := c.groups[id]
	if g == nil {
		if !create {
			return nil
		}
		g = newGroup(id, partition, now)
		c.groups[id] = g
	}
	if g.consumer == nil {
		if !create {
			return nil
		}
		g.consumer = newConsumerGroup(c.v43())
	}
	return g
}

// replay applies one record to the group it names.
func (c *Coordinator) replay(r cgRecord, partition int32, now int64) {
	g := c.consumerGroupFor(r.group, partition, now, !r.tombstone)
	if g == nil {
		return // a tombstone of something already gone
	}
	if g.consumer.apply(r) {
		delete(c.groups, r.group)
		g.transition(groupDead, now)
	}
}

// apply replays one record into the group; it reports true for the
// group's own tombstone (ConsumerGroupMetadata), which deletes it.
func (cg *consumerGroup) apply(r cgRecord) (deleted bool) {
	defer cg.updateState()
	switch r.kind {
	case recConsumerGroupMetadata:
		if r.tombstone {
			return true
		}
		cg.groupEpoch, cg.metadataHash = r.epoch, r.metadataHash
	case recConsumerGroupPartitionMetadata:
		cg.subscriptionMetadataRecord = !r.tombstone
	case recConsumerGroupMemberMetadata:
		if r.tombstone {
			cg.removeMember(r.member)
			return false
		}
		m := cg.getOrCreate(r.member)
		old := *m
		*m = r.meta
		m.id = r.member
		m.epoch, m.prevEpoch, m.state, m.assigned, m.pending = old.epoch, old.prevEpoch, old.state, old.assigned, old.pending
		if old.instanceID != "" && old.instanceID != m.instanceID && cg.static[old.instanceID] == m.id {
			delete(cg.static, old.instanceID)
		}
		if m.instanceID != "" {
			cg.static[m.instanceID] = m.id
		}
	case recConsumerGroupTargetMember:
		if r.tombstone {
			delete(cg.targets, r.member)
			return false
		}
		cg.targets[r.member] = r.target
	case recConsumerGroupTargetMetadata:
		if r.tombstone {
			cg.assignmentEpoch, cg.assignmentTimestamp = -1, 0
			return false
		}
		cg.assignmentEpoch, cg.assignmentTimestamp = r.assignmentEpoch, r.assignmentTimestamp
	case recConsumerGroupCurrentMemberAssig:
		var m *cgMember
		if r.tombstone {
			// The member stays until its metadata tombstone, at epoch -1
			// with nothing assigned.
			if m = cg.members[r.member]; m == nil {
				return false
			}
			cg.setPartitionEpochs(*m, false)
			m.epoch, m.prevEpoch, m.assigned, m.pending = -1, -1, nil, nil
			return false
		}
		m = cg.getOrCreate(r.member)
		cg.setPartitionEpochs(*m, false)
		m.epoch, m.prevEpoch, m.state, m.assigned, m.pending = r.meta.epoch, r.meta.prevEpoch, r.meta.state, r.meta.assigned, r.meta.pending
		cg.setPartitionEpochs(*m, true)
	}
	return false
}

func (cg *consumerGroup) getOrCreate(id string) *cgMember {
	if m := cg.members[id]; m != nil {
		return m
	}
	m := newCGMember(id)
	cg.members[id] = &m
	cg.order.PutString(id)
	return &m
}

func (cg *consumerGroup) removeMember(id string) {
	m := cg.members[id]
	if m == nil {
		return
	}
	cg.setPartitionEpochs(*m, false)
	if m.instanceID != "" && cg.static[m.instanceID] == id {
		delete(cg.static, m.instanceID)
	}
	delete(cg.members, id)
	cg.order.Remove(id)
}

// setPartitionEpochs adds (or removes) the member's assigned and
// pending partitions to currentPartitionEpoch at its epoch
// (ConsumerGroup.addPartitionEpochs / removePartitionEpochs).
func (cg *consumerGroup) setPartitionEpochs(m cgMember, add bool) {
	for _, list := range [][]kgroup.PartitionEpoch{m.assigned, m.pending} {
		for _, p := range list {
			k := kgroup.TopicIDPartition{TopicID: p.TopicID, Partition: p.Partition}
			if add {
				cg.partitionEpochs[k] = m.epoch
			} else if cg.partitionEpochs[k] == m.epoch {
				delete(cg.partitionEpochs, k)
			}
		}
	}
}
