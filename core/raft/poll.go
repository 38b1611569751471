package raft

import (
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
)

// The per-state polls (KafkaRaftClient.pollLeader, pollCandidate, ...): each
// sends what is due and returns how long until it must run again. They
// return 0 after a transition, and the poll loop runs again at once.

// forever is a wait with no deadline.
const forever = time.Duration(never)

func (n *Node) pollCurrentState(env *sim.Env) time.Duration {
	switch n.quorum.state.(type) {
	case *leaderState:
		return n.pollLeader(env)
	case *candidateState:
		return n.pollCandidate(env)
	case *prospectiveState:
		return n.pollProspective(env)
	case *followerState:
		if n.observer {
			return n.pollFollowerAsObserver(env)
		}
		return n.pollFollowerAsVoter(env)
	case *votedState:
		return n.pollWaitingVoter(env)
	case *unattachedState:
		if n.observer {
			return n.pollUnattachedAsObserver(env)
		}
		return n.pollWaitingVoter(env)
	case *resignedState:
		return n.pollResigned(env)
	}
	panic("raft: unexpected quorum state")
}

// pollLeader (KafkaRaftClient.java:2120-2144) resigns when asked to or when
// check-quorum expired (a majority of voters did not fetch within
// fetch.timeout.ms × 1.5), else keeps sending BeginQuorumEpoch to voters
// that have not acknowledged it.
func (n *Node) pollLeader(env *sim.Env) time.Duration {
	s := n.quorum.state.(*leaderState)
	n.maybeFireLeaderChangeAsLeader(env, s)
	now := env.Now()
	untilCheckQuorum := s.timeUntilCheckQuorumExpires(now)
	if n.shutdown != nil || s.resignRequested || untilCheckQuorum == 0 {
		why := "resign requested"
		switch {
		case n.shutdown != nil:
			why = "shutting down"
		case !s.resignRequested:
			why = "check quorum: no fetch from a majority of voters"
		}
		n.transitionToResigned(env, s.nonLeaderVotersByDescendingFetchOffset(), why)
		return 0
	}
	untilSend := n.maybeSendRequests(env, s.nonAcknowledgingVoters(), func(id int32) any {
		return &BeginQuorumEpochRequest{CorrelationID: id, ClusterID: n.cfg.ClusterID, LeaderID: n.cfg.NodeID, LeaderEpoch: s.epochNum}
	})
	return min(untilSend, untilCheckQuorum)
}

// pollCandidate (KafkaRaftClient.java:2163-2192): keep asking unrecorded
// voters while a majority is still possible. When the election times out
// (or was lost, see handleVoteResponse) a 3.8 candidate backs off for a
// random time, then stands again in the next epoch; from 4.1 it waits out
// its election timer and becomes Prospective (KAFKA-18345: the random
// election timeout already spreads the voters out).
func (n *Node) pollCandidate(env *sim.Env) time.Duration {
	s := n.quorum.state.(*candidateState)
	now := env.Now()
	switch {
	case n.shutdown != nil:
		// Stopping: finish this election (won, or another leader found)
		// but start no other (KafkaRaftClient.pollCandidate).
		return min(n.maybeSendVoteRequests(env, &s.epochElection, s.epochNum, false), n.shutdown.remaining(now))
	case n.cfg.PreVote && now >= s.electionDeadline:
		n.transitionToProspective(env, "election not won in time")
		return 0
	case s.backingOff:
		if now >= s.backoffDeadline {
			n.transitionToCandidate(env)
			return 0
		}
		return s.backoffDeadline.Sub(now)
	case now >= s.electionDeadline:
		d := n.binaryExponentialElectionBackoff(s.retries)
		s.backingOff, s.backoffDeadline = true, now.Add(d)
		env.Note(event.ElectionBackoff{Node: n.cfg.NodeID, Epoch: s.epochNum, Backoff: d, Why: "election timed out"})
		return d
	default:
		untilSend := n.maybeSendVoteRequests(env, &s.epochElection, s.epochNum, false)
		return min(untilSend, s.electionDeadline.Sub(now))
	}
}

// pollProspective (Kafka 4.x): ask the unrecorded voters for pre-votes
// while a majority is possible; when the election timer expires first,
// give up (KafkaRaftClient.pollProspective).
func (n *Node) pollProspective(env *sim.Env) time.Duration {
	s := n.quorum.state.(*prospectiveState)
	now := env.Now()
	if n.shutdown != nil {
		return min(n.maybeSendVoteRequests(env, &s.epochElection, s.epochNum, true), n.shutdown.remaining(now))
	}
	if now >= s.electionDeadline {
		n.prospectiveTransitionAfterElectionLoss(env, s, "pre-vote timed out")
		return 0
	}
	untilSend := n.maybeSendVoteRequests(env, &s.epochElection, s.epochNum, true)
	return min(untilSend, s.electionDeadline.Sub(now))
}

