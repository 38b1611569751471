package group

import (
	"errors"
	"sort"

	"kafkascope/core/metadata"
)

// Per-member reconciliation of the consumer rebalance protocol: Kafka's
// CurrentAssignmentBuilder (modern/consumer/CurrentAssignmentBuilder.java,
// Kafka 4.3), which moves one member, at each of its heartbeats, from its
// current assignment toward its target: first it is asked to revoke what
// the target takes away (staying at its epoch), then, once its heartbeat
// no longer lists those partitions, it moves to the target epoch and gets
// the target's partitions nobody else still owns.

// MemberState is the server's modern MemberState.
type MemberState int8

// Kafka's member states and their record values.
const (
	MemberStable               MemberState = 0
	MemberUnrevokedPartitions  MemberState = 1
	MemberUnreleasedPartitions MemberState = 2
	MemberUnknownState         MemberState = 127
)

func (s MemberState) String() string {
	switch s {
	case MemberStable:
		return "STABLE"
	case MemberUnrevokedPartitions:
		return "UNREVOKED_PARTITIONS"
	case MemberUnreleasedPartitions:
		return "UNRELEASED_PARTITIONS"
	}
	return "UNKNOWN"
}

// ReconcileRules picks the Kafka release whose CurrentAssignmentBuilder
// runs. The zero value is 4.3's.
type ReconcileRules int8

const (
	// Reconcile43 is Kafka 4.3 (also 4.2).
	Reconcile43 ReconcileRules = iota
	// Reconcile41 is Kafka 4.1.0's builder, which differs from 4.3's in
	// four ways: a subscription change alone never shrinks the assignment
	// (no updateCurrentAssignment); a member that finished revoking
	// reconciles with epoch+1 rather than its epoch (which shows when it
	// must revoke again at once); the target is not narrowed to the topics
	// the member still subscribes to; and a partition the member itself
	// has pending revocation counts as unreleased.
	Reconcile41
)

// PartitionEpoch is one partition of a member's assigned or
// pending-revocation set with its assignment epoch (KIP-1251's
// AssignmentEpochs, 4.3; the epoch at which the member got it).
type PartitionEpoch struct {
	TopicID   metadata.Uuid
	Partition int32
	Epoch     int32
}

// ReconcileMember is the part of ConsumerGroupMember the builder reads
// and writes. Partition lists come out sorted by topic id
// (metadata.CompareUuids) then partition; Kafka's records list them in
// HashMap order instead, which is not reproduced here.
type ReconcileMember struct {
	State               MemberState
	MemberEpoch         int32
	PreviousMemberEpoch int32
	Assigned            []PartitionEpoch
	PendingRevocation   []PartitionEpoch
	// SubscribedTopicIDs is the member's subscription resolved against
	// the metadata image (its topic names, or its regex's resolved topics,
	// or both), as CurrentAssignmentBuilder.subscribedTopicIds gives it.
	SubscribedTopicIDs []metadata.Uuid
}

// ReconcileInput is what CurrentAssignmentBuilder is given.
type ReconcileInput struct {
	Member      ReconcileMember
	TargetEpoch int32
	Target      MemberAssignment
	// Owned is the heartbeat's TopicPartitions; nil means the request did
	// not send it, which counts as still owning everything.
	Owned []TopicPartitions
	// HasSubscriptionChanged: the member changed its subscription in this
	// heartbeat (4.3's withHasSubscriptionChanged).
	HasSubscriptionChanged bool
	// CurrentPartitionEpoch is ConsumerGroup.currentPartitionEpoch: the
	// epoch of the member that has the partition assigned or pending
	// revocation, or -1 if nobody has.
	CurrentPartitionEpoch func(topic metadata.Uuid, partition int32) int32
	Rules                 ReconcileRules
}

// ErrUnknownMemberState is the FencedMemberEpochException (error
// FENCED_MEMBER_EPOCH) the builder throws for a member in state UNKNOWN
// whose heartbeat does not say it owns nothing.
var ErrUnknownMemberState = errors.New("The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.")

type partitionSet map[int32]int32 // partition -> assignment epoch

type assignmentEpochs map[metadata.Uuid]partitionSet

