package client

import (
	"slices"
	"strings"

	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
)

// RebalanceProtocol is ConsumerPartitionAssignor.RebalanceProtocol: EAGER
// members give up every partition before rejoining; COOPERATIVE members keep
// theirs and give up only what the new assignment takes away (then rejoin).
type RebalanceProtocol int

const (
	Eager RebalanceProtocol = iota
	Cooperative
)

func (p RebalanceProtocol) String() string { return [...]string{"EAGER", "COOPERATIVE"}[p] }

// AssignorMember is one member as the leader's assignor sees it: its id,
// static instance id and its JoinGroup subscription (topics, owned
// partitions, generation, user data).
type AssignorMember struct {
	ID           string
	InstanceID   string
	Subscription protocol.ConsumerProtocolSubscription
}

// Assignor is a partition.assignment.strategy (Kafka's
// ConsumerPartitionAssignor). Assign runs on the group leader; partitions
// gives each subscribed topic's partition count. Implementations live in
// core/group and are registered here by class name.
type Assignor interface {
	Name() string                   // the protocol name: range, roundrobin, sticky, cooperative-sticky
	Protocols() []RebalanceProtocol // supported, in Kafka's order
	// UserData is the assignor's subscription user data for a member that
	// owns owned (nil for assignors without any).
	UserData(owned []group.TopicPartition, generation int32) []byte
	// racks gives the partitions' replica racks (nil when no broker has
	// one): KIP-881's rack-aware assignment (the RangeAssignor here).
	Assign(members []AssignorMember, partitions map[string]int32, racks group.PartitionRacks) group.Assignment
}

// Assignor class names (partition.assignment.strategy values).
const (
	RangeAssignorClass             = "org.apache.kafka.clients.consumer.RangeAssignor"
	RoundRobinAssignorClass        = "org.apache.kafka.clients.consumer.RoundRobinAssignor"
	StickyAssignorClass            = "org.apache.kafka.clients.consumer.StickyAssignor"
	CooperativeStickyAssignorClass = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
)

// DefaultAssignmentStrategy is Kafka 3.8's partition.assignment.strategy
// default: range first (so the group uses range), cooperative-sticky
// second (so the group can move to it with a rolling upgrade).
var DefaultAssignmentStrategy = []string{RangeAssignorClass, CooperativeStickyAssignorClass}

// DefaultAssignmentStrategyFor is the default in release v (the zero
// value: release.Default): before 3.0 only the RangeAssignor.
func DefaultAssignmentStrategyFor(v release.Version) []string {
	if v != (release.Version{}) && !v.AtLeast(3, 0) {
		return []string{RangeAssignorClass}
	}
	return DefaultAssignmentStrategy
}

var assignors = map[string]func() Assignor{
	RangeAssignorClass: func() Assignor { return simpleAssignor{"range", group.RangeWithRacks} },
	// The RoundRobinAssignor is not rack-aware (KIP-881 left it out).
	RoundRobinAssignorClass: func() Assignor {
		return simpleAssignor{"roundrobin", func(ms []group.Member, ps map[string]int32, _ group.PartitionRacks) group.Assignment {
			return group.RoundRobin(ms, ps)
		}}
	},
}

// RegisterAssignor makes an assignor class available to
// partition.assignment.strategy (the sticky assignors register themselves).
func RegisterAssignor(class string, make func() Assignor) { assignors[class] = make }

// LookupAssignor finds a registered assignor by class name.
func LookupAssignor(class string) (Assignor, bool) {
	mk, ok := assignors[strings.TrimSpace(class)]
	if !ok {
		return nil, false
	}
	return mk(), true
}

// ResolveAssignors turns partition.assignment.strategy into assignors. The
// default list skips classes this build does not have (cooperative-sticky
// until core/group provides it); an explicit unknown class is an error
// naming it, as Kafka's ClassNotFoundException does.
func ResolveAssignors(classes []string, isDefault bool) ([]Assignor, string) {
	var out []Assignor
	for _, c := range classes {
		a, ok := LookupAssignor(c)
		if !ok {
			if isDefault {
				continue
			}
			return nil, strings.TrimSpace(c)
		}
		out = append(out, a)
	}
	return out, ""
}

// simpleAssignor adapts the stateless assignors (range, roundrobin), which
// support only the eager protocol and send no user data.
type simpleAssignor struct {
	name string
	fn   func([]group.Member, map[string]int32, group.PartitionRacks) group.Assignment
}

func (a simpleAssignor) Name() string                                  { return a.name }
func (a simpleAssignor) Protocols() []RebalanceProtocol                { return []RebalanceProtocol{Eager} }
func (a simpleAssignor) UserData([]group.TopicPartition, int32) []byte { return nil }
func (a simpleAssignor) Assign(members []AssignorMember, partitions map[string]int32, racks group.PartitionRacks) group.Assignment {
	ms := make([]group.Member, len(members))
	for i, m := range members {
		ms[i] = group.Member{ID: m.ID, InstanceID: m.InstanceID, Topics: m.Subscription.Topics, RackID: m.Subscription.RackID}
	}
	return a.fn(ms, partitions, racks)
}

// rebalanceProtocol is the protocol every assignor supports, the highest
// such (ConsumerCoordinator's constructor; Kafka fails if there is none).
func rebalanceProtocol(as []Assignor) (RebalanceProtocol, bool) {
	for _, p := range []RebalanceProtocol{Cooperative, Eager} {
		all := true
		for _, a := range as {
			if !slices.Contains(a.Protocols(), p) {
				all = false
			}
		}
		if all {
			return p, true
		}
	}
	return Eager, false
}
