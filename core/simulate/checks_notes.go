package simulate

import (
	"fmt"
	"strconv"

	"kafkascope/core/sim"
)

// observe sees every engine note as it is made and checks the uniqueness
// invariants on them:
//   - one-leader-per-epoch: at most one broker starts leading a partition
//     in a given leader epoch (note "leader.started");
//   - one-quorum-leader-per-epoch: at most one KRaft voter becomes the
//     quorum leader in a given quorum epoch (note "raft.transition" with
//     role Leader).
func (run *Run) observe(e sim.TraceEvent) {
	switch e.Detail {
	case "leader.started":
		run.checkUniqueLeader("one-leader-per-epoch", e.Field("tp")+"/"+e.Field("epoch"), e.Field("broker"),
			"%s leader epoch %s", e.Field("tp"), e.Field("epoch"))
	case "leader.elected":
		// Notes write ids and epochs in decimal (strconv.Itoa).
		if epoch, err := strconv.ParseInt(e.Field("epoch"), 10, 32); err == nil {
			if run.x.elected == nil {
				run.x.elected = map[string][]electedEpoch{}
			}
			run.x.elected[e.Field("tp")] = append(run.x.elected[e.Field("tp")], electedEpoch{e.At, int32(epoch)})
		}
	case "raft.transition":
		if e.Field("role") == "Leader" {
			run.checkUniqueLeader("one-quorum-leader-per-epoch", e.Field("epoch"), e.Field("node"),
				"quorum epoch %s", e.Field("epoch"))
		}
	}
}

// checkUniqueLeader records that node leads key; another node leading the
// same key is a violation. (The same node leading it again, e.g. after a
// restart that reloads its state, is not.)
func (run *Run) checkUniqueLeader(invariant, key, node string, what string, args ...any) {
	seen := run.leaderOfEpoch
	if invariant == "one-quorum-leader-per-epoch" {
		seen = run.quorumLeader
	}
	id64, err := strconv.ParseInt(node, 10, 32)
	if err != nil {
		return
	}
	id := int32(id64)
	if prev, ok := seen[key]; ok && prev != id {
		run.violate(invariant, "%s: led by %d, then by %d", fmt.Sprintf(what, args...), prev, id)
		return
	}
	seen[key] = id
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