func toAssignmentEpochs(ps []PartitionEpoch) assignmentEpochs {
	out := assignmentEpochs{}
	for _, p := range ps {
		if out[p.TopicID] == nil {
			out[p.TopicID] = partitionSet{}
		}
		out[p.TopicID][p.Partition] = p.Epoch
	}
	return out
}

// list gives the partitions sorted by topic id then partition.
func (a assignmentEpochs) list() []PartitionEpoch {
	var out []PartitionEpoch
	for topic, ps := range a {
		for p, e := range ps {
			out = append(out, PartitionEpoch{topic, p, e})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if c := metadata.CompareUuids(out[i].TopicID, out[j].TopicID); c != 0 {
			return c < 0
		}
		return out[i].Partition < out[j].Partition
	})
	return out
}

func (a assignmentEpochs) has(topic metadata.Uuid, p int32) bool {
	_, ok := a[topic][p]
	return ok
}

// BuildCurrentAssignment is CurrentAssignmentBuilder.build: the member's
// next state, epochs and partitions. A member it leaves unchanged comes
// back equal to the input.
func BuildCurrentAssignment(in ReconcileInput) (ReconcileMember, error) {
	m := in.Member
	switch m.State {
	case MemberStable:
		if m.MemberEpoch != in.TargetEpoch {
			return computeNextAssignment(in, m.MemberEpoch), nil
		}
		if in.HasSubscriptionChanged && in.Rules == Reconcile43 {
			return updateCurrentAssignment(in), nil
		}
		return m, nil
	case MemberUnrevokedPartitions:
		if ownsRevokedPartitions(in.Owned, toAssignmentEpochs(m.PendingRevocation)) {
			if in.HasSubscriptionChanged && in.Rules == Reconcile43 {
				return updateCurrentAssignment(in), nil
			}
			return m, nil
		}
		if in.Rules == Reconcile41 {
			return computeNextAssignment(in, m.MemberEpoch+1), nil
		}
		return computeNextAssignment(in, m.MemberEpoch), nil
	case MemberUnreleasedPartitions:
		return computeNextAssignment(in, m.MemberEpoch), nil
	default:
		// A state a newer coordinator wrote: start over from the target,
		// but only once the member says it owns nothing.
		if in.Owned == nil || len(in.Owned) > 0 {
			return m, ErrUnknownMemberState
		}
		return computeNextAssignment(in, in.TargetEpoch), nil
	}
}

// ownsRevokedPartitions: a heartbeat without owned partitions counts as
// owning them all; otherwise any listed partition in pending counts.
func ownsRevokedPartitions(owned []TopicPartitions, pending assignmentEpochs) bool {
	if owned == nil {
		return true
	}
	for _, tp := range owned {
		for _, p := range tp.Partitions {
			if pending.has(tp.TopicID, p) {
				return true
			}
		}
	}
	return false
}

// withEpoch is ConsumerGroupMember.Builder.updateMemberEpoch: the old
// epoch becomes the previous one, even when the epoch does not change.
func withEpoch(m ReconcileMember, epoch int32) ReconcileMember {
	m.PreviousMemberEpoch = m.MemberEpoch
	m.MemberEpoch = epoch
	return m
}

func subscribedSet(m ReconcileMember) map[metadata.Uuid]bool {
	out := map[metadata.Uuid]bool{}
	for _, id := range m.SubscribedTopicIDs {
		out[id] = true
	}
	return out
}

