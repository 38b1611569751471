package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"kafkascope/core/simulate"
)

// overrides collects repeated --config k=v flags.
type overrides map[string]string

func (o overrides) String() string { return fmt.Sprint(map[string]string(o)) }
func (o overrides) Set(s string) error {
	k, v, err := simulate.ParseOverride(s)
	if err != nil {
		return err
	}
	o[k] = v
	return nil
}

// simulateCmd is `kafkasim simulate`: the randomized fault simulator.
//
//	kafkasim simulate --seeds 1-200 [--config k=v]... [--minutes N] [--faults N] [--groups=false]
//	kafkasim simulate --seed N [--trace] [--config k=v]...
//
// A run's report (--seed N, or -v for failing seeds) ends its header with
// the command that replays it and the page that plays it in the browser
// (open: http://127.0.0.1:8080/#sim=..., what `make serve` serves).
//
// One line per failing seed, then a closing summary; exit status 1 when any
// seed violated an invariant (2 for bad usage, 3 when a run itself failed
// or a failing seed, run again, did not fail the same way). Seeds run
// --jobs at a time in separate worlds; the output is in seed order and the
// same for any --jobs.
func simulateCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seeds := fs.String("seeds", "", "seed range A-B")
	seed := fs.Uint64("seed", 0, "replay one seed")
	trace := fs.Bool("trace", false, "with --seed: print the run's event trace")
	verbose := fs.Bool("v", false, "print each failing seed's full report")
	minutes := fs.Int("minutes", 0, "virtual minutes of faults per run (default: a drawn number of faults)")
	faults := fs.Int("faults", 0, "faults per run (default: 10-20, drawn from the seed)")
	groups := fs.Bool("groups", true, "the consumer groups drawn for each seed in the workload (--groups=false leaves them out)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "seeds run at once, each in its own world (output stays in seed order)")
	replay := fs.Bool("replay", true, "run every failing seed again and require the same failure line")
	version := fs.String("version", "", "the Kafka release every run's cluster runs (default: drawn for each seed from the releases the engine runs)")
	ov := overrides{}
	fs.Var(ov, "config", "override a broker or topic config, key=value (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (*seeds == "") == (*seed == 0) {
		fmt.Fprintln(stderr, "usage: kafkasim simulate (--seeds A-B | --seed N [--trace]) [--config k=v]... [--minutes N] [--faults N] [--groups=false] [--version V] [--jobs N] [--replay=false] [-v]")
		return 2
	}
	if *minutes < 0 || *minutes > simulate.MaxMinutes || *faults < 0 || *faults > simulate.MaxFaults {
		fmt.Fprintf(stderr, "kafkasim simulate: --minutes must be 0-%d and --faults 0-%d\n", simulate.MaxMinutes, simulate.MaxFaults)
		return 2
	}
	from, to := *seed, *seed
	if *seeds != "" {
		var err error
		if from, to, err = simulate.ParseSeeds(*seeds); err != nil {
			fmt.Fprintln(stderr, "kafkasim simulate:", err)
			return 2
		}
	}
	opts := simulate.Options{Overrides: ov, Minutes: *minutes, Faults: *faults, NoGroups: !*groups}
	if *version != "" {
		v, err := simulate.RunnableVersion(*version)
		if err != nil {
			fmt.Fprintln(stderr, "kafkasim simulate: --version:", err)
			return 2
		}
		opts.Version = v
	}
	if *trace {
		opts.Trace = func(line string) { fmt.Fprintln(stdout, line) }
	}
	if *jobs < 1 || *jobs > 64 {
		fmt.Fprintln(stderr, "kafkasim simulate: --jobs must be 1-64")
		return 2
	}
	if opts.Trace != nil {
		*jobs = 1 // one run's trace, in order
	}
	start := time.Now()
	var runs, failing, broken, unreplayable int
	counts := map[string]int{}
	simulate.Sweep(from, to, opts, simulate.SweepOptions{Jobs: *jobs, Replay: *replay}, func(r simulate.SeedResult) {
		runs++
		if r.Err != nil {
			broken++
			// One line per seed; the whole error (a panic's stack) with -v.
			msg := r.Err.Error()
			if line, _, _ := strings.Cut(msg, "\n"); !*verbose {
				msg = line
			}
			fmt.Fprintf(stdout, "seed %d: the run itself failed: %s\n", r.Seed, msg)
			return
		}
		run := r.Run
		if len(run.Violations) > 0 {
			failing++
			counts[run.Violations[0].Invariant]++
			fmt.Fprintln(stdout, run.FailureLine())
		}
		if r.DoesNotReplay() {
			unreplayable++
			fmt.Fprintf(stdout, "seed %d: does not replay: the second run gave %s\n", r.Seed, r.Replayed)
		}
		if *verbose && len(run.Violations) > 0 || from == to {
			fmt.Fprint(stdout, indent(run.Report()))
		}
	})
	elapsed := time.Since(start)
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, counts[k]))
	}
	summary := ""
	if len(kinds) > 0 {
		summary = " (" + strings.Join(kinds, ", ") + ")"
	}
	replays := ""
	if *replay {
		replays = fmt.Sprintf(", %d failing seeds did not replay", unreplayable)
	}
	fmt.Fprintf(stdout, "simulate: %d seeds (%d-%d), %d with violations%s, %d runs failed%s; %.2f runs/s (%s, %d jobs)\n",
		runs, from, to, failing, summary, broken, replays, float64(runs)/elapsed.Seconds(), elapsed.Round(time.Millisecond), *jobs)
	switch {
	case broken > 0 || unreplayable > 0:
		return 3
	case failing > 0:
		return 1
	}
	return 0
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}
