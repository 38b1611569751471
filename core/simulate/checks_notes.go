package simulate

import (
	"fmt"

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
	var id int32
	if _, err := fmt.Sscan(node, &id); err != nil {
		return
	}
	if prev, ok := seen[key]; ok && prev != id {
		run.violate(invariant, "%s: led by %d, then by %d", fmt.Sprintf(what, args...), prev, id)
		return
	}
	seen[key] = id
}
