package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"kafkascope/core/cluster"
	"kafkascope/core/console"
)

// Issue 15's engine goals, printed beside each figure.
const (
	goalWasmRatio     = 2.0 // wasm at least 0.5x native speed
	goalWeekNative    = time.Second
	goalWeekInPage    = 3 * time.Second
	benchAdvanceSetup = "kafka-topics.sh --create --topic %s --partitions 3 --replication-factor 3"
)

// benchRuns is how many times each side runs the workload for its median.
// The workload takes 12-32 ms natively on the 2-core machine, and a
// median of 3 swung the ratio from 2x to 9x between two runs of the
// benchmark on the same commit (a collection, or another process, in one
// run of three moves the median); a median of 9 costs a few seconds more.
const benchRuns = 9

// benchTopics are the idle topics of the time-advance figures.
var benchTopics = []string{"orders", "payments", "audit"}

// TestBrowserBenchmarkEngine measures the engine (issue 15, goals 4 and
// 5) and prints every figure beside its goal; it asserts nothing about
// speed:
//   - the fixed workload (cluster.RunWorkload, 10,000 acks=all records)
//     natively and in the page, median of benchRuns each after a run not
//     counted:
//     wasm/native, with the page playing and with playback paused (the
//     page shares its thread with what it draws and plays);
//   - `time advance 7d` on the default cluster with three idle topics,
//     natively and in the page (in the page it is given
//     KAFKASCOPE_BENCH_ADVANCE_LIMIT, 3m by default and at most what is
//     left of the browser's time, and the simulated time it reached is
//     printed when it does not finish).
//
// It runs only with KAFKASCOPE_BENCH=1 (make bench-browser) and writes its
// figures to build/bench-engine.txt as well as the test log. With
// KAFKASCOPE_BENCH_PROFILE=1 it also records a CPU profile of the week's
// advance in the page (build/profiles/frames-advance-7d.cpuprofile) and
// logs the functions with the most self time.
func TestBrowserBenchmarkEngine(t *testing.T) {
	if os.Getenv("KAFKASCOPE_BENCH") != "1" {
		t.Skip("set KAFKASCOPE_BENCH=1 (make bench-browser) to run the browser benchmark")
	}
	limit := 3 * time.Minute
	if v := os.Getenv("KAFKASCOPE_BENCH_ADVANCE_LIMIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("KAFKASCOPE_BENCH_ADVANCE_LIMIT: %v", err)
		}
		limit = d
	}
	requireChromium(t)
	repo := repoRoot(t)
	// With KAFKASCOPE_BENCH_PROFILE=1, a CPU profile of the week's advance
	// in the page (build/profiles/frames-advance-7d.cpuprofile), from a
	// build with the wasm's function names.
	prof := &framesBench{t: t}
	built := prof.buildForProfiles(repo)
	var report []string
	add := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		report = append(report, line)
	}

	// Natively first, while no page runs beside it: the workload, and a
	// week of an idle cluster.
	// One run first, not counted, on each side: the page's first run
	// includes V8 compiling the hot wasm functions again at its top tier.
	if _, err := cluster.RunWorkload(benchRecords); err != nil {
		t.Fatal(err)
	}
	var natives []float64
	for i := 0; i < benchRuns; i++ {
		began := time.Now()
		if _, err := cluster.RunWorkload(benchRecords); err != nil {
			t.Fatal(err)
		}
		natives = append(natives, ms(time.Since(began)))
	}
	week := nativeAdvance(t, "7d")
	add("time advance 7d natively (default cluster, %d idle topics of 3 partitions): %.1f s (goal: at most %v)",
		len(benchTopics), week.Seconds(), goalWeekNative)

	// Then the page. The browser's context lasts browserTimeout: the
	// advance gets what is left of it.
	srv := httptest.NewServer(newPageHandler(repo, built))
	t.Cleanup(srv.Close)
	b := startBrowser(t)
	started := time.Now()
	tab := b.root
	b.open(tab, srv.URL+"/")
	runPageWorkload(t, tab)
	var pages []float64
	for i := 0; i < benchRuns; i++ {
		pages = append(pages, runPageWorkload(t, tab))
	}
	nativeMs, pageMs := median(natives), median(pages)
	add("workload of %d acks=all records on 3 brokers, median of %d: native %.0f ms (%s), wasm %.0f ms (%s): wasm/native = %.2f× (goal: at most %.1f×, wasm at least 0.5× native speed)",
		benchRecords, benchRuns, nativeMs, joinMs(natives), pageMs, joinMs(pages), pageMs/nativeMs, goalWasmRatio)
	// The page shares its one thread with the workload: it keeps playing
	// the default cluster, draws frames and builds standby replays. Paused,
	// it still draws and builds standbys, but plays nothing.
	clickID(t, tab, "play")
	waitFor(t, tab, `document.getElementById("play").dataset.state === "paused"`)
	var paused []float64
	for i := 0; i < benchRuns; i++ {
		paused = append(paused, runPageWorkload(t, tab))
	}
	add("the same in the page with playback paused: wasm %.0f ms (%s): wasm/native = %.2f×",
		median(paused), joinMs(paused), median(paused)/nativeMs)
	clickID(t, tab, "play")

	// The page starts with the default cluster (cluster create --brokers 3).
	term := &terminal{t: t, ctx: tab}
	for _, topic := range benchTopics {
		term.enter(fmt.Sprintf(benchAdvanceSetup, topic), "Created topic "+topic+".")
	}
	limit = min(limit, browserTimeout-time.Since(started)-30*time.Second)
	prof.tab = tab
	prof.profileStart()
	took, done, reached := pageAdvance(t, term, "time advance 7d", limit)
	prof.profileStop("advance-7d")
	if done {
		add("time advance 7d in the page: %.1f s (goal: at most %v)", took.Seconds(), goalWeekInPage)
	} else {
		add("time advance 7d in the page: not finished after %v; the clock had reached %s (goal: at most %v)", limit.Round(time.Second), reached, goalWeekInPage)
	}

	// Last (it leaves the app): the floor under the wasm/native ratio.
	items, floor := wasmFloor(t, repo, tab)
	add("Go's own code, no engine in it, in this browser against natively (the toolchain's floor under the ratio above): %s; median %.1f×",
		strings.Join(items, ", "), floor)

	out := filepath.Join(repo, "build", "bench-engine.txt")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
		_ = os.WriteFile(out, []byte(strings.Join(report, "\n")+"\n"), 0o644)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// runPageWorkload runs the workload in the page (kafkascopeBench) and
