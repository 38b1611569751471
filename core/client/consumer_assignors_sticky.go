package client

import (
	"kafkascope/core/group"
	"kafkascope/core/protocol"
)

// The sticky assignors of core/group, registered for
// partition.assignment.strategy: StickyAssignor ("sticky", eager) and
// CooperativeStickyAssignor ("cooperative-sticky", cooperative and eager).

func init() {
	RegisterAssignor(StickyAssignorClass, func() Assignor { return &groupAssignor{a: group.NewStickyAssignor()} })
	RegisterAssignor(CooperativeStickyAssignorClass, func() Assignor { return &groupAssignor{a: group.NewCooperativeStickyAssignor()} })
}

// AssignmentListener is implemented by assignors that keep state between
// rebalances (ConsumerPartitionAssignor.onAssignment): the consumer calls
// it with the partitions and generation SyncGroup gave it.
type AssignmentListener interface {
	OnAssignment(partitions []group.TopicPartition, generation int32)
}

// groupAssignor adapts a stateful core/group assignor. StickyAssignor's
// user data is the member's last assignment and its generation, which
// Kafka learns from onAssignment; when the consumer never calls
// OnAssignment, UserData's owned partitions and generation stand in for it
// (for a cooperative member they are the same thing; an eager member that
// has revoked everything then reports an empty previous assignment).
type groupAssignor struct {
	a         group.Assignor
	listening bool // OnAssignment has been called
}

func (g *groupAssignor) Name() string { return g.a.Name() }

func (g *groupAssignor) Protocols() []RebalanceProtocol {
	var out []RebalanceProtocol
	for _, p := range g.a.SupportedProtocols() {
		out = append(out, RebalanceProtocol(p))
	}
	return out
}

func (g *groupAssignor) OnAssignment(partitions []group.TopicPartition, generation int32) {
	g.listening = true
	g.a.OnAssignment(partitions, generation)
}

func (g *groupAssignor) UserData(owned []group.TopicPartition, generation int32) []byte {
	if !g.listening && (generation >= 0 || len(owned) > 0) {
		g.a.OnAssignment(owned, generation)
	}
	return g.a.SubscriptionUserData(nil)
}

// Assign runs the assignor, with the partitions' racks for the sticky
// assignors (KIP-881).
func (g *groupAssignor) Assign(members []AssignorMember, partitions map[string]int32, racks group.PartitionRacks) group.Assignment {
	ms := make([]group.Member, len(members))
	for i, m := range members {
		s := m.Subscription
		ms[i] = group.Member{ID: m.ID, InstanceID: m.InstanceID, Topics: s.Topics, UserData: s.UserData,
			OwnedPartitions: flattenTopicPartitions(s.OwnedPartitions), GenerationID: s.GenerationID, RackID: s.RackID}
	}
	if r, ok := g.a.(rackAwareAssignor); ok {
		return r.AssignWithRacks(partitions, ms, racks)
	}
	return g.a.Assign(partitions, ms)
}

// rackAwareAssignor is a group.Assignor that matches racks (KIP-881).
type rackAwareAssignor interface {
	AssignWithRacks(partitionsPerTopic map[string]int32, members []group.Member, racks group.PartitionRacks) group.Assignment
}

func flattenTopicPartitions(tps []protocol.TopicPartitions) []group.TopicPartition {
	var out []group.TopicPartition
	for _, t := range tps {
		for _, p := range t.Partitions {
			out = append(out, group.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	return out
}
