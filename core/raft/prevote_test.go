package raft

import (
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Kafka 4.x's pre-vote (KIP-996), Config.PreVote. The cases follow
// KafkaRaftClientPreVoteTest (Kafka 4.3) where it states them; the last
// ones are the behaviour kafkascope's scenarios show.

func newPreVoteCluster(t *testing.T, seed uint64, voters int) *cluster {
	t.Helper()
	return newCluster(t, seed, clusterOpts{voters: voters, tweak: func(_ int32, cfg *Config) { cfg.PreVote = true }})
}

// followerOf returns a running voter that follows l and has fetched.
func (c *cluster) followerOf(l int32) int32 {
	c.t.Helper()
	for _, id := range c.ids {
		if id == l {
			continue
		}
		if fs, ok := c.node(id).quorum.state.(*followerState); ok && fs.leaderID == l && fs.hasFetchedFromLeader {
			return id
		}
	}
	c.t.Fatalf("no follower of %d has fetched: %s", l, c.describe())
	return -1
}

// vote sends r to node id as if from r.CandidateID and returns the answer.
func (c *cluster) vote(id int32, r VoteRequest) *VoteResponse {
	c.t.Helper()
	var resp *VoteResponse
	c.call(id, func(env *sim.Env) { resp = c.node(id).handleVoteRequest(env, &r) })
	return resp
}

// TestPreVoteAnswersByState: the leader and a follower that has fetched
// from it refuse a pre-vote (they believe in a live leader); the answer
// changes nothing on disk or in memory. A pre-vote from a later epoch
// moves the voter to that epoch, Unattached, and is granted when the log
// is up to date (PreVoteTest: testHandlePreVoteRequestAsFollower...,
// testLeaderRejectPreVoteRequestOnSameEpoch).
func TestPreVoteAnswersByState(t *testing.T) {
	c := newPreVoteCluster(t, 3, 3)
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	f := c.followerOf(l)
	var other int32
	for _, id := range c.ids {
		if id != l && id != f {
			other = id
		}
	}
	le := c.node(l).LeaderAndEpoch()
	leo, lastEpoch := c.node(other).log.endOffset(), c.node(other).log.lastFetchedEpoch()
	pre := VoteRequest{ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", CandidateEpoch: le.Epoch, CandidateID: other,
		LastOffsetEpoch: lastEpoch, LastOffset: leo, PreVote: true}
	before, _, _ := c.node(f).quorum.store.read()
	for _, id := range []int32{l, f} {
		r := c.vote(id, pre)
		if r.PartitionError != protocol.NONE || r.VoteGranted || r.LeaderID != l || r.LeaderEpoch != le.Epoch {
			t.Fatalf("node %d answered a pre-vote in epoch %d with %+v, want refused naming leader %d", id, le.Epoch, r, l)
		}
	}
	if after, _, _ := c.node(f).quorum.store.read(); after.votedID != before.votedID || after.epoch != before.epoch {
		t.Fatalf("a refused pre-vote changed quorum-state: %+v → %+v", before, after)
	}
	if c.node(l).Role() != RoleLeader || c.node(f).Role() != RoleFollower {
		t.Fatalf("a pre-vote changed a state: %s", c.describe())
	}

	// The same epoch's last log epoch may equal the pre-vote's epoch (a
	// standard vote would be an INVALID_REQUEST); a later epoch bumps the
	// receiver, pre-vote or not.
	later := pre
	later.CandidateEpoch = le.Epoch + 1
	r := c.vote(f, later)
	if r.PartitionError != protocol.NONE || !r.VoteGranted || r.LeaderID != NoLeader || r.LeaderEpoch != le.Epoch+1 {
		t.Fatalf("follower answered a pre-vote from epoch %d with %+v, want granted, leader -1", le.Epoch+1, r)
	}
	if s, ok := c.node(f).quorum.state.(*unattachedState); !ok || s.epochNum != le.Epoch+1 {
		t.Fatalf("after a later pre-vote node %d is %s, want Unattached in epoch %d (not voted)", f, c.node(f).Role(), le.Epoch+1)
	}
	if e, _, _ := c.node(f).quorum.store.read(); e.votedID != notVoted || e.epoch != le.Epoch+1 {
		t.Fatalf("a granted pre-vote was recorded: %+v", e)
	}
}

// TestPreVoteEpochCheck: a standard vote whose last log epoch reaches its
// epoch is an INVALID_REQUEST; a pre-vote's may equal it but not exceed
// it (KafkaRaftClient.handleVoteRequest, 4.3).
func TestPreVoteEpochCheck(t *testing.T) {
	c := newPreVoteCluster(t, 4, 3)
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	f := c.followerOf(l)
	e := c.node(l).LeaderAndEpoch().Epoch
	leo := c.node(l).log.endOffset()
	for _, tc := range []struct {
		preVote   bool
		lastEpoch int32
		want      protocol.ErrorCode
	}{
		{false, e, protocol.INVALID_REQUEST},
		{true, e, protocol.NONE},
		{true, e + 1, protocol.INVALID_REQUEST},
	} {
		r := c.vote(f, VoteRequest{ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", CandidateEpoch: e, CandidateID: l,
			LastOffsetEpoch: tc.lastEpoch, LastOffset: leo, PreVote: tc.preVote})
		if r.PartitionError != tc.want {
			t.Errorf("preVote=%v last epoch %d in epoch %d: %s, want %s", tc.preVote, tc.lastEpoch, e, r.PartitionError, tc.want)
		}
	}
}

// TestUnsupportedPreVote: a voter without Vote v2 (3.8's rules) cannot
// take a pre-vote; the prospective that hears so stands as a candidate
// at once (KafkaRaftClient.handleVoteResponse, 4.3).
func TestUnsupportedPreVote(t *testing.T) {
	c := newCluster(t, 5, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) { cfg.PreVote = id == 1 }})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	if l == 1 {
		c.call(1, func(env *sim.Env) { _ = c.node(1).Resign(env, c.node(1).LeaderAndEpoch().Epoch) })
		c.runUntil(func() bool { l = c.leader(); return l >= 0 && l != 1 }, 10*time.Second)
		c.runFor(time.Second)
	}
	e := c.node(l).LeaderAndEpoch().Epoch
	r := c.vote(l, VoteRequest{ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", CandidateEpoch: e, CandidateID: 1,
		LastOffsetEpoch: e, LastOffset: c.node(1).log.endOffset(), PreVote: true})
	if r.ErrorCode != protocol.UNSUPPORTED_VERSION {
		t.Fatalf("a 3.8 voter answered a pre-vote with %+v, want UNSUPPORTED_VERSION", r)
	}
	// Node 1 stops hearing its leader: its pre-vote is answered
	// UNSUPPORTED_VERSION by the other follower and it becomes a candidate
	// of the next epoch without a pre-vote.
	c.cut(l, 1)
	if !c.runUntil(func() bool { return c.node(1).Role() == RoleProspective }, 5*time.Second) {
		t.Fatalf("node 1 did not start a pre-vote: %s", c.describe())
	}
	if !c.runUntil(func() bool { return c.node(1).Role() == RoleCandidate }, 5*time.Second) {
		t.Fatalf("node 1 did not stand as candidate after UNSUPPORTED_VERSION: %s", c.describe())
	}
	if got := c.node(1).LeaderAndEpoch().Epoch; got != e+1 {
		t.Fatalf("candidate epoch %d, want %d", got, e+1)
	}
}

