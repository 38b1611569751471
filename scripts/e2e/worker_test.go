package e2e

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vugu/html"

	"kafkascope/core/textdiff"
	"kafkascope/core/timeline"
	"kafkascope/ui/snapshot/raster"
)

// Budgets of the Worker test: wrangler dev answers its first request some
// 5-15 s after it starts on 2 busy cores; then a request that runs the Go
// program (started anew for each) takes 50-600 ms.
const (
	workerReadyTimeout   = 90 * time.Second
	workerRequestTimeout = 30 * time.Second
	// Each check's tab gets this long in all (loading a page waits for
	// its load event, which a stalled download would hold back until the
	// browser's own deadline).
	workerTabTimeout = 90 * time.Second
)

// paidPlanLimit is Cloudflare's limit on a Worker's upload, gzipped, on
// the paid plan (the free plan's, 3 MiB, the Worker is over: see the
// Makefile's worker section).
const paidPlanLimit = 10 << 20

// TestWorker runs the Cloudflare Worker (wasm/worker) as wrangler dev
// runs it, offline, with the site make worker-build prepares, and checks
// what it answers against the page it serves, in Chromium:
//
//   - the page: its short links meta tag, its engine under a hashed name
//     cached for a year, the other files' short caches (_headers);
//   - /snapshot.svg of a scenario step and of a typed session: the page's
//     own two drawings of that moment, element by element;
//   - short links: POST /s, the same id for the same link, GET /s/ID with
//     its preview tags, the preview's picture, the page moving to the full
//     link and showing it; the page's Copy link making one;
//   - /oembed: a rich answer with the embed's iframe, sized to maxwidth;
//   - bad input: 4xx with a "kafkascope: " line.
//
// It builds with make worker-build (as make worker does, into
// build/e2e-worker/ rather than build/worker/: a make worker running
// meanwhile keeps its files) and runs scripts/worker/wrangler.jsonc
// pointed there. It needs wrangler (npm ci --prefix scripts/worker):
// without it the test skips, except in CI (CI=true) or with
// KAFKASCOPE_E2E=1.
func TestWorker(t *testing.T) {
	requireChromium(t)
	repo := repoRoot(t)
	requireWrangler(t, repo)
	began := time.Now()
	built := buildWorker(t, repo)
	t.Logf("make worker-build: %v", time.Since(began).Round(time.Millisecond))
	config := workerConfig(t, repo, built)
	checkUploadSize(t, repo, config)
	w := startWorker(t, repo, config, built)
	b := startBrowser(t)

	t.Run("site", func(t *testing.T) { checkWorkerSite(t, w) })

	// The snapshot of a scenario step in Korean and of a typed session
	// are the page's drawings of the same links.
	s := timeline.New()
	s.Do("cluster create", nil)
	s.Do("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3", nil)
	s.Do("broker kill 2", nil)
	s.Do("time advance 20s", nil)
	for _, link := range []struct{ name, fields string }{
		{"scenario", "scenario=04-isr&step=3&lang=ko"},
		{"session", "s=" + url.QueryEscape(s.Encode()) + "&lang=en"},
	} {
		t.Run("snapshot-"+link.name, func(t *testing.T) { checkSnapshotIsThePage(t, w, b, link.fields, 1920, 1080) })
	}
	// On a phone the page lays the diagram out for its narrow panel: a
	// snapshot asked for with w= set to that panel's width draws the same.
	t.Run("snapshot-phone", func(t *testing.T) {
		checkSnapshotIsThePage(t, w, b, "scenario=08-leader-election-on-crash&step=2&lang=en", 390, 844)
	})

	t.Run("png", func(t *testing.T) { checkPNGIsTheSnapshot(t, w, "scenario=04-isr&step=3&lang=ko") })
	t.Run("bad-input", func(t *testing.T) { checkWorkerRefuses(t, w) })
	t.Run("short-links", func(t *testing.T) { checkShortLinks(t, w, b) })
	t.Run("oembed", func(t *testing.T) { checkOEmbed(t, w) })
	t.Run("cache", func(t *testing.T) { checkSnapshotCache(t, w) })
	t.Logf("TestWorker: %v in all", time.Since(began).Round(time.Millisecond))
}

// requireWrangler skips the test when scripts/worker has no wrangler
// (npm ci --prefix scripts/worker), except where it must run (CI=true,
// KAFKASCOPE_E2E=1): there it fails.
func requireWrangler(t *testing.T, repo string) {
	t.Helper()
	requireTool(t, wranglerPath(repo), "the Worker test", "npm ci --prefix scripts/worker")
}