// maybeSendVoteRequests asks the voters that have not answered. A
// candidate asks in its new epoch; a prospective asks in its current one,
// with PreVote set (KafkaRaftClient.buildVoteRequest).
func (n *Node) maybeSendVoteRequests(env *sim.Env, e *epochElection, epoch int32, preVote bool) time.Duration {
	if e.isVoteRejected() {
		return forever
	}
	lastOffset, lastEpoch := n.log.endOffset(), n.log.lastFetchedEpoch()
	return n.maybeSendRequests(env, e.inState(voteUnrecorded), func(id int32) any {
		return &VoteRequest{CorrelationID: id, ClusterID: n.cfg.ClusterID, CandidateEpoch: epoch,
			CandidateID: n.cfg.NodeID, LastOffsetEpoch: lastEpoch, LastOffset: lastOffset, PreVote: preVote}
	})
}

// pollFollowerAsVoter (KafkaRaftClient.java:2203-2218): stand for election
// (4.x: start a pre-vote) when the leader has been silent for
// fetch.timeout.ms, else fetch from it.
func (n *Node) pollFollowerAsVoter(env *sim.Env) time.Duration {
	s := n.quorum.state.(*followerState)
	now := env.Now()
	if n.shutdown != nil {
		return 0 // it has a remote leader: the shutdown completes
	}
	if now >= s.fetchDeadline {
		n.standForElection(env, "fetch timeout")
		return 0
	}
	wait := n.maybeSendFetchOrFetchSnapshot(env, s)
	return min(wait, s.fetchDeadline.Sub(now))
}

// pollFollowerAsObserver (KafkaRaftClient.java:2220-2243): an observer never
// votes. When the leader is silent, or its request timed out or backs off,
// it asks any voter, whose answer names the current leader.
func (n *Node) pollFollowerAsObserver(env *sim.Env) time.Duration {
	s := n.quorum.state.(*followerState)
	now := env.Now()
	if now >= s.fetchDeadline {
		return n.maybeSendAnyVoterFetch(env)
	}
	var wait time.Duration
	switch {
	case n.reqs.hasRequestTimedOut(s.leaderID, now):
		n.reqs.reset(s.leaderID)
		wait = n.maybeSendAnyVoterFetch(env)
	case n.reqs.isBackingOff(s.leaderID, now):
		wait = n.maybeSendAnyVoterFetch(env)
	case !n.reqs.hasAnyInflightRequest(now):
		wait = n.maybeSendFetchOrFetchSnapshot(env, s)
	default:
		wait = n.reqs.backoffBeforeAvailableBootstrapServer(now)
	}
	return min(wait, s.fetchDeadline.Sub(now))
}

// pollWaitingVoter (Unattached or Voted voter; pollVoted and
// pollUnattachedAsVoter in KafkaRaftClient.java): stand for election (4.x:
// start a pre-vote) when the election timeout expires.
func (n *Node) pollWaitingVoter(env *sim.Env) time.Duration {
	now := env.Now()
	var deadline sim.Time
	switch s := n.quorum.state.(type) {
	case *unattachedState:
		deadline = s.electionDeadline
	case *votedState:
		deadline = s.electionDeadline
	}
	if n.shutdown != nil {
		// Stopping: wait for an election to end, or for the deadline.
		return n.shutdown.remaining(now)
	}
	if now >= deadline {
		n.standForElection(env, "election timeout")
		return 0
	}
	return deadline.Sub(now)
}

// standForElection: a 3.8 voter becomes a candidate at once; a 4.x voter
// first asks in a pre-vote.
func (n *Node) standForElection(env *sim.Env, why string) {
	if n.cfg.PreVote {
		n.transitionToProspective(env, why)
		return
	}
	n.transitionToCandidate(env)
}

// pollUnattachedAsObserver: find the leader by fetching from any voter.
func (n *Node) pollUnattachedAsObserver(env *sim.Env) time.Duration {
	return n.maybeSendAnyVoterFetch(env)
}

// pollResigned (KafkaRaftClient.java:2094-2118) tells the other voters with
// EndQuorumEpoch until each acknowledges, and stands for election when its
// timeout expires. From 4.x it moves to the next epoch unattached instead,
// so it can never take a Fetch answer naming itself leader of the old
// epoch, and starts its pre-vote from there (KafkaRaftClient.pollResigned,
// 4.3).
func (n *Node) pollResigned(env *sim.Env) time.Duration {
	s := n.quorum.state.(*resignedState)
	now := env.Now()
	untilSend := n.maybeSendRequests(env, s.unackedVoters(), func(id int32) any {
		return &EndQuorumEpochRequest{CorrelationID: id, ClusterID: n.cfg.ClusterID, LeaderID: n.cfg.NodeID,
			LeaderEpoch: s.epochNum, PreferredSuccessors: s.preferredSuccessors}
	})
	if n.shutdown != nil {
		// Stopping: it stays resigned, answering, until another voter
		// leads or the shutdown times out (KafkaRaftClient.pollResigned).
		return min(untilSend, n.shutdown.remaining(now))
	}
	if now >= s.electionDeadline {
		if n.cfg.PreVote {
			n.transitionToUnattached(env, s.epochNum+1, "resigned leader's election timeout")
			return 0
		}
		n.transitionToCandidate(env)
		return 0
	}
	return min(untilSend, s.electionDeadline.Sub(now))
}

