package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"kafkascope/core/player"
)

// layoutServer serves the page (the binary's one wasm build) and host
// pages registered by the test under /host/NAME: a blog post around an
// embed snippet, as a reader's browser gets it.
type layoutServer struct {
	*httptest.Server
	mu    sync.Mutex
	hosts map[string]string
}

func newLayoutServer(t *testing.T) *layoutServer {
	t.Helper()
	repo := repoRoot(t)
	page := newPageHandler(repo, buildWasm(t, repo))
	s := &layoutServer{hosts: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/host/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.hosts[strings.TrimPrefix(r.URL.Path, "/host/")]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write([]byte(body))
	})
	mux.Handle("/", page)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// host registers a host page and returns its URL.
func (s *layoutServer) host(name, body string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hosts[name] = body
	return s.URL + "/host/" + name
}

// activeID is the id of the focused element ("BODY" when nothing is).
func activeID(ctx context.Context) string {
	return evalString(ctx, `document.activeElement === document.body ? "BODY" : (document.activeElement.id || document.activeElement.tagName + "." + document.activeElement.getAttribute("class"))`)
}

// TestKeyboardFocusAndHeading: the page has one h1; choosing a scenario
// from the gallery with the keyboard leaves the focus on the story's Next
// button (not on the body); Tab in an empty terminal input moves the focus
// on (completion keeps Tab only when there is something to complete), and
// the hint line says how to leave the terminal; a broker's menu opens from
// the keyboard with the focus in it, and closes back to its card.
func TestKeyboardFocusAndHeading(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	b.open(tab, srv.URL+"/#lang=en")

	if got := evalString(tab, `[...document.querySelectorAll("h1")].map(h => h.textContent.trim()).join("|")`); got != "kafkascope" {
		t.Errorf("the page's h1 elements read %q, want one h1 %q", got, "kafkascope")
	}

	// Tab on an empty line leaves the terminal; with a word typed it
	// completes and stays.
	if err := chromedp.Do(tab, chromedp.Focus(chromedp.ID("command"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if got := activeID(tab); got == "command" {
		t.Errorf("Tab in the empty terminal input kept the focus there: the terminal traps Tab")
	}
	term := &terminal{t: t, ctx: tab}
	term.typeKeys("kafka-console-c")
	term.key(kb.Tab)
	term.wantInput("kafka-console-consumer.sh ")
	if got := activeID(tab); got != "command" {
		t.Errorf("Tab that completed a word moved the focus to %s", got)
	}
	term.clearInput()
	if hint := textOf(tab, ".terminal-hint"); !strings.Contains(hint, "Shift+Tab") {
		t.Errorf("the terminal's hint does not say how to leave it with the keyboard: %q", hint)
	}

	// A broker's menu from the keyboard (the WAI-ARIA menu button
	// pattern): Enter on its card puts the focus on the menu's first item,
	// Tab and ↓ move within the menu, Escape closes it and puts the focus
	// back on the card.
	if err := chromedp.Do(tab, chromedp.Focus(chromedp.CSS(`.kd-net .kd-card[data-broker="1"]`))); err != nil {
		t.Fatal(err)
	}
	keyNames := map[string]string{kb.Enter: "Enter", kb.Tab: "Tab", kb.ArrowDown: "ArrowDown", kb.Escape: "Escape"}
	menuKey := func(key, want string) {
		t.Helper()
		var err error
		if key == kb.Enter {
			err = pressEnter(tab)
		} else {
			err = chromedp.Do(tab, chromedp.KeyEvent(key))
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.activeElement && document.activeElement.id === "`+want+`"`, chromedp.WithPollingTimeout(3*time.Second))); err != nil {
			t.Errorf("after %s in the broker menu the focus is on %s, want #%s (menu open: %s)", keyNames[key], activeID(tab), want, evalString(tab, `!!document.querySelector(".kd-menu")`))
		}
	}
	menuKey(kb.Enter, "kd-menu-kill")
	menuKey(kb.Tab, "kd-menu-power-loss")
	menuKey(kb.ArrowDown, "kd-menu-stop")
	menuKey(kb.Escape, "kd-broker-1")
	if open := evalString(tab, `!!document.querySelector(".kd-menu")`); open != "false" {
		t.Errorf("Escape left the broker menu open")
	}

	// The gallery from the keyboard: Enter on Scenarios, Enter on a card.
	if err := chromedp.Do(tab, chromedp.Focus(chromedp.ID("open-gallery"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, `document.activeElement && document.activeElement.id === "gallery-close"`)
	if err := chromedp.Do(tab, chromedp.Focus(chromedp.CSS(`.gallery-card[data-scenario="04-isr"]`))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#story-step", "Step 1 of 6")
	waitFor(t, tab, `!document.getElementById("story-next").disabled`)
	if got := activeID(tab); got != "story-next" {
		t.Errorf("after choosing a scenario the focus is on %s, want the story's Next button", got)
	}
	// Enter on Next plays the next step, and the focus stays on Next.
	if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#story-step", "Step 2 of 6")
	waitFor(t, tab, `!document.getElementById("story-next").disabled`)
	if got := activeID(tab); got != "story-next" {
		t.Errorf("after Next the focus is on %s, want it kept on Next", got)
	}
}

// pressEnter presses Enter as a keyboard does: a keyDown that carries the
// key's text, then keyUp. (chromedp.KeyEvent sends the text as a separate
// char event, which a handler that cancels the keydown cannot stop: Enter
// on a card would then also press the menu item the keydown focused.)
func pressEnter(ctx context.Context) error {
	key := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter",
		WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r"}
	if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, key); err != nil {
		return err
	}
	key.Type, key.Text, key.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
	_, err := chromedp.Call(ctx, input.DispatchKeyEvent, key)
	return err
}

// navigateAt loads url in the tab at a viewport of width×height (with the
// options: a phone's touch screen).
func navigateAt(t *testing.T, tab context.Context, url string, width, height int64, opts ...chromedp.EmulateViewportOption) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(width, height, opts...)); err != nil {
		t.Fatalf("sizing the viewport: %v", err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
}

// openAt is navigateAt on the app, then waits for the engine.
func openAt(t *testing.T, tab context.Context, url string, width, height int64, opts ...chromedp.EmulateViewportOption) {
	t.Helper()
	navigateAt(t, tab, url, width, height, opts...)
	waitFor(t, tab, `(document.getElementById("status") || {dataset: {}}).dataset.state === "loaded"`)
}

// shot saves the tab's viewport as a PNG in the directory KAFKASCOPE_SHOTS
// names, else in build/screenshots.
func shot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	dir := os.Getenv("KAFKASCOPE_SHOTS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "build", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // a few frames after the last change
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("taking %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", filepath.Join(dir, name))
}

// layoutJS defines, in a page, the checks the layout tests make (in its own
// window, or in an iframe's through win):
//
//   - inView(win, sel): "" when the element is drawn inside win's viewport
//     and not covered or clipped (the element at its centre is it, or in
//     it); else what is wrong.
//   - textInView(win, sel): the same for the first line of an element's
//     text.
//   - smallTargets(win, min): the interactive elements a pointer can hit
//     that are smaller than min CSS pixels either way.
//   - wholeIn(win, sel, box): "" when the element is wholly inside the
//     visible part of its ancestor box (a scroller), else where it is.
//   - fadeShown(win, sel): "" when a scroller fades at the bottom exactly
//     while it has more below to scroll to, else what is wrong.
//   - rowLabelsClear(win): "" when no line of a partition row's first
//     column (name, leader, ISR, warning) reaches the first broker's lane
//     (where the replicas' L/F chips are), else which do.
const layoutJS = `
window.kdDescribe = function (el) {
	if (!el) return "nothing";
	let s = el.tagName.toLowerCase();
	if (el.id) s += "#" + el.id;
	const c = el.getAttribute && el.getAttribute("class");
	if (c) s += "." + c.trim().split(/\s+/).join(".");
	return s;
};
window.kdRectIn = function (win, el, r, what) {
	const w = win.innerWidth, h = win.innerHeight;
	if (r.width === 0 || r.height === 0) return what + " is not drawn";
	if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
		return what + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",") + " is outside the " + w + "×" + h + " viewport";
	const x = Math.min(Math.max(r.left + r.width / 2, 0), w - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), h - 1);
	const hit = win.document.elementFromPoint(x, y);
	if (!hit || !(hit === el || el.contains(hit))) return what + " is covered by " + kdDescribe(hit);
	return "";
};
window.inView = function (win, sel) {
	const el = win.document.querySelector(sel);
	if (!el) return sel + " is missing";
	return kdRectIn(win, el, el.getBoundingClientRect(), sel);
};
window.textInView = function (win, sel) {
	const el = win.document.querySelector(sel);
	if (!el || !el.firstChild) return sel + " has no text";
	const range = win.document.createRange();
	range.selectNodeContents(el);
	const first = range.getClientRects()[0];
	if (!first) return sel + "'s text is not drawn";
	return kdRectIn(win, el, first, sel + "'s first line");
};
window.smallTargets = function (win, min) {
	const out = [];
	const sel = 'button, a[href], input, select, textarea, summary, [role="button"], [tabindex="0"]';
	for (const el of win.document.querySelectorAll(sel)) {
		const st = win.getComputedStyle(el);
		if (st.visibility === "hidden" || st.pointerEvents === "none" || el.closest("[hidden]")) continue;
		const r = el.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue; // not displayed
		if (r.width < min - 0.5 || r.height < min - 0.5)
			out.push(kdDescribe(el) + " " + Math.round(r.width) + "×" + Math.round(r.height));
	}
	return out.join("\n");
};
window.wholeIn = function (win, sel, box) {
	const el = win.document.querySelector(sel), b = el && el.closest(box);
	if (!el || !b) return sel + " in " + box + " is missing";
	const r = el.getBoundingClientRect(), o = b.getBoundingClientRect();
	if (r.top < o.top - 0.5 || r.bottom > o.bottom + 0.5)
		return sel + " spans y " + Math.round(r.top) + ".." + Math.round(r.bottom) + " but " + box + " shows " + Math.round(o.top) + ".." + Math.round(o.bottom) + " (" + b.scrollHeight + " px of content in " + b.clientHeight + ")";
	return "";
};
window.fadeShown = function (win, sel) {
	const el = win.document.querySelector(sel);
	if (!el) return sel + " is missing";
	const fade = () => parseFloat(win.getComputedStyle(el).getPropertyValue("--scroll-fade")) || 0;
	const more = el.scrollHeight > el.clientHeight + 1 && el.scrollTop + el.clientHeight < el.scrollHeight - 1;
	if (more && fade() < 8) return sel + " has more to scroll to (" + el.scrollHeight + " px in " + el.clientHeight + ") but does not fade";
	if (!more && fade() > 0) return sel + " fades with nothing more to scroll to (" + el.scrollHeight + " px in " + el.clientHeight + ", at " + el.scrollTop + ")";
	return "";
};
window.rowLabelsClear = function (win) {
	const lanes = [...win.document.querySelectorAll(".kd-parts .kd-lane")].map(l => l.getBoundingClientRect().left);
	if (!lanes.length) return "";
	const left = Math.min(...lanes), out = [];
	for (const t of win.document.querySelectorAll(".kd-prow :is(.kd-pname, .kd-psub, .kd-pisr, .kd-palert)")) {
		const r = t.getBoundingClientRect();
		if (r.width > 0 && r.right > left + 0.5)
			out.push("\"" + (t.firstChild ? t.firstChild.textContent : "") + "\" ends at x " + Math.round(r.right) + ", over the first lane from x " + Math.round(left));
	}
	return out.join("\n");
};
true`

// installLayoutJS defines the layout checks in the tab's page.
func installLayoutJS(t *testing.T, tab context.Context) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](layoutJS)); err != nil {
		t.Fatalf("installing the layout checks: %v", err)
	}
}

// layoutProblems runs checks (JavaScript expressions, each "" when right)
// in the tab and returns what they found, one per line.
func layoutProblems(t *testing.T, tab context.Context, checks ...string) string {
	t.Helper()
	var out []string
	for _, c := range checks {
		if got := evalString(tab, c); got != "" {
			out = append(out, got)
		}
	}
	return strings.Join(out, "\n")
}

// blogPage is a blog post whose column is width px wide, with the embed
// snippet between two paragraphs, as a plain HTML page (or a WordPress or
// Ghost theme) would hold it: no script of its own.
func blogPage(width int, snippet string) string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>How Kafka keeps a write</title>
<style>body{margin:0;background:#fff;color:#222;font:18px/1.65 Georgia,serif}main{max-width:` + strconv.Itoa(width) + `px;margin:0 auto;padding:24px 0}
h1{font-size:30px;line-height:1.2;margin:0 0 16px}p{margin:0 0 20px}</style></head>
<body><main><h1>How Kafka keeps a write</h1>
<p>Below is a live Kafka cluster, running in your browser. Press Next to follow the story; click a broker to crash it.</p>
` + snippet + `
<p>The ISR is the set of replicas that are caught up with the leader. A write with acks=all waits for all of them.</p>
</main></body></html>`
}

// TestEmbedFitsABlogColumn puts the copied embed snippet (scenario 11 at
// step 3: a controller just killed) in blog columns 480, 680 and 960 px
// wide (and, as a blogger might paste it, in a fixed 680×450 frame): in
// each, the story, its Back and Next, the playback controls and every
// broker of the diagram are inside the iframe, not covered and not
// scrolled away, and the frame itself does not scroll; the diagram's
// summary is whole, the first partition row is in view, and no label of
// the partition rows runs under the first broker's lane; a story or a
// diagram with more to scroll to fades at the bottom until its end is in
// view, and one without does not. Next plays the next step from inside
// the frame.
func TestEmbedFitsABlogColumn(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root

	p := player.New()
	p.Boot("", "#scenario=11-kraft&step=2&lang=en")
	snippet := p.EmbedSnippet(srv.URL+"/", player.EmbedWidthMax, player.EmbedHeight)
	fixed := regexp.MustCompile(`style="[^"]*"`).ReplaceAllString(snippet, `style="border:0"`)
	fixed = regexp.MustCompile(`width="\d+"`).ReplaceAllString(fixed, `width="680"`)
	fixed = regexp.MustCompile(`height="\d+"`).ReplaceAllString(fixed, `height="450"`)

	cases := []struct {
		name    string
		column  int
		snippet string
		minH    int // the frame's height at least (the snippet's, at this width)
	}{
		{"embed-480", 480, snippet, 600},
		{"embed-680", 680, snippet, 600},
		{"embed-960", 960, snippet, 600},
		{"embed-680x450-fixed", 680, fixed, 450},
	}
	frame := `document.querySelector("iframe").contentWindow`
	for _, c := range cases {
		navigateAt(t, tab, srv.host(c.name, blogPage(c.column, c.snippet)), 1280, 800)
		waitFor(t, tab, `(() => { const w = `+frame+`; const s = w && w.document.getElementById("status");
			return !!s && s.dataset.state === "loaded" && !!w.document.getElementById("story-next"); })()`)
		installLayoutJS(t, tab)
		size := evalString(tab, `(() => { const r = document.querySelector("iframe").getBoundingClientRect(); return Math.round(r.width) + "x" + Math.round(r.height); })()`)
		var w, h int
		if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w != c.column || h < c.minH {
			t.Errorf("%s: the frame is %s, want %d wide and at least %d tall", c.name, size, c.column, c.minH)
		}
		waitFor(t, tab, frame+`.document.getElementById("story-step").textContent === "Step 3 of 7"`)
		checks := []string{
			`inView(` + frame + `, ".kd-prow .kd-pname")`,
			`rowLabelsClear(` + frame + `)`,
			`(() => { const s = ` + frame + `.document.querySelector(".kd-summary"); return s && s.offsetWidth > 0 && s.scrollWidth > s.clientWidth + 1 ? "the diagram's summary is cut: " + s.scrollWidth + " px in " + s.clientWidth : ""; })()`,
			`fadeShown(` + frame + `, ".story-body")`,
			`fadeShown(` + frame + `, ".kd-scroll")`,
			`inView(` + frame + `, "#story-title")`,
			`textInView(` + frame + `, "#story-text")`,
			`inView(` + frame + `, "#story-back")`,
			`inView(` + frame + `, "#story-next")`,
			`inView(` + frame + `, "#play")`,
			`inView(` + frame + `, "#scrubber")`,
			`inView(` + frame + `, "#open-full")`,
			`(() => { const d = ` + frame + `.document.scrollingElement; return d.scrollHeight > d.clientHeight + 1 ? "the frame's page scrolls: " + d.scrollHeight + " px in " + d.clientHeight : ""; })()`,
		}
		for id := 1; id <= 3; id++ {
			checks = append(checks, `inView(`+frame+`, '.kd-net .kd-card[data-broker="`+strconv.Itoa(id)+`"]')`)
		}
		if got := layoutProblems(t, tab, checks...); got != "" {
			t.Errorf("%s (%s): %s", c.name, size, strings.ReplaceAll(got, "\n", "\n\t"))
		}
		shot(t, tab, c.name+".png")
		// Scrolled to their ends, the story and the diagram fade no more
		// (the fade follows the scroll on the next frame).
		for _, sc := range []string{".story-body", ".kd-scroll"} {
			el := frame + `.document.querySelector("` + sc + `")`
			if evalString(tab, el+`.scrollHeight > `+el+`.clientHeight + 1`) != "true" {
				continue
			}
			evalString(tab, `(`+el+`.scrollTop = `+el+`.scrollHeight, 0)`)
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`fadeShown(`+frame+`, "`+sc+`") === ""`, chromedp.WithPollingTimeout(3*time.Second))); err != nil {
				t.Errorf("%s: scrolled to its end: %s", c.name, evalString(tab, `fadeShown(`+frame+`, "`+sc+`")`))
			}
			evalString(tab, `(`+el+`.scrollTop = 0, 0)`)
		}
		if c.column == 480 {
			// Next, from inside the frame, plays step 4; the controls stay.
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](frame+`.document.getElementById("story-next").click(), true`)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, tab, frame+`.document.getElementById("story-step").textContent === "Step 4 of 7"`)
			if got := layoutProblems(t, tab, `inView(`+frame+`, "#story-next")`, `textInView(`+frame+`, "#story-text")`); got != "" {
				t.Errorf("%s after Next: %s", c.name, got)
			}
		}
	}
}