// wranglerPath is the wrangler npm ci installs (pinned in
// scripts/worker/package.json); npx could fetch another.
func wranglerPath(repo string) string {
	return filepath.Join(repo, "scripts", "worker", "node_modules", ".bin", "wrangler")
}

// wranglerEnv keeps wrangler off the network and out of the user's
// config: no metrics, no error reports, no request for Cloudflare's
// request metadata, a config directory of its own.
func wranglerEnv(configDir string) []string {
	return append(os.Environ(),
		"WRANGLER_SEND_METRICS=false",
		"WRANGLER_SEND_ERROR_REPORTS=false",
		"CLOUDFLARE_CF_FETCH_ENABLED=false",
		"WRANGLER_HIDE_BANNER=true",
		"XDG_CONFIG_HOME="+configDir,
		"NO_COLOR=1",
	)
}

// buildWorker runs make worker-build into build/e2e-worker/ (the
// Worker's code in build/, its site in site/), and answers that directory.
func buildWorker(t *testing.T, repo string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	dir := filepath.Join(repo, "build", "e2e-worker")
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", "worker-build", "WORKER_DIR="+dir)
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make worker-build: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "app.wasm: ") && strings.Contains(line, "gzipped") || strings.Contains(line, "the engine as") {
			t.Log(line)
		}
	}
	return dir
}

// workerConfig writes scripts/worker/wrangler.jsonc with its paths into
// build/worker/ pointed at built instead, and answers its path.
func workerConfig(t *testing.T, repo, built string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repo, "scripts", "worker", "wrangler.jsonc"))
	if err != nil {
		t.Fatal(err)
	}
	const from = `"../../build/worker/`
	if n := strings.Count(string(src), from); n != 2 {
		t.Fatalf("scripts/worker/wrangler.jsonc names %s %d times, want twice (main and assets.directory)", from, n)
	}
	config := filepath.Join(t.TempDir(), "wrangler.jsonc")
	to, _ := json.Marshal(built + "/")
	out := strings.ReplaceAll(string(src), from, strings.TrimSuffix(string(to), `"`))
	if err := os.WriteFile(config, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return config
}

