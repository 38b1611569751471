package e2e

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestShareLinks copies links as a user does (the Copy link and Embed
// buttons) and opens each in a fresh browser, which must show the same
// moment: the same terminal, the same diagram, the same time, the same
// language, and no error. It covers the default cluster, a typed cluster
// create (a link whose first action carried the previous cluster's clock
// did not open), a cluster create the engine refused (it was recorded as
// the session's start), a seek back, a fork, Korean, and the embed snippet
// pasted into a blog page. A garbage link says that the default cluster
// opened instead.
func TestShareLinks(t *testing.T) {
	requireChromium(t)
	repo := repoRoot(t)
	built := buildWasm(t, repo)
	blog := &pastedEmbed{}
	mux := http.NewServeMux()
	mux.Handle("/blog.html", blog)
	mux.Handle("/", newPageHandler(repo, built))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	b := startBrowser(t)
	tab := b.root
	term := &terminal{t: t, ctx: tab}
	openSender := func(url string) {
		b.open(tab, url)
		catchClipboard(t, tab)
	}

	openSender(srv.URL + "/")
	term.enter("kafka-topics.sh --create --topic shared --partitions 2 --replication-factor 3", "Created topic shared.")
	term.enter("kafka-console-producer.sh --topic shared", "$ kafka-console-producer.sh --topic shared")
	term.enter("one", "> one")
	term.enter("")
	share(t, tab, "the default cluster", true)

	// A typed cluster create replaces the default cluster, which has been
	// running: the new timeline starts at the new cluster's time 0.
	term.enter("cluster create --brokers 3", replacedNote+" (Kafka 4.3, 3 brokers) and replaced it with a new one (Kafka 4.3, 3 brokers)")
	term.enter("kafka-topics.sh --create --topic typed --partitions 3 --replication-factor 2", "Created topic typed.")
	term.enter("broker kill 2", "$ broker kill 2")
	term.enter("time advance 15s", "$ time advance 15s")
	share(t, tab, "a typed cluster create", true)

	// A refused cluster create is not an action: the link still opens,
	// and after a seek back and a fork no replay fails.
	term.enter("cluster create --brokers 100000000", "cluster create: --brokers must be between")
	share(t, tab, "after a refused cluster create", false)
	seek(t, tab, 0.5)
	if !strings.Contains(textOf(tab, "#time-now"), "T+") || evalString(tab, `String(document.querySelector(".terminal-stop") !== null)`) != "true" {
		t.Fatalf("the seek did not land inside time advance 15s (at %s), paused with the command running", textOf(tab, "#time-now"))
	}
	share(t, tab, "after a seek", false)
	// Paused in the middle of "time advance 15s", the terminal waits for
	// it, as a shell would; Stop (Ctrl-C) ends it there, and the next
	// command forks the session at that moment.
	clickCSS(t, tab, ".terminal-stop")
	term.waitIdle(0, "^C")
	term.enter("kafka-topics.sh --create --topic forked --partitions 1 --replication-factor 1", "Created topic forked.")
	if got := evalString(tab, `(document.getElementById("error-banner") || {}).textContent`); got != "" {
		t.Errorf("after a fork the page shows an error: %q", got)
	}
	share(t, tab, "after a fork", true)

	// Korean, with a typed five-broker cluster and three controllers.
	clickID(t, tab, "lang-ko")
	waitFor(t, tab, `document.querySelector(".app").getAttribute("lang") === "ko"`)
	term.enter("cluster create --brokers 5 --controllers 3", "$ cluster create --brokers 5 --controllers 3")
	term.enter("kafka-topics.sh --create --topic wide --partitions 5 --replication-factor 3", "Created topic wide.")
	term.enter("time advance 2s", "$ time advance 2s")
	ko := shown(t, tab, true)
	link := copyLink(t, tab) // paused by shown: the moment in the link is the moment on screen
	if !strings.Contains(link, "lang=ko") {
		t.Errorf("a link copied in Korean does not say so: %s", link)
	}
	receive(t, "five brokers in Korean", link, ko)

	// The embed snippet, pasted into a blog page as a blogger would.
	snippet := copyEmbed(t, tab)
	blog.set(snippet)
	receiveEmbed(t, srv.URL+"/blog.html", ko)

	// A garbage link: the banner says what happened and what opened.
	bad := startBrowser(t)
	bad.open(bad.root, srv.URL+"/#s=garbage")
	banner := textOf(bad.root, "#error-banner")
	if !strings.Contains(banner, "could not be opened") || !strings.Contains(banner, "The default cluster opened instead.") {
		t.Errorf("#s=garbage: the banner reads %q", banner)
	}
	closeBrowser(t, bad)
}

// moment is what a page shows: its terminal, its diagram (the brokers'
// cards and every replica's role and offsets), its time and language.
type moment struct {
	terminal, diagram, time, lang string
}

// shown reads the moment tab shows, pausing it first (paused, the moment
// in the link is the moment on screen). terminal says whether the terminal
// is compared: after a refused command or a seek the sender's terminal
// holds lines a replay does not print (the refusal, a seek's redraw).
func shown(t *testing.T, tab context.Context, terminal bool) moment {
	t.Helper()
	if evalString(tab, `document.getElementById("play").dataset.state`) != "paused" {
		clickID(t, tab, "play")
		waitFor(t, tab, `document.getElementById("play").dataset.state === "paused"`)
	}
	m := moment{diagram: diagramOf(tab), time: textOf(tab, "#time-now"), lang: evalString(tab, `document.querySelector(".app").getAttribute("lang")`)}
	if terminal {
		m.terminal = textOf(tab, "#terminal")
	}
	return m
}

// diagramOf fingerprints the diagram: each broker card's state and each
// replica's role and tooltip (its LEO, HW and epoch).
func diagramOf(tab context.Context) string { return evalString(tab, diagramJS()) }

// share pauses tab, reads what it shows, copies its link and opens the
// link in a fresh browser (receive).
func share(t *testing.T, tab context.Context, what string, terminal bool) {
	t.Helper()
	m := shown(t, tab, terminal)
	receive(t, what, copyLink(t, tab), m)
}

// receive opens link in a fresh browser (its own profile) and compares
// what it shows with what the sender showed.
func receive(t *testing.T, what, link string, want moment) {
	t.Helper()
	rb := startBrowser(t)
	defer closeBrowser(t, rb)
	rb.open(rb.root, link)
	if banner := textOf(rb.root, "#error-banner"); banner != "" {
		t.Errorf("%s: the link shows an error: %q\n%s", what, banner, link)
		return
	}
	got := shown(t, rb.root, want.terminal != "")
	compareMoments(t, what, got, want)
}

// receiveEmbed opens a blog page that holds the copied snippet and reads
// the embedded page inside its iframe (same origin).
func receiveEmbed(t *testing.T, page string, want moment) {
	t.Helper()
	rb := startBrowser(t)
	defer closeBrowser(t, rb)
	if err := chromedp.Do(rb.root, chromedp.Navigate(page)); err != nil {
		t.Fatalf("loading the blog page: %v", err)
	}
	inFrame := `document.querySelector("iframe").contentDocument`
	waitFor(t, rb.root, `(() => { const d = `+inFrame+`; const s = d && d.getElementById("status"); return !!s && s.dataset.state === "loaded"; })()`)
	if banner := evalString(rb.root, `(`+inFrame+`.getElementById("error-banner") || {}).textContent`); banner != "" {
		t.Errorf("the embed shows an error: %q", banner)
	}
	got := moment{
		diagram: evalString(rb.root, `((document) => `+diagramJS()+`)(`+inFrame+`)`),
		time:    evalString(rb.root, `(`+inFrame+`.getElementById("time-now") || {}).textContent`),
		lang:    evalString(rb.root, inFrame+`.querySelector(".app").getAttribute("lang")`),
	}
	if view := evalString(rb.root, inFrame+`.querySelector(".app").dataset.view`); view != "embed" {
		t.Errorf("the iframe does not show the embed view (data-view=%q)", view)
	}
	want.terminal = ""
	compareMoments(t, "the embed", got, want)
}

// diagramJS is diagramOf's expression (document may be another frame's).
func diagramJS() string {
	return `JSON.stringify({
		cards: [...document.querySelectorAll('.kd-net .kd-card[data-broker]')].map(c =>
			c.dataset.broker + ":" + [...c.classList].filter(k => /killed|stopped|power|fenced|isolated|controller/.test(k)).sort().join(",")),
		replicas: [...document.querySelectorAll('.kd-parts [data-partition] .kd-rep')].map(r =>
			r.closest('[data-partition]').dataset.partition + "@" + r.dataset.broker + ":" + r.dataset.role + ":" + ((r.querySelector("title") || {}).textContent || "")),
	})`
}

func compareMoments(t *testing.T, what string, got, want moment) {
	t.Helper()
	if got.time != want.time {
		t.Errorf("%s: the receiver is at %s, the sender was at %s", what, got.time, want.time)
	}
	if got.lang != want.lang {
		t.Errorf("%s: the receiver's language is %q, the sender's %q", what, got.lang, want.lang)
	}
	if got.diagram != want.diagram {
		t.Errorf("%s: the diagrams differ:\n--- sender\n%s\n--- receiver\n%s", what, want.diagram, got.diagram)
	}
	// The receiver's terminal is the link's timeline: the sender's ends
	// with it (before it, the sender may show an older cluster's lines).
	// Both open with the page's welcome line. A cluster create the sender
	// typed over a running cluster says it replaced it; the receiver never
	// had that cluster, and its terminal says nothing of it.
	welcome, rest, _ := strings.Cut(got.terminal, "\n")
	if strings.Contains(got.terminal, replacedNote) {
		t.Errorf("%s: the receiver's terminal says a cluster was replaced:\n%s", what, got.terminal)
	}
	sender := regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(replacedNote)+`.*\n`).ReplaceAllString(want.terminal, "")
	if want.terminal != "" && (!strings.HasPrefix(sender, welcome+"\n") || !strings.HasSuffix(sender, rest) || !strings.HasPrefix(rest, "$ cluster create")) {
		t.Errorf("%s: the receiver's terminal is not the end of the sender's, from its cluster create:\n--- sender\n%s\n--- receiver\n%s", what, want.terminal, got.terminal)
	}
	if !strings.Contains(got.diagram, `"replicas":[`) || strings.Contains(got.diagram, `"replicas":[]`) {
		t.Errorf("%s: the diagram shows no replicas: %s", what, got.diagram)
	}
}

