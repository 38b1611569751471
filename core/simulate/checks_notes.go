package simulate

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// partitionEpoch is one leader epoch of one partition.
type partitionEpoch struct {
	tp    storage.TopicPartition
	epoch int32
}

// observe sees every engine note as it is made and checks the uniqueness
// invariants on them:
//   - one-leader-per-epoch: at most one broker starts leading a partition
//     in a given leader epoch (event.LeaderStarted);
//   - one-quorum-leader-per-epoch: at most one KRaft voter becomes the
//     quorum leader in a given quorum epoch (event.RaftTransition to
//     Leader);
//   - election-allowed: every leader the controller elects is one the
//     cluster's release allows (checks_elections.go).
func (run *Run) observe(e sim.TraceEvent) {
	switch n := e.Note.(type) {
	case event.LeaderStarted:
		checkUniqueLeader(run, "one-leader-per-epoch", run.leaderOfEpoch, partitionEpoch{n.TP, n.Epoch}, n.Broker,
			fmt.Sprintf("%s leader epoch %d", n.TP, n.Epoch))
	case event.LeaderElected:
		if run.x.elected == nil {
			run.x.elected = map[string][]electedEpoch{}
		}
		tp := n.TP.String()
		run.x.elected[tp] = append(run.x.elected[tp], electedEpoch{e.At, n.Epoch})
		run.checkElection(n)
	case event.RaftTransition:
		if n.Role == "Leader" {
			checkUniqueLeader(run, "one-quorum-leader-per-epoch", run.quorumLeader, n.Epoch, n.Node,
				fmt.Sprintf("quorum epoch %d", n.Epoch))
		}
	}
}

// checkUniqueLeader records that node leads key; another node leading the
// same key is a violation. (The same node leading it again, e.g. after a
// restart that reloads its state, is not.)
func checkUniqueLeader[K comparable](run *Run, invariant string, seen map[K]int32, key K, node int32, what string) {
	if prev, ok := seen[key]; ok && prev != node {
		run.violate(invariant, "%s: led by %d, then by %d", what, prev, node)
		return
	}
	seen[key] = node
}

// staleLeadership reports whether a broker that started leading tp in epoch
// at time at was replaying metadata already superseded: the controller had
// committed a later epoch of tp by then. A broker catching up applies each
// committed change in turn, so it may lead an old epoch for an instant
// before the next change moves it to follower; it is then no replica's
// leader (the current ISR follows the current leader) and cannot lose
// committed records (committed-data-lost would report the records it
// lacks; acked-write-lost, isr-identical and liveness still check the
// data itself).
func (run *Run) staleLeadership(tp string, epoch int32, at sim.Time) bool {
	for _, e := range run.x.elected[tp] {
		if e.at <= at && e.epoch > epoch {
			return true
		}
	}
	return false
}
