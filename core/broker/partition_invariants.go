package broker

import (
	"slices"

	"kafkascope/core/invariant"
)

// leaderHW is the HW a leader last saw of its own in an epoch: within an
// epoch a leader's HW never goes down (Partition's invariants).
type leaderHW struct {
	epoch int32
	hw    int64
	seen  bool
}

// checkLeader stops the run if this leader broke Partition's invariants
// (partition.go) as op found it: the ISR holds the leader, and the HW has
// not gone down in this epoch.
func (p *Partition) checkLeader(op string) {
	me := p.b.cfg.NodeID
	if !slices.Contains(p.isr, me) {
		invariant.Fail(p.String()+" "+op+": the leader is not in its ISR", int64(me))
	}
	hw := p.log.HighWatermark()
	if p.hwSeen.seen && p.hwSeen.epoch == p.leaderEpoch && hw < p.hwSeen.hw {
		invariant.Fail(p.String()+" "+op+": the leader's HW went down in its epoch (from, to)", p.hwSeen.hw, hw)
	}
	p.hwSeen = leaderHW{epoch: p.leaderEpoch, hw: hw, seen: true}
}

// checkHWAdvance stops the run if the HW a leader is about to set is
// beyond what every member of the maximal ISR has: its own LEO and each
// follower's last fetch.
func (p *Partition) checkHWAdvance(newHW int64) {
	if leo := p.log.LogEndOffset(); newHW > leo {
		invariant.Fail(p.String()+": the new HW is beyond the leader's LEO (HW, LEO)", newHW, leo)
	}
	for _, id := range p.maximalISR() {
		if st := p.followers.get(id); st != nil && st.logEndOffset < newHW {
			invariant.Fail(p.String()+": the new HW is beyond an ISR member's LEO (HW, member, its LEO)", newHW, int64(id), st.logEndOffset)
		}
	}
}