// checkUploadSize asks wrangler what it would upload (deploy --dry-run:
// no network) and fails over the paid plan's limit.
func checkUploadSize(t *testing.T, repo, config string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, wranglerPath(repo), "deploy", "--config", config, "--dry-run", "--outdir", t.TempDir())
	cmd.Dir = filepath.Join(repo, "scripts", "worker")
	cmd.Env = wranglerEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Total Upload: ([0-9.]+) KiB / gzip: ([0-9.]+) KiB`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("wrangler deploy --dry-run printed no Total Upload line:\n%s", out)
	}
	gz, _ := strconv.ParseFloat(m[2], 64)
	t.Log(m[0])
	if gz*1024 > paidPlanLimit {
		t.Errorf("the Worker's upload is %s KiB gzipped: over Cloudflare's limit of %d KiB (paid plan)", m[2], paidPlanLimit>>10)
	}
}

// runningWorker is wrangler dev serving the Worker.
type runningWorker struct {
	url  string // http://127.0.0.1:PORT
	site string // the site's directory
	log  *lockedBuffer
}

// freePort is a TCP port free on 127.0.0.1 a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startWorker starts wrangler dev on a free port with its state (KV, the
// cache) in a new directory, in a process group of its own that the test
// ends (wrangler starts workerd, esbuild and more), and waits until the
// site answers.
func startWorker(t *testing.T, repo, config, built string) *runningWorker {
	t.Helper()
	port, inspector := freePort(t), freePort(t)
	w := &runningWorker{
		url:  "http://127.0.0.1:" + strconv.Itoa(port),
		site: filepath.Join(built, "site"),
		log:  &lockedBuffer{},
	}
	cmd := exec.Command(wranglerPath(repo), "dev", "--config", config,
		"--ip", "127.0.0.1", "--port", strconv.Itoa(port), "--inspector-port", strconv.Itoa(inspector),
		"--persist-to", t.TempDir(), "--show-interactive-dev-session=false")
	cmd.Dir = filepath.Join(repo, "scripts", "worker")
	cmd.Env = wranglerEnv(t.TempDir())
	cmd.Stdout, cmd.Stderr = w.log, w.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting wrangler dev: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		// The whole group: wrangler's node, workerd and their helpers.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what outlived its parent
		if t.Failed() {
			t.Logf("wrangler dev's output:\n%s", w.log.String())
		}
	})

	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(workerReadyTimeout)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("wrangler dev ended before it answered (%v):\n%s", err, w.log.String())
		default:
		}
		resp, err := client.Get(w.url + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrangler dev did not answer GET / within %v (last: %v):\n%s", workerReadyTimeout, errOrStatus(resp, err), w.log.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("wrangler dev answered on %s %v after it started", w.url, time.Since(began).Round(time.Millisecond))
	return w
}

func errOrStatus(resp *http.Response, err error) string {
	if err != nil {
		return err.Error()
	}
	return resp.Status
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   string
}

// do asks the Worker (its redirects are answers too: not followed).
func (w *runningWorker) do(t *testing.T, method, target, body string) answer {
	t.Helper()
	if strings.HasPrefix(target, "/") {
		target = w.url + target
	}
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{
		Timeout:       workerRequestTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	began := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %.120s: %v", method, target, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %.120s: reading the body: %v", method, target, err)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Logf("%s %.120s: %d in %v", method, target, resp.StatusCode, d.Round(time.Millisecond))
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: string(data)}
}

func (w *runningWorker) get(t *testing.T, target string) answer {
	t.Helper()
	return w.do(t, http.MethodGet, target, "")
}

// want checks an answer's status and content type (its prefix).
func (a answer) want(t *testing.T, what string, status int, contentType string) bool {
	t.Helper()
	if a.status != status || !strings.HasPrefix(a.header.Get("Content-Type"), contentType) {
		t.Errorf("%s: %d %q, want %d %s\n%.300s", what, a.status, a.header.Get("Content-Type"), status, contentType, a.body)
		return false
	}
	return true
}

var hashedWasm = regexp.MustCompile(`public/main\.[0-9a-f]{12}\.wasm`)

// checkWorkerSite: the page, its engine and its caches.
func checkWorkerSite(t *testing.T, w *runningWorker) {
	page := w.get(t, "/")
	if !page.want(t, "GET /", http.StatusOK, "text/html") {
		return
	}
	if !strings.Contains(page.body, `<script>window.kafkascopeCopy=`) {
		t.Errorf("GET /: the page does not copy short links (no kafkascopeCopy)")
	}
	names := hashedWasm.FindAllString(page.body, -1)
	if len(names) != 2 || names[0] != names[1] || strings.Contains(page.body, `"public/main.wasm"`) {
		t.Fatalf("GET /: the page names the engine %q, want its hashed name twice and never public/main.wasm", names)
	}
	if _, err := os.Stat(filepath.Join(w.site, filepath.FromSlash(names[0]))); err != nil {
		t.Errorf("the page's engine is not the site's: %v", err)
	}
	if cc := page.header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("GET /: Cache-Control %q, want no-cache (the site's _headers)", cc)
	}
	wasm := w.get(t, "/"+names[0])
	if wasm.want(t, "GET /"+names[0], http.StatusOK, "application/wasm") {
		if cc := wasm.header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("GET /%s: Cache-Control %q, want a year, immutable", names[0], cc)
		}
		if !strings.HasPrefix(wasm.body, "\x00asm") {
			t.Errorf("GET /%s: not a WebAssembly module", names[0])
		}
	}
	css := w.get(t, "/public/diagram.css")
	if css.want(t, "GET /public/diagram.css", http.StatusOK, "text/css") {
		if cc := css.header.Get("Cache-Control"); cc != "public, max-age=300" {
			t.Errorf("GET /public/diagram.css: Cache-Control %q, want public, max-age=300", cc)
		}
	}
	if a := w.get(t, "/public/main.wasm"); a.status != http.StatusNotFound {
		t.Errorf("GET /public/main.wasm: %d, want 404 (the site has the engine under its hashed name only)", a.status)
	}
	if a := w.get(t, "/_headers"); a.status != http.StatusNotFound {
		t.Errorf("GET /_headers: %d, want 404 (the file is read by the platform, not served)", a.status)
	}
}

// checkSnapshotIsThePage compares /snapshot.svg?fields with the page's
// diagram at /#fields, loaded from the same Worker.
func checkSnapshotIsThePage(t *testing.T, w *runningWorker, b *browser, fields string, width, height int64) {
	// The page at this viewport. A panel of 980 CSS px or more has the
	// default layout, which a snapshot without w= draws (ui.Diagram's
	// Width 0): at 1920x1080 the page's is. A narrower panel's layout is
	// asked for with w= set to its width (the page measures .stage).
	tab := b.newTab()
	defer b.closeTab(tab)
	ctx, cancel := context.WithTimeout(tab, workerTabTimeout)
	defer cancel()
	openAt(t, ctx, w.url+"/#"+fields, width, height)
	waitFor(t, ctx, `document.querySelectorAll('.kd-net .kd-card[data-broker]').length > 0`)
	if banner := textOf(ctx, "#error-banner"); banner != "" {
		t.Fatalf("the page shows an error: %q", banner)
	}
	page := settledDrawings(t, ctx)
	query := fields
	if stage := evalString(ctx, `String(document.querySelector(".stage").clientWidth)`); width < 1280 {
		query += "&w=" + stage
	}

	a := w.get(t, "/snapshot.svg?"+query)
	if !a.want(t, "GET /snapshot.svg?"+query[:min(len(query), 40)], http.StatusOK, "image/svg+xml") {
		return
	}
	got, err := svgDrawings(a.body)
	if err != nil {
		t.Fatalf("the snapshot: %v\n%.400s", err, a.body)
	}
	if len(page) != len(got) {
		t.Errorf("the page has %d drawings (%s), the snapshot %d (%s)", len(page), drawingNames(page), len(got), drawingNames(got))
	}
	if d := textdiff.FirstLine(joinDrawings(page), joinDrawings(got), "page", "snapshot"); d != "" {
		t.Errorf("the snapshot of %s is not the page's diagram (at %s on the page); the first element that differs:\n%s",
			fields[:min(len(fields), 60)], textOf(ctx, "#time-now"), d)
	}
	// What the comparison covers is there: brokers, partitions, their
	// leaders and high watermarks.
	all := strings.Join(got, "")
	for _, want := range []string{`data-broker=`, `data-partition=`, `data-role="leader"`, `kd-hw`} {
		if !strings.Contains(all, want) {
			t.Errorf("the snapshot's drawings have no %s", want)
		}
	}
	// And it looks like it: opened on its own, as an <img> shows it, each
	// element of the drawings has the page's computed colours and text
	// size (the snapshot carries the page's CSS).
	pageLook := evalString(ctx, drawingsLookJS)
	alone := b.newTab()
	defer b.closeTab(alone)
	actx, acancel := context.WithTimeout(alone, workerTabTimeout)
	defer acancel()
	if err := chromedp.Do(actx, chromedp.Navigate(w.url+"/snapshot.svg?"+query)); err != nil {
		t.Fatalf("opening the snapshot on its own: %v", err)
	}
	waitFor(t, actx, `document.querySelectorAll(".kd-card").length > 0`)
	if d := textdiff.FirstLine(pageLook, evalString(actx, drawingsLookJS), "page", "snapshot"); d != "" {
		t.Errorf("the snapshot, opened on its own, does not look like the page's diagram; the first element that differs:\n%s", d)
	}
	if !t.Failed() {
		t.Logf("%d drawings, %d elements alike, in structure and look", len(got), strings.Count(all, "\n"))
	}
}

// drawingsLookJS is the computed look of every element of the diagram's
// drawings, an element a line: the colours, line and text sizes an <img>
// of the snapshot must show as the page does.
const drawingsLookJS = `(() => {
	const props = ["fill", "stroke", "stroke-width", "opacity", "visibility", "display", "font-size", "font-weight"];
	const lines = [];
	const walk = (el, depth) => {
		const cs = getComputedStyle(el);
		lines.push(" ".repeat(depth) + el.localName + "." + [...el.classList].join(".") + " " + props.map(p => p + "=" + cs.getPropertyValue(p)).join(" "));
		for (const c of el.children) walk(c, depth + 1);
	};
	const find = (el) => {
		if (el.localName === "svg" && el.closest("svg") === el && el.parentElement && el.parentElement.closest("svg") === null) {
			for (const c of el.children) walk(c, 0);
			return;
		}
		for (const c of el.children) find(c);
	};
	const root = document.querySelector(".kd");
	if (root.localName === "svg") {
		for (const d of root.children) if (d.localName === "svg") for (const c of d.children) walk(c, 0);
	} else {
		find(root);
	}
	return lines.join("\n");
})()`

// settledDrawings waits until the page's drawings and clock stay the same
// over a second (a link whose session ends in a "time advance" plays to
// its end as it opens; the page measures its panel once drawn), and
// answers the drawings' outlines.
func settledDrawings(t *testing.T, tab context.Context) []string {
	t.Helper()
	read := func() (string, []string) {
		state := evalString(tab, `JSON.stringify([(document.getElementById("time-now") || {}).textContent, `+pageDrawingsJS+`])`)
		var v []string // the clock, and pageDrawingsJS's JSON
		var drawings []string
		if json.Unmarshal([]byte(state), &v) != nil || len(v) != 2 || json.Unmarshal([]byte(v[1]), &drawings) != nil {
			t.Fatalf("reading the page's drawings: %.300s", state)
		}
		return state, drawings
	}
	deadline := time.Now().Add(waitTimeout)
	last, drawings := read()
	same := 0
	for same < 4 && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		now, d := read()
		if now == last {
			same++
		} else {
			same, last = 0, now
		}
		drawings = d
	}
	if same < 4 {
		t.Logf("the page's diagram was still changing after %v: comparing its last state", waitTimeout)
	}
	return drawings
}

// joinDrawings is the drawings' outlines one after the other, each under
// a line that numbers it.
func joinDrawings(drawings []string) string {
	var b strings.Builder
	for i, d := range drawings {
		fmt.Fprintf(&b, "-- drawing %d\n%s", i+1, d)
	}
	return b.String()
}

// drawingNames are the drawings' first lines, for messages.
func drawingNames(drawings []string) string {
	var names []string
	for _, d := range drawings {
		names = append(names, firstLine(d))
	}
	return strings.Join(names, "; ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// outlineSkip are the attributes of a drawing's root that the outlines
// leave out: its size and place, which the snapshot sets anew as it
// stacks the drawings (ui/snapshot). Every other attribute, of every
// element, is compared, with each element's name and text.
var outlineSkip = map[string]bool{"style": true, "width": true, "height": true, "xmlns": true, "y": true}

// pageDrawingsJS outlines the page's drawings as svgDrawings outlines the
// snapshot's: the outermost <svg> elements of the diagram, one string
// each, an element a line.
const pageDrawingsJS = `JSON.stringify((() => {
	const skip = new Set(["style", "width", "height", "xmlns", "y"]);
	const out = [];
	const outline = (el, depth, root) => {
		const attrs = [...el.attributes].filter(a => !(root && skip.has(a.name))).map(a => [a.name, a.value]);
		attrs.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
		let line = " ".repeat(depth) + el.localName + attrs.map(([k, v]) => " " + k + "=" + JSON.stringify(v)).join("");
		const text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("").trim();
		if (text) line += " | " + JSON.stringify(text);
		let s = line + "\n";
		for (const c of el.children) s += outline(c, depth + 1, false);
		return s;
	};
	const find = (el) => {
		if (el.localName === "svg") { out.push(outline(el, 0, true)); return; }
		for (const c of el.children) find(c);
	};
	find(document.querySelector(".kd"));
	return out;
})())`

// svgDrawings outlines the drawings of a snapshot (the root's child
// <svg> elements) as pageDrawingsJS outlines the page's.
func svgDrawings(svg string) ([]string, error) {
	dec := xml.NewDecoder(strings.NewReader(svg))
	type frame struct {
		line  string
		text  strings.Builder
		kids  []string
		depth int
	}
	var stack []*frame
	var drawings []string
	rootSeen := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if !rootSeen {
				if tok.Name.Local != "svg" {
					return nil, fmt.Errorf("the root is <%s>, not <svg>", tok.Name.Local)
				}
				rootSeen = true
				stack = append(stack, nil) // the root: not outlined
				continue
			}
			if len(stack) == 0 {
				return nil, fmt.Errorf("more than one root")
			}
			depth := len(stack) - 1 // a drawing (the root's child) at 0
			if depth == 0 && tok.Name.Local != "svg" {
				stack = append(stack, &frame{depth: -1}) // the style, the background: not drawings
				continue
			}
			type kv struct{ k, v string }
			var attrs []kv
			for _, a := range tok.Attr {
				name := a.Name.Local
				if a.Name.Space == "xmlns" || name == "xmlns" {
					name = "xmlns"
				}
				if depth == 0 && outlineSkip[name] {
					continue
				}
				if a.Name.Space != "" && a.Name.Space != "xmlns" {
					name = a.Name.Space + ":" + name
				}
				attrs = append(attrs, kv{name, a.Value})
			}
			for i := 1; i < len(attrs); i++ {
				for j := i; j > 0 && attrs[j].k < attrs[j-1].k; j-- {
					attrs[j], attrs[j-1] = attrs[j-1], attrs[j]
				}
			}
			var line strings.Builder
			line.WriteString(strings.Repeat(" ", depth) + tok.Name.Local)
			for _, a := range attrs {
				v, _ := json.Marshal(a.v)
				fmt.Fprintf(&line, " %s=%s", a.k, jsString(v))
			}
			parent := stack[len(stack)-1]
			if parent != nil && parent.depth < 0 {
				stack = append(stack, &frame{depth: -1})
				continue
			}
			stack = append(stack, &frame{line: line.String(), depth: depth})
		case xml.CharData:
			if f := stack[len(stack)-1]; f != nil && f.depth >= 0 {
				f.text.Write(tok)
			}
		case xml.EndElement:
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f == nil || f.depth < 0 {
				continue
			}
			s := f.line
			if text := strings.TrimSpace(f.text.String()); text != "" {
				v, _ := json.Marshal(text)
				s += " | " + jsString(v)
			}
			s += "\n" + strings.Join(f.kids, "")
			if f.depth == 0 {
				drawings = append(drawings, s)
			} else {
				parent := stack[len(stack)-1]
				parent.kids = append(parent.kids, s)
			}
		}
	}
	if len(drawings) == 0 {
		return nil, fmt.Errorf("no drawings in the snapshot")
	}
	return drawings, nil
}

// jsString is a JSON string as JavaScript's JSON.stringify writes it
// (Go's escapes <, > and & besides).
func jsString(b []byte) string {
	r := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\u2028`, "\u2028", `\u2029`, "\u2029")
	return r.Replace(string(b))
}

