package cluster

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Randomized fault tests (issue 4): for each seed, a cluster of 3–5 brokers,
// one or two topics (replication factor 2–3, min.insync.replicas=2, unclean
// leader election off), an acks=all producer sending numbered values, and a
// fault schedule drawn from the seed: process crashes, power losses,
// controlled stops, restarts, two-way and one-way cuts between brokers and
// heals, with random gaps of virtual time. Node 1 hosts the only controller:
// it is never killed or stopped, and always keeps a link to another broker.
// Then everything is healed and restarted, the cluster converges, and the
// checkers of chaos_helpers_test.go look at every replica.
//
// Same seed, same run: a failure prints its seed, the command to replay it
// and the schedule. More seeds:
//
//	go test ./core/cluster -run 'TestChaos$' -chaos.seeds=500
//	KAFKASCOPE_CHAOS_SEEDS=500 go test ./core/cluster -run 'TestChaos$'
//
// and one seed: -chaos.seed=N (add -v for its statistics, -chaos.notes to
// see what the engine did; see TestChaosDebug). -chaos.steps=N sets the
// number of faults per run (a failure's replay command names it).
var (
	chaosSeeds     = flag.Int("chaos.seeds", 0, "number of seeds TestChaos runs (default 24, or $KAFKASCOPE_CHAOS_SEEDS)")
	chaosFirstSeed = flag.Uint64("chaos.first", 1, "first seed TestChaos runs")
	chaosOneSeed   = flag.Uint64("chaos.seed", 0, "run only this seed in TestChaos")
	chaosSteps     = flag.Int("chaos.steps", 0, "faults per run in TestChaos (default: 10-20, drawn from the seed)")
)

const chaosDefaultSeeds = 24

func chaosSeedList(t *testing.T) []uint64 {
	if *chaosOneSeed != 0 {
		return []uint64{*chaosOneSeed}
	}
	n := chaosDefaultSeeds
	if env := os.Getenv("KAFKASCOPE_CHAOS_SEEDS"); env != "" {
		v, err := strconv.Atoi(env)
		if err != nil || v < 1 {
			t.Fatalf("KAFKASCOPE_CHAOS_SEEDS=%q: want a positive number", env)
		}
		n = v
	}
	if *chaosSeeds > 0 {
		n = *chaosSeeds
	}
	if testing.Short() && *chaosSeeds == 0 {
		n = min(n, 6)
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = *chaosFirstSeed + uint64(i)
	}
	return out
}

func TestChaos(t *testing.T) {
	var acked, exempt, powerLosses int
	for _, seed := range chaosSeedList(t) {
		run := runChaos(t, seed, chaosOptions{steps: *chaosSteps})
		if len(run.violations) > 0 {
			t.Errorf("%s", run.report())
			continue
		}
		acked += run.stats.acked
		exempt += run.stats.exempt
		powerLosses += run.powerLosses
		if testing.Verbose() {
			t.Logf("%s\n  sent %d, acked %d, failed %d; %d power losses, %d exempt; converged in %s; %d samples, %d events, %s virtual", run.describe(),
				len(run.sends), run.stats.acked, run.stats.failed, run.powerLosses, run.stats.exempt, run.stats.converged, run.stats.checks,
				run.c.World.Steps(), run.c.World.Now())
		}
	}
	// Not vacuous: the runs acknowledged records, and nearly all of them
	// were held to the no-loss rule.
	if !t.Failed() && (acked == 0 || exempt*10 > acked) {
		t.Fatalf("weak workload: %d acknowledged, %d exempt after %d power losses", acked, exempt, powerLosses)
	}
	t.Logf("%d acknowledged records checked, %d exempt after %d power losses", acked-exempt, exempt, powerLosses)
}

// The same seed gives the same run, event for event.
func TestChaosIsDeterministic(t *testing.T) {
	const seed = 3
	a := runChaos(t, seed, chaosOptions{steps: 8, traceContent: true})
	b := runChaos(t, seed, chaosOptions{steps: 8, traceContent: true})
	if ha, hb := a.c.World.Trace().Hash(), b.c.World.Trace().Hash(); ha != hb {
		t.Fatalf("seed %d: trace hashes differ: %x vs %x\n%s\n---\n%s", seed, ha, hb, a.report(), b.report())
	}
	if ra, rb := a.report(), b.report(); ra != rb {
		t.Fatalf("seed %d: same hash, different reports:\n%s\n---\n%s", seed, ra, rb)
	}
	if c := runChaos(t, seed+1, chaosOptions{steps: 8, traceContent: true}); c.c.World.Trace().Hash() == a.c.World.Trace().Hash() {
		t.Fatalf("seeds %d and %d gave the same trace hash", seed, seed+1)
	}
}

