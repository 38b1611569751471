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
// KafkaRaftClient.java:644-692; 4.3's for pre-votes). A candidate in a
// newer epoch first moves this node to that epoch (Unattached), and so
// does a prospective's pre-vote from a newer epoch. The vote is granted
// when the state allows it (one standard vote per epoch: Unattached
// grants, Voted grants only the same candidate again, every other state
// refuses; pre-votes see canGrantVote) and the candidate's log is at least
// as up to date: its (last epoch, end offset) compared epoch first, then
// offset, is >= ours. Only a granted standard vote is recorded, durably
// (quorum-state), before the response leaves.
func (n *Node) handleVoteRequest(env *sim.Env, r *VoteRequest) *VoteResponse {
	if !n.validClusterID(r.ClusterID) {
		return &VoteResponse{CorrelationID: r.CorrelationID, ErrorCode: protocol.INCONSISTENT_CLUSTER_ID, LeaderID: NoLeader, LeaderEpoch: -1}
	}
	if r.PreVote && !n.cfg.PreVote {
		// A 3.8 voter has no Vote v2: the sender's client would refuse to
		// build the request and answer itself (KafkaNetworkChannel). Every
		// node of a kafkascope cluster runs one release, so only the tests
		// get here.
		return &VoteResponse{CorrelationID: r.CorrelationID, ErrorCode: protocol.UNSUPPORTED_VERSION, LeaderID: NoLeader, LeaderEpoch: -1}
	}
	// A candidate has never seen its new epoch, so its last log epoch is
	// below it; a prospective asks in its current epoch, which its log may
	// already hold (KafkaRaftClient.handleVoteRequest, 4.3).
	illegalEpoch := r.LastOffsetEpoch >= r.CandidateEpoch
	if r.PreVote {
		illegalEpoch = r.LastOffsetEpoch > r.CandidateEpoch
	}
	if r.LastOffset < 0 || r.LastOffsetEpoch < 0 || illegalEpoch {
		return n.voteResponse(r.CorrelationID, protocol.INVALID_REQUEST, false)
	}
	if e := n.validateVoterOnlyRequest(r.CandidateID, r.CandidateEpoch); e != protocol.NONE {
		return n.voteResponse(r.CorrelationID, e, false)
	}
	if r.CandidateEpoch > n.quorum.epoch() {
		n.transitionToUnattached(env, r.CandidateEpoch, fmt.Sprintf("vote request from %d", r.CandidateID))
	}
	upToDate := compareOffsetAndEpoch(r.LastOffset, r.LastOffsetEpoch, n.log.endOffset(), n.log.lastFetchedEpoch()) >= 0
	granted := n.quorum.state.canGrantVote(r.CandidateID, upToDate, r.PreVote)
	if h := n.cfg.hooks; h != nil && h.grantAnyVote && !r.PreVote && !granted && upToDate &&
		n.quorum.role() != RoleCandidate && n.quorum.role() != RoleLeader && n.quorum.role() != RoleResigned {
		granted = true // planted bug: a second vote in the same epoch
	}
	if granted && !r.PreVote {
		switch s := n.quorum.state.(type) {
		case *unattachedState:
			n.transitionToVoted(env, r.CandidateID, r.CandidateEpoch)
		case *prospectiveState:
			if s.votedID == notVoted {
				n.quorum.prospectiveAddVotedState(env.Now(), r.CandidateID)
			}
		}
	}
	env.Note(event.VoteAnswered{Node: n.cfg.NodeID, Candidate: r.CandidateID, Epoch: r.CandidateEpoch, Granted: granted, PreVote: r.PreVote})
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

// handleVoteResponse counts a vote (KafkaRaftClient.java:694-753; 4.3's
// for pre-votes). A 3.8 candidate that can no longer reach a majority
// backs off at once instead of waiting out its election timeout, so
// gridlocked elections end sooner; a 4.x candidate waits out its timer. A
// prospective refused by a majority gives up at once and follows its
// leader again (or waits, Unattached); one that hears a voter cannot
// pre-vote (UNSUPPORTED_VERSION) stands as a candidate straight away.
func (n *Node) handleVoteResponse(env *sim.Env, src int32, r *VoteResponse) bool {
	if n.quorum.role() == RoleProspective && r.ErrorCode == protocol.UNSUPPORTED_VERSION {
		n.transitionToCandidate(env)
		return true
	}
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.LeaderID, r.LeaderEpoch); done {
		return res
	}
	if r.PartitionError != protocol.NONE {
		return false
	}
	switch s := n.quorum.state.(type) {
	case *candidateState:
		if r.VoteGranted {
			s.record(src, voteGranted)
			n.maybeTransitionToLeader(env, s)
			return true
		}
		s.record(src, voteRejected)
		if s.isVoteRejected() && !s.backingOff && !n.cfg.PreVote {
			d := n.binaryExponentialElectionBackoff(s.retries)
			s.backingOff, s.backoffDeadline = true, env.Now().Add(d)
			env.Note(event.ElectionBackoff{Node: n.cfg.NodeID, Epoch: s.epochNum, Backoff: d, Why: "vote rejected by a majority"})
		}
	case *prospectiveState:
		if r.VoteGranted {
			s.record(src, voteGranted)
			n.maybeTransitionToCandidate(env, s)
			return true
		}
		s.record(src, voteRejected)
		if s.isVoteRejected() {
			n.prospectiveTransitionAfterElectionLoss(env, s, "pre-vote refused by a majority")
		}
	}
	return true // else already leader, or no longer standing
}
