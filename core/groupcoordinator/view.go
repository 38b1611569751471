package groupcoordinator

import (
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
}

// GroupMemberView is one member and the partitions its assignment gives it.
type GroupMemberView struct {
	ID, InstanceID, ClientID, ClientHost string // InstanceID: "" for a dynamic member
	Assigned                             []protocol.TopicPartitions
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
			ProtocolType: g.protocolType, Protocol: g.protocolName, Leader: g.leader}
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