// checkWorkerRefuses: bad input answers 4xx with a one-line reason.
func checkWorkerRefuses(t *testing.T, w *runningWorker) {
	for _, c := range []struct {
		method, path, body string
		status             int
	}{
		{http.MethodGet, "/snapshot.svg?scenario=nope", "", http.StatusBadRequest},
		{http.MethodGet, "/snapshot.svg", "", http.StatusBadRequest},
		{http.MethodGet, "/snapshot.svg?s=not-a-session", "", http.StatusBadRequest},
		{http.MethodPost, "/snapshot.svg?scenario=04-isr&step=3", "", http.StatusMethodNotAllowed},
		{http.MethodPost, "/s", "#s=garbage", http.StatusBadRequest},
		{http.MethodPost, "/s", "", http.StatusBadRequest},
		{http.MethodGet, "/s", "", http.StatusMethodNotAllowed},
		{http.MethodGet, "/oembed", "", http.StatusBadRequest},
	} {
		a := w.do(t, c.method, c.path, c.body)
		if a.status != c.status || !strings.HasPrefix(a.body, "kafkascope: ") || strings.Count(strings.TrimSpace(a.body), "\n") > 0 {
			t.Errorf("%s %s (%q): %d %q, want %d and one line starting kafkascope: ", c.method, c.path, c.body, a.status, a.body, c.status)
		}
	}
}

