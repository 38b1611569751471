package broker

import (
	"cmp"
	"slices"
)

// GroupSnapshot is one classic group as this broker's coordinator holds it,
// copied for views (the diagram): nothing in it reaches the coordinator.
type GroupSnapshot struct {
	GroupID      string
	Partition    int32  // its __consumer_offsets partition
	State        string // Empty, PreparingRebalance, CompletingRebalance, Stable, Dead
	Generation   int32
	ProtocolType string // "consumer" for consumer groups
	Protocol     string // the assignor chosen ("" when none)
	Leader       string // the leader's member id ("" when none)
	Members      []GroupMemberSnapshot
	Offsets      []GroupOffsetSnapshot // by topic, then partition
}

// GroupMemberSnapshot is one member; Assignment is the bytes the leader's
// SyncGroup gave it (ConsumerProtocolAssignment for consumer groups).
type GroupMemberSnapshot struct {
	MemberID, ClientID, ClientHost string
	Assignment                     []byte
}

// GroupOffsetSnapshot is one committed offset.
type GroupOffsetSnapshot struct {
	Topic     string
	Partition int32
	Offset    int64
}

// Groups copies the groups this broker coordinates now (the loaded
// __consumer_offsets partitions it leads), by group id.
func (b *Broker) Groups() []GroupSnapshot {
	if b.groupCoord == nil {
		return nil
	}
	c := b.groupCoord
	out := make([]GroupSnapshot, 0, len(c.groups))
	for _, g := range c.groups {
		if !c.owned[g.partition] {
			continue
		}
		gs := GroupSnapshot{GroupID: g.id, Partition: g.partition, State: g.state.String(), Generation: g.generation,
			ProtocolType: g.protocolType, Protocol: g.protocolName, Leader: g.leader}
		for _, m := range g.sortedMembers() {
			gs.Members = append(gs.Members, GroupMemberSnapshot{MemberID: m.id, ClientID: m.clientID, ClientHost: m.clientHost,
				Assignment: slices.Clone(m.assignment)})
		}
		for tp, v := range g.offsets {
			gs.Offsets = append(gs.Offsets, GroupOffsetSnapshot{Topic: tp.topic, Partition: tp.partition, Offset: v.offset})
		}
		slices.SortFunc(gs.Offsets, func(a, b GroupOffsetSnapshot) int {
			return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
		})
		out = append(out, gs)
	}
	slices.SortFunc(out, func(a, b GroupSnapshot) int { return cmp.Compare(a.GroupID, b.GroupID) })
	return out
}
