package group

import (
	"slices"

	"kafkascope/core/metadata"
)

// The inputs and outputs of the server-side assignors of the consumer
// rebalance protocol (KIP-848), as Kafka 4.3's group coordinator hands
// them over (group-coordinator's api/assignor GroupSpec,
// SubscribedTopicDescriber, GroupAssignment and their Impl classes).
// Topics travel by id. Every list that stands for a Java map or set is in
// the order Java iterates it, because the assignors' results depend on it.

// TopicPartitions is one topic of a member's assignment.
type TopicPartitions struct {
	TopicID    metadata.Uuid
	Partitions []int32
}

// MemberAssignment is Kafka's Map<Uuid, Set<Integer>> of one member:
// topics, and each topic's partitions, in the order Java iterates the map
// and its sets. A target the coordinator holds is in the order
// AssignmentFromRecord gives (Assignment.fromRecord); an assignor's result
// is in the order of the map the assignor built, which is the order of the
// ConsumerGroupTargetAssignmentMember record Kafka writes from it.
type MemberAssignment []TopicPartitions

// Contains reports whether the assignment holds the partition.
func (a MemberAssignment) Contains(topic metadata.Uuid, partition int32) bool {
	for _, tp := range a {
		if tp.TopicID == topic {
			return slices.Contains(tp.Partitions, partition)
		}
	}
	return false
}

// Size is the number of partitions in the assignment.
func (a MemberAssignment) Size() int {
	n := 0
	for _, tp := range a {
		n += len(tp.Partitions)
	}
	return n
}

// Equal is Map.equals: the same partitions of the same topics, whatever
// the order. Kafka writes a new target record for a member only when this
// is false (TargetAssignmentBuilder.build).
func (a MemberAssignment) Equal(b MemberAssignment) bool {
	if len(a) != len(b) {
		return false
	}
	for _, tp := range a {
		i := slices.IndexFunc(b, func(x TopicPartitions) bool { return x.TopicID == tp.TopicID })
		if i < 0 || len(b[i].Partitions) != len(tp.Partitions) {
			return false
		}
		for _, p := range tp.Partitions {
			if !slices.Contains(b[i].Partitions, p) {
				return false
			}
		}
	}
	return true
}

// TopicIDPartition names one partition by topic id.
type TopicIDPartition struct {
	TopicID   metadata.Uuid
	Partition int32
}

// TopicMetadata is what the coordinator's metadata image says of a topic.
type TopicMetadata struct {
	ID            metadata.Uuid
	Name          string
	NumPartitions int32
}

// TopicImage is the coordinator's view of the cluster's topics
// (CoordinatorMetadataImage as SubscribedTopicDescriberImpl and TopicIds
// read it). Its maps are only looked up, never iterated.
type TopicImage struct {
	byID   map[metadata.Uuid]TopicMetadata
	byName map[string]metadata.Uuid
}

// NewTopicImage indexes the topics.
func NewTopicImage(topics ...TopicMetadata) TopicImage {
	im := TopicImage{byID: map[metadata.Uuid]TopicMetadata{}, byName: map[string]metadata.Uuid{}}
	for _, t := range topics {
		im.byID[t.ID] = t
		im.byName[t.Name] = t.ID
	}
	return im
}

// NumPartitions is SubscribedTopicDescriber.numPartitions: the topic's
// partition count, or -1 when the image has no topic with that id.
func (im TopicImage) NumPartitions(id metadata.Uuid) int32 {
	if t, ok := im.byID[id]; ok {
		return t.NumPartitions
	}
	return -1
}

// TopicID resolves a topic name as TopicIds' resolver does.
func (im TopicImage) TopicID(name string) (metadata.Uuid, bool) {
	id, ok := im.byName[name]
	return id, ok
}

// SubscriptionType is Kafka's api.assignor.SubscriptionType: whether all
// members subscribe to the same topics (ConsumerGroup.subscriptionType).
type SubscriptionType int8

// The two subscription types.
const (
	Homogeneous SubscriptionType = iota
	Heterogeneous
)

func (s SubscriptionType) String() string {
	if s == Heterogeneous {
		return "HETEROGENEOUS"
	}
	return "HOMOGENEOUS"
}

// MemberSpec is MemberSubscriptionAndAssignmentImpl: one member as the
// assignor sees it.
type MemberSpec struct {
	MemberID   string
	InstanceID string // "" = a dynamic member (Optional.empty)
	RackID     string // "" = none; the built-in assignors do not read it (KAFKA-16694)
	// SubscribedTopicIDs is the member's TopicIds view in its iteration
	// order: its subscribed topic names (a HashSet<String>) resolved to
	// ids, names the image lacks skipped.
	SubscribedTopicIDs []metadata.Uuid
	// Assignment is the member's current target assignment.
	Assignment MemberAssignment
}

// GroupSpec is GroupSpecImpl.
type GroupSpec struct {
	// Members in memberIds() order: the iteration order of the member
	// spec HashMap TargetAssignmentBuilder fills (MemberSpecOrder).
	Members          []MemberSpec
	SubscriptionType SubscriptionType
	// InvertedTargetAssignment is the group's target owner of each
	// assigned partition (ModernGroup.invertedTargetAssignment); only
	// isPartitionAssigned reads it.
	InvertedTargetAssignment map[TopicIDPartition]string
}

func (g GroupSpec) isPartitionAssigned(topic metadata.Uuid, partition int32) bool {
	_, ok := g.InvertedTargetAssignment[TopicIDPartition{topic, partition}]
	return ok
}

// InvertTargets builds an InvertedTargetAssignment from member targets.
func InvertTargets(targets map[string]MemberAssignment) map[TopicIDPartition]string {
	out := map[TopicIDPartition]string{}
	for member, a := range targets {
		for _, tp := range a {
			for _, p := range tp.Partitions {
				out[TopicIDPartition{tp.TopicID, p}] = member
			}
		}
	}
	return out
}

// GroupAssignment is the assignor's result: each member's new target. A
// member without an entry gets an empty target (TargetAssignmentBuilder
// reads a missing member as Assignment.EMPTY). It is looked up, never
// iterated for order.
type GroupAssignment map[string]MemberAssignment

// PartitionAssignorError is Kafka's PartitionAssignorException; the
// coordinator turns it into UNKNOWN_SERVER_ERROR "Failed to compute a new
// target assignment for epoch N: <message>".
type PartitionAssignorError struct{ Message string }

func (e *PartitionAssignorError) Error() string { return e.Message }

// ServerAssignor is ConsumerGroupPartitionAssignor: a server-side assignor
// that group.consumer.assignors names and a member asks for with its
// ServerAssignor heartbeat field.
type ServerAssignor interface {
	// Name is the name in group.consumer.assignors ("uniform", "range").
	Name() string
	// Assign computes the new target assignment of every member.
	Assign(spec GroupSpec, topics TopicImage) (GroupAssignment, error)
}

// ServerAssignorByName is the broker's default group.consumer.assignors
// (uniform, range) looked up by name; nil for another name.
func ServerAssignorByName(name string) ServerAssignor {
	switch name {
	case UniformAssignorName:
		return UniformAssignor{}
	case RangeServerAssignorName:
		return ServerRangeAssignor{}
	}
	return nil
}