// shortLinkFields is the link the short link tests shorten.
const shortLinkFields = "lang=en&scenario=04-isr&step=3"

var shortLinkRe = regexp.MustCompile(`^(http://[^/]+)/s/([A-Za-z0-9_-]+)$`)

// shorten posts a link to /s and answers the short link and its id.
func shorten(t *testing.T, w *runningWorker, link string) (short, id string) {
	t.Helper()
	a := w.do(t, http.MethodPost, "/s", link)
	if !a.want(t, "POST /s "+link, http.StatusCreated, "text/plain") {
		t.FailNow()
	}
	short = strings.TrimSpace(a.body)
	m := shortLinkRe.FindStringSubmatch(short)
	if m == nil {
		t.Fatalf("POST /s %s: answered %q, not http://HOST/s/ID", link, a.body)
	}
	if loc := a.header.Get("Location"); loc != short {
		t.Errorf("POST /s %s: Location %q, the body %q", link, loc, short)
	}
	return short, m[2]
}

// checkShortLinks: POST /s, GET /s/ID and its preview, the page moving to
// the full link, and the page's Copy link.
func checkShortLinks(t *testing.T, w *runningWorker, b *browser) {
	short, id := shorten(t, w, "#"+shortLinkFields)
	if again, _ := shorten(t, w, w.url+"/#"+shortLinkFields); again != short {
		t.Errorf("the same link, posted as the page's whole address, got another short link: %s, then %s", short, again)
	}
	if again, _ := shorten(t, w, "#"+shortLinkFields); again != short {
		t.Errorf("the same link posted twice got two short links: %s, then %s", short, again)
	}

	a := w.get(t, "/s/"+id)
	if a.want(t, "GET /s/"+id, http.StatusOK, "text/html") {
		head := headTags(t, a.body)
		for _, key := range []string{"og:title", "og:description", "og:image", "og:url", "twitter:card"} {
			if head[key] == "" {
				t.Errorf("GET /s/%s: no %s in the head", id, key)
			}
		}
		// The preview image is the moment's card, a PNG in Open Graph's
		// size, as chat apps and social sites take it.
		image := head["og:image"]
		if u, err := url.Parse(image); err != nil || !u.IsAbs() || u.Path != "/card.png" || u.Query().Get("id") != id {
			t.Errorf("GET /s/%s: og:image %q, want an absolute URL of /card.png?id=%s", id, image, id)
		} else if head["twitter:image"] != image || head["twitter:card"] != "summary_large_image" || head["og:image:width"] != "1200" || head["og:image:height"] != "630" || head["og:image:type"] != "image/png" {
			t.Errorf("GET /s/%s: the image's tags disagree: %v", id, head)
		} else {
			img := w.get(t, image)
			if img.want(t, "og:image "+image, http.StatusOK, "image/png") {
				checkPNG(t, "og:image "+image, img.body, 1200, 630)
			}
		}
		oembed := head["alternate application/json+oembed"]
		if u, err := url.Parse(oembed); err != nil || !u.IsAbs() || u.Path != "/oembed" || u.Query().Get("url") == "" {
			t.Errorf("GET /s/%s: oEmbed discovery link %q, want an absolute URL of /oembed?url=...", id, oembed)
		}
	}
	if a := w.get(t, "/s/unknownid"); a.status != http.StatusNotFound {
		t.Errorf("GET /s/unknownid: %d, want 404", a.status)
	}
	if a := w.get(t, "/s/AAAAAAAAAAAA"); a.status != http.StatusNotFound {
		t.Errorf("GET /s/AAAAAAAAAAAA: %d, want 404", a.status)
	}

	// In a browser the short link becomes the full one, and the app shows
	// that step.
	tab := b.newTab()
	defer b.closeTab(tab)
	ctx, cancel := context.WithTimeout(tab, workerTabTimeout)
	defer cancel()
	b.open(ctx, short)
	waitFor(t, ctx, `location.pathname === "/" && location.hash.length > 1`)
	if hash := evalString(ctx, `location.hash`); hash != "#"+shortLinkFields {
		t.Errorf("%s: the page ended on %s, want #%s", short, evalString(ctx, `location.href`), shortLinkFields)
	}
	waitText(t, ctx, "#story-step", "Step 4 of 6")
	if banner := textOf(ctx, "#error-banner"); banner != "" {
		t.Errorf("%s: the page shows an error: %q", short, banner)
	}

	// Served by the Worker, the page's Copy link copies a short link.
	catchClipboard(t, ctx)
	copiedLink := copied(t, ctx, "copy-link")
	if !strings.HasPrefix(copiedLink, w.url+"/s/") {
		t.Errorf("Copy link on the Worker's page copied %q, want a short link %s/s/ID", copiedLink, w.url)
	} else if a := w.get(t, copiedLink); a.status != http.StatusOK {
		t.Errorf("the copied short link %s: %d", copiedLink, a.status)
	}
}

