package raft

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// chaos runs a seeded random schedule of faults and appends (the safety
// phase), checking the safety invariants after every event, then heals the
// cluster and checks it converges (the liveness phase). Everything random
// comes from the seed: the schedule from its own stream, the nodes from the
// world's.
type chaosRun struct {
	c       *cluster
	rnd     *sim.Rand
	actions []string
}

func runChaos(t testing.TB, seed uint64, safetyPhase time.Duration, hooks *testHooks, preVote bool) *chaosRun {
	t.Helper()
	rnd := sim.NewRand(seed, "raft-test/chaos")
	voters := 3 + rnd.Intn(3)
	observers := rnd.Intn(2)
	c := newCluster(t, seed, clusterOpts{voters: voters, observers: observers, tweak: func(id int32, cfg *Config) {
		cfg.hooks = hooks
		cfg.PreVote = preVote
		cfg.FetchSnapshotMaxBytes = int32(500 + rnd.Intn(4000))
	}})
	c.w.Trace().HashContent(true)
	for _, id := range c.ids {
		if rnd.Intn(2) == 0 {
			c.hosts[id].snapshotEvery = 15 + rnd.Intn(30)
		}
	}
	r := &chaosRun{c: c, rnd: rnd}
	c.startAll()
	end := c.w.Now().Add(safetyPhase)
	for step := 0; c.w.Now() < end && step < 10000; step++ {
		r.act()
		c.runFor(time.Duration(5+rnd.Intn(400)) * time.Millisecond)
		if len(c.hist.failed()) > 0 {
			break
		}
	}
	return r
}

func (r *chaosRun) pick() int32 { return r.c.ids[r.rnd.Intn(len(r.c.ids))] }

func (r *chaosRun) note(format string, args ...any) {
	r.actions = append(r.actions, fmt.Sprintf("%s "+format, append([]any{r.c.w.Now()}, args...)...))
}

// act performs one random action.
func (r *chaosRun) act() {
	c, rnd := r.c, r.rnd
	switch x := rnd.Intn(100); {
	case x < 45:
		if l := c.leader(); l >= 0 {
			if _, err := c.appendOn(l, 1+rnd.Intn(3)); err == nil {
				r.note("append on %d", l)
			}
		}
	case x < 53:
		if id := r.pick(); c.spawned(id) {
			power := rnd.Intn(3) == 0
			c.kill(id, power)
			r.note("kill %d power=%t", id, power)
		}
	case x < 68:
		if id := r.pick(); !c.spawned(id) {
			c.start(id)
			r.note("start %d", id)
		}
	case x < 76:
		a, b := r.pick(), r.pick()
		if a != b {
			c.cutBoth(a, b)
			r.note("cut %d %d", a, b)
		}
	case x < 83:
		a, b := r.pick(), r.pick()
		if a != b {
			c.cut(a, b)
			r.note("cut %d->%d", a, b)
		}
	case x < 91:
		c.heal()
		r.note("heal")
	case x < 94:
		if l := c.leader(); l >= 0 {
			epoch := c.node(l).LeaderAndEpoch().Epoch
			c.call(l, func(env *sim.Env) { _ = c.node(l).Resign(env, epoch) })
			r.note("resign %d", l)
		}
	case x < 97:
		if id := r.pick(); c.running(id) {
			if s := c.node(id).Snapshots(); len(s) > 0 {
				latest := s[len(s)-1]
				c.call(id, func(env *sim.Env) { _, _ = c.node(id).DeleteBeforeSnapshot(env, latest) })
				r.note("delete before snapshot %s on %d", latest, id)
			}
		}
	}
}

// The default run stays well inside the package's time budget under
// -race; search harder with e.g. -raft.seeds=2000 -raft.phase=2m.
var (
	chaosSeeds       = flag.Int("raft.seeds", 16, "seeds for TestRandomizedSafety")
	chaosFirstSeed   = flag.Uint64("raft.seed", 1, "first seed for TestRandomizedSafety")
	chaosSafetyPhase = flag.Duration("raft.phase", 30*time.Second, "virtual time of each seed's fault phase")
)

// TestRandomizedSafety: seeded kills (crash and power loss), restarts,
// two-way and one-way cuts among 3-5 voters (and maybe an observer),
// resignations, log-start moves and random appends. After every event: at
// most one leader per epoch, no node ever changes or skips a committed
// entry, and all nodes agree on every committed offset. Then the cluster
// heals and must converge with every committed entry on every node.
func TestRandomizedSafety(t *testing.T) {
	for _, rules := range electionRules {
		t.Run(rules.name, func(t *testing.T) {
			totals := map[string]int{}
			for seed := *chaosFirstSeed; seed < *chaosFirstSeed+uint64(*chaosSeeds); seed++ {
				r := runChaos(t, seed, *chaosSafetyPhase, nil, rules.preVote)
				if f := r.c.hist.failed(); len(f) > 0 {
					t.Fatalf("seed %d: %s\nactions:\n%v", seed, r.c.hist.report(), r.actions)
				}
				r.c.checkConverged(30 * time.Second)
				epochs := 0
				for range r.c.hist.leaders {
					epochs++
				}
				t.Logf("seed %d: %d voters, %d nodes, %d actions, %d leader epochs, %d offsets committed, %d events",
					seed, len(r.c.voters), len(r.c.ids), len(r.actions), epochs, r.c.hist.maxCommitted+1, r.c.w.Steps())
				for k, v := range r.c.notes {
					totals[k] += v
				}
				r.c.close()
			}
			t.Logf("what the runs exercised: %v", totals)
			// The schedule must actually reach the interesting paths.
			for _, k := range append([]string{"raft.truncate", "raft.snapshot.installed", "raft.transition.Resigned"}, rules.exercised...) {
				if totals[k] == 0 {
					t.Errorf("no run exercised %s", k)
				}
			}
			for _, k := range rules.never {
				if totals[k] != 0 {
					t.Errorf("%d notes %s under %s's rules", totals[k], k, rules.name)
				}
			}
		})
	}
}

// electionRules are the two rule sets a raft node elects by: Kafka 3.8's,
// and 4.x's with pre-vote (Config.PreVote), with the notes that only one
// of them makes.
var electionRules = []struct {
	name             string
	preVote          bool
	exercised, never []string
}{
	{name: "3.8", exercised: []string{"raft.election.backoff"}, never: []string{"raft.transition.Prospective"}},
	{name: "4.x", preVote: true, exercised: []string{"raft.transition.Prospective"}, never: []string{"raft.election.backoff"}},
}

// TestDeterminism: the same seed gives the same trace, byte for byte
// (messages' contents included); another seed does not.
func TestDeterminism(t *testing.T) {
	run := func(seed uint64) (uint64, uint64) {
		r := runChaos(t, seed, 10*time.Second, nil, false)
		r.c.checkConverged(30 * time.Second)
		return r.c.w.Trace().Hash(), r.c.w.Trace().Count()
	}
	h1, n1 := run(42)
	h2, n2 := run(42)
	if h1 != h2 || n1 != n2 {
		t.Fatalf("same seed, different traces: %x/%d vs %x/%d", h1, n1, h2, n2)
	}
	h3, _ := run(43)
	if h3 == h1 {
		t.Fatal("different seeds gave the same trace")
	}
	t.Logf("seed 42: %d events, hash %x", n1, h1)
}
