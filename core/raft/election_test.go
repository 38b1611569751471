package raft

import (
	"fmt"
	"testing"
	"time"

	"kafkascope/core/sim"
)

func TestFirstElection(t *testing.T) {
	c := newCluster(t, 1, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	le := c.node(l).LeaderAndEpoch()
	if le.Epoch != 1 {
		t.Fatalf("first leader has epoch %d, want 1 (%s)", le.Epoch, c.describe())
	}
	// Every voter follows it and has its LeaderChangeMessage.
	if !c.runUntil(func() bool {
		for _, id := range c.ids {
			if id != l && (c.node(id).Role() != RoleFollower || c.node(id).LeaderAndEpoch() != le || c.node(id).HighWatermark() < 1) {
				return false
			}
		}
		return true
	}, 3*time.Second) {
		t.Fatalf("voters did not follow %d: %s", l, c.describe())
	}
	c.checkSafe()
	t.Logf("%s", c.describe())
}

// TestLeaderFailover kills the leader: the followers' fetch timeout
// (controller.quorum.fetch.timeout.ms, 2 s) expires and one of them wins a
// later epoch. Both followers reset their fetch timers on responses the
// leader sent at the same instant (parked fetches complete together on an
// append), and this network has no jitter, so their timers expire together
// and the first election splits: each votes for itself and refuses the
// other, and waits for the dead voter until its randomised election
// timeout; the first to time out backs off (0 or 100 ms) and wins the next
// epoch. Kafka does the same whenever the timers line up. Bound: fetch
// timeout + up to two election timeouts (the randomised 1-2 s) + the first
// backoff step + round trips.
func TestLeaderFailover(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := newCluster(t, seed, clusterOpts{voters: 3})
		c.startAll()
		old := c.waitLeader(5 * time.Second)
		oldEpoch := c.node(old).LeaderAndEpoch().Epoch
		if _, err := c.appendOn(old, 3); err != nil {
			t.Fatal(err)
		}
		c.runFor(100 * time.Millisecond)
		killedAt := c.w.Now()
		c.kill(old, false)
		bound := DefaultFetchTimeout + 2*DefaultElectionTimeout + electionBackoffBase + 50*time.Millisecond
		if !c.runUntil(func() bool {
			l := c.leader()
			return l >= 0 && l != old && c.node(l).LeaderAndEpoch().Epoch > oldEpoch
		}, bound) {
			t.Fatalf("seed %d: no new leader within %s of killing %d: %s", seed, bound, old, c.describe())
		}
		l := c.leader()
		t.Logf("seed %d: leader %d (epoch %d) killed; %d leads epoch %d after %s", seed, old, oldEpoch, l,
			c.node(l).LeaderAndEpoch().Epoch, c.w.Now().Sub(killedAt))
		c.checkConverged(10 * time.Second)
	}
}

// TestLeaderFailoverStaggeredTimers: when the followers' fetch timers do
// not line up (here the responses to one follower were lost for 800 ms
// before the crash, as on a flaky link, while the other still got its
// parked fetch answered), the first follower to time
// out wins the very next epoch, within fetch timeout + election timeout of
// the crash.
func TestLeaderFailoverStaggeredTimers(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := newCluster(t, seed, clusterOpts{voters: 3})
		c.startAll()
		old := c.waitLeader(5 * time.Second)
		oldEpoch := c.node(old).LeaderAndEpoch().Epoch
		if _, err := c.appendOn(old, 3); err != nil {
			t.Fatal(err)
		}
		c.runFor(100 * time.Millisecond)
		var early int32
		for _, id := range c.ids {
			if id != old {
				early = id
				break
			}
		}
		c.cut(old, early)
		c.runFor(800 * time.Millisecond)
		killedAt := c.w.Now()
		c.kill(old, false)
		c.heal()
		bound := DefaultFetchTimeout + DefaultElectionTimeout
		if !c.runUntil(func() bool {
			l := c.leader()
			return l >= 0 && c.node(l).LeaderAndEpoch().Epoch == oldEpoch+1
		}, bound) {
			t.Fatalf("seed %d: no leader of epoch %d within %s of killing %d: %s", seed, oldEpoch+1, bound, old, c.describe())
		}
		if l := c.leader(); l != early {
			t.Fatalf("seed %d: %d won; the follower that timed out first was %d", seed, l, early)
		}
		t.Logf("seed %d: new leader %d after %s", seed, c.leader(), c.w.Now().Sub(killedAt))
		c.checkConverged(10 * time.Second)
	}
}