// TestWideDiagramFadesAtItsRightEdge embeds scenario 29 (six brokers in
// three racks) in a 680 px blog column: a diagram wider than its panel
// scrolls sideways, and its right edge fades while there is more to the
// right (overlay scrollbars do not show it), until it is scrolled to its
// end; a diagram that fits does not fade.
func TestWideDiagramFadesAtItsRightEdge(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	frame := `document.querySelector("iframe").contentWindow`
	fade := `parseFloat(` + frame + `.getComputedStyle(` + frame + `.document.querySelector(".kd-view"), "::after").opacity)`
	wide := `(() => { const s = ` + frame + `.document.querySelector(".kd-scroll"); return s.scrollWidth > s.clientWidth + 1; })()`
	for _, c := range []struct {
		name, hash, step string
		wide             bool
	}{
		{"zone-680", "#scenario=29-losing-a-zone&step=4&lang=en", "Step 5 of 5", true},
		{"oncall-680", "#scenario=28-on-call&step=3&lang=en", "Step 4 of 7", false},
	} {
		p := player.New()
		p.Boot("", c.hash)
		navigateAt(t, tab, srv.host(c.name, blogPage(680, p.EmbedSnippet(srv.URL+"/", player.EmbedWidthMax, player.EmbedHeight))), 1280, 800)
		waitFor(t, tab, frame+` && `+frame+`.document.getElementById("story-step") && `+frame+`.document.getElementById("story-step").textContent === "`+c.step+`"`)
		if got := evalString(tab, wide) == "true"; got != c.wide {
			t.Fatalf("%s: the diagram scrolls sideways: %v, want %v", c.name, got, c.wide)
		}
		if !c.wide {
			if got := evalString(tab, fade); got != "0" {
				t.Errorf("%s: a diagram that fits fades at its right edge (opacity %s)", c.name, got)
			}
			continue
		}
		if got := evalString(tab, fade); got != "1" {
			t.Errorf("%s: a diagram with more to the right does not fade (opacity %s)", c.name, got)
		}
		evalString(tab, `(() => { const s = `+frame+`.document.querySelector(".kd-scroll"); s.scrollLeft = s.scrollWidth; return ""; })()`)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](fade+` < 0.05`, chromedp.WithPollingTimeout(3*time.Second))); err != nil {
			t.Errorf("%s: scrolled to its right end, the diagram still fades (opacity %s)", c.name, evalString(tab, fade))
		}
	}
}