// returns its milliseconds, as the page measured them.
func runPageWorkload(t *testing.T, tab context.Context) float64 {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Evaluate[any](`(() => { const s = document.getElementById("status"); delete s.dataset.bench; delete s.dataset.benchError; return null; })()`)); err != nil {
		t.Fatalf("clearing the last benchmark result: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[any](fmt.Sprintf(`kafkascopeBench(%d); null`, benchRecords))); err != nil {
		t.Fatalf("starting the in-page benchmark: %v", err)
	}
	result, err := chromedp.Run(tab, chromedp.PollFunction[string](`function() {
		const s = document.getElementById("status");
		return s.dataset.bench || (s.dataset.benchError ? "error " + s.dataset.benchError : false);
	}`, chromedp.WithPollingTimeout(3*time.Minute)))
	if err != nil {
		t.Fatalf("waiting for the in-page benchmark: %v", err)
	}
	fields := strings.Fields(result)
	if len(fields) != 3 || fields[0] == "error" {
		t.Fatalf("in-page benchmark: %q", result)
	}
	v, err := strconv.ParseFloat(fields[2], 64)
	if err != nil {
		t.Fatalf("in-page benchmark: %q", result)
	}
	return v
}

// nativeAdvance times `time advance d` in a native console session set up
// as the page's: the default cluster and the idle topics.
func nativeAdvance(t *testing.T, d string) time.Duration {
	t.Helper()
	s := console.NewSession()
	s.Exec("cluster create --brokers 3", nil)
	defer s.Cluster().Close()
	for _, topic := range benchTopics {
		if out := s.Exec(fmt.Sprintf(benchAdvanceSetup, topic), nil); len(out) != 1 {
			t.Fatalf("creating %s natively: %q", topic, out)
		}
	}
	began := time.Now()
	if out := s.Exec("time advance "+d, nil); len(out) != 0 {
		t.Fatalf("time advance %s natively: %q", d, out)
	}
	return time.Since(began)
}

// pageAdvance types a time advance into the page's terminal and waits up to
// limit for the terminal to be idle again. It reports how long that took,
// whether it finished, and the simulated time shown when it did not.
func pageAdvance(t *testing.T, term *terminal, line string, limit time.Duration) (time.Duration, bool, string) {
	t.Helper()
	term.typeKeys(line)
	began := time.Now()
	if err := chromedp.Do(term.ctx, chromedp.SendKeys(chromedp.ID("command"), kb.Enter)); err != nil {
		t.Fatalf("pressing Enter after %q: %v", line, err)
	}
	// The command starts running at once: wait for the terminal to leave
	// idle first, so the wait below does not see the state before it.
	if _, err := chromedp.Run(term.ctx, chromedp.PollFunction[bool](`function() {
		const p = document.querySelector(".terminal");
		return !!p && p.dataset.state !== "idle";
	}`, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		// It may have finished within one poll; the idle wait decides.
		t.Logf("%q: the terminal was not seen busy (%v)", line, err)
	}
	_, err := chromedp.Run(term.ctx, chromedp.PollFunction[bool](`function() {
		const p = document.querySelector(".terminal");
		const input = document.getElementById("command");
		return !!p && !!input && p.dataset.state === "idle" && !input.disabled;
	}`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(limit)))
	took := time.Since(began)
	if err == nil {
		return took, true, ""
	}
	// Left running: the test ends here and the browser with it (Ctrl+C
	// cannot reach the terminal's input, disabled while it runs).
	return took, false, evalString(term.ctx, `document.getElementById("time-now").textContent`)
}
