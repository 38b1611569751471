package event

import (
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// group writes a group note's coordinator and group fields.
func group(w sim.FieldWriter, broker int32, id string) {
	w.Int("broker", int64(broker))
	w.Str("group", id)
}

// GroupsLoaded: a broker became the coordinator for the groups of one
// __consumer_offsets partition and loaded them from its log
// (GroupMetadataManager.loadGroupsAndOffsets): Groups groups and Offsets
// committed offsets.
type GroupsLoaded struct {
	Broker          int32
	TP              storage.TopicPartition
	Groups, Offsets int
}

func (GroupsLoaded) Key() string { return "group.loaded" }
func (e GroupsLoaded) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Str("tp", e.TP.String())
	w.Int("groups", int64(e.Groups))
	w.Int("offsets", int64(e.Offsets))
}

// GroupRebalancing: a group went to PreparingRebalance after generation
// Generation, for Reason (Kafka's rebalance reason text).
type GroupRebalancing struct {
	Broker     int32
	Group      string
	Generation int32
	Reason     string
}

func (GroupRebalancing) Key() string { return "group.rebalance" }
func (e GroupRebalancing) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("generation", int64(e.Generation))
	w.Str("reason", e.Reason)
}

// GroupEmptied: a rebalance ended with no members: the group is Empty in
// generation Generation.
type GroupEmptied struct {
	Broker     int32
	Group      string
	Generation int32
}

func (GroupEmptied) Key() string { return "group.emptied" }
func (e GroupEmptied) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("generation", int64(e.Generation))
}

// GroupGenerationStarted: every member joined, so the group starts
// generation Generation in CompletingRebalance with the chosen Protocol
// (the assignor) and Leader (the member that assigns).
type GroupGenerationStarted struct {
	Broker     int32
	Group      string
	Generation int32
	Protocol   string
	Leader     string
}

func (GroupGenerationStarted) Key() string { return "group.generation" }
func (e GroupGenerationStarted) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("generation", int64(e.Generation))
	w.Str("protocol", e.Protocol)
	w.Str("leader", e.Leader)
}

// GroupStable: the leader's assignment arrived (SyncGroup), so the group
// is Stable in generation Generation with Members members.
type GroupStable struct {
	Broker     int32
	Group      string
	Generation int32
	Members    int
}

func (GroupStable) Key() string { return "group.stable" }
func (e GroupStable) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("generation", int64(e.Generation))
	w.Int("members", int64(e.Members))
}

// MemberExpired: the coordinator removed Member, whose session timed out
// without a heartbeat (session.timeout.ms).
type MemberExpired struct {
	Broker int32
	Group  string
	Member string
}

func (MemberExpired) Key() string { return "group.member-expired" }
func (e MemberExpired) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("member", e.Member)
}

// MemberLeft: Member left the group (LeaveGroup).
type MemberLeft struct {
	Broker int32
	Group  string
	Member string
}

func (MemberLeft) Key() string { return "group.member-left" }
func (e MemberLeft) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("member", e.Member)
}