// feedUsable is a check (layoutJS's kind): the event list shows at least
// three events whole.
const feedUsable = `(() => { const l = document.getElementById("feed-list"), r = l.getBoundingClientRect();
	const whole = [...l.children].filter(li => { const q = li.getBoundingClientRect(); return q.top >= r.top - 0.5 && q.bottom <= r.bottom + 0.5; }).length;
	return whole >= 3 ? "" : "the event list is " + Math.round(r.height) + " px tall and shows " + whole + " of its " + l.children.length + " events whole"; })()`

// TestPhoneLayout: on a phone (390×844, touch), the event list has room
// for a few events; every broker of the default three-broker cluster is
// drawn across the screen's width; after Next in a scenario (scenario 8,
// whose producer's card is drawn too), the story (its step counter, its
// text and Next) and the diagram (the brokers and the partition row the
// narration is about) are all on the screen together, and scrolling the page to the events keeps the story there;
// and every target a finger can hit is at least 40 px either way.
func TestPhoneLayout(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	openAt(t, tab, srv.URL+"/#lang=en", 390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)
	waitFor(t, tab, `document.querySelectorAll("#feed-list li").length >= 5`)
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById("feed").scrollIntoView({block: "nearest"}), true`)); err != nil {
		t.Fatal(err)
	}
	if got := evalString(tab, feedUsable); got != "" {
		t.Errorf("the default page on a phone: %s", got)
	}

	openAt(t, tab, srv.URL+"/#scenario=08-leader-election-on-crash&step=1&lang=en", 390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)
	installLayoutJS(t, tab)
	waitText(t, tab, "#story-step", "Step 2 of 5")
	if got := evalString(tab, `String(matchMedia("(pointer: coarse)").matches)`); got != "true" {
		t.Logf("the emulated phone does not report a coarse pointer (%s)", got)
	}
	for id := 1; id <= 3; id++ {
		if got := evalString(tab, `(() => { const r = document.querySelector('.kd-net .kd-card[data-broker="`+strconv.Itoa(id)+`"]').getBoundingClientRect();
			return r.left >= -0.5 && r.right <= innerWidth + 0.5 && r.width > 40 ? "" : "broker `+strconv.Itoa(id)+`'s card is at x " + Math.round(r.left) + ".." + Math.round(r.right) + " of a " + innerWidth + " px screen"; })()`); got != "" {
			t.Error(got)
		}
	}
	shot(t, tab, "phone-390x844.png")

	// The reader scrolls to Next and taps it.
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById("story-next").scrollIntoView({block: "nearest"}), true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("story-next"))); err != nil {
		t.Fatalf("tapping Next: %v", err)
	}
	waitText(t, tab, "#story-step", "Step 3 of 5")
	waitFor(t, tab, `document.getElementById("story-next").getAttribute("aria-disabled") === "false"`)
	checks := []string{`inView(window, "#story-step")`, `textInView(window, "#story-text")`, `inView(window, "#story-next")`, `inView(window, ".kd-prow .kd-pname")`}
	for id := 1; id <= 3; id++ {
		checks = append(checks, `inView(window, '.kd-net .kd-card[data-broker="`+strconv.Itoa(id)+`"]')`)
	}
	if got := layoutProblems(t, tab, checks...); got != "" {
		t.Errorf("after tapping Next the story and the diagram are not both on the screen:\n\t%s", strings.ReplaceAll(got, "\n", "\n\t"))
	}
	shot(t, tab, "phone-390x844-next.png")

	// The reader scrolls down to the events: the story stays.
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById("feed").scrollIntoView({block: "nearest"}), true`)); err != nil {
		t.Fatal(err)
	}
	if got := layoutProblems(t, tab, feedUsable, `inView(window, "#story-step")`, `inView(window, "#story-next")`, `inView(window, "#feed-list li:last-child")`); got != "" {
		t.Errorf("scrolled to the events in a scenario:\n\t%s", strings.ReplaceAll(got, "\n", "\n\t"))
	}
	shot(t, tab, "phone-390x844-events.png")

	if small := evalString(tab, `smallTargets(window, 40)`); small != "" {
		t.Errorf("touch targets smaller than 40 px:\n\t%s", strings.ReplaceAll(small, "\n", "\n\t"))
	}
}

