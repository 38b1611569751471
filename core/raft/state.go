package raft

import (
	"math"

	"kafkascope/core/sim"
)

// epochState is one of the six states a node is in during an epoch: Kafka's
// EpochState. Each is immutable in epoch and role; only its timers, votes,
// replica progress and high watermark change while it is current.
type epochState interface {
	role() Role
	epoch() int32
	// election is what quorum-state records for this state.
	election() electionState
	// highWatermark is the offset below which entries are committed, or -1
	// while unknown (a new leader until it commits an entry of its epoch, a
	// node that restarted until a leader tells it).
	highWatermark() int64
	// canGrantVote says whether this state allows voting for candidate in
	// this epoch, given whether the candidate's log is at least as up to
	// date as ours. A standard vote is one per epoch: the caller records it
	// (Voted) when it grants. A pre-vote (KIP-996) records nothing and is
	// granted by any state that does not believe in a live leader, when the
	// log is up to date (canGrantVote of each EpochState, Kafka 4.3).
	canGrantVote(candidate int32, logUpToDate, preVote bool) bool
}

// never is a deadline that does not come (an observer's election timeout).
const never = sim.Time(math.MaxInt64)

// remaining is how long until deadline, 0 if it has passed.
func remaining(deadline, now sim.Time) sim.Time {
	if deadline <= now {
		return 0
	}
	return deadline - now
}

// unattachedState: the epoch's leader is unknown and this node has not
// voted (UnattachedState.java). It grants a vote, or a pre-vote, to any
// candidate whose log is up to date.
type unattachedState struct {
	epochNum         int32
	voters           []int32
	hw               int64
	electionDeadline sim.Time
}

func (s *unattachedState) role() Role           { return RoleUnattached }
func (s *unattachedState) epoch() int32         { return s.epochNum }
func (s *unattachedState) highWatermark() int64 { return s.hw }
func (s *unattachedState) canGrantVote(_ int32, upToDate, _ bool) bool {
	return upToDate
}
func (s *unattachedState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: NoLeader, votedID: notVoted, voters: s.voters}
}

// votedState: this voter granted its vote of the epoch to votedID
// (VotedState.java). It may repeat the grant to the same candidate (a
// retried request) but never grants another.
//
// Kafka 3.9 folded VotedState into UnattachedState with a voted key; the
// behaviour is the same and this package keeps the 3.8 name for both
// (doc.go). From 4.x on it also grants pre-votes when the log is up to
// date, whoever it voted for, and it can hold this node's own vote: a
// candidate whose election timed out becomes Prospective and then, if the
// pre-vote is lost, Unattached in its epoch with its vote kept
// (QuorumState.transitionToUnattached).
type votedState struct {
	epochNum         int32
	votedID          int32
	voters           []int32
	hw               int64
	electionDeadline sim.Time
}

func (s *votedState) role() Role           { return RoleVoted }
func (s *votedState) epoch() int32         { return s.epochNum }
func (s *votedState) highWatermark() int64 { return s.hw }
func (s *votedState) canGrantVote(candidate int32, upToDate, preVote bool) bool {
	if preVote {
		return upToDate
	}
	return candidate == s.votedID
}
func (s *votedState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: NoLeader, votedID: s.votedID, voters: s.voters}
}

// resignedState: this voter led the epoch and stopped (ResignedState.java):
// after a graceful resignation, a failed check-quorum, or a restart as
// leader. It keeps naming itself leader of the epoch, so quorum-state still
// says so and it can never vote in the epoch (its unflushed entries of the
// epoch may be gone after a restart, and a second leader in the same epoch
// could reuse their offsets). It sends EndQuorumEpoch to every other voter
// until each acknowledges, and starts an election when its timeout expires.
type resignedState struct {
	epochNum            int32
	localID             int32
	voters              []int32
	unacked             map[int32]bool // voters that have not acknowledged EndQuorumEpoch
	electionDeadline    sim.Time
	preferredSuccessors []int32
}

func newResignedState(epoch, localID int32, voters []int32, deadline sim.Time, successors []int32) *resignedState {
	s := &resignedState{epochNum: epoch, localID: localID, voters: voters, unacked: map[int32]bool{},
		electionDeadline: deadline, preferredSuccessors: successors}
	for _, v := range voters {
		if v != localID {
			s.unacked[v] = true
		}
	}
	return s
}

func (s *resignedState) role() Role           { return RoleResigned }
func (s *resignedState) epoch() int32         { return s.epochNum }
func (s *resignedState) highWatermark() int64 { return -1 } // EpochState's default: unknown
// canGrantVote: never a standard vote (it led the epoch); a pre-vote when
// the log is up to date, since it no longer leads (ResignedState, 4.x).
func (s *resignedState) canGrantVote(_ int32, upToDate, preVote bool) bool {
	return preVote && upToDate
}
func (s *resignedState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: s.localID, votedID: notVoted, voters: s.voters}
}

// unackedVoters lists the voters still to be told, ascending.
func (s *resignedState) unackedVoters() []int32 {
	var out []int32
	for _, v := range s.voters {
		if s.unacked[v] {
			out = append(out, v)
		}
	}
	return out
}