// replacedNote starts what cluster create prints when it replaces a
// running cluster.
const replacedNote = "cluster create: stopped the running cluster"

// catchClipboard makes the page's clipboard writes land in
// window.__copied, so the test reads exactly what a user would paste.
func catchClipboard(t *testing.T, tab context.Context) {
	t.Helper()
	waitFor(t, tab, `(() => { if (!navigator.clipboard) return false;
		navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };
		window.__copied = null; return true; })()`)
}

func copied(t *testing.T, tab context.Context, button string) string {
	t.Helper()
	waitFor(t, tab, `(window.__copied = null, true)`)
	clickID(t, tab, button)
	return waitString(t, tab, `window.__copied || false`)
}

// copyLink presses Copy link and returns the link.
func copyLink(t *testing.T, tab context.Context) string {
	t.Helper()
	link := copied(t, tab, "copy-link")
	if !strings.Contains(link, "#") || !strings.Contains(link, "s=") {
		t.Fatalf("Copy link copied %q", link)
	}
	return link
}

// copyEmbed presses Embed and returns the snippet.
func copyEmbed(t *testing.T, tab context.Context) string {
	t.Helper()
	snippet := copied(t, tab, "copy-embed")
	src := regexp.MustCompile(`src="([^"]+)"`).FindStringSubmatch(snippet)
	if !strings.Contains(snippet, "<iframe") || src == nil || !strings.Contains(html.UnescapeString(src[1]), "embed=1") {
		t.Fatalf("Embed copied %q", snippet)
	}
	return snippet
}

