package simulate

import "kafkascope/core/cluster"

// voterPowerLossOneIn: at each step of the safety phase a controller voter
// loses power with probability 1/voterPowerLossOneIn (about one run in two
// has one), on top of the fault the main stream draws.
const voterPowerLossOneIn = 20

// voterPowerLoss (drawn from "simulate/faults/voters") cuts the power of a
// KRaft controller voter: in this cluster every voter is a combined node
// (process.roles=broker,controller, cluster.Cluster.IsVoter), so the
// machine's partition logs lose their unflushed records as any broker's do,
// and its __cluster_metadata-0 log loses what was not fsynced. KRaft
// fsyncs before it counts an entry: the leader in flushLeaderLog before its
// own end offset counts toward the high watermark, a voting follower in
// appendAsFollower before its next Fetch reports the offset
// (KafkaRaftClient, Kafka 3.8; core/raft does the same), and quorum-state
// before a vote is answered. So a voter power loss may lose uncommitted
// metadata only; checks_metadata.go holds the quorum to that.
func (run *Run) voterPowerLoss() {
	r := run.stream(&run.x.voters, "simulate/faults/voters")
	if r.Intn(voterPowerLossOneIn) != 0 {
		return
	}
	c := run.C
	var voters []int32
	for _, id := range c.NodeIDs() {
		if c.IsVoter(id) && c.State(id) != cluster.NodePowerOff {
			voters = append(voters, id)
		}
	}
	if run.Opts.NoPowerLoss || len(voters) == 0 {
		return
	}
	id := pick(r, voters)
	what := "a controller voter"
	if id == run.activeController() {
		what = "the active controller"
	}
	run.note("broker kill %d --power-loss (%s)", id, what)
	if err := run.powerLoss(id); err != nil {
		run.note("  (refused: %v)", err)
	}
}
