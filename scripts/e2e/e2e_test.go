package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/chromedp/chromedp/kb"
)

// chromiumPath is where Debian's chromium package puts the browser; CI
// installs it there (.ci/run).
const chromiumPath = "/usr/bin/chromium"

// Budgets: building the wasm from a cold cache compiles the whole engine for
// js/wasm; the browser part (start, load, every command) gets one deadline
// so that no wait can hang the test; each wait gets a shorter bound, so that
// a failed wait leaves time to read the page for the failure message.
const (
	buildTimeout   = 5 * time.Minute
	browserTimeout = 60 * time.Second
	waitTimeout    = 20 * time.Second
)

// TestTerminal loads the page in headless Chromium and uses the terminal on
// the real engine: create a topic, produce two records through standard
// input, consume them, run an unknown command, check HTML escaping, recall
// history, clear, paste a script, cancel a producer with Ctrl+C.
func TestTerminal(t *testing.T) {
	requireChromium(t)
	repo := repoRoot(t)
	built := buildWasm(t, repo)
	srv := httptest.NewServer(newPageHandler(repo, built))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	var browserOut lockedBuffer
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
		chromedp.CombinedOutput(&browserOut),
	)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithErrorf(t.Logf))
	defer cancelTab()
	defer func() {
		if t.Failed() && browserOut.Len() > 0 {
			t.Logf("chromium output:\n%s", browserOut.String())
		}
	}()

	// The page's console and uncaught exceptions, gathered from the first
	// moment on and logged at the end.
	var pageLog pageLog
	startBrowser := time.Now()
	if err := chromedp.Listen(tab, pageLog.record); err != nil {
		t.Fatalf("starting Chromium (%s): %v", chromiumPath, err)
	}
	t.Logf("chromium started in %v", time.Since(startBrowser).Round(time.Millisecond))
	defer func() {
		for _, line := range pageLog.lines() {
			t.Logf("page console: %s", line)
		}
		if exceptions := pageLog.exceptionCount(); exceptions > 0 {
			t.Errorf("the page threw %d uncaught exceptions (see the page console lines above)", exceptions)
		}
	}()

	// Load the page and wait for the engine.
	navStart := time.Now()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	status, err := chromedp.Run(tab, chromedp.PollFunction[string](`function() {
		const s = document.getElementById("status");
		if (!s || (s.dataset.state !== "loaded" && s.dataset.state !== "error")) return false;
		return s.dataset.state + "|" + s.textContent;
	}`, chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		t.Fatalf("waiting for #status to be loaded: %v (status: %q)", err, evalString(tab, `(document.getElementById("status") || {}).textContent`))
	}
	ready := time.Since(navStart)
	state, text, _ := strings.Cut(status, "|")
	if state != "loaded" {
		t.Fatalf("#status ended in data-state=%q: %q", state, text)
	}
	if !strings.HasPrefix(text, "kafkascope engine ready (Go ") {
		t.Errorf("#status text = %q, want it to start with %q", text, "kafkascope engine ready (Go ")
	}
	t.Logf("time to ready: %v after navigation (measured by the test); the page says %s ms (performance.now)",
		ready.Round(time.Millisecond), evalString(tab, `document.getElementById("status").dataset.readyMs`))

	term := &terminal{t: t, ctx: tab}
	start := term.text()
	for _, want := range []string{"$ cluster create", "Type help"} {
		if !strings.Contains(start, want) {
			t.Errorf("the terminal does not start with the default cluster: no %q in\n%s", want, start)
		}
	}
	if note := evalString(tab, `(document.querySelector(".early-note") || {}).textContent`); !strings.Contains(note, "early build") {
		t.Errorf("the early-build note under the terminal is missing (got %q)", note)
	}

	term.enter("kafka-topics.sh --create --topic web --partitions 3 --replication-factor 3",
		"$ kafka-topics.sh --create --topic web", "Created topic web.")

	term.enter("kafka-console-producer.sh --topic web", "$ kafka-console-producer.sh --topic web")
	term.wantPrompt("> ")
	term.enter("a", "> a")
	term.enter("b", "> b")
	term.enter("")
	term.wantPrompt("$ ")

	out := term.enter("kafka-console-consumer.sh --topic web --from-beginning --max-messages 2",
		"Processed a total of 2 messages")
	if lines := strings.Split(out, "\n"); !containsLine(lines, "a") || !containsLine(lines, "b") {
		t.Errorf("the consumer did not print both values a and b:\n%s", out)
	}

	term.enter("nonsense", "nonsense: command not found")

	// User text is shown, never parsed as HTML.
	term.enter("<b>bold</b>", "<b>bold</b>: command not found")
	if n := evalString(tab, `String(document.querySelectorAll("#terminal b").length)`); n != "0" {
		t.Errorf("typed HTML became %s element(s) in #terminal: the terminal must use text nodes", n)
	}

	// History: ↑ recalls the previous commands, ↓ goes back to the draft.
	term.key(kb.ArrowUp)
	term.wantInput("<b>bold</b>")
	term.key(kb.ArrowUp)
	term.wantInput("nonsense")
	term.key(kb.ArrowDown)
	term.wantInput("<b>bold</b>")
	term.key(kb.ArrowDown)
	term.wantInput("")

	term.enter("clear")
	if got := term.text(); got != "" {
		t.Errorf("after clear the scrollback holds %q, want nothing", got)
	}

	// A pasted script runs line by line, standard input included; the text
	// after the last line break stays in the input.
	term.paste("kafka-console-producer.sh --topic web\nc\n\nkafka-console-consumer.sh --topic web --partition 0 " +
		"--offset 0 --max-messages 1 --timeout-ms 1000\nkafka-topics.sh --li")
	added := term.waitIdle(0, "> c", "kafka-console-consumer.sh --topic web --partition 0")
	if !strings.Contains(added, "Processed a total of") {
		t.Errorf("the pasted consumer did not finish:\n%s", added)
	}
	term.wantInput("kafka-topics.sh --li")
	term.enter("st", "$ kafka-topics.sh --list\nweb\n")

	// Ctrl+C abandons the producer's input: nothing is sent.
	term.enter("kafka-console-producer.sh --topic web")
	term.enter("never sent", "> never sent")
	term.ctrlC()
	term.waitIdle(0, "input cancelled")
	term.wantPrompt("$ ")
	out = term.enter("kafka-console-consumer.sh --topic web --from-beginning --timeout-ms 1000",
		"Processed a total of 3 messages")
	if strings.Contains(out, "never sent") {
		t.Errorf("a cancelled producer line was sent:\n%s", out)
	}
}

