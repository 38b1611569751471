package raft

import (
	"fmt"

	"kafkascope/core/sim"
)

type voteState uint8

const (
	voteUnrecorded voteState = iota
	voteGranted
	voteRejected
)

// candidateState: this voter started the epoch and asks the others for
// their votes (CandidateState.java). Its own vote is granted from the start
// (quorum-state records votedId = itself). The election ends when a
// majority grants (it becomes leader), when so many reject that a majority
// is out of reach, or when the election timeout expires; in the last two
// cases it backs off for a random time and then stands again in the next
// epoch with retries+1.
//
// Invariant: every voter's vote is recorded at most once; granted and
// rejected are final.
type candidateState struct {
	epochNum         int32
	localID          int32
	voters           []int32
	votes            map[int32]voteState
	retries          int
	hw               int64
	electionDeadline sim.Time
	backingOff       bool
	backoffDeadline  sim.Time
}

func newCandidateState(epoch, localID int32, voters []int32, retries int, hw int64, deadline sim.Time) *candidateState {
	s := &candidateState{epochNum: epoch, localID: localID, voters: voters, votes: map[int32]voteState{},
		retries: retries, hw: hw, electionDeadline: deadline}
	for _, v := range voters {
		s.votes[v] = voteUnrecorded
	}
	s.votes[localID] = voteGranted
	return s
}

func (s *candidateState) role() Role           { return RoleCandidate }
func (s *candidateState) epoch() int32         { return s.epochNum }
func (s *candidateState) highWatermark() int64 { return s.hw }

// canGrantVote is always false: a candidate has voted for itself (an
// implicit vote, not a granted one, so even its own id is refused).
func (s *candidateState) canGrantVote(int32, bool) bool { return false }

func (s *candidateState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: NoLeader, votedID: s.localID, voters: s.voters}
}

func (s *candidateState) majority() int { return len(s.votes)/2 + 1 }

func (s *candidateState) count(v voteState) int {
	n := 0
	for _, st := range s.votes {
		if st == v {
			n++
		}
	}
	return n
}

// isVoteGranted: a majority (counting itself) granted.
func (s *candidateState) isVoteGranted() bool { return s.count(voteGranted) >= s.majority() }

// isVoteRejected: even if every unrecorded voter granted, no majority.
func (s *candidateState) isVoteRejected() bool {
	return s.count(voteGranted)+s.count(voteUnrecorded) < s.majority()
}

func (s *candidateState) record(id int32, v voteState) {
	cur, ok := s.votes[id]
	if !ok {
		panic(fmt.Sprintf("raft: vote recorded for non-voter %d", id))
	}
	if cur != voteUnrecorded && cur != v {
		panic(fmt.Sprintf("raft: voter %d changed its vote in epoch %d", id, s.epochNum))
	}
	s.votes[id] = v
}

// inState lists the voters whose vote is v, ascending.
func (s *candidateState) inState(v voteState) []int32 {
	var out []int32
	for _, id := range s.voters {
		if s.votes[id] == v {
			out = append(out, id)
		}
	}
	return out
}