// headTags reads the Open Graph and Twitter tags of a page's head by
// their property or name, and its alternate links as "alternate TYPE".
func headTags(t *testing.T, page string) map[string]string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	var walk func(n *html.Node, inHead bool)
	walk = func(n *html.Node, inHead bool) {
		if n.Type == html.ElementNode {
			inHead = inHead || n.Data == "head"
			attrs := map[string]string{}
			for _, a := range n.Attr {
				attrs[a.Key] = a.Val
			}
			switch {
			case inHead && n.Data == "meta" && attrs["property"] != "":
				tags[attrs["property"]] = attrs["content"]
			case inHead && n.Data == "meta" && attrs["name"] != "":
				tags[attrs["name"]] = attrs["content"]
			case inHead && n.Data == "link" && attrs["rel"] == "alternate":
				tags["alternate "+attrs["type"]] = attrs["href"]
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead)
		}
	}
	walk(doc, false)
	return tags
}

// checkOEmbed: /oembed for a short link, its formats, a link elsewhere
// and maxwidth.
func checkOEmbed(t *testing.T, w *runningWorker) {
	short, _ := shorten(t, w, "#"+shortLinkFields)
	q := "/oembed?url=" + url.QueryEscape(short)
	a := w.get(t, q+"&format=json")
	if a.want(t, "GET "+q+"&format=json", http.StatusOK, "application/json") {
		var o struct {
			Version      string `json:"version"`
			Type         string `json:"type"`
			HTML         string `json:"html"`
			Width        int    `json:"width"`
			Height       int    `json:"height"`
			Title        string `json:"title"`
			ThumbnailURL string `json:"thumbnail_url"`
		}
		if err := json.Unmarshal([]byte(a.body), &o); err != nil {
			t.Fatalf("GET %s: %v\n%s", q, err, a.body)
		}
		if o.Version != "1.0" || o.Type != "rich" || !strings.Contains(o.HTML, "<iframe") || o.Width <= 0 || o.Height <= 0 || o.Title == "" || !strings.Contains(o.ThumbnailURL, "/snapshot.svg") {
			t.Errorf("GET %s: %s", q, a.body)
		}
		if thumb := w.get(t, o.ThumbnailURL); thumb.status != http.StatusOK {
			t.Errorf("the oEmbed thumbnail %s: %d", o.ThumbnailURL, thumb.status)
		}
	}
	if a := w.get(t, q+"&format=xml"); a.status != http.StatusNotImplemented {
		t.Errorf("GET %s&format=xml: %d, want 501", q, a.status)
	}
	elsewhere := "/oembed?format=json&url=" + url.QueryEscape("https://example.com/s/AAAAAAAAAAAA")
	if a := w.get(t, elsewhere); a.status != http.StatusNotFound {
		t.Errorf("GET %s: %d, want 404 (not this site)", elsewhere, a.status)
	}
	narrow := w.get(t, q+"&format=json&maxwidth=500")
	if narrow.want(t, "GET "+q+"&maxwidth=500", http.StatusOK, "application/json") {
		var o struct {
			Width int `json:"width"`
		}
		if err := json.Unmarshal([]byte(narrow.body), &o); err != nil || o.Width <= 0 || o.Width > 500 {
			t.Errorf("GET %s&maxwidth=500: width %d (%v), want at most 500", q, o.Width, err)
		}
	}
}

