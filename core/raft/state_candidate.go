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
// is out of reach, or when the election timeout expires. What follows a
// lost election depends on the release: in 3.8 it backs off for a random
// time and stands again in the next epoch with retries+1; from 4.1 it waits
// out its election timer and then becomes Prospective (Config.PreVote).
type candidateState struct {
	epochElection
	epochNum         int32
	localID          int32
	retries          int
	hw               int64
	electionDeadline sim.Time
	backingOff       bool
	backoffDeadline  sim.Time
}

func newCandidateState(epoch, localID int32, voters []int32, retries int, hw int64, deadline sim.Time) *candidateState {
	return &candidateState{epochElection: newEpochElection(epoch, localID, voters), epochNum: epoch, localID: localID,
		retries: retries, hw: hw, electionDeadline: deadline}
}

func (s *candidateState) role() Role           { return RoleCandidate }
func (s *candidateState) epoch() int32         { return s.epochNum }
func (s *candidateState) highWatermark() int64 { return s.hw }

// canGrantVote: never a standard vote (a candidate has voted for itself,
// an implicit vote, so even its own id is refused); a pre-vote when the
// log is up to date (CandidateState.canGrantVote, 4.x).
func (s *candidateState) canGrantVote(_ int32, upToDate, preVote bool) bool {
	return preVote && upToDate
}

func (s *candidateState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: NoLeader, votedID: s.localID, voters: s.voters}
}

// record notes a voter's answer. A candidate's voters answer once: a vote
// that changes is a broken invariant (CandidateState.recordGrantedVote).
func (s *candidateState) record(id int32, v voteState) {
	cur := s.vote(id)
	if cur != voteUnrecorded && cur != v {
		panic(fmt.Sprintf("raft: voter %d changed its vote in epoch %d", id, s.epochNum))
	}
	s.votes[id] = v
}

// epochElection is the tally of one election, a pre-vote's or a
// candidate's (Kafka's EpochElection): each voter's answer, the local
// voter's own granted from the start.
//
// Invariant: votes has exactly the voters as keys.
type epochElection struct {
	voters []int32 // ascending
	votes  map[int32]voteState
}

func newEpochElection(epoch, localID int32, voters []int32) epochElection {
	e := epochElection{voters: voters, votes: map[int32]voteState{}}
	for _, v := range voters {
		e.votes[v] = voteUnrecorded
	}
	if _, ok := e.votes[localID]; !ok {
		panic(fmt.Sprintf("raft: node %d is not a voter of epoch %d", localID, epoch))
	}
	e.votes[localID] = voteGranted
	return e
}

func (e *epochElection) vote(id int32) voteState {
	v, ok := e.votes[id]
	if !ok {
		panic(fmt.Sprintf("raft: vote recorded for non-voter %d", id))
	}
	return v
}

func (e *epochElection) majority() int { return len(e.votes)/2 + 1 }

func (e *epochElection) count(v voteState) int {
	n := 0
	for _, st := range e.votes {
		if st == v {
			n++
		}
	}
	return n
}

// isVoteGranted: a majority (counting itself) granted.
func (e *epochElection) isVoteGranted() bool { return e.count(voteGranted) >= e.majority() }

// isVoteRejected: even if every unrecorded voter granted, no majority.
func (e *epochElection) isVoteRejected() bool {
	return e.count(voteGranted)+e.count(voteUnrecorded) < e.majority()
}

// inState lists the voters whose vote is v, ascending.
func (e *epochElection) inState(v voteState) []int32 {
	var out []int32
	for _, id := range e.voters {
		if e.votes[id] == v {
			out = append(out, id)
		}
	}
	return out
}