// TestSlowVoterKeepsLeader is the reason for KIP-996: a voter whose link
// is slower than fetch.timeout.ms in a round trip loses its leader over
// and over. Under 3.8's rules each time is an election in a new epoch that
// unseats the healthy leader; under 4.x's the voter only asks in a
// pre-vote, the leader and the other follower refuse, and the leader and
// its epoch stay.
func TestSlowVoterKeepsLeader(t *testing.T) {
	for _, rules := range electionRules {
		t.Run(rules.name, func(t *testing.T) {
			c := newCluster(t, 7, clusterOpts{voters: 3, tweak: func(_ int32, cfg *Config) { cfg.PreVote = rules.preVote }})
			c.startAll()
			l := c.waitLeader(5 * time.Second)
			c.runFor(2 * time.Second)
			le := c.node(l).LeaderAndEpoch()
			slow := c.followerOf(l)
			c.w.Net().SetDelay(c.hosts[slow].name, time.Second)
			prospective := 0
			end := c.w.Now().Add(20 * time.Second)
			for c.w.Now() < end {
				c.runFor(50 * time.Millisecond)
				if c.node(slow).Role() == RoleProspective {
					prospective++
					// Still in its epoch, still naming the leader it had.
					if got := c.node(slow).LeaderAndEpoch(); got != le {
						t.Fatalf("prospective %d reports %s, want %s", slow, got, le)
					}
				}
			}
			c.w.Net().SetDelay(c.hosts[slow].name, 0)
			c.checkConverged(10 * time.Second)
			after := c.node(c.leader()).LeaderAndEpoch()
			t.Logf("%s: leader %s before, %s after; node %d prospective in %d of 400 samples", rules.name, le, after, slow, prospective)
			if rules.preVote {
				if after != le {
					t.Fatalf("with pre-vote the leader changed from %s to %s", le, after)
				}
				if prospective == 0 {
					t.Fatalf("node %d never asked in a pre-vote", slow)
				}
				return
			}
			if after.Epoch == le.Epoch {
				t.Fatalf("under 3.8's rules the slow voter never bumped the epoch (%s)", after)
			}
		})
	}
}

