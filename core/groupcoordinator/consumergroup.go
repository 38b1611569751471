package groupcoordinator

import (
	"slices"

	kgroup "kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// A consumer group: a group of the consumer rebalance protocol (KIP-848),
// Kafka's ConsumerGroup and ConsumerGroupMember
// (group-coordinator/.../modern/consumer/ConsumerGroup.java,
// ConsumerGroupMember.java, modern/ModernGroup.java). It lives beside the
// classic group: a group id is either, and a *group whose consumer field
// is set is a consumer group (the classic fields stay empty; the
// committed offsets are shared, as Kafka's OffsetMetadataManager keys them
// by group id whatever the type).
//
// Its state changes only by replaying records (replay848.go), at once when
// a heartbeat makes them and again when a new coordinator loads them, as
// GroupMetadataManager does; so a failover rebuilds exactly what the log
// says.

// consumerGroupState is ConsumerGroup.ConsumerGroupState (CG:84-89).
type consumerGroupState uint8

const (
	cgEmpty consumerGroupState = iota
	cgAssigning
	cgReconciling
	cgStable
	cgDead
)

func (s consumerGroupState) String() string {
	return [...]string{"Empty", "Assigning", "Reconciling", "Stable", "Dead"}[s]
}

// cgMember is one ConsumerGroupMember. Members are values: a heartbeat
// builds the updated member as a copy and replays it.
type cgMember struct {
	id, instanceID, rackID, clientID, clientHost string
	// subscribed: SubscribedTopicNames, in the order its HashSet was
	// filled (a replayed record's sorted list).
	subscribed         []string
	regex              string
	serverAssignor     string
	rebalanceTimeoutMs int32
	epoch, prevEpoch   int32
	state              kgroup.MemberState
	assigned, pending  []kgroup.PartitionEpoch
	// classic is ClassicMemberMetadata: set for a member that uses the
	// classic protocol (JoinGroup, SyncGroup, Heartbeat) inside a
	// consumer group, nil for a consumer-protocol member. It is never
	// modified in place: an update replaces it.
	classic *classicMemberMetadata
}

// classicMemberMetadata is ConsumerGroupMemberMetadataValue's
// ClassicMemberMetadata: the session timeout and the protocols of the
// member's JoinGroup, in its order.
type classicMemberMetadata struct {
	sessionTimeoutMs int32
	protocols        []protocol.JoinGroupRequestProtocol
}

func (a *classicMemberMetadata) equal(b *classicMemberMetadata) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.sessionTimeoutMs == b.sessionTimeoutMs && protocolsEqual(a.protocols, b.protocols)
}

// useClassicProtocol is ConsumerGroupMember.useClassicProtocol.
func (m cgMember) useClassicProtocol() bool { return m.classic != nil }

// classicProtocolName is the name of the member's first protocol, the one
// its JoinGroup and SyncGroup answers name.
func (m cgMember) classicProtocolName() string {
	if m.classic == nil || len(m.classic.protocols) == 0 {
		return ""
	}
	return m.classic.protocols[0].Name
}

// newCGMember is `new ConsumerGroupMember.Builder(id).build()`: epoch 0,
// previous epoch -1, STABLE, no subscription (CGM:57-76), rebalance
// timeout -1.
func newCGMember(id string) cgMember {
	return cgMember{id: id, prevEpoch: -1, rebalanceTimeoutMs: -1}
}

// sameMetadata: what ConsumerGroupMemberMetadataValue holds is equal
// (the subscription compared as a set, as Set.equals does).
func (m cgMember) sameMetadata(o cgMember) bool {
	return m.instanceID == o.instanceID && m.rackID == o.rackID && m.clientID == o.clientID && m.clientHost == o.clientHost &&
		m.regex == o.regex && m.serverAssignor == o.serverAssignor && m.rebalanceTimeoutMs == o.rebalanceTimeoutMs &&
		sameNames(m.subscribed, o.subscribed) && m.classic.equal(o.classic)
}

// sameAssignment: the CurrentMemberAssignment fields are equal.
func (m cgMember) sameAssignment(o cgMember) bool {
	return m.epoch == o.epoch && m.prevEpoch == o.prevEpoch && m.state == o.state &&
		slices.Equal(m.assigned, o.assigned) && slices.Equal(m.pending, o.pending)
}