// TestSplitVotesResolve makes elections collide: five voters whose
// election timeouts (200-400 ms) are short against a 40 ms one-way
// latency, so candidates often stand within a latency of each other and
// split the votes. Rejected candidates back off for a
// random time (binary exponential backoff) and stand again in a later
// epoch; every seed must end with one leader, and some seed must have
// needed more than one round.
func TestSplitVotesResolve(t *testing.T) {
	splits := 0
	for seed := uint64(1); seed <= 12; seed++ {
		c := newCluster(t, seed, clusterOpts{voters: 5, tweak: func(id int32, cfg *Config) {
			cfg.ElectionTimeout = 200 * time.Millisecond
		}})
		for _, id := range c.ids {
			c.w.Net().SetDelay(c.hosts[id].name, 20*time.Millisecond)
		}
		c.startAll()
		l := c.waitLeader(20 * time.Second)
		epoch := c.node(l).LeaderAndEpoch().Epoch
		if epoch > 1 {
			splits++
		}
		c.runFor(2 * time.Second)
		if got := c.leader(); got != l {
			t.Fatalf("seed %d: leadership moved from %d to %d without faults: %s", seed, l, got, c.describe())
		}
		c.checkSafe()
		t.Logf("seed %d: leader %d in epoch %d", seed, l, epoch)
	}
	if splits == 0 {
		t.Fatal("no seed had a split vote; the test does not exercise backoff")
	}
}

// TestGracefulResignation: Resign sends EndQuorumEpoch naming the most
// caught-up voter first, which stands at once (no fetch timeout wait).
func TestGracefulResignation(t *testing.T) {
	c := newCluster(t, 3, clusterOpts{voters: 3})
	c.startAll()
	old := c.waitLeader(5 * time.Second)
	epoch := c.node(old).LeaderAndEpoch().Epoch
	c.runFor(time.Second)
	at := c.w.Now()
	c.call(old, func(env *sim.Env) {
		if err := c.node(old).Resign(env, epoch); err != nil {
			t.Error(err)
		}
	})
	if !c.runUntil(func() bool { l := c.leader(); return l >= 0 && l != old }, DefaultElectionTimeout) {
		t.Fatalf("no successor within %s: %s", DefaultElectionTimeout, c.describe())
	}
	if took := c.w.Now().Sub(at); took > 100*time.Millisecond {
		t.Fatalf("successor took %s; EndQuorumEpoch should make it stand at once", took)
	}
	if len(c.hist.resigned) == 0 || c.hist.resigned[0] != fmt.Sprintf("%d@%d", old, epoch) {
		t.Fatalf("HandleResign not fired for %d@%d: %v", old, epoch, c.hist.resigned)
	}
	c.checkConverged(10 * time.Second)
}

// TestCheckQuorumResigns: a leader cut off from every voter resigns after
// fetch.timeout.ms × 1.5 without fetches from a majority.
func TestCheckQuorumResigns(t *testing.T) {
	c := newCluster(t, 4, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(500 * time.Millisecond)
	c.isolate(l)
	at := c.w.Now()
	if !c.runUntil(func() bool { return c.node(l).Role() != RoleLeader }, 4*time.Second) {
		t.Fatalf("isolated leader %d never resigned: %s", l, c.describe())
	}
	took := c.w.Now().Sub(at)
	want := time.Duration(float64(DefaultFetchTimeout) * 1.5)
	if took > want+100*time.Millisecond || took < want-DefaultFetchMaxWaitSlack {
		t.Fatalf("resigned after %s; check-quorum timeout is %s", took, want)
	}
	if c.node(l).Role() != RoleResigned {
		t.Fatalf("role %s, want Resigned", c.node(l).Role())
	}
	c.checkConverged(10 * time.Second)
}

// DefaultFetchMaxWaitSlack: the last fetch a leader saw may be up to a
// parked fetch's wait older than the cut.
const DefaultFetchMaxWaitSlack = FetchMaxWait + 10*time.Millisecond
