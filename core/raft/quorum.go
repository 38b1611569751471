package raft

import (
	"fmt"
	"time"

	"kafkascope/core/sim"
)

// quorumState owns the current epochState and its transitions (Kafka's
// QuorumState). Every transition except to Resigned is durable: the new
// election state is fsynced to quorum-state before the node acts on it, so a
// restarted node never votes twice in an epoch or forgets that it led one.
//
// Transition rules (each panics if broken, as Kafka throws):
//   - the epoch never decreases;
//   - Unattached(e) needs e > epoch, or (pre-vote rules) e == epoch from
//     Prospective, which keeps its vote;
//   - Voted(e) needs e > epoch, or e == epoch from Unattached, and a
//     candidate other than this node;
//   - Follower(e) needs e > epoch, or e == epoch when not already Follower
//     or Leader, and a leader other than this node; with the pre-vote rules
//     a vote of the same epoch is kept;
//   - Prospective (pre-vote rules) keeps the epoch, is for voters only, and
//     not from Leader or Prospective; it is the one transition kept in
//     memory only, since quorum-state does not change;
//   - Candidate starts epoch+1 and is for voters only; with the pre-vote
//     rules only from Prospective;
//   - Leader only from a Candidate with a majority of votes;
//   - Resigned only from Leader.
type quorumState struct {
	localID         int32
	voters          []int32 // ascending
	observer        bool
	store           *quorumStateStore
	rnd             *sim.Rand
	electionTimeout time.Duration
	fetchTimeout    time.Duration
	// preVote: Kafka 4.x's election rules (Config.PreVote).
	preVote bool
	state   epochState
}

func (q *quorumState) epoch() int32 { return q.state.epoch() }
func (q *quorumState) role() Role   { return q.state.role() }

func (q *quorumState) leaderID() int32 { return q.state.election().leaderID }

func (q *quorumState) hasLeader() bool { return q.leaderID() >= 0 }

func (q *quorumState) hasRemoteLeader() bool { return q.hasLeader() && q.leaderID() != q.localID }

func (q *quorumState) isVoter(id int32) bool {
	for _, v := range q.voters {
		if v == id {
			return true
		}
	}
	return false
}

func (q *quorumState) isOnlyVoter() bool {
	return !q.observer && len(q.voters) == 1
}

func (q *quorumState) leaderAndEpoch() LeaderAndEpoch {
	return LeaderAndEpoch{LeaderID: q.leaderID(), Epoch: q.epoch()}
}

// randomElectionTimeout is election.timeout.ms plus a uniform random part
// in [0, election.timeout.ms), in whole milliseconds as Kafka draws it
// (QuorumState.randomElectionTimeoutMs, QuorumState.java:553-557).
func (q *quorumState) randomElectionTimeout() time.Duration {
	ms := int(q.electionTimeout / time.Millisecond)
	return time.Duration(ms+q.rnd.Intn(ms)) * time.Millisecond
}

// initialize picks the starting state from quorum-state and the log, as
// QuorumState.initialize does (QuorumState.java:132-241).
func (q *quorumState) initialize(now sim.Time, logLastEpoch int32) error {
	e, ok, err := q.store.read()
	if err != nil {
		return err
	}
	if !ok {
		e = electionState{epoch: 0, leaderID: NoLeader, votedID: notVoted}
	}
	et := now.Add(q.randomElectionTimeout())
	var s epochState
	switch {
	case e.epoch < logLastEpoch:
		// The log saw a later epoch than the file: start unattached there.
		s = &unattachedState{epochNum: logLastEpoch, voters: q.voters, hw: -1, electionDeadline: et}
	case !q.observer && e.leaderID == q.localID:
		// A restarted leader resigns its epoch: it must not vote in it, and
		// it must not lead it again (lost unflushed entries would let two
		// different records share an offset and epoch).
		s = newResignedState(e.epoch, q.localID, q.voters, et, nil)
	case !q.observer && e.votedID == q.localID:
		s = newCandidateState(e.epoch, q.localID, q.voters, 1, -1, et)
	case e.hasLeader():
		// Checked before the vote: a 4.x node may have recorded both, and
		// then it follows the leader and keeps the vote. 3.8 never writes
		// both.
		if !q.isVoter(e.leaderID) {
			return fmt.Errorf("raft: leader %d in quorum-state is not a voter %v", e.leaderID, q.voters)
		}
		s = &followerState{epochNum: e.epoch, leaderID: e.leaderID, votedID: e.votedID, voters: q.voters, hw: -1,
			fetchTimeout: q.fetchTimeout, fetchDeadline: now.Add(q.fetchTimeout)}
	case e.hasVoted():
		s = &votedState{epochNum: e.epoch, votedID: e.votedID, voters: q.voters, hw: -1, electionDeadline: et}
	default:
		s = &unattachedState{epochNum: e.epoch, voters: q.voters, hw: -1, electionDeadline: et}
	}
	if q.observer {
		if u, ok := s.(*unattachedState); ok {
			u.electionDeadline = never
		}
	}
	return q.durableTransitionTo(s)
}

