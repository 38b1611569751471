package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestApp loads the app in headless Chromium and uses it as a person would:
// the terminal on the real engine (a topic, a producer, a consumer,
// history, completion, clear, a pasted script, Ctrl-C), a reload that
// restores the session, the timeline's markers, a scenario from the
// gallery played to its last step in English and Korean, copying a link,
// the embed view, and a garbage link. It saves screenshots of the main and
// embed views in build/screenshots/.
func TestApp(t *testing.T) {
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
	began := time.Now()
	phase := func(name string) { t.Logf("--- %s (at %v)", name, time.Since(began).Round(time.Millisecond)) }
	tab := b.root
	b.open(tab, srv.URL+"/")
	term := &terminal{t: t, ctx: tab}
	start := term.text()
	for _, want := range []string{"$ cluster create --brokers 3", "Type help"} {
		if !strings.Contains(start, want) {
			t.Errorf("the terminal does not start with the default cluster: no %q in\n%s", want, start)
		}
	}
	wantText(t, tab, "#time-now", regexp.MustCompile(`^T\+\d+\.\d{3}s$`))
	wantText(t, tab, "#time-wall", regexp.MustCompile(`^\d\d:\d\d:\d\d$`))

	phase("terminal")
	// The terminal: a topic, then the producer/consumer flow.
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
	if got := evalString(tab, `String(document.querySelector(".kd") !== null)`); got != "true" {
		t.Errorf("the cluster diagram (.kd) is not on the page")
	}

	phase("diagram")
	// The diagram draws what the engine holds: three partitions of web with
	// three replicas each. Killing a partition's leader from the broker's
	// menu marks the broker killed; after the session timeout another
	// replica leads. (Broker 1 also runs the only controller, so the test
	// kills the leader of a partition that broker 1 does not lead.)
	waitFor(t, tab, `document.querySelectorAll('.kd-parts [data-partition^="web-"]').length === 3 &&
		document.querySelectorAll('.kd-parts [data-partition="web-0"] .kd-rep').length === 3`)
	pick := waitString(t, tab, `(() => {
		for (const row of document.querySelectorAll('.kd-parts [data-partition^="web-"]')) {
			const l = row.querySelector('.kd-rep[data-role="leader"]');
			if (l && l.dataset.broker !== "1") return row.dataset.partition + " " + l.dataset.broker;
		}
		return false;
	})()`)
	part, oldLeader, _ := strings.Cut(pick, " ")
	leaderOf := `(document.querySelector('.kd-parts [data-partition="` + part + `"] .kd-rep[data-role="leader"]') || {dataset: {}}).dataset.broker`
	clickCSS(t, tab, `.kd-net .kd-card[data-broker="`+oldLeader+`"]`)
	clickCSS(t, tab, `.kd-menu-item`) // the first item: Kill
	waitFor(t, tab, `document.querySelector('.kd-net .kd-card[data-broker="`+oldLeader+`"]').getAttribute("class").includes("killed")`)
	term.enter("time advance 12s", "$ time advance 12s")
	newLeader := waitString(t, tab, `(`+leaderOf+` !== "`+oldLeader+`" && `+leaderOf+`) || false`)
	index := strings.TrimPrefix(part, "web-")
	out = term.enter("kafka-topics.sh --describe --topic web", "Topic: web")
	if !strings.Contains(out, "Partition: "+index+"\tLeader: "+newLeader+"\t") {
		t.Errorf("the diagram shows broker %s leading %s, but describe says:\n%s", newLeader, part, out)
	}
	term.enter("broker start "+oldLeader, "$ broker start "+oldLeader)

	phase("disk")
	// A click on a replica strip that holds records opens the disk tab on
	// its partition and broker: the first batch's bytes as xxd shows them
	// (base offset 0, magic 2 at 0x10), its value in the records table.
	waitFor(t, tab, `(() => {
		for (const rep of document.querySelectorAll('.kd-parts [data-partition^="web-"] .kd-rep[data-role="leader"]')) {
			const title = rep.querySelector("title");
			if (title && /LEO [1-9]/.test(title.textContent)) {
				rep.dispatchEvent(new MouseEvent("click", {bubbles: true}));
				return true;
			}
		}
		return false;
	})()`)
	waitFor(t, tab, `document.querySelector('#disk-hex .dk-row[data-offset="00000010"]') !== null`)
	if got := evalString(tab, `document.querySelector('#disk-hex .dk-row .dk-hexb span').dataset.field + " " +
		document.querySelector('#disk-hex .dk-row .dk-hexb span').textContent`); got != "baseOffset 00 00 00 00 00 00 00 00" {
		t.Errorf("the hex view starts with %q", got)
	}
	if got := evalString(tab, `(() => { const r = document.querySelector('#disk-hex .dk-row[data-offset="00000010"] .dk-hexb span');
		return r.dataset.field + " " + r.textContent; })()`); got != "magic 02" {
		t.Errorf("byte 0x10 is %q", got)
	}
	if recs := textOf(tab, "#disk-records"); !strings.Contains(recs, `"a"`) && !strings.Contains(recs, `"b"`) {
		t.Errorf("the records table does not show the value: %q", recs)
	}
	clickID(t, tab, "tab-events")
	waitFor(t, tab, `document.getElementById("feed") !== null && document.getElementById("disk") === null`)

	phase("reload")
	// Reload with the same URL: the session comes back as it was. Pause
	// first, so the moment in the URL is the moment on screen.
	clickID(t, tab, "play")
	waitFor(t, tab, `document.getElementById("play").dataset.state === "paused"`)
	before := term.text()
	beforeTime := textOf(tab, "#time-now")
	url := waitHash(t, tab, "s=", beforeTime)
	// A URL that differs only by its hash would not load the page again.
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	b.open(tab, url)
	if got := term.text(); got != before {
		t.Errorf("after a reload the terminal differs:\n--- before\n%s\n--- after\n%s", before, got)
	}
	if got := textOf(tab, "#time-now"); got != beforeTime {
		t.Errorf("after a reload the time is %s, want %s", got, beforeTime)
	}
	// The same link in a fresh browser (its own profile: no storage shared
	// with the first) shows the same terminal at the same moment.
	fresh := startBrowser(t)
	fresh.open(fresh.root, url)
	if got := (&terminal{t: t, ctx: fresh.root}).text(); got != before {
		t.Errorf("the link in a fresh browser shows a different terminal:\n--- sender\n%s\n--- receiver\n%s", before, got)
	}
	if got := textOf(fresh.root, "#time-now"); got != beforeTime {
		t.Errorf("the link in a fresh browser is at %s, want %s", got, beforeTime)
	}
	if err := chromedp.Cancel(fresh.root); err != nil {
		t.Logf("closing the second browser: %v", err)
	}
	clickID(t, tab, "play")

	phase("terminal keys")
	// More of the terminal: completion, errors, escaping, history, clear, paste, ^C.
	term.typeKeys("kafka-console-c")
	term.key(kb.Tab)
	term.wantInput("kafka-console-consumer.sh ")
	term.clearInput()
	term.typeKeys("kafka-console-")
	term.key(kb.Tab)
	term.waitIdle(0, "$ kafka-console-\n", "kafka-console-consumer.sh  kafka-console-producer.sh")
	term.clearInput()
	term.typeKeys("kafka-topics.sh --cr")
	term.key(kb.Tab)
	term.wantInput("kafka-topics.sh --create ")
	term.clearInput()
	term.enter("nonsense", "nonsense: command not found")
	term.enter("<b>bold</b>", "<b>bold</b>: command not found")
	if n := evalString(tab, `String(document.querySelectorAll("#terminal b").length)`); n != "0" {
		t.Errorf("typed HTML became %s element(s) in #terminal: the terminal must use text nodes", n)
	}
	term.key(kb.ArrowUp)
	term.wantInput("<b>bold</b>")
	term.key(kb.ArrowUp)
	term.wantInput("nonsense")
	term.key(kb.ArrowDown)
	term.wantInput("<b>bold</b>")
	term.key(kb.ArrowDown)
	term.wantInput("")

	term.enter("clear")
	waitFor(t, tab, `document.getElementById("terminal").textContent === ""`)
	term.paste("kafka-console-producer.sh --topic web\nc\n\nkafka-console-consumer.sh --topic web --partition 0 " +
		"--offset 0 --max-messages 1 --timeout-ms 1000\nkafka-topics.sh --li")
	added := term.waitIdle(0, "> c", "kafka-console-consumer.sh --topic web --partition 0", "Processed a total of")
	if !strings.Contains(added, "$ kafka-console-producer.sh --topic web") {
		t.Errorf("the pasted producer is missing:\n%s", added)
	}
	term.wantInput("kafka-topics.sh --li")
	// The console consumers joined groups, which created __consumer_offsets.
	term.enter("st", "$ kafka-topics.sh --list\n__consumer_offsets\nweb\n")

	term.enter("kafka-console-producer.sh --topic web")
	term.enter("never sent", "> never sent")
	term.ctrlC()
	term.waitIdle(0, "input cancelled")
	term.wantPrompt("$ ")
	out = term.enter("kafka-console-consumer.sh --topic web --from-beginning --timeout-ms 10000",
		"Processed a total of 3 messages")
	if strings.Contains(out, "never sent") {
		t.Errorf("a cancelled producer line was sent:\n%s", out)
	}

	phase("producer")
	// A producer in the background with linger.ms=1000: its card under the
	// brokers shows an open batch filling on a partition of web, with the
	// linger time left, from the real accumulator.
	term.enter("kafka-producer-perf-test.sh --topic web --num-records 24 --throughput 4 --record-size 100 "+
		"--producer-props bootstrap.servers=kafka-1:9092 linger.ms=1000 &", "$ kafka-producer-perf-test.sh --topic web")
	waitFor(t, tab, `document.querySelector('.kd-prod .kd-batch.kd-b-open') !== null`)
	if got := evalString(tab, `document.querySelector('.kd-prod .kd-cc-name').textContent`); got != "perf-producer-client" {
		t.Errorf("the producer card is named %q", got)
	}
	if got := evalString(tab, `document.querySelector('.kd-prod .kd-b-open .kd-b-sub').textContent`); !strings.HasPrefix(got, "filling · linger.ms ") {
		t.Errorf("the open batch says %q", got)
	}
	// A group consumer in the background: the group's card shows it
	// Stable with its one member owning web's three partitions, and the
	// coordinator's broker card is marked.
	// (--timeout-ms: it ends by itself 8 s after the producer's last record.)
	term.enter("kafka-console-consumer.sh --topic web --group ui-group --timeout-ms 8000 &", "$ kafka-console-consumer.sh --topic web --group ui-group")
	waitFor(t, tab, `(() => { const g = document.querySelector('.kd-group[data-group="ui-group"]');
		return g !== null && g.querySelector('.kd-gstate').textContent === "Stable" && g.querySelectorAll('.kd-lagrow').length === 3; })()`)
	if n := evalString(tab, `String(document.querySelectorAll('.kd-net .kd-coord').length)`); n != "1" {
		t.Errorf("%s broker cards marked as the group's coordinator, want 1", n)
	}
	screenshot(t, tab, filepath.Join(shots, "producer-1280x800.png"), 1280, 800)

	phase("markers")
	// A crash marks the timeline; its marker says what happened.
	term.enter("broker kill 2", "$ broker kill 2") // not the controller (broker 1)
	term.enter("time advance 20s", "$ time advance 20s")
	waitFor(t, tab, `document.querySelector('.marker[data-cat="crash"]') !== null`)
	if title := evalString(tab, `document.querySelector('.marker[data-cat="crash"]').title`); !strings.HasPrefix(title, "T+") {
		t.Errorf("the crash marker's tooltip is %q, want it to start with the time", title)
	}
	if p95 := evalString(tab, `document.getElementById("status").dataset.frameP95Ms`); p95 != "" {
		t.Logf("frames while playing a session: p50 %s ms, p95 %s ms, max %s ms over %s frames", evalString(tab, `document.getElementById("status").dataset.frameP50Ms`),
			p95, evalString(tab, `document.getElementById("status").dataset.frameMaxMs`), evalString(tab, `document.getElementById("status").dataset.frames`))
	}

	phase("copy link")
	// Copy link: the clipboard gets this page's address and hash (or,
	// where the clipboard is refused, the copy-by-hand box shows it).
	clickID(t, tab, "copy-link")
	copied := waitString(t, tab, `(() => {
		const box = document.getElementById("manual-copy");
		if (box) return box.value;
		const toast = document.getElementById("toast");
		return toast ? "toast:" + toast.textContent : false;
	})()`)
	if strings.HasPrefix(copied, "toast:") {
		t.Logf("copy link: %s", copied)
	} else if !strings.HasPrefix(copied, srv.URL+"/#") || !strings.Contains(copied, "s=") {
		t.Errorf("the link offered for copying is %q", copied)
	} else {
		t.Logf("copy link: the clipboard was refused; the copy-by-hand box holds the link")
		clickCSS(t, tab, "#manual-copy-overlay .btn-icon")
	}

	phase("scenario")
	// A scenario from the gallery, played to its last step.
	clickID(t, tab, "open-gallery")
	waitFor(t, tab, `document.querySelectorAll("#gallery .gallery-card").length >= 4`)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`.gallery-card[data-scenario="01-replication-basics"]`))); err != nil {
		t.Fatalf("choosing a scenario: %v", err)
	}
	waitText(t, tab, "#story-step", "Step 1 of 7")
	for step := 2; step <= 7; step++ {
		clickID(t, tab, "story-next")
		waitText(t, tab, "#story-step", "Step "+strconv.Itoa(step)+" of 7")
	}
	waitFor(t, tab, `document.querySelector(".story-end") !== null && document.getElementById("story-next").disabled`)
	if !strings.Contains(textOf(tab, "#terminal"), "$ cluster create") {
		t.Errorf("the scenario's commands are not in the terminal")
	}
	waitHash(t, tab, "scenario=01-replication-basics", "")
	screenshot(t, tab, filepath.Join(shots, "main-1280x800.png"), 1280, 800)
	screenshot(t, tab, filepath.Join(shots, "main-1920x1080.png"), 1920, 1080)
	darkScreenshot(t, tab, filepath.Join(shots, "main-dark-1280x800.png"), 1280, 800)

	phase("korean")
	// Korean: the story, the controls and the language choice persist.
	english := textOf(tab, "#story-text")
	clickID(t, tab, "lang-ko")
	waitFor(t, tab, `/[\uac00-\ud7a3]/.test(document.getElementById("story-text").textContent)`)
	if got := textOf(tab, "#story-text"); got == english {
		t.Errorf("the story did not switch to Korean")
	}
	if got := evalString(tab, `localStorage.getItem("kafkascope.lang")`); got != "ko" {
		t.Errorf("the language choice was not saved (localStorage holds %q)", got)
	}
	waitHash(t, tab, "lang=ko", "")
	screenshot(t, tab, filepath.Join(shots, "main-ko-1280x800.png"), 1280, 800)
	clickID(t, tab, "story-back")
	waitText(t, tab, "#story-step", "6 / 7 단계")
	clickID(t, tab, "lang-en")
	waitText(t, tab, "#story-step", "Step 6 of 7")

	b.closeTab(tab) // three playing tabs would share the machine's CPU

	phase("lost data")
	// The unclean election scenario at the step where Message2 is gone: the
	// partition's row names the lost committed record (in the short form
	// the first column has room for; its tooltip has the whole sentence)
	// and its strips mark it.
	lost := b.newTab()
	b.open(lost, srv.URL+"/#scenario=10-unclean-election&step=4&lang=en")
	waitText(t, lost, "#story-step", "Step 5 of 6")
	waitFor(t, lost, `[...document.querySelectorAll('.kd-parts [data-partition="peter-test03-0"] .kd-palert')].some(e => e.textContent.startsWith("lost 1 record"))`)
	waitFor(t, lost, `[...document.querySelectorAll('.kd-parts [data-partition="peter-test03-0"] .kd-prow-tip')].some(e => e.textContent.includes("lost 1 committed record"))`)
	waitFor(t, lost, `document.querySelectorAll('.kd-parts [data-partition="peter-test03-0"] .kd-lost').length > 0`)
	screenshot(t, lost, filepath.Join(shots, "lost-data-1280x800.png"), 1280, 800)
	b.closeTab(lost)

	phase("simulator run")
	// A #sim= link (what kafkasim simulate prints): the simulator's banner
	// with its replay command, the run's cluster in the diagram (seed 1 draws
	// four brokers), its fault schedule in the terminal as it plays, and a
	// refusal for a typed command.
	simTab := b.newTab()
	b.open(simTab, srv.URL+"/#sim=1&config=min.insync.replicas=1&lang=en")
	waitFor(t, simTab, `document.getElementById("sim-banner") !== null`)
	if msg := textOf(simTab, "#sim-banner"); !strings.Contains(msg, "seed 1, min.insync.replicas=1") || !strings.Contains(msg, "go run ./scripts/kafkasim simulate --seed 1 --config min.insync.replicas=1 --trace") {
		t.Errorf("the simulator banner says %q", msg)
	}
	waitFor(t, simTab, `document.querySelectorAll('.kd-net .kd-card[data-broker]').length === 4`)
	simTerm := &terminal{t: t, ctx: simTab}
	waitFor(t, simTab, `document.getElementById("terminal").textContent.includes("== t=T+4.078s network cut 1->3")`)
	simTerm.enter("kafka-topics.sh --list", "takes no commands")
	screenshot(t, simTab, filepath.Join(shots, "simulator-run-1280x800.png"), 1280, 800)
	b.closeTab(simTab)

	phase("embed")
	// The embed view: diagram, story and playback; no terminal, no header.
	embed := b.newTab()
	b.open(embed, srv.URL+"/?embed=1#scenario=04-isr&step=2&lang=en")
	waitText(t, embed, "#story-step", "Step 3 of 6")
	for expr, want := range map[string]string{
		`String(document.querySelector('.app[data-view="embed"]') !== null)`: "true",
		`String(document.getElementById("command") === null)`:                "true",
		`String(document.querySelector(".topbar") === null)`:                 "true",
		`String(document.querySelector(".kd") !== null)`:                     "true",
		`String(document.getElementById("scrubber") !== null)`:               "true",
	} {
		if got := evalString(embed, expr); got != want {
			t.Errorf("embed view: %s = %s, want %s", expr, got, want)
		}
	}
	if href := evalString(embed, `document.getElementById("open-full").getAttribute("href")`); !strings.HasPrefix(href, srv.URL+"/#") || !strings.Contains(href, "scenario=04-isr") {
		t.Errorf("embed view: the Open in kafkascope link goes to %q", href)
	}
	screenshot(t, embed, filepath.Join(shots, "embed-960x600.png"), 960, 600)
	b.closeTab(embed)

	// The dashboard in an embed (panel=metrics, what Copy embed gives on
	// the Metrics tab): in the story's place, the step's Back and Next in
	// view, in a blog-sized frame and a narrow one; the switch brings the
	// story's text back.
	dash := b.newTab()
	b.open(dash, srv.URL+"/?embed=1&panel=metrics#scenario=28-on-call&step=3&lang=en")
	waitFor(t, dash, `document.querySelector("#story #metric-urp .metric-value") !== null`)
	for _, size := range [][2]int64{{720, 600}, {480, 450}} {
		screenshot(t, dash, filepath.Join(shots, fmt.Sprintf("embed-metrics-%dx%d.png", size[0], size[1])), size[0], size[1])
		inView := `(() => { const n = document.getElementById("story-next").getBoundingClientRect(), m = document.getElementById("metric-urp").getBoundingClientRect();
			return String(n.bottom <= innerHeight && n.right <= innerWidth && m.top < innerHeight && m.height > 0); })()`
		if got := evalString(dash, inView); got != "true" {
			t.Errorf("embed dashboard at %dx%d: Next or the first metric is out of view", size[0], size[1])
		}
	}
	clickID(t, dash, "story-metrics-toggle")
	waitFor(t, dash, `document.getElementById("story-text") !== null && document.getElementById("metrics") === null`)
	b.closeTab(dash)

	phase("bad link")
	// A garbage link: an error banner and a working default cluster.
	bad := b.newTab()
	b.open(bad, srv.URL+"/#s=%%%")
	waitFor(t, bad, `document.getElementById("error-banner") !== null`)
	if msg := textOf(bad, "#error-banner"); !strings.Contains(msg, "could not be opened") {
		t.Errorf("the error banner says %q", msg)
	}
	badTerm := &terminal{t: t, ctx: bad}
	if !strings.Contains(badTerm.text(), "$ cluster create --brokers 3") {
		t.Errorf("a garbage link did not open the default cluster:\n%s", badTerm.text())
	}
	screenshot(t, bad, filepath.Join(shots, "bad-link-1280x800.png"), 1280, 800)
	clickCSS(t, bad, "#error-banner .btn-icon")
	waitFor(t, bad, `document.getElementById("error-banner") === null`)
	badTerm.enter("kafka-topics.sh --create --topic after-error --partitions 1", "Created topic after-error.")

	// The event feed follows its newest event.
	waitFor(t, bad, `(() => { const l = document.getElementById("feed-list"); return l.scrollHeight > l.clientHeight && l.scrollTop + l.clientHeight >= l.scrollHeight - 2; })()`)
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
	// Short lines are typed key by key; long ones are put in the input at
	// once (typing through the DevTools protocol costs a round trip per
	// key), then Enter is a real key press either way.
	if len(line) <= 12 {
		term.typeKeys(line)
	} else if _, err := chromedp.Run(term.ctx, chromedp.PollFunction[bool](`function(line) {
		const input = document.getElementById("command");
		if (!input || input.disabled) return false;
		input.focus();
		input.value = line;
		input.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	}`, chromedp.WithPollingArgs(line), chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		term.t.Fatalf("typing %q: %v", line, err)
	}
	enter := time.Now()
	if err := chromedp.Do(term.ctx, chromedp.SendKeys(chromedp.ID("command"), kb.Enter)); err != nil {
		term.t.Fatalf("pressing Enter after %q: %v", line, err)
	}
	nextFrame(term.t, term.ctx)
	added := term.waitIdle(before, want...)
	term.t.Logf("$ %-76s typed in %6v; done %6v after Enter", line,
		enter.Sub(typing).Round(time.Millisecond), time.Since(enter).Round(time.Millisecond))
	return added
}