// TestEmbedInSmallFrames pastes the embed snippet (scenario 11 at step 3)
// into frames at and under the sizes the README promises, as a blogger
// sizing it by hand would:
//
//   - 480×450, the smallest promised: the story under the diagram shows at
//     least four lines of its text (it showed one and a half), with Back,
//     Next and the playback controls in view, and every broker's card;
//   - 350 px wide (under what an embed is made for): Play, Step and the
//     speed do not run under the clock, and nothing of the frame's page
//     scrolls sideways;
//   - 720×480: at steps 1 to 3 (step 1 holds a 70-character word,
//     controller.quorum.voters=...), in English and Korean, nothing in the
//     frame scrolls sideways or is cut at its right edge, and the story's
//     text is in view.
func TestEmbedInSmallFrames(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	frame := `document.querySelector("iframe").contentWindow`
	sized := func(lang string, step, w, h int) string {
		p := player.New()
		p.Boot("", fmt.Sprintf("#scenario=11-kraft&step=%d&lang=%s", step, lang))
		s := p.EmbedSnippet(srv.URL+"/", player.EmbedWidthMax, player.EmbedHeight)
		s = regexp.MustCompile(`style="[^"]*"`).ReplaceAllString(s, `style="border:0"`)
		s = regexp.MustCompile(`width="[^"]*"`).ReplaceAllString(s, `width="`+strconv.Itoa(w)+`"`)
		return regexp.MustCompile(`height="\d+"`).ReplaceAllString(s, `height="`+strconv.Itoa(h)+`"`)
	}
	open := func(name, snippet, step string) {
		t.Helper()
		navigateAt(t, tab, srv.host(name, blogPage(960, snippet)), 1280, 800)
		waitFor(t, tab, `(() => { const w = `+frame+`; const s = w && w.document.getElementById("status");
			return !!s && s.dataset.state === "loaded" && !!w.document.getElementById("story-next"); })()`)
		waitFor(t, tab, frame+`.document.getElementById("story-step").textContent === "`+step+`"`)
		installLayoutJS(t, tab)
	}
	// Nothing in the frame scrolls sideways or is drawn past its right
	// edge (text cut there).
	sideways := `(() => { const w = ` + frame + `, d = w.document, out = [];
		for (const e of d.querySelectorAll("body *")) {
			if (e.closest(".sr-only, #status")) continue;
			const r = e.getBoundingClientRect();
			if (r.width === 0 || r.height === 0) continue;
			const st = w.getComputedStyle(e);
			if (st.visibility === "hidden" || st.clipPath.startsWith("inset(50%")) continue;
			if (["auto", "scroll"].includes(st.overflowX) && e.scrollWidth > e.clientWidth + 1) out.push(kdDescribe(e) + " scrolls sideways: " + e.scrollWidth + " px in " + e.clientWidth);
			else if (r.right > w.innerWidth + 0.5) out.push(kdDescribe(e) + " reaches x " + Math.round(r.right) + " of a " + w.innerWidth + " px frame");
		}
		return out.slice(0, 5).join("\n"); })()`

	// 480×450.
	open("embed-480x450", sized("en", 2, 480, 450), "Step 3 of 7")
	checks := []string{
		`(() => { const w = ` + frame + `, t = w.document.getElementById("story-text"), b = t.closest(".story-body");
			const r = t.getBoundingClientRect(), o = b.getBoundingClientRect(), line = parseFloat(w.getComputedStyle(t).lineHeight);
			const shown = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
			return shown >= 4 * line - 1 || r.bottom <= o.bottom + 0.5 ? "" : "the story shows " + (shown / line).toFixed(1) + " lines of its text"; })()`,
		`inView(` + frame + `, "#story-back")`,
		`inView(` + frame + `, "#story-next")`,
		`inView(` + frame + `, "#play")`,
		`inView(` + frame + `, "#scrubber")`,
		`inView(` + frame + `, "#open-full")`,
		`fadeShown(` + frame + `, ".story-body")`,
		`(() => { const d = ` + frame + `.document.scrollingElement; return d.scrollHeight > d.clientHeight + 1 ? "the frame's page scrolls: " + d.scrollHeight + " px in " + d.clientHeight : ""; })()`,
	}
	for id := 1; id <= 3; id++ {
		checks = append(checks, `inView(`+frame+`, '.kd-net .kd-card[data-broker="`+strconv.Itoa(id)+`"]')`)
	}
	if got := layoutProblems(t, tab, checks...); got != "" {
		t.Errorf("480×450: %s", strings.ReplaceAll(got, "\n", "\n\t"))
	}
	shot(t, tab, "embed-480x450.png")

	// 350 px wide, 600 and 450 tall.
	for _, h := range []int{600, 450} {
		open(fmt.Sprintf("embed-350x%d", h), sized("en", 2, 350, h), "Step 3 of 7")
		apart := `(() => { const d = ` + frame + `.document, c = d.querySelector(".timebar-clock").getBoundingClientRect(), out = [];
			for (const id of ["play", "step-event", "speed"]) {
				const r = d.getElementById(id).getBoundingClientRect();
				if (r.width > 0 && r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom)
					out.push("#" + id + " at x " + Math.round(r.left) + ".." + Math.round(r.right) + " runs under the clock at x " + Math.round(c.left) + ".." + Math.round(c.right));
			}
			return out.join("\n"); })()`
		if got := layoutProblems(t, tab, apart, sideways, `inView(`+frame+`, "#time-now")`, `inView(`+frame+`, "#speed")`, `inView(`+frame+`, "#play")`, `inView(`+frame+`, "#story-next")`); got != "" {
			t.Errorf("350×%d: %s", h, strings.ReplaceAll(got, "\n", "\n\t"))
		}
		shot(t, tab, fmt.Sprintf("embed-350x%d.png", h))
	}

	// 720×480, in both languages, at the steps with the longest words.
	for _, lang := range []string{"en", "ko"} {
		for step := 0; step <= 2; step++ {
			want := fmt.Sprintf("Step %d of 7", step+1)
			if lang == "ko" {
				want = fmt.Sprintf("%d / 7 단계", step+1)
			}
			name := fmt.Sprintf("embed-720x480-%s-step%d", lang, step+1)
			open(name, sized(lang, step, 720, 480), want)
			if got := layoutProblems(t, tab, sideways, `textInView(`+frame+`, "#story-text")`, `inView(`+frame+`, "#story-next")`); got != "" {
				t.Errorf("720×480 %s step %d: %s", lang, step+1, strings.ReplaceAll(got, "\n", "\n\t"))
				shot(t, tab, name+".png")
			}
		}
	}
}
