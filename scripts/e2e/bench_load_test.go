package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// Goals of issue 15 for loading the app, printed beside each figure.
const (
	goalTransferMB = 2.0  // compressed bytes a first visit downloads
	goalFreshMs    = 1500 // first drawn cluster, fresh browser profile
	goalWarmMs     = 500  // first drawn cluster, warm cache
	loadRuns       = 5    // fresh and warm loads
	restartRuns    = 3    // loads after a browser restart
)

// TestBrowserBenchmarkLoad measures loading the app as `make serve` serves
// it (scripts/serve over the assets `make assets` writes: main.wasm with its
// .gz and .br copies) in headless Chromium, and reports:
//   - main.wasm raw, gzip -9 and brotli, and the bytes a first visit
//     transfers (every resource of the page, as the browser counted them);
//   - the first drawn cluster (data-ready-ms: performance.now() when the
//     first render is in the DOM) on a fresh browser profile per load (no
//     HTTP cache, no compiled-code cache), min/median/max of loadRuns, with
//     where the time went (download, compile, Go start-up, first render);
//   - the same warm: one profile, the page loaded again loadRuns times in
//     its tab (as a reload does), and after the browser was restarted on
//     that profile (HTTP cache and compiled code read from disk).
//
// It asserts nothing about speed. It runs only with KAFKASCOPE_BENCH=1 (make
// bench-browser) and writes its figures to build/bench-load.txt as well as
// the test log.
func TestBrowserBenchmarkLoad(t *testing.T) {
	if os.Getenv("KAFKASCOPE_BENCH") != "1" {
		t.Skip("set KAFKASCOPE_BENCH=1 (make bench-browser) to run the browser benchmark")
	}
	requireChromium(t)
	repo := repoRoot(t)
	site := buildSite(t, repo)
	url := startServe(t, repo, site)

	var report []string
	add := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		report = append(report, line)
	}
	size := func(name string) float64 {
		fi, err := os.Stat(filepath.Join(site, "public", name))
		if err != nil {
			t.Fatal(err)
		}
		return float64(fi.Size()) / 1e6
	}
	if avg, err := os.ReadFile("/proc/loadavg"); err == nil {
		// Other work on the machine moves every timing below.
		add("machine: %d cores, load average %s", goruntime.NumCPU(), strings.Join(strings.Fields(string(avg))[:3], " "))
	}
	add("main.wasm: %.2f MB raw, %.2f MB gzip -9, %.2f MB brotli (goal: ≤ %.1f MB compressed)",
		size("main.wasm"), size("main.wasm.gz"), size("main.wasm.br"), goalTransferMB)

	var fresh []loadFigures
	for i := 0; i < loadRuns; i++ {
		ctx, cancel := newProfile(t, t.TempDir())
		fresh = append(fresh, measureLoad(t, ctx, url))
		cancel()
	}
	add("first visit transfers %.2f MB, %.0f bytes (%s; br where the browser accepts it) (goal: ≤ %.1f MB)",
		fresh[0].Transfer/1e6, fresh[0].Transfer, fresh[0].WasmEncoding, goalTransferMB)
	add("first drawn cluster, fresh profile: %s (goal: ≤ %d ms)", spread(fresh, func(f loadFigures) float64 { return f.Ready }), goalFreshMs)
	add("  of which: %s", breakdown(fresh))
	add("  one traced fresh load: %s", traceFreshLoad(t, url))

	// Warm: the page loaded again in the same tab, as a reload does (the
	// browser revalidates every file and finds it unchanged).
	profile := t.TempDir()
	ctx, cancel := newProfile(t, profile)
	measureLoad(t, ctx, url) // fills the HTTP cache and the compiled-code caches
	var warm []loadFigures
	for i := 0; i < loadRuns; i++ {
		warm = append(warm, measureLoad(t, ctx, url))
	}
	cancel()
	add("first drawn cluster, warm (loaded again): %s, transferring %.3f MB (goal: ≤ %d ms)",
		spread(warm, func(f loadFigures) float64 { return f.Ready }), warm[len(warm)-1].Transfer/1e6, goalWarmMs)
	add("  of which: %s", breakdown(warm))

	// The next visit after the browser was closed: a new browser process on
	// the same profile (HTTP cache and compiled code from disk).
	var restarted []loadFigures
	for i := 0; i < restartRuns; i++ {
		ctx, cancel := newProfile(t, profile)
		restarted = append(restarted, measureLoad(t, ctx, url))
		cancel()
	}
	add("first drawn cluster, browser restarted on the same profile: %s", spread(restarted, func(f loadFigures) float64 { return f.Ready }))
	add("  of which: %s", breakdown(restarted))

	out := filepath.Join(repo, "build", "bench-load.txt")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
		_ = os.WriteFile(out, []byte(strings.Join(report, "\n")+"\n"), 0o644)
	}
}

