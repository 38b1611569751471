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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/chromedp"
)

// longSession is the page a user leaves open for hours: a 3-broker
// cluster, two producers and a consumer group of two running throughout,
// a broker killed and restarted each simulated hour. The topic keeps 10
// minutes of data (retention.ms, 1 MiB segments), so what the cluster
// holds levels off, and what still grows would be the page's own leak.
var longSession = []string{
	"kafka-topics.sh --create --topic orders --partitions 6 --replication-factor 3 --config retention.ms=600000 --config segment.bytes=1048576",
	"kafka-console-consumer.sh --topic orders --group app --consumer-property client.id=c1 &",
	"kafka-console-consumer.sh --topic orders --group app --consumer-property client.id=c2 &",
	"kafka-verifiable-producer.sh --bootstrap-server kafka-1:9092 --topic orders --throughput 5 --max-messages 100000 &",
	"kafka-producer-perf-test.sh --topic orders --num-records 100000 --throughput 9 --record-size 100 --producer-props bootstrap.servers=kafka-2:9092 &",
}

// TestBrowserLongSession plays longSession in headless Chromium for
// KAFKASCOPE_LONG of simulated time (e.g. 3h) at KAFKASCOPE_LONG_SPEED
// (1 unless given: one of the page's speeds) and samples the tab's memory
// every KAFKASCOPE_LONG_EVERY of simulated time (10m unless given): the
// renderer's resident set, the Go program's memory (the wasm instance's,
// which never shrinks) and its live heap, the JavaScript heap, the DOM
// nodes, and the paused replays the page keeps. It writes the table to
// build/long-session.txt and fails only when the page stops or throws
// (memory figures are measured, not asserted). make bench-long runs it.
func TestBrowserLongSession(t *testing.T) {
	span, err := time.ParseDuration(os.Getenv("KAFKASCOPE_LONG"))
	if err != nil || span <= 0 {
		t.Skip("set KAFKASCOPE_LONG to a simulated duration, e.g. 3h (make bench-long)")
	}
	speed := 1.0
	if s := os.Getenv("KAFKASCOPE_LONG_SPEED"); s != "" {
		if speed, err = strconv.ParseFloat(s, 64); err != nil || speed <= 0 {
			t.Fatalf("KAFKASCOPE_LONG_SPEED=%q is not a speed", s)
		}
	}
	every := 10 * time.Minute
	if s := os.Getenv("KAFKASCOPE_LONG_EVERY"); s != "" {
		if every, err = time.ParseDuration(s); err != nil || every <= 0 {
			t.Fatalf("KAFKASCOPE_LONG_EVERY=%q is not a duration", s)
		}
	}
	requireChromium(t)
	repo := repoRoot(t)
	srv := newServer(t, repo)
	// The wall time it may take: the span at the speed, twice over, and
	// the setup.
	wall := time.Duration(2*float64(span)/speed) + 10*time.Minute
	fb := &framesBench{t: t, url: srv}
	fb.b = startBrowserWithin(t, wall)
	fb.tab = fb.b.root
	fb.open("")
	term := &terminal{t: t, ctx: fb.tab}
	for _, line := range longSession {
		term.enter(line)
	}
	setSpeed(t, fb.tab, speed)
	fb.ensurePlaying()

	out := filepath.Join(repo, "build", "long-session.txt")
	report := []string{
		fmt.Sprintf("# kafkascope's page left playing: %s of simulated time at speed %g (%s)", span, speed, time.Now().UTC().Format(time.RFC3339)),
		"# " + strings.Join(longSession, "\n# "),
		"# broker kill 2 / broker start 2 each simulated hour",
		"simulated   wall      renderer-RSS-MB  go-total-MB  go-live-MB  js-heap-used-MB  dom-nodes  standbys  frames",
	}
	write := func() {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
			_ = os.WriteFile(out, []byte(strings.Join(report, "\n")+"\n"), 0o644)
		}
	}
	began := time.Now()
	sample := func(at time.Duration) {
		mem := readTabMemory(t, fb)
		line := fmt.Sprintf("%-11s %-9s %15.0f  %11s  %10s  %15.1f  %9d  %8s  %6s",
			fmtHours(at), time.Since(began).Round(time.Second), mem.rss, mem.goTotal, mem.goLive, mem.jsUsed/1e6, mem.nodes, mem.standbys, mem.frames)
		t.Log(line)
		report = append(report, line)
		write()
	}
	nextSample := time.Duration(0)
	nextKill := time.Hour
	for {
		now := simulatedNow(t, fb.tab)
		if now >= nextSample {
			sample(now)
			nextSample += every
		}
		if now >= span {
			break
		}
		if now >= nextKill {
			term.enter("broker kill 2")
			term.enter("broker start 2")
			nextKill += time.Hour
		}
		if time.Since(began) > wall {
			t.Fatalf("the page reached %s of simulated time in %s of wall time (at speed %g)", now, time.Since(began).Round(time.Second), speed)
		}
		time.Sleep(5 * time.Second)
	}
	report = append(report, fmt.Sprintf("# done: %s of simulated time in %s of wall time", span, time.Since(began).Round(time.Second)))
	write()
}

// newServer serves the page built for the tests and returns its address.
func newServer(t *testing.T, repo string) string {
	srv := httptest.NewServer(newPageHandler(repo, buildWasm(t, repo)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// setSpeed picks a playback speed in the timeline's selector.
func setSpeed(t *testing.T, tab context.Context, speed float64) {
	t.Helper()
	v := strconv.FormatFloat(speed, 'f', -1, 64)
	got := evalString(tab, `(() => { const s = document.getElementById("speed"); s.value = `+strconv.Quote(v)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return s.value; })()`)
	if got != v {
		t.Fatalf("the speed selector has no speed %s (it says %q)", v, got)
	}
}

// simulatedNow is the virtual time the timeline shows (T+12.345s).
func simulatedNow(t *testing.T, tab context.Context) time.Duration {
	t.Helper()
	s := strings.TrimSuffix(strings.TrimPrefix(evalString(tab, `document.getElementById("time-now").textContent`), "T+"), "s")
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("reading the timeline's time %q: %v", s, err)
	}
	return time.Duration(x * float64(time.Second))
}

// fmtHours is a simulated time as h:mm.
func fmtHours(d time.Duration) string {
	return fmt.Sprintf("%d:%02d", int(d.Hours()), int(d.Minutes())%60)
}

// tabMemoryFigures is one sample of the tab's memory.
type tabMemoryFigures struct {
	rss                               float64
	goTotal, goLive, standbys, frames string
	jsUsed                            float64
	nodes                             int64
}

// readTabMemory samples the tab's memory after a JavaScript collection (so
// the JS heap is what is live; the Go heap's live figure is its last
// collection's).
func readTabMemory(t *testing.T, fb *framesBench) tabMemoryFigures {
	t.Helper()
	var m tabMemoryFigures
	if err := chromedp.Do(fb.tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{})
		return err
	})); err != nil {
		t.Fatalf("collecting the JavaScript heap: %v", err)
	}
	metrics := fb.metrics()
	m.jsUsed = metrics["JSHeapUsedSize"]
	m.nodes = int64(metrics["Nodes"])
	ds := func(k string) string { return evalString(fb.tab, `document.getElementById("status").dataset.`+k) }
	m.goTotal, m.goLive, m.standbys, m.frames = ds("goMemMb"), ds("goLiveMb"), ds("standbysKept"), ds("frames")
	m.rss = rendererRSS(fb.b)
	return m
}
