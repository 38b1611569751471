package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"kafkascope/scripts/internal/pagemin"
)

// chromiumPath is where Debian's chromium package puts the browser; CI
// installs it there (.ci/run).
const chromiumPath = "/usr/bin/chromium"

// Budgets: building the wasm from a cold cache compiles the whole engine for
// js/wasm; the browser part (start, every page, every command) gets one
// deadline so that no wait can hang the test; each wait gets a shorter
// bound, so that a failed wait leaves time to read the page for the failure
// message.
const (
	buildTimeout   = 5 * time.Minute
	browserTimeout = 4 * time.Minute
	waitTimeout    = 20 * time.Second
)

// browser is one headless Chromium for a test; tabs share it.
type browser struct {
	t     *testing.T
	alloc context.Context
	root  context.Context // the first tab: it owns the browser process
	out   *lockedBuffer
	logs  []*pageLog
	tabs  []context.Context
}

// failureShots saves what every tab shows, to see why a test failed.
func (b *browser) failureShots() {
	dir := filepath.Join(repoRootOrEmpty(), "build", "screenshots")
	for i, tab := range b.tabs {
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			continue
		}
		file := filepath.Join(dir, fmt.Sprintf("failure-tab%d.png", i+1))
		if os.MkdirAll(dir, 0o755) == nil && os.WriteFile(file, png, 0o644) == nil {
			b.t.Logf("failure screenshot: %s", file)
		}
	}
}

func repoRootOrEmpty() string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "."
	}
	return root
}

// startBrowser starts Chromium with a window of 1280×800 and the flags
// a container needs (no sandbox, no GPU), under one deadline for the
// whole test.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	return startBrowserWithin(t, browserTimeout)
}

// chromiumOptions start a headless Chromium on the profile in dir, with
// nothing of its own on the network (no QUIC, updates or sync) and a
// 1280x800 window: every browser the tests and benchmarks start.
func chromiumOptions(dir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 800),
	}
}

// startBrowserWithin is startBrowser with a deadline of its own (a
// benchmark runs longer than a test).
func startBrowserWithin(t *testing.T, deadline time.Duration) *browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	out := &lockedBuffer{}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromiumOptions(t.TempDir()), chromedp.CombinedOutput(out))...)
	t.Cleanup(cancelAlloc)
	b := &browser{t: t, alloc: alloc, out: out}
	began := time.Now()
	b.root = b.newTab()
	b.tabs = append(b.tabs, b.root)
	if _, err := chromedp.Run(b.root, chromedp.Evaluate[string](`navigator.userAgent`)); err != nil {
		t.Fatalf("starting Chromium (%s): %v", chromiumPath, err)
	}
	t.Logf("chromium started in %v", time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() {
		if t.Failed() {
			b.failureShots()
		}
		if t.Failed() && out.Len() > 0 {
			t.Logf("chromium output:\n%s", out.String())
		}
		exceptions := 0
		for i, l := range b.logs {
			for _, line := range l.lines() {
				t.Logf("tab %d console: %s", i+1, line)
			}
			exceptions += l.exceptionCount()
		}
		if exceptions > 0 {
			t.Errorf("the page threw %d uncaught exceptions (see the console lines above)", exceptions)
		}
	})
	return b
}

// newTab opens a tab whose console is gathered from its first moment.
func (b *browser) newTab() context.Context {
	b.t.Helper()
	var tab context.Context
	var cancel context.CancelFunc
	if b.root == nil {
		tab, cancel = chromedp.NewContext(b.alloc, chromedp.WithErrorf(b.t.Logf))
	} else {
		tab, cancel = chromedp.NewContext(b.root) // a new tab in the same browser
	}
	b.t.Cleanup(cancel)
	if b.root != nil {
		b.tabs = append(b.tabs, tab)
	}
	l := &pageLog{}
	b.logs = append(b.logs, l)
	if err := chromedp.Listen(tab, l.record); err != nil {
		b.t.Fatalf("opening a tab: %v", err)
	}
	return tab
}

// closeTab closes a tab that is no longer needed (not the first one: it
// owns the browser), so that it stops playing.
func (b *browser) closeTab(tab context.Context) {
	if tab == b.root {
		if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
			b.t.Logf("emptying the first tab: %v", err)
		}
		return
	}
	if err := chromedp.Cancel(tab); err != nil {
		b.t.Logf("closing a tab: %v", err)
	}
	for i, t := range b.tabs {
		if t == tab {
			b.tabs = append(b.tabs[:i], b.tabs[i+1:]...)
			break
		}
	}
}

