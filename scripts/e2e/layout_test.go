package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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
	return evalString(ctx, `document.activeElement === document.body ? "BODY" : (document.activeElement.id || document.activeElement.tagName + "." + document.activeElement.className)`)
}

// TestKeyboardFocusAndHeading: the page has one h1; choosing a scenario
// from the gallery with the keyboard leaves the focus on the story's Next
// button (not on the body); Tab in an empty terminal input moves the focus
// on (completion keeps Tab only when there is something to complete), and
// the hint line says how to leave the terminal.
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