// updateCurrentAssignment (4.3) moves the partitions of topics the member
// no longer subscribes to from assigned to pending revocation, without
// looking at the target. With no subscription left and nothing pending,
// everything assigned becomes pending. Kafka returns the member itself
// when no topic was dropped (an identity test on the map); a member whose
// assignment was replayed from a record never holds the shared empty
// Map.of() that test would also match, so here an empty subscription with
// nothing pending always counts as a change.
func updateCurrentAssignment(in ReconcileInput) ReconcileMember {
	m := in.Member
	subscribed := subscribedSet(m)
	assigned := toAssignmentEpochs(m.Assigned)
	pending := toAssignmentEpochs(m.PendingRevocation)
	changed := false
	if len(subscribed) == 0 && len(m.PendingRevocation) == 0 {
		pending = assigned
		assigned = assignmentEpochs{}
		changed = true
	} else {
		for topic, ps := range assigned {
			if subscribed[topic] {
				continue
			}
			changed = true
			delete(assigned, topic)
			merged := partitionSet{}
			for p, e := range pending[topic] {
				merged[p] = e
			}
			for p, e := range ps {
				merged[p] = e
			}
			pending[topic] = merged
		}
	}
	if !changed {
		return m
	}
	if len(pending) > 0 && ownsRevokedPartitions(in.Owned, pending) {
		out := withEpoch(m, m.MemberEpoch)
		out.State = MemberUnrevokedPartitions
		out.Assigned = assigned.list()
		out.PendingRevocation = pending.list()
		return out
	}
	// Already revoked: shrink the assignment, keep the state and pending.
	out := withEpoch(m, m.MemberEpoch)
	out.Assigned = assigned.list()
	return out
}

// computeNextAssignment is CurrentAssignmentBuilder.computeNextAssignment.
func computeNextAssignment(in ReconcileInput, memberEpoch int32) ReconcileMember {
	m := in.Member
	subscribed := subscribedSet(m)
	current := toAssignmentEpochs(m.Assigned)
	ownPending := toAssignmentEpochs(m.PendingRevocation)
	target := map[metadata.Uuid][]int32{}
	for _, tp := range in.Target {
		target[tp.TopicID] = tp.Partitions
	}

	newAssigned := assignmentEpochs{}
	newPending := assignmentEpochs{}
	pendingAssignment := map[metadata.Uuid][]int32{}
	hasUnreleased := false

	topics := map[metadata.Uuid]bool{}
	for t := range target {
		topics[t] = true
	}
	for t := range current {
		topics[t] = true
	}
	for topic := range topics {
		want := target[topic]
		if in.Rules == Reconcile43 && !subscribed[topic] {
			want = nil
		}
		inTarget := map[int32]bool{}
		for _, p := range want {
			inTarget[p] = true
		}
		kept, revoke := partitionSet{}, partitionSet{}
		for p, e := range current[topic] {
			if inTarget[p] {
				kept[p] = e
			} else {
				revoke[p] = e
			}
		}
		var add []int32
		for _, p := range want {
			if _, ok := kept[p]; ok {
				continue
			}
			owned := in.CurrentPartitionEpoch(topic, p) != -1
			if owned && (in.Rules == Reconcile41 || !ownPending.has(topic, p)) {
				hasUnreleased = true
				continue
			}
			add = append(add, p)
		}
		if len(kept) > 0 {
			newAssigned[topic] = kept
		}
		if len(revoke) > 0 {
			newPending[topic] = revoke
		}
		if len(add) > 0 {
			pendingAssignment[topic] = add
		}
	}

	switch {
	case len(newPending) > 0 && ownsRevokedPartitions(in.Owned, newPending):
		// Revoke first; nothing is added meanwhile.
		out := withEpoch(m, memberEpoch)
		out.State = MemberUnrevokedPartitions
		out.Assigned = newAssigned.list()
		out.PendingRevocation = newPending.list()
		return out
	case len(pendingAssignment) > 0:
		for topic, ps := range pendingAssignment {
			if newAssigned[topic] == nil {
				newAssigned[topic] = partitionSet{}
			}
			for _, p := range ps {
				newAssigned[topic][p] = in.TargetEpoch
			}
		}
		out := withEpoch(m, in.TargetEpoch)
		out.State = MemberStable
		if hasUnreleased {
			out.State = MemberUnreleasedPartitions
		}
		out.Assigned = newAssigned.list()
		out.PendingRevocation = nil
		return out
	case hasUnreleased:
		out := withEpoch(m, in.TargetEpoch)
		out.State = MemberUnreleasedPartitions
		out.Assigned = newAssigned.list()
		out.PendingRevocation = nil
		return out
	default:
		out := withEpoch(m, in.TargetEpoch)
		out.State = MemberStable
		out.Assigned = newAssigned.list()
		out.PendingRevocation = nil
		return out
	}
}
