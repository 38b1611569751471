package groupcoordinator

import (
	"slices"

	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// ConsumerGroupDescribe (API key 69): GMM.consumerGroupDescribe
// (GMM:675-699) and ConsumerGroup.asDescribedGroup (CG:1178-1197).
// Kafka reads the group as of the last committed offset; kafkascope
// describes what it has replayed, which differs only while a heartbeat's
// records are being written.

func (c *Coordinator) handleConsumerGroupDescribe(env *sim.Env, from sim.Addr, req *protocol.ConsumerGroupDescribeRequest) {
	resp := &protocol.ConsumerGroupDescribeResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, id := range req.GroupIDs {
		d := protocol.DescribedConsumerGroup{GroupID: id}
		if code := c.groupError(id); code != protocol.NONE {
			d.ErrorCode = code
			resp.Groups = append(resp.Groups, d)
			continue
		}
		// GMM.consumerGroup(groupId, committedOffset) (GMM:973-984):
		// a group that does not exist is "Group G not found." here, not
		// the heartbeat's "Consumer group G not found.".
		g := c.groups[id]
		switch {
		case g == nil || g.state == groupDead:
			d.ErrorCode, d.ErrorMessage = protocol.GROUP_ID_NOT_FOUND, "Group "+id+" not found."
		case g.consumer == nil:
			d.ErrorCode, d.ErrorMessage = protocol.GROUP_ID_NOT_FOUND, "Group "+id+" is not a consumer group."
		default:
			d = c.describeConsumerGroup(id, g.consumer, c.topicView())
		}
		resp.Groups = append(resp.Groups, d)
	}
	c.respond(env, from, resp)
}

// describeConsumerGroup is asDescribedGroup: the preferred server
// assignor (or the default), the epochs, and each member in the members
// map's order with its current assignment (assigned and pending
// revocation, CGM:479-507) and its target, each topic named from the
// metadata image and left out when the image no longer has it
// (ConsumerGroupMember.asConsumerGroupDescribeMember, 4.3
// ConsumerGroupMember.java:479-534). MemberType is 0 for a member using
// the classic protocol, 1 for the consumer protocol (CGM:506).
func (c *Coordinator) describeConsumerGroup(id string, cg *consumerGroup, v topicView) protocol.DescribedConsumerGroup {
	d := protocol.DescribedConsumerGroup{GroupID: id, GroupState: cg.state.String(), GroupEpoch: cg.groupEpoch,
		AssignmentEpoch: cg.assignmentEpoch, AssignorName: cg.preferredAssignor("", "", c.assignors()[0])}
	for _, m := range cg.memberList() {
		dm := protocol.DescribedConsumerGroupMember{MemberID: m.id, InstanceID: m.instanceID, RackID: m.rackID, MemberEpoch: m.epoch,
			ClientID: m.clientID, ClientHost: m.clientHost, SubscribedTopicNames: slices.Clone(m.subscribed), SubscribedTopicRegex: m.regex,
			Assignment: topicPartitions(partitionsOf(mergeSorted(m.assigned, m.pending)), v), TargetAssignment: topicPartitions(cg.targets[m.id], v),
			MemberType: 1}
		if m.useClassicProtocol() {
			dm.MemberType = 0
		}
		d.Members = append(d.Members, dm)
	}
	return d
}

// mergeSorted is assigned ∪ pending, by topic id then partition.
func mergeSorted(a, b []kgroup.PartitionEpoch) []kgroup.PartitionEpoch {
	out := append(slices.Clone(a), b...)
	slices.SortFunc(out, comparePartitionEpoch)
	return out
}

func topicPartitions(a kgroup.MemberAssignment, v topicView) []protocol.ConsumerGroupTopicPartitions {
	out := []protocol.ConsumerGroupTopicPartitions{}
	for _, tp := range a {
		name := v.topicName(tp.TopicID)
		if name == "" {
			continue
		}
		out = append(out, protocol.ConsumerGroupTopicPartitions{TopicID: tp.TopicID, TopicName: name, Partitions: slices.Clone(tp.Partitions)})
	}
	return out
}

// consumerGroupTombstones is ConsumerGroup.createGroupTombstoneRecords
// (CG:751-771): every member's current then target tombstone, the target
// metadata tombstone, the members' metadata tombstones, the partition
// metadata tombstone (always) and the group's.
func (c *Coordinator) consumerGroupTombstones(id string, cg *consumerGroup) groupRecords {
	return c.consumerGroupTombstonesReplacing(id, cg, "", "")
}

// consumerGroupTombstonesReplacing is createGroupTombstoneRecordsWith
// ReplacedMember (CG:1120-1147): the same records, with joining's id in
// place of leaving's — the records replacing leaving by joining are in
// the same batch but not replayed, so the group still holds leaving.
// Empty ids replace nothing.
func (c *Coordinator) consumerGroupTombstonesReplacing(id string, cg *consumerGroup, leaving, joining string) groupRecords {
	var recs []cgRecord
	var ids []string
	for _, m := range cg.memberList() {
		if leaving != "" && m.id == leaving {
			ids = append(ids, joining)
		} else {
			ids = append(ids, m.id)
		}
	}
	for _, m := range ids {
		recs = append(recs, tombstone(recConsumerGroupCurrentMemberAssig, id, m))
	}
	for _, m := range ids {
		recs = append(recs, tombstone(recConsumerGroupTargetMember, id, m))
	}
	recs = append(recs, tombstone(recConsumerGroupTargetMetadata, id, ""))
	for _, m := range ids {
		recs = append(recs, tombstone(recConsumerGroupMemberMetadata, id, m))
	}
	recs = append(recs, tombstone(recConsumerGroupPartitionMetadata, id, ""), tombstone(recConsumerGroupMetadata, id, ""))
	f := c.format()
	out := make(groupRecords, 0, len(recs))
	for _, r := range recs {
		out = append(out, groupRecord{key: f.encodeKey(r), value: f.encodeValue(r)})
	}
	return out
}

// deleteEmptyConsumerGroup is maybeDeleteEmptyConsumerGroup (GMM:6313-6324,
// 8694-8705): a JoinGroup reaching an empty consumer group turns it into
// a classic group (its tombstones; the join goes on; the offsets stay).
// A non-empty one takes the member in (migration.go).
func (c *Coordinator) deleteEmptyConsumerGroup(env *sim.Env, g *group) {
	recs := c.consumerGroupTombstones(g.id, g.consumer)
	g.consumer.stopTimers()
	g.consumer = nil
	c.host.Append(env, g.partition, recs.records(), func(*sim.Env, protocol.ErrorCode) {})
}
