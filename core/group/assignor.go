package group

import (
	"slices"
	"strings"
)

// RebalanceProtocol is ConsumerPartitionAssignor.RebalanceProtocol: EAGER
// members give up every partition before they rejoin; COOPERATIVE members
// keep theirs and give up only what the new assignment takes away.
type RebalanceProtocol int8

// Kafka's ids for the protocols.
const (
	Eager       RebalanceProtocol = 0
	Cooperative RebalanceProtocol = 1
)

func (p RebalanceProtocol) String() string {
	if p == Cooperative {
		return "COOPERATIVE"
	}
	return "EAGER"
}

// DefaultGeneration is AbstractStickyAssignor.DEFAULT_GENERATION: no
// generation known.
const DefaultGeneration int32 = -1

// Assignor is a consumer-side ConsumerPartitionAssignor of the classic
// group protocol. Every member lists the assignors it supports in its
// JoinGroup (by Name, in partition.assignment.strategy order); the
// coordinator picks one all members support, and the leader runs its
// Assign. The sticky assignors keep state between rebalances
// (OnAssignment), so a consumer keeps one instance per assignor.
type Assignor interface {
	// Name is the protocol name sent in JoinGroup ("range", ...).
	Name() string
	// ClassName is the class partition.assignment.strategy names.
	ClassName() string
	// SupportedProtocols lists the rebalance protocols, preferred last
	// being the consumer's choice rule: the consumer uses the highest
	// protocol every configured assignor supports.
	SupportedProtocols() []RebalanceProtocol
	// SubscriptionUserData is the user data a member sends with its
	// subscription (nil for none).
	SubscriptionUserData(topics []string) []byte
	// OnAssignment tells the assignor the member's new assignment and
	// generation, after SyncGroup.
	OnAssignment(partitions []TopicPartition, generation int32)
	// Assign computes every member's partitions (run by the leader).
	// partitionsPerTopic has the partition count of each subscribed topic
	// the leader has metadata for; topics with no partitions are skipped.
	// members are in JoinGroup response order.
	Assign(partitionsPerTopic map[string]int32, members []Member) Assignment
}

// Assignors are Kafka's four built-in assignors, by protocol name.
var assignorNames = []string{"range", "roundrobin", "sticky", "cooperative-sticky"}

// ClassNames maps each built-in assignor's class name (what
// partition.assignment.strategy lists) to its protocol name.
var classNames = map[string]string{
	"org.apache.kafka.clients.consumer.RangeAssignor":             "range",
	"org.apache.kafka.clients.consumer.RoundRobinAssignor":        "roundrobin",
	"org.apache.kafka.clients.consumer.StickyAssignor":            "sticky",
	"org.apache.kafka.clients.consumer.CooperativeStickyAssignor": "cooperative-sticky",
}

// DefaultAssignmentStrategy is partition.assignment.strategy's default
// (ConsumerConfig): range first, cooperative-sticky as the upgrade path.
const DefaultAssignmentStrategy = "org.apache.kafka.clients.consumer.RangeAssignor,org.apache.kafka.clients.consumer.CooperativeStickyAssignor"

// NewAssignor makes a fresh assignor from its class name (or, as a
// kafkascope convenience, its short name: the tools accept
// "--assignment-strategy ...RangeAssignor"). ok is false for anything
// else; Kafka then fails with a ClassNotFoundException.
func NewAssignor(name string) (Assignor, bool) {
	name = strings.TrimSpace(name)
	if short, ok := classNames[name]; ok {
		name = short
	}
	switch name {
	case "range":
		return rangeAssignor{}, true
	case "roundrobin":
		return roundRobinAssignor{}, true
	case "sticky":
		return NewStickyAssignor(), true
	case "cooperative-sticky":
		return NewCooperativeStickyAssignor(), true
	}
	return nil, false
}

// AssignorNames lists the built-in assignors' protocol names.
func AssignorNames() []string { return slices.Clone(assignorNames) }

// PickRebalanceProtocol is ConsumerCoordinator's choice: the highest
// protocol that every configured assignor supports; ok is false when they
// share none (Kafka: "Specified assignors ... do not have commonly
// supported rebalance protocol configured").
func PickRebalanceProtocol(assignors []Assignor) (RebalanceProtocol, bool) {
	if len(assignors) == 0 {
		return Eager, false
	}
	common := slices.Clone(assignors[0].SupportedProtocols())
	for _, a := range assignors[1:] {
		common = slices.DeleteFunc(common, func(p RebalanceProtocol) bool { return !slices.Contains(a.SupportedProtocols(), p) })
	}
	if len(common) == 0 {
		return Eager, false
	}
	return slices.Max(common), true
}

type rangeAssignor struct{}

func (rangeAssignor) Name() string                            { return "range" }
func (rangeAssignor) ClassName() string                       { return "org.apache.kafka.clients.consumer.RangeAssignor" }
func (rangeAssignor) SupportedProtocols() []RebalanceProtocol { return []RebalanceProtocol{Eager} }
func (rangeAssignor) SubscriptionUserData([]string) []byte    { return nil }
func (rangeAssignor) OnAssignment([]TopicPartition, int32)    {}
func (rangeAssignor) Assign(p map[string]int32, m []Member) Assignment {
	return Range(m, withPartitions(p))
}

type roundRobinAssignor struct{}

func (roundRobinAssignor) Name() string { return "roundrobin" }
func (roundRobinAssignor) ClassName() string {
	return "org.apache.kafka.clients.consumer.RoundRobinAssignor"
}
func (roundRobinAssignor) SupportedProtocols() []RebalanceProtocol { return []RebalanceProtocol{Eager} }
func (roundRobinAssignor) SubscriptionUserData([]string) []byte    { return nil }
func (roundRobinAssignor) OnAssignment([]TopicPartition, int32)    {}
func (roundRobinAssignor) Assign(p map[string]int32, m []Member) Assignment {
	return RoundRobin(m, withPartitions(p))
}

// subscribedPartitions is the partitionsPerTopic AbstractPartitionAssignor
// .assign builds: the topics some member subscribes to that have
// partitions.
func subscribedPartitions(p map[string]int32, members []Member) map[string]int32 {
	out := map[string]int32{}
	for _, m := range members {
		for _, t := range m.Topics {
			if n := p[t]; n > 0 {
				out[t] = n
			}
		}
	}
	return out
}

// withPartitions drops topics without partitions, as
// AbstractPartitionAssignor.assign skips topics it has no metadata for.
func withPartitions(p map[string]int32) map[string]int32 {
	out := make(map[string]int32, len(p))
	for t, n := range p {
		if n > 0 {
			out[t] = n
		}
	}
	return out
}
