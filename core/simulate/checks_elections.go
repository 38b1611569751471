package simulate

import (
	"slices"

	"kafkascope/core/event"
)

// checkElection (election-allowed), on every leader the active controller
// commits: the release's rules allow it. A clean election picks a member
// of the ISR, or on Kafka 4.1+ with eligible leader replicas (KIP-966) a
// member of the ELR (PartitionChangeBuilder.electLeader). An unclean one
// (the leader recovering, LeaderRecoveryState RECOVERING) needs
// unclean.leader.election.enable on the topic, except under ELR, whose
// controller also elects the last known leader when the ISR and the ELR
// are both empty (PartitionChangeBuilder.canElectLastKnownLeader; the
// same change may first take an uncleanly restarted broker out of the
// ELR, so the ELR the partition had may not be empty).
// The Prev fields are the partition as it was before the change.
func (run *Run) checkElection(n event.LeaderElected) {
	if n.Leader < 0 {
		return
	}
	if !n.Unclean {
		if !slices.Contains(n.PrevISR, n.Leader) && !slices.Contains(n.PrevELR, n.Leader) {
			run.violate("election-allowed", "%s: broker %d elected cleanly (epoch %d) from outside the ISR %v and the ELR %v", n.TP, n.Leader, n.Epoch, n.PrevISR, n.PrevELR)
		}
		return
	}
	if run.topicUnclean(n.TP.Topic) {
		return
	}
	if run.Plan.Version.AtLeast(4, 1) && len(n.PrevISR) == 0 && slices.Equal(n.PrevLastKnownElr, []int32{n.Leader}) {
		return
	}
	run.violate("election-allowed", "%s: broker %d elected uncleanly (epoch %d) with unclean.leader.election.enable off (ISR %v, ELR %v, last known leader %v)", n.TP, n.Leader, n.Epoch, n.PrevISR, n.PrevELR, n.PrevLastKnownElr)
}

// topicUnclean says whether a topic of the run allows unclean elections,
// as drawn or overridden.
func (run *Run) topicUnclean(topic string) bool {
	if v, ok := run.Opts.Overrides["unclean.leader.election.enable"]; ok {
		return v == "true"
	}
	for _, t := range run.Plan.Topics {
		if t.Name == topic {
			return t.Unclean
		}
	}
	return false
}
