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
//   - Unattached(e) needs e > epoch;
//   - Voted(e) needs e > epoch, or e == epoch from Unattached, and a
//     candidate other than this node;
//   - Follower(e) needs e > epoch, or e == epoch when not already Follower
//     or Leader, and a leader other than this node;
//   - Candidate starts epoch+1 and is for voters only;
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
	state           epochState
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
	case e.hasVoted():
		s = &votedState{epochNum: e.epoch, votedID: e.votedID, voters: q.voters, hw: -1, electionDeadline: et}
	case e.hasLeader():
		if !q.isVoter(e.leaderID) {
			return fmt.Errorf("raft: leader %d in quorum-state is not a voter %v", e.leaderID, q.voters)
		}
		s = &followerState{epochNum: e.epoch, leaderID: e.leaderID, voters: q.voters, hw: -1,
			fetchTimeout: q.fetchTimeout, fetchDeadline: now.Add(q.fetchTimeout)}
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

// remainingElection is how long the current waiting state still waits.
func (q *quorumState) remainingElection(now sim.Time) time.Duration {
	switch s := q.state.(type) {
	case *candidateState:
		return time.Duration(remaining(s.electionDeadline, now))
	case *votedState:
		return time.Duration(remaining(s.electionDeadline, now))
	case *unattachedState:
		return time.Duration(remaining(s.electionDeadline, now))
	}
	return q.randomElectionTimeout()
}

// transitionToUnattached: a later epoch exists but its leader is unknown.
// A voter keeps the time left of its current election timer, so repeated
// epoch bumps do not postpone its own candidacy forever.
func (q *quorumState) transitionToUnattached(now sim.Time, epoch int32) {
	if epoch <= q.epoch() {
		panic(fmt.Sprintf("raft: cannot transition to Unattached with epoch %d from %s epoch %d", epoch, q.role(), q.epoch()))
	}
	deadline := never
	if !q.observer {
		deadline = now.Add(q.remainingElection(now))
	}
	q.mustDurable(&unattachedState{epochNum: epoch, voters: q.voters, hw: q.state.highWatermark(), electionDeadline: deadline})
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
	q.mustDurable(&followerState{epochNum: epoch, leaderID: leader, voters: q.voters, hw: q.state.highWatermark(),
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