// seek drags the scrubber to a fraction of the branch and lets go.
func seek(t *testing.T, tab context.Context, fraction float64) {
	t.Helper()
	before := textOf(tab, "#time-now")
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(() => {
		const s = document.getElementById("scrubber");
		s.value = String(Math.floor(Number(s.max) * `+strconv.FormatFloat(fraction, 'f', -1, 64)+`));
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true; })()`)); err != nil {
		t.Fatalf("seeking: %v", err)
	}
	waitFor(t, tab, `document.getElementById("time-now").textContent !== `+strconv.Quote(before)+
		` && !document.querySelector(".timebar").dataset.seeking`)
}

func closeBrowser(t *testing.T, b *browser) {
	if err := chromedp.Cancel(b.root); err != nil {
		t.Logf("closing a browser: %v", err)
	}
}

// pastedEmbed serves a blog post (blogPage, a 680 px column) holding the
// snippet the test last copied.
type pastedEmbed struct {
	mu      sync.Mutex
	snippet string
}

func (p *pastedEmbed) set(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.snippet = s
}

func (p *pastedEmbed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(blogPage(680, p.snippet)))
}

// A step that prints hundreds of lines in a row (scenario 23's perf test,
// dump-log and consumers) renders, and so does everything after it: such a
// block of text was one string too long for Vugu's renderer, and the
// terminal froze from then on.
func TestLongOutputRenders(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	b.open(tab, srv.URL+"/#scenario=23-why-kafka-is-fast&step=7&lang=en")
	waitText(t, tab, "#story-step", "Step 8 of 8")
	term := &terminal{t: t, ctx: tab}
	waitFor(t, tab, `document.getElementById("terminal").textContent.includes("Processed a total of 3 messages")`)
	for _, want := range []string{"baseOffset: 3 lastOffset: 18 count: 16", `"name":"records_consumed"`} {
		if !strings.Contains(term.text(), want) {
			t.Errorf("the terminal does not show %q", want)
		}
	}
	term.enter("kafka-topics.sh --list", "$ kafka-topics.sh --list", "clicks")
}