// nextFrame waits until the page has drawn its next animation frame. A
// key's or a click's handler runs at once but the page draws what it
// changed in the next frame (one render before each paint), so until then
// the terminal still shows the state from before the key: idle, with its
// input enabled, while the command Enter started is already running.
func nextFrame(t *testing.T, ctx context.Context) {
	t.Helper()
	// The page asked for its frame before this callback, so its render
	// has run when the callback does.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((resolve) => requestAnimationFrame(() => resolve(true)))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the next frame: %v", err)
	}
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

// typeKeys types text into the input without pressing Enter.
func (term *terminal) typeKeys(text string) {
	term.t.Helper()
	if err := chromedp.Do(term.ctx, chromedp.WaitEnabled(chromedp.ID("command")), chromedp.SendKeys(chromedp.ID("command"), text)); err != nil {
		term.t.Fatalf("typing %q: %v", text, err)
	}
}

// clearInput empties the input.
func (term *terminal) clearInput() {
	term.t.Helper()
	if _, err := chromedp.Run(term.ctx, chromedp.Evaluate[bool](`document.getElementById("command").value = "", true`)); err != nil {
		term.t.Fatalf("emptying the input: %v", err)
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

// textOf is the text of the first element matching a CSS selector.
func textOf(ctx context.Context, sel string) string {
	return evalString(ctx, `(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent`)
}

func wantText(t *testing.T, ctx context.Context, sel string, re *regexp.Regexp) {
	t.Helper()
	if got := textOf(ctx, sel); !re.MatchString(got) {
		t.Errorf("%s reads %q, want %s", sel, got, re)
	}
}

// waitFor waits until a JavaScript expression is true.
func waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// waitString waits until a JavaScript expression is a non-empty string.
func waitString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Poll[string](expr, chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
	return s
}

// waitText waits until the element's text is want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	expr := `(document.querySelector(` + strconv.Quote(sel) + `) || {}).textContent === ` + strconv.Quote(want)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		t.Fatalf("waiting for %s to read %q (it reads %q): %v", sel, want, textOf(ctx, sel), err)
	}
}