// open loads url in the tab and waits for the engine: #status ends
// data-state=loaded. It returns the time from navigation to ready.
func (b *browser) open(tab context.Context, url string) time.Duration {
	b.t.Helper()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)); err != nil {
		b.t.Fatalf("sizing the viewport: %v", err)
	}
	navStart := time.Now()
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		b.t.Fatalf("loading %s: %v", url, err)
	}
	status, err := chromedp.Run(tab, chromedp.PollFunction[string](`function() {
		const s = document.getElementById("status");
		if (!s || (s.dataset.state !== "loaded" && s.dataset.state !== "error")) return false;
		return s.dataset.state + "|" + s.textContent;
	}`, chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		b.t.Fatalf("waiting for #status to be loaded at %s: %v (status: %q)", url, err, evalString(tab, `(document.getElementById("status") || {}).textContent`))
	}
	ready := time.Since(navStart)
	state, text, _ := strings.Cut(status, "|")
	if state != "loaded" {
		b.t.Fatalf("#status ended in data-state=%q at %s: %q", state, url, text)
	}
	if !strings.HasPrefix(text, "kafkascope engine ready (Go ") {
		b.t.Errorf("#status text = %q, want it to start with %q", text, "kafkascope engine ready (Go ")
	}
	b.t.Logf("%s: ready %v after navigation (measured by the test); first render at %s ms (performance.now)",
		url, ready.Round(time.Millisecond), evalString(tab, `document.getElementById("status").dataset.readyMs`))
	return ready
}

