package view

import (
	"cmp"
	"slices"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/groupcoordinator"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// Group is one consumer group as its coordinator holds it, with the lag of
// every partition it committed or was assigned.
type Group struct {
	GroupID      string
	Coordinator  int32 // the broker leading its __consumer_offsets partition
	Partition    int32 // that partition
	State        string
	Generation   int32
	ProtocolType string
	Protocol     string // the assignor ("" between generations)
	Members      []GroupMember
	// Joining are the group's consumers the coordinator does not count
	// as members yet (looking for the coordinator, or waiting for a
	// member id or the join to complete).
	Joining    []GroupMember
	Partitions []GroupPartition // by topic, then partition
	Events     []GroupEvent     // the newest rebalance events, oldest first
	// Type is "classic" or "consumer" (KIP-848). A consumer group has no
	// generation: GroupEpoch counts its membership and subscription
	// changes, AssignmentEpoch is the epoch of its target assignment.
	Type            string
	GroupEpoch      int32
	AssignmentEpoch int32
}

// GroupMember is one member and what it was assigned in this generation.
type GroupMember struct {
	MemberID, ClientID, ClientHost string
	Leader                         bool
	Assigned                       []TopicPartition
	// ClientState and ClientGeneration are the member as its consumer
	// sees itself (UNJOINED, PREPARING_REBALANCE, COMPLETING_REBALANCE,
	// STABLE); "" and -1 when no running consumer has this member id (it
	// died, and the coordinator has not expired it yet).
	ClientState      string
	ClientGeneration int32
	// A consumer group's member (KIP-848): its epoch, its state at the
	// coordinator (STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS),
	// the partitions it still has to give back, and its target.
	Epoch    int32
	State    string
	Revoking []TopicPartition
	Target   []TopicPartition
}

// TopicPartition names a partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// GroupPartition is one partition of a group, as kafka-consumer-groups.sh
// --describe lists it: the committed offset (-1: none), the log end offset
// (the leader's high watermark, what ListOffsets answers; -1 with no
// leader), the lag (LogEnd - Committed as the tool computes it, negative
// when the commit is ahead of the log; HasLag false when either is
// unknown) and the member assigned it ("" none).
type GroupPartition struct {
	Topic     string
	Partition int32
	Committed int64
	LogEnd    int64
	Lag       int64
	HasLag    bool
	MemberID  string
	ClientID  string
	// Position is the assigned consumer's position: the next offset it
	// will fetch (-1 unknown). Between it and Committed are records
	// consumed but not committed yet (kafka-consumer-groups.sh does not
	// show it).
	Position int64
}

// GroupEvent is a coordinator's note about the group (cluster.GroupEvent).
type GroupEvent struct {
	At         sim.Time
	Broker     int32
	Kind       string
	Generation int32
	Reason     string
	Member     string
	Members    int32 // -1 when not noted
}

// takeGroups reads every running broker's coordinator. A group appears
// once: from the broker the metadata names as its partition's leader when
// two brokers still hold it (a leadership change in progress).
func takeGroups(c *cluster.Cluster, s *Snapshot, running map[int32]bool, consumers []client.ConsumerState) {
	hw := map[TopicPartition]int64{}
	var offsetsLeaders []int32
	for _, t := range s.Topics {
		if !t.Light {
			for _, p := range t.Partitions {
				hw[TopicPartition{t.Name, p.Index}] = p.CommittedHW
			}
		}
		if t.Name == metadata.ConsumerOffsetsTopic {
			for _, p := range t.Partitions {
				offsetsLeaders = append(offsetsLeaders, p.Leader)
			}
		}
	}
	seen := map[string]int{} // group id → index in s.Groups
	for _, id := range c.NodeIDs() {
		if !running[id] {
			continue
		}
		for _, gs := range c.Node(id).Broker.GroupCoordinator().Groups() {
			if i, dup := seen[gs.ID]; dup {
				if int(gs.Partition) < len(offsetsLeaders) && offsetsLeaders[gs.Partition] == id {
					s.Groups[i] = group(c, id, gs, hw, consumers)
				}
				continue
			}
			seen[gs.ID] = len(s.Groups)
			s.Groups = append(s.Groups, group(c, id, gs, hw, consumers))
		}
	}
	sorts.Func(s.Groups, func(a, b Group) int { return cmp.Compare(a.GroupID, b.GroupID) })
}

func group(c *cluster.Cluster, coordinator int32, gs groupcoordinator.GroupView, hw map[TopicPartition]int64, consumers []client.ConsumerState) Group {
	g := Group{GroupID: gs.ID, Coordinator: coordinator, Partition: gs.Partition, State: gs.State,
		Generation: gs.Generation, ProtocolType: gs.ProtocolType, Protocol: gs.Protocol,
		Type: gs.Type, GroupEpoch: gs.GroupEpoch, AssignmentEpoch: gs.AssignmentEpoch}
	parts := map[TopicPartition]*GroupPartition{}
	var order []TopicPartition
	part := func(tp TopicPartition) *GroupPartition {
		if p, ok := parts[tp]; ok {
			return p
		}
		p := &GroupPartition{Topic: tp.Topic, Partition: tp.Partition, Committed: -1, LogEnd: -1, Position: -1}
		parts[tp] = p
		order = append(order, tp)
		return p
	}
	for _, o := range gs.Offsets {
		part(TopicPartition{o.Topic, o.Partition}).Committed = o.Offset
	}
	for _, m := range gs.Members {
		mv := GroupMember{MemberID: m.ID, ClientID: m.ClientID, ClientHost: m.ClientHost, Leader: m.ID == gs.Leader, ClientGeneration: -1}
		if cs := consumerOf(consumers, gs.ID, m.ID); cs != nil {
			mv.ClientState, mv.ClientGeneration = cs.MemberState, cs.Generation
			for _, a := range cs.Assigned {
				if a.Position >= 0 {
					part(TopicPartition{a.Topic, a.Partition}).Position = a.Position
				}
			}
		}
		for _, tps := range m.Assigned {
			for _, p := range tps.Partitions {
				tp := TopicPartition{tps.Topic, p}
				mv.Assigned = append(mv.Assigned, tp)
				gp := part(tp)
				gp.MemberID, gp.ClientID = m.ID, m.ClientID
			}
		}
		sorts.Func(mv.Assigned, compareTP)
		mv.Epoch, mv.State = m.Epoch, m.State
		mv.Revoking, mv.Target = flattenTPs(m.Revoking), flattenTPs(m.Target)
		g.Members = append(g.Members, mv)
	}
	for _, cs := range consumers {
		if cs.GroupID == gs.ID && !slices.ContainsFunc(gs.Members, func(m groupcoordinator.GroupMemberView) bool { return m.ID == cs.MemberID }) {
			g.Joining = append(g.Joining, GroupMember{MemberID: cs.MemberID, ClientID: cs.ClientID, ClientState: cs.MemberState, ClientGeneration: cs.Generation})
		}
	}
	sorts.Func(order, compareTP)
	for _, tp := range order {
		p := parts[tp]
		if h, ok := hw[tp]; ok && h >= 0 {
			p.LogEnd = h
			if p.Committed >= 0 {
				p.Lag, p.HasLag = h-p.Committed, true
			}
		}
		g.Partitions = append(g.Partitions, *p)
	}
	for _, e := range c.GroupEvents(gs.ID) {
		g.Events = append(g.Events, GroupEvent(e))
	}
	return g
}

// flattenTPs lists the partitions of tps, sorted.
func flattenTPs(tps []protocol.TopicPartitions) []TopicPartition {
	var out []TopicPartition
	for _, t := range tps {
		for _, p := range t.Partitions {
			out = append(out, TopicPartition{t.Topic, p})
		}
	}
	sorts.Func(out, compareTP)
	return out
}

// consumerOf is the running consumer of group with member id, or nil.
func consumerOf(consumers []client.ConsumerState, group, memberID string) *client.ConsumerState {
	for i := range consumers {
		if consumers[i].GroupID == group && consumers[i].MemberID == memberID && memberID != "" {
			return &consumers[i]
		}
	}
	return nil
}

func compareTP(a, b TopicPartition) int {
	return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}
