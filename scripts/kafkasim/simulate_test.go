package main

import (
	"bytes"
	"strings"
	"testing"

	"kafkascope/core/simulate"
)

func simulateOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := run(append([]string{"simulate"}, args...), strings.NewReader(""), &out, &errb)
	return out.String() + errb.String(), rc
}

// A failing seed prints one line naming the seed and the invariant, the
// summary counts it, the exit status is 1, and --seed replays the same
// violation.
func TestSimulateReportsAndReplaysAViolation(t *testing.T) {
	out, rc := simulateOut(t, "--seeds", "26-27", "--config", "min.insync.replicas=1", "--version", "3.8")
	if rc != 1 {
		t.Fatalf("exit %d, want 1:\n%s", rc, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	first := lines[0]
	if !strings.HasPrefix(first, "seed 27: acked-write-lost at t=") {
		t.Fatalf("first line %q", first)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "simulate: 2 seeds (26-27), 1 with violations (acked-write-lost 1), 0 runs failed, 0 failing seeds did not replay; ") || !strings.Contains(last, "runs/s") {
		t.Fatalf("summary %q", last)
	}
	replay, rc := simulateOut(t, "--seed", "27", "--config", "min.insync.replicas=1", "--version", "3.8")
	if rc != 1 || !strings.HasPrefix(replay, first+"\n") {
		t.Fatalf("replay (exit %d) does not start with %q:\n%s", rc, first, replay)
	}
	if !strings.Contains(replay, "replay: go run ./scripts/kafkasim simulate --seed 27 --config min.insync.replicas=1 --version 3.8 --trace") {
		t.Fatalf("the report does not say how to replay:\n%s", replay)
	}
	if !strings.Contains(replay, "\n  open: http://127.0.0.1:8080/#sim=27&config=min.insync.replicas=1&version=3.8\n") {
		t.Fatalf("the report does not give the browser link:\n%s", replay)
	}
	// -v gives each failing seed's report, with its link.
	if verbose, _ := simulateOut(t, "--seeds", "26-27", "--config", "min.insync.replicas=1", "--version", "3.8", "-v"); !strings.Contains(verbose, first+"\n") ||
		strings.Count(verbose, "open: http://127.0.0.1:8080/#sim=") != 1 {
		t.Fatalf("-v does not give the failing seed's link:\n%s", verbose)
	}
}

// A passing --seed run prints its report with the browser link too, with
// every option that shapes the run.
func TestSimulateSeedPrintsTheBrowserLink(t *testing.T) {
	out, rc := simulateOut(t, "--seed", "2", "--faults", "3", "--groups=false")
	// The release was drawn for the seed; the replay and the link name it.
	v := simulate.Draw(2, simulate.Options{}).Version
	if rc != 0 || !strings.Contains(out, "\n  open: http://127.0.0.1:8080/#sim=2&faults=3&groups=0&version="+v.String()+"\n") || !strings.Contains(out, "replay: go run ./scripts/kafkasim simulate --seed 2 --faults 3 --groups=false --version "+v.String()+" --trace") {
		t.Fatalf("exit %d:\n%s", rc, out)
	}
}

func TestSimulateUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"--seeds", "0-3"}, {"--seeds", "1-2", "--config", "foo=bar"}, {"--seeds", "1-2", "--seed", "3"}, {"--seeds", "1", "--minutes", "-1"}, {"--seeds", "1", "--jobs", "0"}, {"--seeds", "1", "--version", "2.7"}, {"--seeds", "1", "--version", "x"}} {
		if out, rc := simulateOut(t, args...); rc != 2 {
			t.Errorf("%q: exit %d, want 2:\n%s", args, rc, out)
		}
	}
}

// --jobs changes how many seeds run at once, never what any seed prints:
// the output is in seed order, equal for 1 and 3 jobs but for the timing.
func TestSimulateJobsDoNotChangeTheOutput(t *testing.T) {
	args := []string{"--seeds", "26-29", "--config", "min.insync.replicas=1", "-v"}
	one, rc1 := simulateOut(t, append(args, "--jobs", "1")...)
	three, rc3 := simulateOut(t, append(args, "--jobs", "3")...)
	untimed := func(s string) string {
		i := strings.LastIndex(s, "; ") // the summary's timing
		return s[:max(i, 0)]
	}
	if rc1 != rc3 || untimed(one) == "" || untimed(one) != untimed(three) {
		t.Fatalf("--jobs 1 (exit %d):\n%s\n--jobs 3 (exit %d):\n%s", rc1, one, rc3, three)
	}
}