// terminal drives the page's terminal.
type terminal struct {
	t   *testing.T
	ctx context.Context
}

// enter types line and Enter, waits until the command has finished (the
// terminal is idle with its input enabled again and every want string is in
// the new output), and returns what the line added to the scrollback.
func (term *terminal) enter(line string, want ...string) string {
	term.t.Helper()
	before := len([]rune(term.text())) // an index into the JavaScript string
	typing := time.Now()
	if err := chromedp.Do(term.ctx,
		chromedp.WaitEnabled(chromedp.ID("command")),
		chromedp.SendKeys(chromedp.ID("command"), line),
	); err != nil {
		term.t.Fatalf("typing %q: %v", line, err)
	}
	enter := time.Now()
	if err := chromedp.Do(term.ctx,
		chromedp.Evaluate[chromedp.Void](`delete document.querySelector(".terminal").dataset.lastCommandMs`),
		chromedp.SendKeys(chromedp.ID("command"), kb.Enter),
	); err != nil {
		term.t.Fatalf("pressing Enter after %q: %v", line, err)
	}
	added := term.waitIdle(before, want...)
	engine := "-"
	if ms := evalString(term.ctx, `document.querySelector(".terminal").dataset.lastCommandMs`); ms != "" {
		engine = ms + " ms"
	}
	term.t.Logf("$ %-76s typed in %6v; done %6v after Enter (in the engine: %s)", line,
		enter.Sub(typing).Round(time.Millisecond), time.Since(enter).Round(time.Millisecond), engine)
	return added
}