// TestPreVoteFailover: the leader dies; the followers' fetch timers expire
// together (this network has no jitter), both ask in a pre-vote in the
// old epoch, grant each other's (a prospective grants any up-to-date
// pre-vote) and stand as candidates of the next epoch, where the votes
// split as under 3.8's rules. A 4.1+ candidate waits out its election
// timer with no backoff, asks again in a pre-vote, and wins a later epoch.
// No ElectionBackoff is noted on the way.
func TestPreVoteFailover(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := newPreVoteCluster(t, seed, 3)
		c.startAll()
		old := c.waitLeader(5 * time.Second)
		oldEpoch := c.node(old).LeaderAndEpoch().Epoch
		c.runFor(time.Second)
		c.kill(old, false)
		bound := DefaultFetchTimeout + 3*2*DefaultElectionTimeout
		if !c.runUntil(func() bool {
			l := c.leader()
			return l >= 0 && l != old && c.node(l).LeaderAndEpoch().Epoch > oldEpoch
		}, bound) {
			t.Fatalf("seed %d: no new leader within %s: %s", seed, bound, c.describe())
		}
		if n := c.notes["raft.election.backoff"]; n != 0 {
			t.Fatalf("seed %d: %d election backoffs under 4.x's rules", seed, n)
		}
		if c.notes["raft.transition.Prospective"] == 0 {
			t.Fatalf("seed %d: no pre-vote before the election", seed)
		}
		c.checkConverged(10 * time.Second)
	}
}

// TestResignedMovesOn: under 4.x's rules a resigned leader whose election
// timer expires moves to the next epoch, Unattached, and from there asks
// in a pre-vote (KafkaRaftClient.pollResigned, 4.3).
func TestResignedMovesOn(t *testing.T) {
	c := newPreVoteCluster(t, 9, 3)
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	e := c.node(l).LeaderAndEpoch().Epoch
	for _, id := range c.ids {
		if id != l {
			c.kill(id, false)
		}
	}
	// Check-quorum resigns it after 1.5 × fetch.timeout.ms.
	if !c.runUntil(func() bool { return c.node(l).Role() == RoleResigned }, 5*time.Second) {
		t.Fatalf("the leader did not resign: %s", c.describe())
	}
	if !c.runUntil(func() bool { return c.node(l).Role() != RoleResigned }, 3*DefaultElectionTimeout) {
		t.Fatalf("the resigned leader stayed: %s", c.describe())
	}
	if got := c.node(l).LeaderAndEpoch(); got.Epoch != e+1 || got.HasLeader() {
		t.Fatalf("after resigning, node %d reports %s, want epoch %d with no leader", l, got, e+1)
	}
	if r := c.node(l).Role(); r != RoleProspective && r != RoleUnattached {
		t.Fatalf("after resigning node %d is %s, want Prospective or Unattached", l, r)
	}
}
