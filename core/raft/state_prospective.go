package raft

import "kafkascope/core/sim"

// prospectiveState: a voter of Kafka 4.x that lost touch with its leader
// (or found none) asks the other voters in a pre-vote whether they would
// elect it, before it starts a new epoch (ProspectiveState.java, KIP-996).
// It stays in its epoch and keeps the leader and vote it had: nothing is
// written to quorum-state, and the node's listeners still see the old
// leader. A majority of granted pre-votes makes it Candidate in epoch+1; a
// majority of refusals, or its election timer, sends it back to following
// the leader it knew (or to Unattached when it knew none).
//
// It is how a voter on a slow or flapping link stops unseating a healthy
// leader: the leader and every follower that has fetched from it refuse
// pre-votes, so no epoch is bumped.
type prospectiveState struct {
	epochElection
	epochNum int32
	// leaderID is the leader this node followed when its fetch timed out,
	// NoLeader if it had none.
	leaderID int32
	// votedID is the standard vote this node gave in the epoch (itself when
	// it was the epoch's candidate), notVoted if none.
	votedID          int32
	hw               int64
	electionDeadline sim.Time
}

func (s *prospectiveState) role() Role           { return RoleProspective }
func (s *prospectiveState) epoch() int32         { return s.epochNum }
func (s *prospectiveState) highWatermark() int64 { return s.hw }

// election keeps the leader if there is one, else the vote
// (ProspectiveState.election).
func (s *prospectiveState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: s.leaderID, votedID: s.votedID, voters: s.voters}
}

// canGrantVote follows Unattached's rule (QuorumState.
// unattachedOrProspectiveCanGrantVote): any pre-vote with an up-to-date
// log; a standard vote only to the candidate it already voted for, or, if
// it has neither voted nor known a leader in this epoch, to an up-to-date
// candidate.
func (s *prospectiveState) canGrantVote(candidate int32, upToDate, preVote bool) bool {
	switch {
	case preVote:
		return upToDate
	case s.votedID != notVoted:
		return candidate == s.votedID
	case s.leaderID != NoLeader:
		return false
	}
	return upToDate
}

// record notes a voter's pre-vote answer. Unlike a candidate's, an answer
// may change: a retried pre-vote is decided again (EpochElection.recordVote).
func (s *prospectiveState) record(id int32, v voteState) {
	s.vote(id)
	s.votes[id] = v
}