// waitIdle waits until the terminal is idle with its input enabled and every
// want string is in the scrollback after its first from characters, and
// returns that part of the scrollback.
func (term *terminal) waitIdle(from int, want ...string) string {
	term.t.Helper()
	added, err := chromedp.Run(term.ctx, chromedp.PollFunction[string](`function(from, wants) {
		const panel = document.querySelector(".terminal");
		const input = document.getElementById("command");
		const screen = document.getElementById("terminal");
		if (!panel || !input || !screen || panel.dataset.state !== "idle" || input.disabled) return false;
		const added = Array.from(screen.textContent).slice(from).join("");
		// An empty wants array is not sent at all (omitempty), hence the ||.
		return (wants || []).every((w) => added.includes(w)) ? added + "\u0000" : false;
	}`, chromedp.WithPollingArgs(from, want), chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		term.t.Fatalf("waiting for %q: %v\nthe terminal shows:\n%s", want, err, term.text())
	}
	return strings.TrimSuffix(added, "\u0000") // the NUL keeps an empty result truthy
}

// paste pastes text into the input as the browser does (a paste event with
// the clipboard's text).
func (term *terminal) paste(text string) {
	term.t.Helper()
	if _, err := chromedp.Run(term.ctx, chromedp.PollFunction[bool](`function(text) {
		const input = document.getElementById("command");
		const data = new DataTransfer();
		data.setData("text/plain", text);
		input.focus();
		input.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}));
		return true;
	}`, chromedp.WithPollingArgs(text), chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		term.t.Fatalf("pasting %q: %v", text, err)
	}
}

// ctrlC presses Ctrl+C in the input.
func (term *terminal) ctrlC() {
	term.t.Helper()
	if err := chromedp.Do(term.ctx,
		chromedp.Focus(chromedp.ID("command")),
		chromedp.KeyEvent("c", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
	); err != nil {
		term.t.Fatalf("pressing Ctrl+C: %v", err)
	}
}

// key presses one key in the input.
func (term *terminal) key(k string) {
	term.t.Helper()
	if err := chromedp.Do(term.ctx, chromedp.SendKeys(chromedp.ID("command"), k)); err != nil {
		term.t.Fatalf("pressing %q: %v", k, err)
	}
}

func (term *terminal) wantInput(want string) {
	term.t.Helper()
	got, err := chromedp.Run(term.ctx, chromedp.Value(chromedp.ID("command")))
	if err != nil {
		term.t.Fatalf("reading #command: %v", err)
	}
	if got != want {
		term.t.Errorf("#command holds %q, want %q", got, want)
	}
}

func (term *terminal) wantPrompt(want string) {
	term.t.Helper()
	if got := evalString(term.ctx, `(document.querySelector(".terminal-prompt") || {}).textContent`); got != want {
		term.t.Errorf("the prompt is %q, want %q", got, want)
	}
}

// text is the scrollback's text.
func (term *terminal) text() string {
	return evalString(term.ctx, `(document.getElementById("terminal") || {}).textContent`)
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
	if _, err := os.Stat(chromiumPath); err == nil {
		return
	}
	ci := strings.ToLower(os.Getenv("CI"))
	if ci == "true" || ci == "1" || os.Getenv("KAFKASCOPE_E2E") == "1" {
		t.Fatalf("%s is missing, and browser tests must run here (CI=%q, KAFKASCOPE_E2E=%q): "+
			"install it with `apt-get install -y chromium`", chromiumPath, os.Getenv("CI"), os.Getenv("KAFKASCOPE_E2E"))
	}
	t.Skipf("skipping the browser test: %s is missing (install it with `apt-get install -y chromium`; "+
		"set KAFKASCOPE_E2E=1 to make a missing browser fail instead)", chromiumPath)
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

// buildWasm builds ./wasm for js/wasm as `make wasm` does and copies the
// matching wasm_exec.js, into a temporary directory. It returns that directory.
func buildWasm(t *testing.T, repo string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	dir := t.TempDir()
	wasmPath := filepath.Join(dir, "main.wasm")

	began := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasmPath, "./wasm")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build ./wasm: %v\n%s", err, out)
	}
	buildTime := time.Since(began)

	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatalf("reading wasm_exec.js: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644); err != nil {
		t.Fatal(err)
	}

	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(wasm); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("built main.wasm in %v: %.2f MB raw, %.2f MB gzip -9",
		buildTime.Round(time.Millisecond), float64(len(wasm))/1e6, float64(gz.Len())/1e6)
	return dir
}

// newPageHandler serves the page as scripts/serve does, for the paths the page
// uses: "/" and "/index.html" from the repository, /public/main.wasm and
// /public/wasm_exec.js from the fresh build (never a stale copy in public/),
// and the rest of /public/ from the repository. (scripts/serve's handler is
// in a main package, so it cannot be imported.)
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
