package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kafkascope/core/cluster"
	"kafkascope/core/scenario"
)

// benchRecords is the workload size both the native and the in-page run
// use (cluster.RunWorkload).
const benchRecords = 10000

// TestBrowserBenchmark measures the app in headless Chromium and reports
// (it asserts nothing about speed: that is what benchmarks are for):
//   - main.wasm size, raw and gzip -9;
//   - first render after navigation (performance.now when the first frame is
//     drawn), median of 5 loads;
//   - the engine's speed in the page against native: the same fixed
//     workload in wasm and in this process;
//   - frame times (p50, p95, max) while the largest scenario plays.
//
// It runs only with KAFKASCOPE_BENCH=1 (make bench-browser) and writes its
// figures to build/bench-browser.txt as well as the test log.
func TestBrowserBenchmark(t *testing.T) {
	if os.Getenv("KAFKASCOPE_BENCH") != "1" {
		t.Skip("set KAFKASCOPE_BENCH=1 (make bench-browser) to run the browser benchmark")
	}
	requireChromium(t)
	repo := repoRoot(t)
	built := buildWasm(t, repo)
	srv := httptest.NewServer(newPageHandler(repo, built))
	t.Cleanup(srv.Close)
	var report []string
	add := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		report = append(report, line)
	}

	raw, err := os.ReadFile(filepath.Join(built, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	add("main.wasm: %.2f MB raw, %.2f MB gzip -9", float64(len(raw))/1e6, float64(gzipSize(t, raw))/1e6)

	b := startBrowser(t)
	tab := b.root
	var firsts []float64
	for i := 0; i < 5; i++ {
		b.open(tab, srv.URL+"/")
		ms, err := strconv.ParseFloat(evalString(tab, `document.getElementById("status").dataset.readyMs`), 64)
		if err != nil {
			t.Fatalf("reading data-ready-ms: %v", err)
		}
		firsts = append(firsts, ms)
	}
	add("first render after navigation: median %.0f ms of 5 (%s)", median(firsts), joinMs(firsts))

	// The same workload natively (median of 3) and in the page.
	var natives []float64
	for i := 0; i < 3; i++ {
		began := time.Now()
		if _, err := cluster.RunWorkload(benchRecords); err != nil {
			t.Fatal(err)
		}
		natives = append(natives, float64(time.Since(began))/float64(time.Millisecond))
	}
	wasmMs := runPageWorkload(t, tab)
	nativeMs := median(natives)
	add("workload of %d acks=all records on 3 brokers: native %.0f ms, wasm %.0f ms: wasm/native = %.1f×", benchRecords, nativeMs, wasmMs, wasmMs/nativeMs)

	// Frame times while the largest scenario plays to its end.
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	largest := all[0]
	for _, s := range all {
		if len(s.Transcript.Commands()) > len(largest.Transcript.Commands()) {
			largest = s
		}
	}
	// A fresh page (a hash change alone would reopen in place), so the
	// frame statistics cover this scenario only.
	if _, err := chromedp.Run(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	b.open(tab, srv.URL+"/#scenario="+largest.ID)
	steps := len(largest.Transcript.Steps)
	for i := 1; i < steps; i++ {
		clickID(t, tab, "story-next")
		waitText(t, tab, "#story-step", fmt.Sprintf("Step %d of %d", i+1, steps))
	}
	time.Sleep(2 * time.Second) // let a publish of the frame statistics happen
	p50 := evalString(tab, `document.getElementById("status").dataset.frameP50Ms`)
	p95 := evalString(tab, `document.getElementById("status").dataset.frameP95Ms`)
	worst := evalString(tab, `document.getElementById("status").dataset.frameMaxMs`)
	add("frames while scenario %s (%d commands, %d steps) played: p50 %s ms, p95 %s ms, max %s ms",
		largest.ID, len(largest.Transcript.Commands()), steps, p50, p95, worst)

	out := filepath.Join(repo, "build", "bench-browser.txt")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
		_ = os.WriteFile(out, []byte(strings.Join(report, "\n")+"\n"), 0o644)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func joinMs(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.0f", x)
	}
	return strings.Join(parts, ", ") + " ms"
}

func gzipSize(t *testing.T, data []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}