func (q *quorumState) durableTransitionTo(s epochState) error {
	if err := q.store.write(s.election()); err != nil {
		return fmt.Errorf("raft: writing quorum-state: %w", err)
	}
	q.state = s
	return nil
}

func (q *quorumState) mustDurable(s epochState) {
	if err := q.durableTransitionTo(s); err != nil {
		// Kafka cannot continue without its quorum state either.
		panic(err.Error())
	}
}

// remainingElection is how long the current waiting state still waits
// (QuorumState.transitionToUnattached). The pre-vote rules add Resigned,
// and a Prospective whose pre-vote was not refused: one that timed out
// goes on at once, one a majority refused waits a fresh timeout.
func (q *quorumState) remainingElection(now sim.Time) time.Duration {
	switch s := q.state.(type) {
	case *candidateState:
		return time.Duration(remaining(s.electionDeadline, now))
	case *votedState:
		return time.Duration(remaining(s.electionDeadline, now))
	case *unattachedState:
		return time.Duration(remaining(s.electionDeadline, now))
	case *prospectiveState:
		if !s.isVoteRejected() {
			return time.Duration(remaining(s.electionDeadline, now))
		}
	case *resignedState:
		if q.preVote {
			return time.Duration(remaining(s.electionDeadline, now))
		}
	}
	return q.randomElectionTimeout()
}

// transitionToUnattached: a later epoch exists but its leader is unknown,
// or (pre-vote rules) a Prospective with no leader lost its pre-vote and
// stays in its epoch, keeping its vote. A voter keeps the time left of its
// current election timer, so repeated epoch bumps do not postpone its own
// candidacy forever.
func (q *quorumState) transitionToUnattached(now sim.Time, epoch int32) {
	_, prospective := q.state.(*prospectiveState)
	if epoch < q.epoch() || (epoch == q.epoch() && !prospective) {
		panic(fmt.Sprintf("raft: cannot transition to Unattached with epoch %d from %s epoch %d", epoch, q.role(), q.epoch()))
	}
	deadline := never
	if !q.observer {
		deadline = now.Add(q.remainingElection(now))
	}
	hw := q.state.highWatermark()
	if v := q.state.election().votedID; epoch == q.epoch() && v != notVoted {
		q.mustDurable(&votedState{epochNum: epoch, votedID: v, voters: q.voters, hw: hw, electionDeadline: deadline})
		return
	}
	q.mustDurable(&unattachedState{epochNum: epoch, voters: q.voters, hw: hw, electionDeadline: deadline})
}

// transitionToVoted grants this epoch's vote to candidate. The election
// timer restarts: the candidate is at least as likely to win as we are.
func (q *quorumState) transitionToVoted(now sim.Time, epoch, candidate int32) {
	switch {
	case candidate == q.localID:
		panic(fmt.Sprintf("raft: cannot vote for itself (%d) in epoch %d", candidate, epoch))
	case q.observer:
		panic("raft: an observer cannot vote")
	case epoch < q.epoch():
		panic(fmt.Sprintf("raft: cannot vote in epoch %d below %d", epoch, q.epoch()))
	case epoch == q.epoch() && q.role() != RoleUnattached:
		panic(fmt.Sprintf("raft: cannot vote for %d in epoch %d from %s", candidate, epoch, q.role()))
	}
	q.mustDurable(&votedState{epochNum: epoch, votedID: candidate, voters: q.voters, hw: q.state.highWatermark(),
		electionDeadline: now.Add(q.randomElectionTimeout())})
}

