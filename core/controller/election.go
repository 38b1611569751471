package controller

import (
	"slices"

	"kafkascope/core/metadata"
)

// ElectionType is how a leader is chosen.
type ElectionType uint8

const (
	ElectionOnline    ElectionType = iota // keep a valid leader, else the first valid replica
	ElectionPreferred                     // the first replica if valid
	ElectionUnclean                       // online, falling back to any acceptable replica
)

// changeBuilder computes one PartitionChangeRecord the way Kafka's
// PartitionChangeBuilder does: it starts from the partition's current
// state, the caller sets targets (ISR, replicas, adding/removing replicas),
// and build() completes a reassignment whose ISR allows it, elects a
// leader, forces a leader epoch bump when replicas are dropped, and emits
// only the fields that change.
//
// acceptable(id) says whether a broker may lead or join the ISR: registered,
// unfenced and not in controlled shutdown.
type changeBuilder struct {
	topicID    metadata.Uuid
	index      int32
	p          *metadata.PartitionState
	acceptable func(int32) bool
	election   ElectionType

	isr, replicas, adding, removing []int32
}

func newChangeBuilder(topicID metadata.Uuid, index int32, p *metadata.PartitionState, et ElectionType, acceptable func(int32) bool) *changeBuilder {
	return &changeBuilder{
		topicID: topicID, index: index, p: p, acceptable: acceptable, election: et,
		isr: p.ISR, replicas: p.Replicas, adding: p.AddingReplicas, removing: p.RemovingReplicas,
	}
}

// partitionChange computes the change for moving p towards targetISR (nil =
// unchanged) with an election of kind et. It returns nil when nothing would
// change.
func partitionChange(topicID metadata.Uuid, index int32, p *metadata.PartitionState, targetISR []int32, et ElectionType, acceptable func(int32) bool) *metadata.PartitionChangeRecord {
	b := newChangeBuilder(topicID, index, p, et, acceptable)
	if targetISR != nil {
		b.isr = targetISR
	}
	return b.build()
}

// completeReassignment finishes a reassignment once the ISR, without the
// replicas being removed, is non-empty and holds every remaining replica
// (PartitionReassignmentReplicas.maybeCompleteReassignment).
func (b *changeBuilder) completeReassignment() {
	if len(b.adding) == 0 && len(b.removing) == 0 {
		return
	}
	keep := func(ids []int32) []int32 {
		return slices.DeleteFunc(slices.Clone(ids), func(id int32) bool { return slices.Contains(b.removing, id) })
	}
	isr, replicas := keep(b.isr), keep(b.replicas)
	if len(isr) == 0 || len(replicas) == 0 {
		return
	}
	for _, r := range replicas {
		if !slices.Contains(isr, r) {
			return
		}
	}
	b.isr, b.replicas, b.adding, b.removing = isr, replicas, nil, nil
}

func (b *changeBuilder) build() *metadata.PartitionChangeRecord {
	p := b.p
	b.completeReassignment()
	isr := b.isr
	// Removing the last ISR member leaves the ISR as it was (without ELR):
	// the partition keeps a record of who had the data, and has no leader.
	if len(isr) == 0 && len(p.ISR) > 0 {
		isr = p.ISR
	}
	valid := func(id int32) bool {
		return b.acceptable(id) && slices.Contains(isr, id)
	}
	firstValid := func() int32 {
		for _, r := range b.replicas {
			if valid(r) {
				return r
			}
		}
		return metadata.NoLeader
	}
	leader := metadata.NoLeader
	unclean := false
	switch b.election {
	case ElectionPreferred:
		switch {
		case len(b.replicas) > 0 && valid(b.replicas[0]):
			leader = b.replicas[0]
		case p.Leader >= 0 && valid(p.Leader):
			leader = p.Leader
		default:
			leader = firstValid()
		}
	default:
		if p.Leader >= 0 && valid(p.Leader) {
			leader = p.Leader
		} else {
			leader = firstValid()
		}
		if leader == metadata.NoLeader && b.election == ElectionUnclean {
			for _, r := range b.replicas {
				if b.acceptable(r) {
					leader, unclean = r, true
					break
				}
			}
		}
	}
	rec := metadata.NewPartitionChange(b.topicID, b.index)
	changed := false
	if unclean {
		isr = []int32{leader}
		rec.LeaderRecoveryState = metadata.LeaderRecovering
		changed = true
	}
	if leader != p.Leader {
		rec.Leader = leader
		changed = true
	}
	// Dropping a replica forces a new leader epoch, so that the removed
	// replica's requests are fenced.
	for _, r := range p.Replicas {
		if !slices.Contains(b.replicas, r) && rec.Leader == metadata.NoLeaderChange {
			rec.Leader = p.Leader
			changed = true
		}
	}
	if !slices.Equal(isr, p.ISR) {
		rec.ISR = slices.Clone(isr)
		changed = true
	}
	if !slices.Equal(b.replicas, p.Replicas) {
		rec.Replicas = slices.Clone(b.replicas)
		changed = true
	}
	if !slices.Equal(b.adding, p.AddingReplicas) {
		rec.AddingReplicas = nonNil(b.adding)
		changed = true
	}
	if !slices.Equal(b.removing, p.RemovingReplicas) {
		rec.RemovingReplicas = nonNil(b.removing)
		changed = true
	}
	if !changed {
		return nil
	}
	return rec
}

// nonNil returns ids, or an empty (non-nil) slice for "set to empty":
// in a PartitionChangeRecord nil means "unchanged".
func nonNil(ids []int32) []int32 {
	if ids == nil {
		return []int32{}
	}
	return slices.Clone(ids)
}