// evalString evaluates a JavaScript expression to a string; any failure
// (undefined included) comes back as a description, for messages.
func evalString(ctx context.Context, expr string) string {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(`+expr+` ?? "")`))
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return s
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if strings.TrimRight(l, " \t") == want {
			return true
		}
	}
	return false
}

// requireChromium skips the test when Chromium is missing, except where the
// browser tests must run: in CI (CI=true) or with KAFKASCOPE_E2E=1.
func requireChromium(t *testing.T) {
	t.Helper()
	requireTool(t, chromiumPath, "the browser test", "apt-get install -y chromium")
}

// requireTool skips test when the file at path is missing, saying how to
// install it, except where the end-to-end tests must run (CI=true or
// KAFKASCOPE_E2E=1): there it fails.
func requireTool(t *testing.T, path, test, install string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	ci := strings.ToLower(os.Getenv("CI"))
	if ci == "true" || ci == "1" || os.Getenv("KAFKASCOPE_E2E") == "1" {
		t.Fatalf("%s is missing, and %s must run here (CI=%q, KAFKASCOPE_E2E=%q): install it with `%s`",
			path, test, os.Getenv("CI"), os.Getenv("KAFKASCOPE_E2E"), install)
	}
	t.Skipf("skipping %s: %s is missing (install it with `%s`; set KAFKASCOPE_E2E=1 to make it fail instead)", test, path, install)
}

// repoRoot is the repository root: two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "index.html", "wasm"} {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			t.Fatalf("%s does not look like the repository root: %v", root, err)
		}
	}
	return root
}

// wasmBuild is the one wasm build the tests of this binary share (building
// the engine for js/wasm is most of a browser test's time on 2 cores).
var wasmBuild struct {
	once sync.Once
	dir  string
	err  error
}

// buildWasm builds ./wasm for js/wasm with `make wasm` and copies the
// matching wasm_exec.js, into build/e2e-wasm/ under the repository (the
// first call of the test binary builds; later calls reuse it). It returns
// that directory.
func buildWasm(t *testing.T, repo string) string {
	t.Helper()
	wasmBuild.once.Do(func() {
		wasmBuild.dir = filepath.Join(repo, "build", "e2e-wasm")
		wasmBuild.err = buildWasmInto(t, repo, wasmBuild.dir)
	})
	if wasmBuild.err != nil {
		t.Fatalf("building the wasm engine: %v", wasmBuild.err)
	}
	return wasmBuild.dir
}

// buildWasmInto builds main.wasm and copies wasm_exec.js into dir.
func buildWasmInto(t *testing.T, repo, dir string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wasmPath := filepath.Join(dir, "main.wasm")

	began := time.Now()
	// The Makefile's wasm target, so that the flags are those of the app.
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", "wasm", "WASM_OUT="+wasmPath)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("make wasm: %v\n%s", err, out)
	}
	buildTime := time.Since(began)

	if err := copyWasmExec(ctx, dir); err != nil {
		return err
	}

	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(wasm); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	t.Logf("built main.wasm in %v: %.2f MB raw, %.2f MB gzip -9",
		buildTime.Round(time.Millisecond), float64(len(wasm))/1e6, float64(gz.Len())/1e6)
	return nil
}

// wasmExecPath is the Go runtime glue of the Go that builds the wasm:
// $(go env GOROOT)/lib/wasm/wasm_exec.js.
func wasmExecPath(ctx context.Context) (string, error) {
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), nil
}

// copyWasmExec puts wasm_exec.js (wasmExecPath) into dir, beside a wasm
// built by the same Go.
func copyWasmExec(ctx context.Context, dir string) error {
	p, err := wasmExecPath(ctx)
	if err != nil {
		return err
	}
	js, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("reading wasm_exec.js: %v", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644)
}

// newPageHandler serves the page as scripts/serve does, for the paths the page
// uses: "/" and "/index.html" from the repository, /public/main.wasm and
// /public/wasm_exec.js from the fresh build (never a stale copy in public/),
// and the rest of /public/ from the repository, the text files minified.
// (scripts/serve's handler is in a main package, so it cannot be imported.)
func newPageHandler(repo, built string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		var file string
		switch {
		case p == "/" || p == "/index.html":
			file = filepath.Join(repo, "index.html")
		case p == "/public/main.wasm" || p == "/public/wasm_exec.js":
			file = filepath.Join(built, path.Base(p))
		case strings.HasPrefix(p, "/public/") && !strings.Contains(p, "/."):
			file = filepath.Join(repo, filepath.FromSlash(p))
		default:
			http.NotFound(w, r)
			return
		}
		f, err := os.Open(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		switch path.Ext(file) {
		case ".wasm":
			w.Header().Set("Content-Type", "application/wasm") // instantiateStreaming needs it
		case ".js":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		if pagemin.Applies(file) {
			// Minified, as scripts/serve and make dist send the page.
			raw, err := io.ReadAll(f)
			if err == nil {
				raw, err = pagemin.Minify(file, raw)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			http.ServeContent(w, r, fi.Name(), fi.ModTime(), bytes.NewReader(raw))
			return
		}
		http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
	})
}

// pageLog gathers the page's console messages and uncaught exceptions. Its
// record method runs inside chromedp's message loop: it only appends.
type pageLog struct {
	mu         sync.Mutex
	entries    []string
	exceptions int
}

func (l *pageLog) record(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		args := make([]string, 0, len(ev.Args))
		for _, a := range ev.Args {
			args = append(args, remoteText(a))
		}
		l.entries = append(l.entries, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
	case *runtime.EventExceptionThrown:
		l.exceptions++
		text := "(no details)"
		if d := ev.ExceptionDetails; d != nil {
			text = d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
		}
		l.entries = append(l.entries, "uncaught exception: "+text)
	}
}

func (l *pageLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.entries...)
}

func (l *pageLog) exceptionCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.exceptions
}

// remoteText is a console argument as text: strings unquoted, the rest as
// the browser describes them.
func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		var s string
		if err := json.Unmarshal([]byte(o.Value), &s); err == nil {
			return s
		}
		return string(o.Value)
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Type)
}

// lockedBuffer is a bytes.Buffer safe for the browser's output goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 1<<20 { // keep at most about 1 MB of browser chatter
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// openApp builds the page, serves it and opens it in a browser tab: the
// tab, its terminal, and the folder screenshots go to.
func openApp(t *testing.T) (context.Context, *terminal, string) {
	t.Helper()
	requireChromium(t)
	repo := repoRoot(t)
	built := buildWasm(t, repo)
	srv := httptest.NewServer(newPageHandler(repo, built))
	t.Cleanup(srv.Close)
	shots := filepath.Join(repo, "build", "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t)
	b.open(b.root, srv.URL+"/")
	return b.root, &terminal{t: t, ctx: b.root}, shots
}
