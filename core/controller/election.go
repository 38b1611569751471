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
//
// With elr set (eligible.leader.replicas.version 1+, KIP-966) the builder
// also keeps the partition's eligible leader replicas, as Kafka 4.3's does
// (its useLastKnownLeaderInBalancedRecovery is always on there).
type changeBuilder struct {
	topicID    metadata.Uuid
	index      int32
	p          *metadata.PartitionState
	acceptable func(int32) bool
	election   ElectionType
	elr        *elrRules

	isr, replicas, adding, removing []int32
	targetElr                       []int32
}

// elrRules are what an ELR-enabled change needs beyond the partition:
// its effective min ISR (min(min.insync.replicas, replication factor)),
// and the replicas known to have shut down uncleanly, which may not be
// eligible (they may have lost acknowledged records).
type elrRules struct {
	minISR          int
	uncleanShutdown []int32
	// lastKnownOnEmptyISR is Kafka 4.1's rule for the last known leader:
	// kept when a change empties the ISR, where 4.3 keeps it when the
	// partition loses its leader (maybeUpdateLastKnownLeader).
	lastKnownOnEmptyISR bool
}

func newChangeBuilder(topicID metadata.Uuid, index int32, p *metadata.PartitionState, et ElectionType, acceptable func(int32) bool) *changeBuilder {
	return &changeBuilder{
		topicID: topicID, index: index, p: p, acceptable: acceptable, election: et,
		isr: p.ISR, replicas: p.Replicas, adding: p.AddingReplicas, removing: p.RemovingReplicas,
		targetElr: p.ELR,
	}
}

// partitionChange computes the change for moving p towards targetISR (nil =
// unchanged) with an election of kind et. It returns nil when nothing would
// change.
func partitionChange(topicID metadata.Uuid, index int32, p *metadata.PartitionState, targetISR []int32, et ElectionType, acceptable func(int32) bool, elr *elrRules) *metadata.PartitionChangeRecord {
	b := newChangeBuilder(topicID, index, p, et, acceptable)
	b.elr = elr
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
	// Without ELR, removing the last ISR member leaves the ISR as it was:
	// the partition keeps a record of who had the data, and has no leader.
	// With ELR the ISR may become empty; the ELR keeps that record.
	if b.elr == nil && len(isr) == 0 && len(p.ISR) > 0 {
		isr = p.ISR
	}
	b.populateTargetElr(isr)
	valid := func(id int32) bool {
		return b.acceptable(id) && (slices.Contains(isr, id) || len(isr) == 0 && slices.Contains(b.targetElr, id))
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
		if leader == metadata.NoLeader && b.canElectLastKnownLeader(isr) {
			leader, unclean = p.LastKnownElr[0], true
		}
	default:
		if p.Leader >= 0 && valid(p.Leader) {
			leader = p.Leader
		} else {
			leader = firstValid()
		}
		if leader == metadata.NoLeader && b.canElectLastKnownLeader(isr) {
			leader, unclean = p.LastKnownElr[0], true
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
	if leader != p.Leader && slices.Contains(b.targetElr, leader) {
		// A leader elected from the ELR is the whole new ISR.
		isr = []int32{leader}
		b.targetElr = slices.DeleteFunc(slices.Clone(b.targetElr), func(id int32) bool { return id == leader })
	}
	if unclean {
		isr = []int32{leader}
		if p.LeaderRecoveryState != metadata.LeaderRecovering {
			rec.LeaderRecoveryState = metadata.LeaderRecovering
		}
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
	if b.elr == nil && len(p.ELR) > 0 {
		// With eligible leader replicas off, a change clears the ELR a
		// partition kept from when they were on (maybeUpdateRecordElr);
		// the last known leader stays, as 4.1 and 4.3 keep it when
		// useLastKnownLeaderInBalancedRecovery (their default) is set.
		rec.EligibleLeaderReplicas = []int32{}
		changed = true
	}
	if b.elr != nil {
		// An unclean election ends what the ELR knew (maybeUpdateRecordElr).
		if unclean {
			b.targetElr = nil
		}
		if !slices.Equal(b.targetElr, p.ELR) {
			rec.EligibleLeaderReplicas = nonNil(b.targetElr)
			changed = true
		}
		// The last known leader is kept from the moment a partition
		// loses its leader with no last known leader yet, and dropped
		// once it has a leader (maybeUpdateLastKnownLeader).
		switch {
		case b.elr.lastKnownOnEmptyISR:
			// 4.1: when the record empties the ISR, unless the partition's
			// leader is already the one kept; dropped once the partition
			// has, or keeps, a leader.
			if !slices.Equal(isr, p.ISR) && len(isr) == 0 && (len(p.LastKnownElr) != 1 || p.LastKnownElr[0] != p.Leader) {
				rec.LastKnownElr = []int32{p.Leader}
				changed = true
			} else if (rec.Leader >= 0 || (p.Leader != metadata.NoLeader && rec.Leader != metadata.NoLeader)) && len(p.LastKnownElr) > 0 {
				rec.LastKnownElr = []int32{}
				changed = true
			}
		case rec.Leader == metadata.NoLeader && len(p.LastKnownElr) == 0:
			rec.LastKnownElr = []int32{p.Leader}
			changed = true
		case rec.Leader >= 0 && len(p.LastKnownElr) > 0:
			rec.LastKnownElr = []int32{}
			changed = true
		}
	}
	if !slices.Equal(isr, p.ISR) {
		rec.ISR = nonNil(isr)
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

// populateTargetElr is maybePopulateTargetElr: with the target ISR at or
// above min ISR the ELR empties; below it, every replica leaving the ISR
// joins the ELR (it held every committed record when it left), except one
// known to have shut down uncleanly. Kafka collects the members in a
// HashSet<Integer>, whose order for broker ids is ascending.
func (b *changeBuilder) populateTargetElr(isr []int32) {
	if b.elr == nil {
		return
	}
	if len(isr) >= b.elr.minISR {
		b.targetElr = nil
		return
	}
	var elr []int32
	for _, id := range append(slices.Clone(b.targetElr), b.p.ISR...) {
		if !slices.Contains(isr, id) && !slices.Contains(b.elr.uncleanShutdown, id) && !slices.Contains(elr, id) {
			elr = append(elr, id)
		}
	}
	slices.Sort(elr)
	b.targetElr = elr
}

// canElectLastKnownLeader: with ELR on, a partition with neither ISR nor
// ELR may elect its last known leader if that broker is back; the
// election counts as unclean (the leader recovers, Kafka 4.3's
// PartitionChangeBuilder.canElectLastKnownLeader).
func (b *changeBuilder) canElectLastKnownLeader(isr []int32) bool {
	return b.elr != nil && len(b.targetElr) == 0 && len(isr) == 0 &&
		len(b.p.LastKnownElr) == 1 && b.acceptable(b.p.LastKnownElr[0])
}

// nonNil returns ids, or an empty (non-nil) slice for "set to empty":
// in a PartitionChangeRecord nil means "unchanged".
func nonNil(ids []int32) []int32 {
	if ids == nil {
		return []int32{}
	}
	return slices.Clone(ids)
}