func sameNames(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// isReconciledTo is ModernGroupMember.isReconciledTo.
func (m cgMember) isReconciledTo(epoch int32) bool {
	return m.state == kgroup.MemberStable && m.epoch == epoch
}

// assignedPartitions is the member's assigned partitions without their
// epochs, by topic in the order the reconciliation lists them.
func (m cgMember) assignedPartitions() kgroup.MemberAssignment {
	return partitionsOf(m.assigned)
}

func partitionsOf(ps []kgroup.PartitionEpoch) kgroup.MemberAssignment {
	var out kgroup.MemberAssignment
	for _, p := range ps {
		if n := len(out); n > 0 && out[n-1].TopicID == p.TopicID {
			out[n-1].Partitions = append(out[n-1].Partitions, p.Partition)
			continue
		}
		out = append(out, kgroup.TopicPartitions{TopicID: p.TopicID, Partitions: []int32{p.Partition}})
	}
	return out
}

// consumerGroup is one ConsumerGroup.
type consumerGroup struct {
	groupEpoch          int32
	metadataHash        int64
	assignmentEpoch     int32
	assignmentTimestamp int64
	members             map[string]*cgMember
	// order replays the members TimelineHashMap's iteration order
	// (BaseHashTable), which the target assignment builder and
	// ConsumerGroupDescribe follow.
	order   *jdk.BaseHashTable
	targets map[string]kgroup.MemberAssignment
	// partitionEpochs is currentPartitionEpoch: the epoch of the member
	// holding each partition assigned or pending revocation.
	partitionEpochs map[kgroup.TopicIDPartition]int32
	// static maps instance ids to member ids (staticMembers).
	static map[string]string
	// refreshMetadata: the next heartbeat recomputes the metadata hash
	// (hasMetadataExpired; a new or loaded group's deadline is 0, and
	// requestMetadataRefresh resets it).
	refreshMetadata bool
	// subscriptionMetadataRecord: a pre-4.1 ConsumerGroupPartitionMetadata
	// record is in the log; the next refresh tombstones it.
	subscriptionMetadataRecord bool
	state                      consumerGroupState
	// timers: each member's session and rebalance timeouts, and the join
	// and sync timeouts of classic members ("join/<id>", "sync/<id>").
	session, rebalance map[string]*sim.Timer
	classicTimers      map[string]*sim.Timer
}

// newConsumerGroup is `new ConsumerGroup(...)`. Kafka 4.3 starts a group
// at group epoch 1 with target assignment epoch 1 (KAFKA-20268:
// ModernGroup's constructor, TargetAssignmentMetadata.INITIAL), so its
// first computed assignment is epoch 2; 4.1 starts both at 0.
func newConsumerGroup(v43 bool) *consumerGroup {
	cg := &consumerGroup{members: map[string]*cgMember{}, order: jdk.NewBaseHashTable(0), targets: map[string]kgroup.MemberAssignment{},
		partitionEpochs: map[kgroup.TopicIDPartition]int32{}, static: map[string]string{}, refreshMetadata: true,
		session: map[string]*sim.Timer{}, rebalance: map[string]*sim.Timer{}, classicTimers: map[string]*sim.Timer{}}
	if v43 {
		cg.groupEpoch, cg.assignmentEpoch = 1, 1
	}
	return cg
}

// memberList is the members in the members map's iteration order.
func (cg *consumerGroup) memberList() []*cgMember {
	ids := cg.order.Keys()
	out := make([]*cgMember, 0, len(ids))
	for _, id := range ids {
		out = append(out, cg.members[id])
	}
	return out
}

// staticMember is the member holding the instance id, or nil.
func (cg *consumerGroup) staticMember(instanceID string) *cgMember {
	if id, ok := cg.static[instanceID]; ok {
		return cg.members[id]
	}
	return nil
}

// currentPartitionEpoch is ConsumerGroup.currentPartitionEpoch.
func (cg *consumerGroup) currentPartitionEpoch(topic metadata.Uuid, p int32) int32 {
	if e, ok := cg.partitionEpochs[kgroup.TopicIDPartition{TopicID: topic, Partition: p}]; ok {
		return e
	}
	return -1
}

// updateState is ConsumerGroup.maybeUpdateGroupState (CG:959-975).
func (cg *consumerGroup) updateState() {
	switch {
	case len(cg.members) == 0:
		cg.state = cgEmpty
	case cg.groupEpoch > cg.assignmentEpoch:
		cg.state = cgAssigning
	default:
		cg.state = cgStable
		for _, m := range cg.memberList() {
			if !m.isReconciledTo(cg.assignmentEpoch) {
				cg.state = cgReconciling
				break
			}
		}
	}
}

// subscribedNames is every member's subscribed topic names, with one
// member's replaced by its update (or dropped: nil update and drop),
// sorted and distinct (computeSubscribedTopicNames; its order matters
// nowhere: the metadata hash sorts by name).
func (cg *consumerGroup) subscribedNames(replace *cgMember, drop map[string]bool) []string {
	var names []string
	for _, m := range cg.memberList() {
		if drop[m.id] || (replace != nil && m.id == replace.id) {
			continue
		}
		names = append(names, m.subscribed...)
	}
	if replace != nil {
		names = append(names, replace.subscribed...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// assignorCounts is the serverAssignors map: how many members name each
// server assignor, in first-seen member order (a stand-in for its
// TimelineHashMap order, which PreferredServerAssignor re-hashes anyway).
func (cg *consumerGroup) assignorCounts() []kgroup.AssignorCount {
	var out []kgroup.AssignorCount
	for _, m := range cg.memberList() {
		if m.serverAssignor == "" {
			continue
		}
		if i := slices.IndexFunc(out, func(a kgroup.AssignorCount) bool { return a.Name == m.serverAssignor }); i >= 0 {
			out[i].Count++
		} else {
			out = append(out, kgroup.AssignorCount{Name: m.serverAssignor, Count: 1})
		}
	}
	return out
}

// preferredAssignor is ConsumerGroup.computePreferredServerAssignor
// (CG:603-614) for a member changing from old to updated, or the first of
// group.consumer.assignors when no member names one (GMM:3861-3863).
func (cg *consumerGroup) preferredAssignor(oldAssignor, newAssignor, dflt string) string {
	if name, ok := kgroup.PreferredServerAssignor(cg.assignorCounts(), oldAssignor, newAssignor); ok {
		return name
	}
	return dflt
}

// targetMembers is group.members() as the target assignment builder
// reads them.
func (cg *consumerGroup) targetMembers() []kgroup.TargetMember {
	var out []kgroup.TargetMember
	for _, m := range cg.memberList() {
		out = append(out, m.targetMember())
	}
	return out
}

func (m cgMember) targetMember() kgroup.TargetMember {
	return kgroup.TargetMember{MemberID: m.id, InstanceID: m.instanceID, RackID: m.rackID,
		SubscribedTopicNames: slices.Clone(m.subscribed), SubscribedTopicRegex: m.regex}
}

func comparePartitionEpoch(a, b kgroup.PartitionEpoch) int {
	if c := metadata.CompareUuids(a.TopicID, b.TopicID); c != 0 {
		return c
	}
	return int(a.Partition - b.Partition)
}