// waitHash waits until the URL's hash holds part (and, when shown is not
// empty, until #time-now still reads shown after the URL was last
// written), and returns the whole URL.
func waitHash(t *testing.T, ctx context.Context, part, shown string) string {
	t.Helper()
	expr := `location.hash.includes(` + strconv.Quote(part) + `)`
	if shown != "" {
		// The URL is rewritten at most once a second: wait for a write
		// after the moment shown stopped moving.
		time.Sleep(1100 * time.Millisecond)
	}
	waitFor(t, ctx, expr)
	if shown != "" {
		if got := textOf(ctx, "#time-now"); got != shown {
			t.Fatalf("the clock moved from %s to %s while paused", shown, got)
		}
	}
	return evalString(ctx, `location.href`)
}

func clickID(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(id))); err != nil {
		t.Fatalf("clicking #%s: %v", id, err)
	}
}

// clickCSS clicks the first element matching a CSS selector, from
// JavaScript (a DevTools mouse click waits for the tab to be painted, which
// a tab in the background may never be).
func clickCSS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	// SVG elements have no click(): they get a dispatched click event.
	expr := `(() => { const el = document.querySelector(` + strconv.Quote(sel) + `); if (!el) return false;
		if (typeof el.click === "function") el.click(); else el.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
}

// screenshot saves the viewport at width×height as a PNG.
func screenshot(t *testing.T, ctx context.Context, file string, width, height int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("sizing the viewport: %v", err)
	}
	time.Sleep(300 * time.Millisecond) // a few frames at the new size
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("taking %s: %v", file, err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
}

// darkScreenshot is screenshot with prefers-color-scheme: dark.
func darkScreenshot(t *testing.T, ctx context.Context, file string, width, height int64) {
	t.Helper()
	dark := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, dark); err != nil {
		t.Fatalf("emulating a dark theme: %v", err)
	}
	screenshot(t, ctx, file, width, height)
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatalf("ending the dark theme: %v", err)
	}
}