// loadFigures is what one load of the page measured, in ms since the
// navigation started (performance.now()) and bytes.
type loadFigures struct {
	Ready      float64 `json:"ready"`      // first render in the DOM (data-ready-ms)
	Fetch      float64 `json:"fetch"`      // the loader asks for main.wasm
	Downloaded float64 `json:"downloaded"` // its last byte has arrived
	Compiled   float64 `json:"compiled"`   // the module is compiled and instantiated
	Main       float64 `json:"main"`       // Go's main starts
	Transfer   float64 `json:"transfer"`   // bytes over the network, every resource
	Brokers    int     `json:"brokers"`    // broker cards drawn

	WasmEncoding string `json:"wasmEncoding"`
}

// measureLoad opens url in the tab and reads the figures once the engine has
// drawn the page.
func measureLoad(t *testing.T, ctx context.Context, url string) loadFigures {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("sizing the viewport: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	var state string
	var err error
	for try := 0; try < 3; try++ {
		state, err = chromedp.Run(ctx, chromedp.PollFunction[string](`function() {
			const s = document.getElementById("status");
			if (!s || (s.dataset.state !== "loaded" && s.dataset.state !== "error")) return false;
			return s.dataset.state + "|" + s.textContent;
		}`, chromedp.WithPollingTimeout(time.Minute)))
		// Loading the page again over itself can swap its JavaScript
		// context while the poll starts: poll again in the new one.
		if err == nil || !strings.Contains(err.Error(), "Cannot find context") {
			break
		}
	}
	if err != nil {
		t.Fatalf("waiting for the engine at %s: %v", url, err)
	}
	if !strings.HasPrefix(state, "loaded|") {
		t.Fatalf("#status ended %q", state)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const mark = n => { const m = performance.getEntriesByName(n, "mark")[0]; return m ? m.startTime : -1; };
		const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
		const wasm = performance.getEntriesByType("resource").find(r => r.name.endsWith("/public/main.wasm"));
		return JSON.stringify({
			ready: Number(document.getElementById("status").dataset.readyMs),
			fetch: mark("kafkascope:fetch"),
			downloaded: mark("kafkascope:downloaded"),
			compiled: mark("kafkascope:compiled"),
			main: mark("kafkascope:main"),
			transfer: entries.reduce((sum, e) => sum + e.transferSize, 0),
			brokers: document.querySelectorAll(".kd-card-title").length,
			wasmEncoding: wasm ? (wasm.encodedBodySize < wasm.decodedBodySize ? "main.wasm " + (wasm.encodedBodySize / 1e6).toFixed(2) + " MB encoded" : "main.wasm raw") : "main.wasm not seen",
		});
	})()`))
	if err != nil {
		t.Fatalf("reading the load figures: %v", err)
	}
	var f loadFigures
	if err := json.Unmarshal([]byte(raw), &f); err != nil {
		t.Fatalf("load figures %s: %v", raw, err)
	}
	if f.Downloaded < 0 {
		// A revisit does not count the download (index.html): the last
		// byte is known to be in once the module is compiled.
		f.Downloaded = f.Compiled
	}
	if f.Brokers == 0 {
		t.Errorf("the page is loaded but draws no broker")
	}
	t.Logf("load: %s", raw)
	return f
}

// traceFreshLoad loads url once on a fresh profile under Chromium's tracing
// and sums the main-thread work that stands between the bytes and the first
// drawn cluster: wasm functions compiled lazily at their first call, and
// style and layout forced by the page's reads of element sizes. (Tracing
// slows the load: these are not timings of the runs above.)
func traceFreshLoad(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := newProfile(t, t.TempDir())
	defer cancel()
	var mu sync.Mutex
	var events []jsonv2.Value
	complete := make(chan struct{})
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			events = append(events, e.Value...)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	}); err != nil {
		t.Fatalf("listening for the trace: %v", err)
	}
	if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{
		IncludedCategories: []string{"devtools.timeline", "v8.wasm", "blink"},
	}}); err != nil {
		t.Fatalf("starting the trace: %v", err)
	}
	f := measureLoad(t, ctx, url)
	if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
		t.Fatalf("ending the trace: %v", err)
	}
	select {
	case <-complete:
	case <-time.After(time.Minute):
		t.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	var lazy, lazyMs, layoutMs, topTierMs float64
	for _, raw := range events {
		var e struct {
			Name string  `json:"name"`
			Ph   string  `json:"ph"`
			Dur  float64 `json:"dur"` // µs
		}
		if json.Unmarshal([]byte(raw), &e) != nil || e.Ph != "X" {
			continue
		}
		switch e.Name {
		case "wasm.CompileLazy":
			lazy++
			lazyMs += e.Dur / 1000
		case "Blink.ForcedStyleAndLayout.UpdateTime":
			layoutMs += e.Dur / 1000
		case "wasm.TopTierCompilation":
			topTierMs += e.Dur / 1000
		}
	}
	return fmt.Sprintf("first drawn at %.0f ms; %.0f wasm functions compiled at their first call, %.0f ms on the main thread; style and layout forced by reads of sizes %.0f ms; optimizing compilation in the background %.0f ms",
		f.Ready, lazy, lazyMs, layoutMs, topTierMs)
}

// newProfile starts Chromium on the profile in dir (a new, empty directory:
// no HTTP cache, no code cache) and returns its first tab; cancel closes
// the browser.
func newProfile(t *testing.T, dir string) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancelAll := context.WithTimeout(context.Background(), browserTimeout)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromiumOptions(dir)...)
	tab, cancelTab := chromedp.NewContext(alloc, chromedp.WithErrorf(t.Logf))
	exceptions := 0
	var exceptionsMu sync.Mutex
	if err := chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			exceptionsMu.Lock()
			exceptions++
			exceptionsMu.Unlock()
			if d := e.ExceptionDetails; d != nil {
				t.Logf("uncaught exception: %s", d.Text)
			}
		}
	}); err != nil {
		t.Fatalf("listening to the tab: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[string](`navigator.userAgent`)); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return tab, func() {
		cancelTab()
		cancelAlloc()
		cancelAll()
		exceptionsMu.Lock()
		defer exceptionsMu.Unlock()
		if exceptions > 0 {
			t.Errorf("the page threw %d uncaught exceptions", exceptions)
		}
	}
}

// buildSite runs `make assets` into a fresh directory (the flags and the
// compressed copies are the Makefile's) and lays the page beside it as the
// repository has it, the way `make serve` serves it.
func buildSite(t *testing.T, repo string) string {
	t.Helper()
	site := t.TempDir()
	public := filepath.Join(site, "public")
	if err := os.MkdirAll(public, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*buildTimeout)
	defer cancel()
	began := time.Now()
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", "assets",
		"WASM_OUT="+filepath.Join(public, "main.wasm"), "WASM_EXEC="+filepath.Join(public, "wasm_exec.js"))
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make assets: %v\n%s", err, out)
	}
	t.Logf("make assets took %v", time.Since(began).Round(time.Millisecond))
	for _, name := range []string{"index.html", "public/style.css", "public/diagram.css", "public/favicon.svg"} {
		data, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(site, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return site
}

// startServe builds and starts scripts/serve on a free port over site, and
// returns the page's URL; the server stops when the test ends.
func startServe(t *testing.T, repo, site string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "serve")
	build := exec.Command("go", "build", "-o", bin, "./scripts/serve")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./scripts/serve: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-port", "0", "-root", site)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading scripts/serve's serving line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "kafkascope: serving on ")
	if !ok {
		t.Fatalf("scripts/serve said %q", line)
	}
	return url
}

// spread is "median M ms (min A, max B) of N".
func spread(runs []loadFigures, of func(loadFigures) float64) string {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = of(r)
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return fmt.Sprintf("median %.0f ms (min %.0f, max %.0f of %d: %s)", median(xs), s[0], s[len(s)-1], len(xs), joinMs(xs))
}

// breakdown gives the median of each phase of the loads.
func breakdown(runs []loadFigures) string {
	med := func(of func(loadFigures) float64) float64 {
		xs := make([]float64, len(runs))
		for i, r := range runs {
			xs[i] = of(r)
		}
		return median(xs)
	}
	return fmt.Sprintf("page and script until the fetch %.0f ms, download %.0f ms, compile after the last byte %.0f ms, Go start-up %.0f ms, boot and first render %.0f ms (medians)",
		med(func(f loadFigures) float64 { return f.Fetch }),
		med(func(f loadFigures) float64 { return f.Downloaded - f.Fetch }),
		med(func(f loadFigures) float64 { return f.Compiled - f.Downloaded }),
		med(func(f loadFigures) float64 { return f.Main - f.Compiled }),
		med(func(f loadFigures) float64 { return f.Ready - f.Main }))
}
