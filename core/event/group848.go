package event

import "kafkascope/core/sim"

// Notes of consumer groups (the consumer rebalance protocol, KIP-848):
// core/groupcoordinator's heartbeat848.go and leave848.go.

// ConsumerGroupEpochBumped: a heartbeat of Member changed the group's
// subscriptions (or the subscribed topics' metadata changed): the group
// epoch is now Epoch, so the next heartbeat computes a new target.
type ConsumerGroupEpochBumped struct {
	Broker int32
	Group  string
	Epoch  int32
	Member string
}

func (ConsumerGroupEpochBumped) Key() string { return "group.epoch-bump" }
func (e ConsumerGroupEpochBumped) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("epoch", int64(e.Epoch))
	w.Str("member", e.Member)
}

// ConsumerGroupTargetComputed: the coordinator ran server assignor
// Assignor for the group's epoch Epoch; Changed members got a new target.
type ConsumerGroupTargetComputed struct {
	Broker   int32
	Group    string
	Epoch    int32
	Assignor string
	Changed  int
}

func (ConsumerGroupTargetComputed) Key() string { return "group.target" }
func (e ConsumerGroupTargetComputed) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Int("epoch", int64(e.Epoch))
	w.Str("assignor", e.Assignor)
	w.Int("changed", int64(e.Changed))
}

// ConsumerGroupMemberReconciled: a member's reconciliation state changed:
// State (STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS) at member
// epoch Epoch, holding Partitions partitions and revoking Revoking.
type ConsumerGroupMemberReconciled struct {
	Broker     int32
	Group      string
	Member     string
	State      string
	Epoch      int32
	Partitions int
	Revoking   int
}

func (ConsumerGroupMemberReconciled) Key() string { return "group.member-state" }
func (e ConsumerGroupMemberReconciled) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("member", e.Member)
	w.Str("state", e.State)
	w.Int("epoch", int64(e.Epoch))
	w.Int("partitions", int64(e.Partitions))
	w.Int("revoking", int64(e.Revoking))
}

// ConsumerGroupMemberFenced: the coordinator removed Member from the group
// and bumped its epoch. Reason: "leave" (it sent epoch -1), "session" (no
// heartbeat for the session timeout), "rebalance" (it did not revoke its
// partitions within its rebalance timeout).
type ConsumerGroupMemberFenced struct {
	Broker int32
	Group  string
	Member string
	Reason string
}

func (ConsumerGroupMemberFenced) Key() string { return "group.member-fenced" }
func (e ConsumerGroupMemberFenced) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("member", e.Member)
	w.Str("reason", e.Reason)
}

// ConsumerGroupStaticMemberLeft: static member Member (instance Instance)
// left with epoch -2: it keeps its partitions until it comes back or its
// session times out; no rebalance.
type ConsumerGroupStaticMemberLeft struct {
	Broker   int32
	Group    string
	Member   string
	Instance string
}

func (ConsumerGroupStaticMemberLeft) Key() string { return "group.static-left" }
func (e ConsumerGroupStaticMemberLeft) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("member", e.Member)
	w.Str("instance", e.Instance)
}

// ConsumerGroupStaticMemberReplaced: a new member New took over instance
// Instance from Old, which had left with -2, with its assignment and no
// rebalance.
type ConsumerGroupStaticMemberReplaced struct {
	Broker   int32
	Group    string
	Instance string
	Old, New string
}

func (ConsumerGroupStaticMemberReplaced) Key() string { return "group.static-replaced" }
func (e ConsumerGroupStaticMemberReplaced) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("instance", e.Instance)
	w.Str("old", e.Old)
	w.Str("new", e.New)
}

// GroupConverted: group Group changed kind with its members in place (an
// online migration): To "consumer" when a consumer-protocol member joined
// a classic group (Epoch is the group epoch, the classic generation), To
// "classic" when the last consumer-protocol member left (Epoch is the new
// classic generation, which then rebalances). Members: how many came
// along.
type GroupConverted struct {
	Broker  int32
	Group   string
	To      string
	Epoch   int32
	Members int
}

func (GroupConverted) Key() string { return "group.converted" }
func (e GroupConverted) Fields(w sim.FieldWriter) {
	group(w, e.Broker, e.Group)
	w.Str("to", e.To)
	w.Int("epoch", int64(e.Epoch))
	w.Int("members", int64(e.Members))
}