// The checkers are not vacuous (1): with unclean.leader.election.enable=true
// and min.insync.replicas=1, planted against the guarantees, the same
// machinery finds acknowledged records lost on some seed. (Either setting
// alone rarely or never loses an acknowledged record under these faults:
// with min.insync.replicas=2 an acknowledged record is on two replicas, and
// with unclean election off only a replica of the ISR leads; so the pair is
// planted, to keep the test fast.)
func TestChaosFindsPlantedUncleanElection(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		run := runChaos(t, seed, chaosOptions{unclean: true, minISR: 1, noPowerLoss: true})
		for _, v := range run.violations {
			if strings.Contains(v, "acknowledged") {
				t.Logf("seed %d, as expected: %s", seed, v)
				return
			}
		}
	}
	t.Fatal("no seed lost an acknowledged record with unclean leader election and min.insync.replicas=1")
}

// The checkers are not vacuous (2): after a clean run, a replica's log is
// altered behind the engine's back, and the final checks must name it.
func TestChaosCheckersCatchPlantedDamage(t *testing.T) {
	const seed = 2
	setup := func(t *testing.T) (*chaosRun, *chaosSend, int32, []int32) {
		run := runChaos(t, seed, chaosOptions{steps: 4, noPowerLoss: true})
		if len(run.violations) > 0 {
			t.Fatalf("clean run failed:\n%s", run.report())
		}
		// The last acknowledged record of a partition with a follower.
		for i := len(run.sends) - 1; i >= 0; i-- {
			s := run.sends[i]
			if !s.acked {
				continue
			}
			st := run.c.Controller().Image().Partition(s.topic, s.partition)
			if len(st.Replicas) < 2 {
				continue
			}
			var followers []int32
			for _, r := range st.Replicas {
				if r != st.Leader {
					followers = append(followers, r)
				}
			}
			return run, s, st.Leader, followers
		}
		t.Fatal("no acknowledged record")
		return nil, nil, 0, nil
	}
	recheck := func(t *testing.T, run *chaosRun, want string) {
		run.violations = nil
		run.finalChecks(t)
		for _, v := range run.violations {
			if strings.Contains(v, want) {
				return
			}
		}
		t.Fatalf("planted damage not reported as %q; violations: %q", want, run.violations)
	}
	// rewrite replaces the record at s.offset on broker id with another
	// value, keeping its batch's leader epoch and the HW.
	rewrite := func(t *testing.T, run *chaosRun, id int32, s *chaosSend, asLeader bool) {
		p := run.c.Node(id).Broker.Partition(tpOf(s.topic, s.partition))
		must(run.c.World.Call(Host(id), "plant", func(env *sim.Env) {
			l := p.Log()
			hw := l.HighWatermark()
			bs, err := l.Batches(s.offset, s.offset+1)
			if err != nil || len(bs) != 1 {
				t.Fatalf("batch at %d: %v %v", s.offset, bs, err)
			}
			must(l.TruncateTo(s.offset))
			rec := []record.Record{{Timestamp: env.Now().UnixMilli(), Value: []byte("planted")}}
			if asLeader {
				_, err = l.AppendAsLeader(record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), rec), bs[0].PartitionLeaderEpoch)
			} else {
				_, err = l.AppendAsFollower(record.Build(s.offset, bs[0].PartitionLeaderEpoch, record.NoProducer(), rec))
			}
			must(err)
			l.UpdateHighWatermark(hw)
		}))
	}
	t.Run("follower diverges below the HW", func(t *testing.T) {
		run, s, _, followers := setup(t)
		rewrite(t, run, followers[0], s, false)
		recheck(t, run, "differs from leader")
	})
	t.Run("follower behind the HW", func(t *testing.T) {
		run, s, _, followers := setup(t)
		f := followers[0]
		p := run.c.Node(f).Broker.Partition(tpOf(s.topic, s.partition))
		must(run.c.World.Call(Host(f), "plant", func(*sim.Env) { must(p.Log().TruncateTo(s.offset)) }))
		recheck(t, run, "is beyond ISR member")
		run.violations = nil
		run.sample()
		if len(run.violations) == 0 || !strings.Contains(run.violations[0], "but ISR member") {
			t.Fatalf("the sampled invariant missed it: %q", run.violations)
		}
	})
	t.Run("leader loses an acknowledged record", func(t *testing.T) {
		run, s, leader, _ := setup(t)
		rewrite(t, run, leader, s, true)
		recheck(t, run, "was replaced by \"planted\"")
	})
}

var chaosDebugTP = flag.String("chaos.notes", "", "with -chaos.seed: log the engine notes whose fields mention this string (e.g. chaos0-1), and the schedule")

func TestChaosDebug(t *testing.T) {
	if *chaosOneSeed == 0 || *chaosDebugTP == "" {
		t.Skip("needs -chaos.seed and -chaos.notes")
	}
	var lines []string
	run := runChaos(t, *chaosOneSeed, chaosOptions{steps: *chaosSteps, notes: func(e sim.TraceEvent) {
		if strings.Contains(e.String(), *chaosDebugTP) || strings.HasPrefix(e.Detail, "broker.") {
			lines = append(lines, e.String())
		}
	}})
	t.Logf("%s\nnotes:\n%s", run.report(), strings.Join(lines, "\n"))
}
