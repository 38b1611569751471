package raft

import "kafkascope/core/sim"

// commit-latency-avg and -max, as Kafka 3.8's KafkaRaftClient records
// them: for each batch the leader appends for its listener (appendBatch:
// the controller's records, NoOps included; not the LeaderChangeMessage,
// which the leader writes itself), once the high watermark passes it, the
// milliseconds from its append to that moment divided by its records,
// recorded at its append time (updateCommitLatency(elapsedPerRecord,
// appendTimeMs): the sample window is the append's). A leader that stops
// leading records nothing for what was still pending (its purgatory's
// futures fail). kafkascope appends without the accumulator's linger, so
// the append time is the Append call's.
//
// A leap's NoOps commit at a time known when they are appended (the first
// Fetch back, QuorumLoop.minRoundTrip later); they wait here with that
// time and are recorded once it has passed, in the same order and with
// the same values the stepped run records.

// pendingCommit is a leader's batch waiting for the high watermark.
type pendingCommit struct {
	last     int64 // the batch's last offset
	appended sim.Time
	records  int64
	commitAt sim.Time // a leaped NoOp's commit; -1: when the high watermark passes it
}

// appendedForCommit notes a batch the leader appended at at.
func (n *Node) appendedForCommit(last int64, at sim.Time, records int64, commitAt sim.Time) {
	r := n.rates()
	r.pending = append(r.pending, pendingCommit{last: last, appended: at, records: records, commitAt: commitAt})
}

// committedUpTo records the pending batches below the leader's new high
// watermark hw, at now (onUpdateLeaderHighWatermark completing the append
// purgatory).
func (n *Node) committedUpTo(now sim.Time, hw int64) {
	r := n.rates()
	i := 0
	for ; i < len(r.pending) && r.pending[i].last < hw; i++ {
		p := r.pending[i]
		at := now
		if p.commitAt >= 0 {
			at = p.commitAt
		}
		n.recordCommit(p, at)
	}
	r.pending = r.pending[i:]
}

// leapedCommitsBy records the leaped NoOps whose commit time has come by
// now.
func (n *Node) leapedCommitsBy(now sim.Time) {
	r := n.rates()
	i := 0
	for ; i < len(r.pending) && r.pending[i].commitAt >= 0 && r.pending[i].commitAt <= now; i++ {
		n.recordCommit(r.pending[i], r.pending[i].commitAt)
	}
	r.pending = r.pending[i:]
}

func (n *Node) recordCommit(p pendingCommit, at sim.Time) {
	elapsed := max(0, at.UnixMilli()-p.appended.UnixMilli())
	n.rates().commit.Record(p.appended, float64(elapsed)/float64(max(p.records, 1)))
}

// leaderStopped drops the pending batches: they are never recorded.
func (n *Node) leaderStopped() { n.rates().pending = nil }