// checkSnapshotCache: a picture is drawn once per URL; asked again, the
// Worker answers the Cache API's copy. Both times are logged (cold: a
// replay of the scenario to its step and the drawing; cached: a lookup).
func checkSnapshotCache(t *testing.T, w *runningWorker) {
	const target = "/snapshot.svg?scenario=08-leader-election-on-crash&step=2&lang=en"
	var answers []answer
	var took []time.Duration
	for range 2 {
		began := time.Now()
		answers = append(answers, w.get(t, target))
		took = append(took, time.Since(began))
	}
	for i, want := range []string{"miss", "hit"} {
		if a := answers[i]; a.status != http.StatusOK || a.header.Get("X-Kafkascope-Cache") != want {
			t.Errorf("GET %s, request %d: %d, X-Kafkascope-Cache %q, want 200 and %q", target, i+1, a.status, a.header.Get("X-Kafkascope-Cache"), want)
		}
	}
	if answers[0].body != answers[1].body || answers[1].header.Get("Content-Type") != answers[0].header.Get("Content-Type") {
		t.Errorf("GET %s: the cached answer differs from the first", target)
	}
	t.Logf("snapshot of %s: cold %v, cached %v (by this test's clock)", target, took[0].Round(time.Millisecond), took[1].Round(time.Millisecond))
}

