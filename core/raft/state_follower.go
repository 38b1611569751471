package raft

import (
	"fmt"
	"time"

	"kafkascope/core/sim"
)

// followerState: the epoch's leader is known and this node fetches from it
// (FollowerState.java). Voters and observers alike are followers once they
// know the leader. A voter that hears nothing successful from the leader for
// fetch.timeout.ms stands for election; an observer looks for the leader
// among the voters instead.
//
// Invariant: hw only grows while the state is current (a leader never
// lowers its high watermark, and a follower's is min(its LEO, the leader's)
// where its LEO never drops below it).
type followerState struct {
	epochNum int32
	leaderID int32
	// votedID is the vote this node gave in the epoch before it learned the
	// leader, notVoted if none. Kafka 4.x keeps it (so quorum-state may name
	// both a leader and a vote: the node must not vote again in the epoch);
	// 3.8 drops it, because its Voted state did.
	votedID int32
	// hasFetchedFromLeader: a Fetch or FetchSnapshot succeeded since this
	// state began. Until then a 4.x follower still grants pre-votes: it
	// cannot tell that its leader is alive (FollowerState, KIP-996).
	hasFetchedFromLeader bool
	voters               []int32
	hw                   int64
	fetchTimeout         time.Duration
	fetchDeadline        sim.Time
	// download is the snapshot being fetched with FetchSnapshot, if any;
	// regular fetches pause while it is.
	download *snapshotDownload
}

func (s *followerState) role() Role           { return RoleFollower }
func (s *followerState) epoch() int32         { return s.epochNum }
func (s *followerState) highWatermark() int64 { return s.hw }

// canGrantVote: never a standard vote (the epoch has a leader); a
// pre-vote only until the leader has answered a fetch, and only with an
// up-to-date log (FollowerState.canGrantVote, 4.x).
func (s *followerState) canGrantVote(_ int32, upToDate, preVote bool) bool {
	return preVote && !s.hasFetchedFromLeader && upToDate
}

func (s *followerState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: s.leaderID, votedID: s.votedID, voters: s.voters}
}

// fetchedFromLeader notes a successful Fetch or FetchSnapshot answer: the
// leader is alive, so the fetch timer restarts.
func (s *followerState) fetchedFromLeader(now sim.Time) {
	s.fetchDeadline = now.Add(s.fetchTimeout)
	s.hasFetchedFromLeader = true
}

// overrideFetchTimeout shortens the wait after the leader resigned with
// EndQuorumEpoch, so preferred successors stand for election first.
func (s *followerState) overrideFetchTimeout(now sim.Time, d time.Duration) {
	s.fetchDeadline = now.Add(d)
}

// updateHighWatermark applies a new high watermark; it reports whether it
// changed. A decrease is a broken invariant: Kafka throws
// (FollowerState.updateHighWatermark), and so does this.
func (s *followerState) updateHighWatermark(hw int64) bool {
	if hw < 0 {
		panic(fmt.Sprintf("raft: illegal negative (%d) high watermark update", hw))
	}
	if s.hw >= 0 && hw < s.hw {
		panic(fmt.Sprintf("raft: non-monotonic update of high watermark from %d to %d", s.hw, hw))
	}
	if hw == s.hw {
		return false
	}
	s.hw = hw
	return true
}
