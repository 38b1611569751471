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
	epochNum      int32
	leaderID      int32
	voters        []int32
	hw            int64
	fetchTimeout  time.Duration
	fetchDeadline sim.Time
	// download is the snapshot being fetched with FetchSnapshot, if any;
	// regular fetches pause while it is.
	download *snapshotDownload
}

func (s *followerState) role() Role           { return RoleFollower }
func (s *followerState) epoch() int32         { return s.epochNum }
func (s *followerState) highWatermark() int64 { return s.hw }

// canGrantVote is false: the epoch already has a leader.
func (s *followerState) canGrantVote(int32, bool) bool { return false }

func (s *followerState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: s.leaderID, votedID: notVoted, voters: s.voters}
}

func (s *followerState) resetFetchTimeout(now sim.Time) {
	s.fetchDeadline = now.Add(s.fetchTimeout)
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