// checkPNG checks that body is a PNG of width×height with a picture in
// it: more than its background colour, and more than a few colours.
func checkPNG(t *testing.T, what, body string, width, height int) {
	t.Helper()
	img, err := png.Decode(strings.NewReader(body))
	if err != nil {
		t.Errorf("%s: not a PNG: %v", what, err)
		return
	}
	if img.Bounds().Dx() != width || img.Bounds().Dy() != height {
		t.Errorf("%s: %v, want %dx%d", what, img.Bounds(), width, height)
		return
	}
	colours := map[color.Color]bool{}
	for y := 0; y < height; y += 3 {
		for x := 0; x < width; x += 3 {
			colours[img.At(x, y)] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("%s: %d colours: no diagram drawn", what, len(colours))
	}
}

// checkPNGIsTheSnapshot: the Worker's /snapshot.png (drawn in its wasm)
// is its /snapshot.svg drawn by ui/snapshot/raster natively, at twice
// its size. The two builds may round a few edge pixels differently
// (golang.org/x/image/vector accumulates with SIMD natively, in plain Go
// in wasm); nothing more may differ.
func checkPNGIsTheSnapshot(t *testing.T, w *runningWorker, fields string) {
	svg := w.get(t, "/snapshot.svg?"+fields)
	pic := w.get(t, "/snapshot.png?"+fields)
	if !svg.want(t, "/snapshot.svg", http.StatusOK, "image/svg+xml") || !pic.want(t, "/snapshot.png", http.StatusOK, "image/png") {
		return
	}
	want, err := raster.Render([]byte(svg.body), 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(strings.NewReader(pic.body))
	if err != nil {
		t.Fatalf("/snapshot.png: %v", err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("/snapshot.png: %v, want %v (the SVG at twice its size)", got.Bounds(), want.Bounds())
	}
	rgba := image.NewRGBA(got.Bounds())
	draw.Draw(rgba, rgba.Bounds(), got, got.Bounds().Min, draw.Src)
	if d := comparePictures(rgba, want); d.faint > 0.001 {
		t.Errorf("/snapshot.png differs from the SVG drawn natively: %v", d)
	}
}