// maybeSendFetchOrFetchSnapshot fetches from the leader: a FetchSnapshot
// while a snapshot download is under way, else a Fetch from the LEO.
func (n *Node) maybeSendFetchOrFetchSnapshot(env *sim.Env, s *followerState) time.Duration {
	if d := s.download; d != nil {
		return n.maybeSendRequest(env, s.leaderID, func(id int32) any {
			return &FetchSnapshotRequest{CorrelationID: id, ClusterID: n.cfg.ClusterID, ReplicaID: n.cfg.NodeID,
				MaxBytes: n.cfg.FetchSnapshotMaxBytes, CurrentLeaderEpoch: s.epochNum, SnapshotID: d.id, Position: d.size}
		})
	}
	return n.maybeSendRequest(env, s.leaderID, n.buildFetchRequest)
}

func (n *Node) buildFetchRequest(id int32) any {
	return &FetchRequest{CorrelationID: id, ClusterID: n.cfg.ClusterID, ReplicaID: n.cfg.NodeID,
		MaxWaitMs: int32(n.cfg.FetchMaxWait / time.Millisecond), MaxBytes: MaxBatchSizeBytes,
		CurrentLeaderEpoch: n.quorum.epoch(), FetchOffset: n.log.endOffset(), LastFetchedEpoch: n.log.lastFetchedEpoch()}
}

// maybeSendAnyVoterFetch sends a Fetch to a random ready voter when
// nothing is in flight.
func (n *Node) maybeSendAnyVoterFetch(env *sim.Env) time.Duration {
	now := env.Now()
	if id, ok := n.reqs.findReadyBootstrapServer(now); ok {
		return n.maybeSendRequest(env, id, n.buildFetchRequest)
	}
	return n.reqs.backoffBeforeAvailableBootstrapServer(now)
}

// maybeSendRequest sends one request to a voter if its connection is ready
// and returns how long until the connection needs attention again.
func (n *Node) maybeSendRequest(env *sim.Env, dest int32, build func(correlationID int32) any) time.Duration {
	now := env.Now()
	if n.reqs.isBackingOff(dest, now) {
		return n.reqs.remainingBackoff(dest, now)
	}
	if n.reqs.isReady(dest, now) {
		id := n.nextCorrelationID
		n.nextCorrelationID++
		msg := build(id).(sim.Message)
		n.reqs.onRequestSent(dest, id, apiKeyOf(msg), now)
		env.Send(n.cfg.Addr, n.voterAddr[dest], msg)
	}
	return n.reqs.remainingRequestTime(dest, now)
}

func (n *Node) maybeSendRequests(env *sim.Env, dests []int32, build func(correlationID int32) any) time.Duration {
	wait := forever
	for _, d := range dests {
		wait = min(wait, n.maybeSendRequest(env, d, build))
	}
	return wait
}

// binaryExponentialElectionBackoff: 100 ms × a random integer in
// [0, 2^retries), capped at election.backoff.max.ms
// (KafkaRaftClient.java:755-762).
func (n *Node) binaryExponentialElectionBackoff(retries int) time.Duration {
	if retries <= 0 {
		panic("raft: election retries must be positive")
	}
	d := electionBackoffBase * time.Duration(n.rnd.Intn(2<<min(20, retries-1)))
	return min(d, n.cfg.ElectionBackoffMax)
}

// strictExponentialElectionBackoff gives the successor at position p (of
// total) a fixed delay, doubling with p, so the most caught-up voter stands
// first (KafkaRaftClient.java:764-772).
func (n *Node) strictExponentialElectionBackoff(p, total int) time.Duration {
	maxMs := int(n.cfg.ElectionBackoffMax / time.Millisecond)
	base := maxMs >> (total - 1)
	return time.Duration(min(maxMs, base<<(p-1))) * time.Millisecond
}

// endEpochElectionBackoff is how long a follower waits after its leader
// resigned: 0 for the first preferred successor (or a voter not named).
func (n *Node) endEpochElectionBackoff(successors []int32) time.Duration {
	pos := -1
	for i, id := range successors {
		if id == n.cfg.NodeID {
			pos = i
			break
		}
	}
	if pos <= 0 {
		return 0
	}
	return n.strictExponentialElectionBackoff(pos, len(successors))
}
