package groupcoordinator

import (
	"slices"

	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sorts"
)

// GroupView is what views show of one group this broker coordinates.
type GroupView struct {
	ID           string
	Partition    int32 // its __consumer_offsets partition
	State        string
	Generation   int32
	ProtocolType string
	Protocol     string // the chosen assignor ("" while none)
	Leader       string
	Members      []GroupMemberView
	Offsets      []GroupOffsetView // committed offsets, by topic and partition
	// Type is "classic" or "consumer" (KIP-848). A consumer group has no
	// generation, protocol or leader; it has a group epoch and the epoch
	// of its target assignment.
	Type            string
	GroupEpoch      int32
	AssignmentEpoch int32
}

// GroupMemberView is one member and the partitions its assignment gives it.
type GroupMemberView struct {
	ID, InstanceID, ClientID, ClientHost string // InstanceID: "" for a dynamic member
	Assigned                             []protocol.TopicPartitions
	// A consumer group member's epoch, state (STABLE,
	// UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS), the partitions it
	// must give back (not in Assigned), and its target assignment.
	Epoch    int32
	State    string
	Revoking []protocol.TopicPartitions
	Target   []protocol.TopicPartitions
}

// GroupOffsetView is one committed offset.
type GroupOffsetView struct {
	Topic     string
	Partition int32
	Offset    int64
}

// Groups lists the groups this broker coordinates (loaded partitions only),
// sorted by id. Views read it between events.
func (c *Coordinator) Groups() []GroupView {
	var out []GroupView
	for _, g := range c.groups {
		if g.state == groupDead {
			continue
		}
		v := GroupView{ID: g.id, Partition: g.partition, State: g.state.String(), Generation: g.generation,
			ProtocolType: g.protocolType, Protocol: g.protocolName, Leader: g.leader, Type: "classic"}
		if g.consumer != nil {
			c.consumerGroupView(g.consumer, &v)
		}
		for _, m := range g.sortedMembers() {
			mv := GroupMemberView{ID: m.id, InstanceID: m.instanceID, ClientID: m.clientID, ClientHost: m.clientHost}
			if a, err := protocol.DecodeConsumerProtocolAssignment(m.assignment); err == nil && g.protocolType == protocol.ConsumerProtocolType {
				mv.Assigned = a.AssignedPartitions
			}
			v.Members = append(v.Members, mv)
		}
		for _, t := range g.offsetTopics() {
			for _, p := range t.PartitionIndexes {
				v.Offsets = append(v.Offsets, GroupOffsetView{Topic: t.Name, Partition: p, Offset: g.offsets[offsetTopicPartition{t.Name, p}].offset})
			}
		}
		out = append(out, v)
	}
	sorts.Func(out, func(a, b GroupView) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// consumerGroupView fills a consumer group's view: its state, epochs and
// members in the members map's order, topics by name.
func (c *Coordinator) consumerGroupView(cg *consumerGroup, v *GroupView) {
	view := c.topicView()
	named := func(a kgroup.MemberAssignment) []protocol.TopicPartitions {
		var out []protocol.TopicPartitions
		for _, tp := range a {
			out = append(out, protocol.TopicPartitions{Topic: view.topicName(tp.TopicID), Partitions: slices.Clone(tp.Partitions)})
		}
		return out
	}
	v.State, v.Type, v.ProtocolType = cg.state.String(), "consumer", protocol.ConsumerProtocolType
	v.GroupEpoch, v.AssignmentEpoch, v.Generation = cg.groupEpoch, cg.assignmentEpoch, -1
	v.Protocol = cg.preferredAssignor("", "", c.assignors()[0])
	for _, m := range cg.memberList() {
		v.Members = append(v.Members, GroupMemberView{ID: m.id, InstanceID: m.instanceID, ClientID: m.clientID, ClientHost: m.clientHost,
			Assigned: named(partitionsOf(m.assigned)), Epoch: m.epoch, State: m.state.String(),
			Revoking: named(partitionsOf(m.pending)), Target: named(cg.targets[m.id])})
	}
}
