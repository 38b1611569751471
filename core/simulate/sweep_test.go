package simulate

import (
	"slices"
	"testing"
)

// A parallel sweep gives every seed exactly the run it gets alone, in seed
// order (under -race in make test, this also shows runs share no state),
// and replays each failing seed to the same failure line.
func TestParallelSweepMatchesSequentialRuns(t *testing.T) {
	opts := Options{Overrides: map[string]string{"min.insync.replicas": "1"}, Version: kafka38}
	var got []SeedResult
	Sweep(26, 28, opts, SweepOptions{Jobs: 2, Replay: true}, func(r SeedResult) { got = append(got, r) })
	if len(got) != 3 {
		t.Fatalf("%d results for 3 seeds", len(got))
	}
	failing := 0
	for i, r := range got {
		if r.Seed != uint64(26+i) || r.Err != nil {
			t.Fatalf("result %d: seed %d, err %v", i, r.Seed, r.Err)
		}
		if r.Run.C != nil {
			t.Errorf("seed %d: the sweep kept the run's cluster", r.Seed)
		}
		if r.DoesNotReplay() {
			t.Errorf("seed %d does not replay: %s", r.Seed, r.Replayed)
		}
		alone := mustSimulate(t, r.Seed, opts)
		if !slices.Equal(alone.Schedule, r.Run.Schedule) || alone.Stats != r.Run.Stats || len(alone.Violations) != len(r.Run.Violations) {
			t.Errorf("seed %d ran differently in the sweep:\n%s\nalone:\n%s", r.Seed, r.Run.Report(), alone.Report())
		}
		if len(r.Run.Violations) > 0 {
			failing++
			if alone.FailureLine() != r.Run.FailureLine() {
				t.Errorf("seed %d: %q in the sweep, %q alone", r.Seed, r.Run.FailureLine(), alone.FailureLine())
			}
		}
	}
	if failing == 0 {
		t.Fatal("no seed of 26-28 failed with min.insync.replicas=1: the replay path went untested")
	}
}