// prospectiveAddVotedState: a Prospective that has neither voted nor known
// a leader in its epoch grants a standard vote. It stays Prospective, the
// vote durable, with a fresh election timer
// (QuorumState.prospectiveAddVotedState).
func (q *quorumState) prospectiveAddVotedState(now sim.Time, candidate int32) {
	p, ok := q.state.(*prospectiveState)
	if !ok || candidate == q.localID || p.votedID != notVoted || p.leaderID != NoLeader {
		panic(fmt.Sprintf("raft: cannot vote for %d as Prospective from %s", candidate, q.role()))
	}
	np := *p
	np.votedID = candidate
	np.electionDeadline = now.Add(q.randomElectionTimeout())
	q.mustDurable(&np)
}

// transitionToProspective (pre-vote rules): start a pre-vote in the
// current epoch, keeping the leader and the vote, with a fresh election
// timer. In memory only: the election state quorum-state holds is
// unchanged (QuorumState.transitionToProspective).
func (q *quorumState) transitionToProspective(now sim.Time) {
	if q.observer || !q.preVote {
		panic("raft: only a voter under the pre-vote rules becomes Prospective")
	}
	if r := q.role(); r == RoleLeader || r == RoleProspective {
		panic(fmt.Sprintf("raft: cannot become Prospective from %s", r))
	}
	e := q.state.election()
	q.state = &prospectiveState{epochElection: newEpochElection(e.epoch, q.localID, q.voters), epochNum: e.epoch,
		leaderID: e.leaderID, votedID: e.votedID, hw: q.state.highWatermark(),
		electionDeadline: now.Add(q.randomElectionTimeout())}
}

// transitionToFollower: leader leads epoch; start fetching from it.
func (q *quorumState) transitionToFollower(now sim.Time, epoch, leader int32) {
	switch {
	case leader == q.localID:
		panic(fmt.Sprintf("raft: cannot follow itself in epoch %d", epoch))
	case epoch < q.epoch():
		panic(fmt.Sprintf("raft: cannot follow %d in epoch %d below %d", leader, epoch, q.epoch()))
	case epoch == q.epoch() && (q.role() == RoleFollower || q.role() == RoleLeader):
		panic(fmt.Sprintf("raft: cannot follow %d in epoch %d from %s", leader, epoch, q.role()))
	}
	voted := notVoted
	if q.preVote && epoch == q.epoch() {
		// A vote of this epoch is kept, so the node cannot vote twice
		// (QuorumState.transitionToFollower, 4.x).
		voted = q.state.election().votedID
	}
	q.mustDurable(&followerState{epochNum: epoch, leaderID: leader, votedID: voted, voters: q.voters, hw: q.state.highWatermark(),
		fetchTimeout: q.fetchTimeout, fetchDeadline: now.Add(q.fetchTimeout)})
}

// transitionToCandidate starts epoch+1 and votes for itself.
func (q *quorumState) transitionToCandidate(now sim.Time) {
	if q.observer {
		panic("raft: an observer cannot stand for election")
	}
	if q.role() == RoleLeader {
		panic("raft: a leader cannot stand for election")
	}
	if q.preVote && q.role() != RoleProspective {
		panic(fmt.Sprintf("raft: only a Prospective stands for election, not a %s", q.role()))
	}
	retries := 1
	if c, ok := q.state.(*candidateState); ok {
		retries = c.retries + 1
	}
	q.mustDurable(newCandidateState(q.epoch()+1, q.localID, q.voters, retries, q.state.highWatermark(),
		now.Add(q.randomElectionTimeout())))
}

// transitionToLeader: the candidate won. The high watermark is not carried
// over: only once a majority holds an entry of the new epoch can the leader
// be sure the committed offset never goes backwards (QuorumState.java:507-516).
func (q *quorumState) transitionToLeader(now sim.Time, epochStartOffset int64) *leaderState {
	c, ok := q.state.(*candidateState)
	if !ok || q.observer {
		panic(fmt.Sprintf("raft: cannot become leader from %s", q.role()))
	}
	if !c.isVoteGranted() {
		panic("raft: cannot become leader without a majority of votes")
	}
	s := newLeaderState(now, c.epochNum, q.localID, q.voters, epochStartOffset, c.inState(voteGranted), q.fetchTimeout)
	q.mustDurable(s)
	return s
}

// transitionToResigned is in memory only: quorum-state already names this
// node leader of the epoch, which is what a restart resigns from anyway.
func (q *quorumState) transitionToResigned(now sim.Time, successors []int32) {
	if q.role() != RoleLeader {
		panic(fmt.Sprintf("raft: cannot resign from %s", q.role()))
	}
	q.state = newResignedState(q.epoch(), q.localID, q.voters, now.Add(q.randomElectionTimeout()), successors)
}
