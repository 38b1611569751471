package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wasmFloor runs scripts/wasmfloor natively and in the tab (its own small
// page, with the Go runtime glue of the Go that built it), and returns one
// "kind ratio×" item per kind of work and the median ratio: how much
// slower plain Go code runs in this browser's WebAssembly than natively
// on this machine, with no engine in it. The engine's wasm/native ratio
// is measured against this floor.
func wasmFloor(t *testing.T, repo string, tab context.Context) (items []string, median float64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	run := exec.CommandContext(ctx, "go", "run", "./scripts/wasmfloor")
	run.Dir = repo
	native, err := run.Output()
	if err != nil {
		t.Fatalf("running scripts/wasmfloor natively: %v", err)
	}
	dir := filepath.Join(repo, "build", "e2e-floor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The app's flags (the Makefile's WASM_FLAGS, less its inlining
	// exceptions, which name the app's packages).
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "floor.wasm"), "./scripts/wasmfloor")
	build.Dir, build.Env = repo, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building scripts/wasmfloor for js/wasm: %v\n%s", err, out)
	}
	execJS, err := wasmExecPath(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, floorPage)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, execJS) })
	mux.HandleFunc("/floor.wasm", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, filepath.Join(dir, "floor.wasm")) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("opening the floor page: %v", err)
	}
	out, err := chromedp.Run(tab, chromedp.PollFunction[string](`function() {
		const l = window.floorLines || [];
		return l.includes("done") || l.some(s => s.startsWith("error")) ? l.join("\n") : false;
	}`, chromedp.WithPollingTimeout(3*time.Minute)))
	if err != nil {
		t.Fatalf("waiting for scripts/wasmfloor in the page: %v", err)
	}
	nat, page := floorTimes(t, string(native)), floorTimes(t, out)
	var ratios []float64
	for _, k := range nat.kinds {
		p, ok := page.ns[k]
		if !ok {
			t.Fatalf("scripts/wasmfloor in the page printed no %q:\n%s", k, out)
		}
		r := p / nat.ns[k]
		ratios = append(ratios, r)
		items = append(items, fmt.Sprintf("%s %.1f×", k, r))
	}
	slices.Sort(ratios)
	median = ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		median = (ratios[len(ratios)/2-1] + median) / 2
	}
	return items, median
}

// floorPage runs floor.wasm and keeps what it prints, a line at a time.
const floorPage = `<!doctype html><meta charset="utf-8"><title>wasmfloor</title>
<script src="/wasm_exec.js"></script>
<script>
window.floorLines = [];
const log = console.log;
console.log = (...a) => { window.floorLines.push(a.join(" ")); log(...a); };
const go = new Go();
WebAssembly.instantiateStreaming(fetch("/floor.wasm"), go.importObject)
  .then(r => go.run(r.instance))
  .catch(e => window.floorLines.push("error " + e));
</script>`

// floorResult is one run's ns/op by kind, kinds in the order printed.
type floorResult struct {
	kinds []string
	ns    map[string]float64
}

func floorTimes(t *testing.T, out string) floorResult {
	t.Helper()
	r := floorResult{ns: map[string]float64{}}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, v, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		ns, err := strconv.ParseFloat(v, 64)
		if err != nil || ns <= 0 {
			t.Fatalf("scripts/wasmfloor printed %q", line)
		}
		r.kinds = append(r.kinds, name)
		r.ns[name] = ns
	}
	if len(r.kinds) == 0 {
		t.Fatalf("scripts/wasmfloor printed nothing:\n%s", out)
	}
	return r
}
