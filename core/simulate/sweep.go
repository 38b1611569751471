package simulate

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSeeds bounds one sweep (--seeds A-B).
const MaxSeeds = 1_000_000

// ParseSeeds reads --seeds A-B (or a single seed N).
func ParseSeeds(s string) (uint64, uint64, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	from, err1 := strconv.ParseUint(a, 10, 64)
	to, err2 := strconv.ParseUint(b, 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("--seeds %q: expected A-B with whole numbers, e.g. 1-200", s)
	case from == 0 || to < from:
		return 0, 0, fmt.Errorf("--seeds %q: seeds start at 1 and the range must not be empty", s)
	case to-from >= MaxSeeds:
		return 0, 0, fmt.Errorf("--seeds %q: at most %d seeds per sweep", s, MaxSeeds)
	}
	return from, to, nil
}

// FailureLine is the one line a failing seed prints: the seed, the first
// violated invariant, when, what, and how many violations in all.
func (run *Run) FailureLine() string {
	v := run.Violations[0]
	more := ""
	if n := len(run.Violations); n > 1 {
		more = fmt.Sprintf(" (+%d more)", n-1)
	}
	detail, _, _ := strings.Cut(v.Detail, "\n")
	return fmt.Sprintf("seed %d: %s at t=%s: %s%s", run.Plan.Seed, v.Invariant, v.At, detail, more)
}

// SweepOptions shape a sweep over a seed range.
type SweepOptions struct {
	// Jobs is how many seeds run at once (each in its own world; <= 1 runs
	// them one after another). Results come out in seed order either way.
	Jobs int
	// Replay runs every failing seed a second time and requires the same
	// failure line: the promise that a printed seed reproduces its
	// violation, checked on every seed printed.
	Replay bool
}

// SeedResult is one seed's outcome in a sweep: the run, or the error that
// stopped it; Replayed is the second run's failure line when it differs
// from the first (with SweepOptions.Replay).
type SeedResult struct {
	Seed     uint64
	Run      *Run
	Err      error
	Replayed string
}

// DoesNotReplay reports whether the seed's second run failed differently.
func (r SeedResult) DoesNotReplay() bool { return r.Replayed != "" }

// Sweep simulates seeds from..to and hands each result to emit in seed
// order. Seeds run in chunks of 4×Jobs so that at most one chunk of runs
// (each holding a whole cluster) is in memory; a run's cluster is dropped
// once emit returns. Worlds share nothing, so runs may execute in parallel
// without changing any run (the race test in sweep_test.go runs that way).
// opts.Trace and opts.Notes must be nil with Jobs > 1.
func Sweep(from, to uint64, opts Options, so SweepOptions, emit func(SeedResult)) {
	jobs := max(so.Jobs, 1)
	chunk := uint64(4 * jobs)
	for start := from; start >= from && start <= to; start += chunk {
		end := min(to, start+chunk-1)
		if end < start { // overflow at the top of the range
			end = to
		}
		results := make([]SeedResult, end-start+1)
		next := make(chan int)
		done := make(chan struct{})
		for range jobs {
			go func() {
				for i := range next {
					results[i] = sweepOne(start+uint64(i), opts, so.Replay)
				}
				done <- struct{}{}
			}()
		}
		for i := range results {
			next <- i
		}
		close(next)
		for range jobs {
			<-done
		}
		for _, r := range results {
			emit(r)
			if r.Run != nil && r.Run.C != nil {
				r.Run.C.Close()
				r.Run.C = nil
			}
		}
		if end == to {
			return
		}
	}
}

func sweepOne(seed uint64, opts Options, replay bool) SeedResult {
	run, err := Simulate(seed, opts)
	res := SeedResult{Seed: seed, Run: run, Err: err}
	if err != nil || !replay || len(run.Violations) == 0 {
		return res
	}
	first := run.FailureLine()
	again, err := Simulate(seed, opts)
	switch {
	case err != nil:
		res.Replayed = "the run itself failed: " + err.Error()
	case len(again.Violations) == 0:
		res.Replayed = "no violation"
	case again.FailureLine() != first:
		res.Replayed = again.FailureLine()
	}
	return res
}
