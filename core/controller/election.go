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

// partitionChange computes the PartitionChangeRecord for moving p towards
// targetISR (nil = unchanged) with an election of kind et, as Kafka's
// PartitionChangeBuilder does. It returns nil when nothing would change.
//
// acceptable(id) says whether a broker may lead or join the ISR: registered,
// unfenced and not in controlled shutdown.
func partitionChange(topicID metadata.Uuid, index int32, p *metadata.PartitionState, targetISR []int32, et ElectionType, acceptable func(int32) bool) *metadata.PartitionChangeRecord {
	isr := p.ISR
	if targetISR != nil {
		isr = targetISR
	}
	// Removing the last ISR member leaves the ISR as it was (without ELR):
	// the partition keeps a record of who had the data, and has no leader.
	lastMemberRemoved := len(isr) == 0 && len(p.ISR) > 0
	if lastMemberRemoved {
		isr = p.ISR
	}
	valid := func(id int32) bool {
		return acceptable(id) && slices.Contains(isr, id)
	}
	leader := metadata.NoLeader
	unclean := false
	switch et {
	case ElectionPreferred:
		switch {
		case len(p.Replicas) > 0 && valid(p.Replicas[0]):
			leader = p.Replicas[0]
		case p.Leader >= 0 && valid(p.Leader):
			leader = p.Leader
		default:
			for _, r := range p.Replicas {
				if valid(r) {
					leader = r
					break
				}
			}
		}
	default:
		if p.Leader >= 0 && valid(p.Leader) {
			leader = p.Leader
		} else {
			for _, r := range p.Replicas {
				if valid(r) {
					leader = r
					break
				}
			}
		}
		if leader == metadata.NoLeader && et == ElectionUnclean {
			for _, r := range p.Replicas {
				if acceptable(r) {
					leader, unclean = r, true
					break
				}
			}
		}
	}
	rec := metadata.NewPartitionChange(topicID, index)
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
	if !slices.Equal(isr, p.ISR) {
		rec.ISR = slices.Clone(isr)
		changed = true
	}
	if !changed {
		return nil
	}
	return rec
}
