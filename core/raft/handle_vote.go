package raft

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

func (n *Node) voteResponse(corr int32, err protocol.ErrorCode, granted bool) *VoteResponse {
	return &VoteResponse{CorrelationID: corr, PartitionError: err, LeaderID: n.quorum.leaderID(), LeaderEpoch: n.quorum.epoch(), VoteGranted: granted}
}

// handleVoteRequest decides a vote (KafkaRaftClient.handleVoteRequest,
// KafkaRaftClient.java:644-692). A candidate in a newer epoch first moves
// this node to that epoch (Unattached). The vote is granted when the
// state allows it (one vote per epoch: Unattached grants, Voted grants only
// the same candidate again, every other state refuses) and the candidate's
// log is at least as up to date: its (last epoch, end offset) compared
// epoch first, then offset, is >= ours. Granting from Unattached is made
// durable (quorum-state) before the response leaves.
func (n *Node) handleVoteRequest(env *sim.Env, r *VoteRequest) *VoteResponse {
	if !n.validClusterID(r.ClusterID) {
		return &VoteResponse{CorrelationID: r.CorrelationID, ErrorCode: protocol.INCONSISTENT_CLUSTER_ID, LeaderID: NoLeader, LeaderEpoch: -1}
	}
	if r.LastOffset < 0 || r.LastOffsetEpoch < 0 || r.LastOffsetEpoch >= r.CandidateEpoch {
		return n.voteResponse(r.CorrelationID, protocol.INVALID_REQUEST, false)
	}
	if e := n.validateVoterOnlyRequest(r.CandidateID, r.CandidateEpoch); e != protocol.NONE {
		return n.voteResponse(r.CorrelationID, e, false)
	}
	if r.CandidateEpoch > n.quorum.epoch() {
		n.transitionToUnattached(env, r.CandidateEpoch, fmt.Sprintf("vote request from %d", r.CandidateID))
	}
	upToDate := compareOffsetAndEpoch(r.LastOffset, r.LastOffsetEpoch, n.log.endOffset(), n.log.lastFetchedEpoch()) >= 0
	granted := n.quorum.state.canGrantVote(r.CandidateID, upToDate)
	if h := n.cfg.hooks; h != nil && h.grantAnyVote && !granted && upToDate &&
		n.quorum.role() != RoleCandidate && n.quorum.role() != RoleLeader && n.quorum.role() != RoleResigned {
		granted = true // planted bug: a second vote in the same epoch
	}
	if granted && n.quorum.role() == RoleUnattached {
		n.transitionToVoted(env, r.CandidateID, r.CandidateEpoch)
	}
	env.Note(event.VoteAnswered{Node: n.cfg.NodeID, Candidate: r.CandidateID, Epoch: r.CandidateEpoch, Granted: granted})
	return n.voteResponse(r.CorrelationID, protocol.NONE, granted)
}

// compareOffsetAndEpoch orders log positions as OffsetAndEpoch.compareTo:
// by epoch, then by offset.
func compareOffsetAndEpoch(offA int64, epochA int32, offB int64, epochB int32) int {
	switch {
	case epochA != epochB && epochA < epochB:
		return -1
	case epochA != epochB:
		return 1
	case offA < offB:
		return -1
	case offA > offB:
		return 1
	}
	return 0
}

// handleVoteResponse counts a vote. A candidate that can no longer reach a
// majority backs off at once instead of waiting out its election timeout,
// so gridlocked elections end sooner (KafkaRaftClient.java:694-753).
func (n *Node) handleVoteResponse(env *sim.Env, src int32, r *VoteResponse) bool {
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.LeaderID, r.LeaderEpoch); done {
		return res
	}
	if r.PartitionError != protocol.NONE {
		return false
	}
	c, ok := n.quorum.state.(*candidateState)
	if !ok {
		return true // already leader, or no longer a candidate
	}
	if r.VoteGranted {
		c.record(src, voteGranted)
		n.maybeTransitionToLeader(env, c)
		return true
	}
	c.record(src, voteRejected)
	if c.isVoteRejected() && !c.backingOff {
		d := n.binaryExponentialElectionBackoff(c.retries)
		c.backingOff, c.backoffDeadline = true, env.Now().Add(d)
		env.Note(event.ElectionBackoff{Node: n.cfg.NodeID, Epoch: c.epochNum, Backoff: d, Why: "vote rejected by a majority"})
	}
	return true
}
