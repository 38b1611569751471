package raft

import (
	"strings"
	"testing"
	"time"
)

// Each safety checker must be able to fail. These tests plant a known bug
// (a test hook), run a scenario that exposes it, and require the checker to
// report it; the same scenario without the bug must pass every checker.

// doubleVoteScenario: voters L (the leader), A and B. A and B cannot reach
// each other, and L's messages to them are lost, so both followers' fetch
// timeouts expire (at the same instant: their last responses left L
// together) and both stand in epoch e+1. L's links to them heal just
// before their vote requests arrive. An honest L votes once, for the first
// request; a buggy L grants both, and A and B both lead e+1.
func doubleVoteScenario(t *testing.T, hooks *testHooks) *cluster {
	c := newCluster(t, 21, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) {
		cfg.hooks = hooks
	}})
	// The second leader's BeginQuorumEpoch reaching the first is fatal
	// (Kafka throws on two leaders in one epoch); the run may end there.
	c.allowWorldErr = hooks != nil
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	var a, b int32 = -1, -1
	for _, id := range c.ids {
		if id != l {
			if a < 0 {
				a = id
			} else {
				b = id
			}
		}
	}
	c.runFor(time.Second)
	epoch := c.node(l).LeaderAndEpoch().Epoch
	c.cutBoth(a, b)
	c.cut(l, a)
	c.cut(l, b)
	if !c.runUntil(func() bool {
		return c.node(a).Role() == RoleCandidate && c.node(b).Role() == RoleCandidate
	}, 5*time.Second) {
		t.Fatalf("the followers did not stand together: %s", c.describe())
	}
	if c.node(a).LeaderAndEpoch().Epoch != epoch+1 || c.node(b).LeaderAndEpoch().Epoch != epoch+1 {
		t.Fatalf("candidates not both in epoch %d: %s", epoch+1, c.describe())
	}
	c.w.Net().Heal(c.hosts[l].name, c.hosts[a].name)
	c.w.Net().Heal(c.hosts[l].name, c.hosts[b].name)
	c.runFor(time.Second)
	return c
}

func TestCheckerCatchesDoubleVote(t *testing.T) {
	c := doubleVoteScenario(t, &testHooks{grantAnyVote: true})
	if len(c.hist.violations[checkElection]) == 0 {
		t.Fatalf("the election safety checker missed two votes per epoch: %s\n%s", c.describe(), c.hist.report())
	}
	t.Logf("caught: %s (world: %v)", c.hist.violations[checkElection][0], firstLine(c.w.Err()))
	c = doubleVoteScenario(t, nil)
	c.checkSafe()
}

// lostFlushScenario: the leader commits an entry that the followers hold
// only in their page cache; both followers lose power and restart cut off
// from the leader, elect one of themselves and commit other entries at the
// same offsets. Honest voters fsync before they fetch again, so the entry
// survives and the new leader carries it.
func lostFlushScenario(t *testing.T, hooks *testHooks) *cluster {
	c := newCluster(t, 22, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) {
		cfg.hooks = hooks
	}})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	p, err := c.appendOn(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !c.runUntil(func() bool { d := c.committedData(l); return len(d) > 0 && d[len(d)-1] == p[0] }, 2*time.Second) {
		t.Fatalf("not committed: %s", c.describe())
	}
	for _, id := range c.ids {
		if id != l {
			c.kill(id, true)
		}
	}
	c.isolate(l)
	for _, id := range c.ids {
		if id != l {
			c.start(id)
		}
	}
	c.runUntil(func() bool { x := c.leader(); return x >= 0 && x != l && c.node(x).HighWatermark() > 0 }, 10*time.Second)
	c.runFor(time.Second)
	return c
}

func TestCheckerCatchesLostCommit(t *testing.T) {
	c := lostFlushScenario(t, &testHooks{skipFlush: true})
	if len(c.hist.violations[checkPrefix]) == 0 {
		t.Fatalf("the state machine safety checker missed a lost committed entry: %s\n%s", c.describe(), c.hist.report())
	}
	t.Logf("caught: %s", c.hist.violations[checkPrefix][0])
	c = lostFlushScenario(t, nil)
	c.checkSafe()
}

// uncommittedDeliveryScenario: a leader cut off from the others appends and
// (with the bug) hands the uncommitted entries to its listener; the others
// elect a new leader that writes different entries there. The old leader
// rejoins and truncates, and after a restart replays offsets it had already
// delivered with different content.
func uncommittedDeliveryScenario(t *testing.T, hooks *testHooks) *cluster {
	c := newCluster(t, 23, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) {
		cfg.hooks = hooks
	}})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	c.isolate(l)
	if _, err := c.appendOn(l, 3); err != nil {
		t.Fatal(err)
	}
	if !c.runUntil(func() bool { x := c.leader(); return x >= 0 && x != l && c.node(x).HighWatermark() > 0 }, 10*time.Second) {
		t.Fatalf("no new leader: %s", c.describe())
	}
	nl := c.leader()
	for i := 0; i < 3; i++ {
		if _, err := c.appendOn(nl, 1); err != nil {
			t.Fatal(err)
		}
	}
	c.heal()
	c.runUntil(func() bool { return c.node(l).LogEndOffset() == c.node(nl).LogEndOffset() }, 5*time.Second)
	c.kill(l, false)
	c.start(l)
	c.runFor(2 * time.Second)
	return c
}

func TestCheckerCatchesChangedDelivery(t *testing.T) {
	c := uncommittedDeliveryScenario(t, &testHooks{deliverUncommitted: true})
	if len(c.hist.violations[checkNode]) == 0 {
		t.Fatalf("the node stability checker missed a node changing what it delivered: %s\n%s", c.describe(), c.hist.report())
	}
	t.Logf("caught: %s", c.hist.violations[checkNode][0])
	c = uncommittedDeliveryScenario(t, nil)
	c.checkSafe()
}

func firstLine(err error) string {
	if err == nil {
		return "no error"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
