package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"kafkascope/core/player"
	"kafkascope/core/timeline"
	"kafkascope/ui/snapshot"
)

// site is the repository's root: index.html and public/, as the Worker's
// static assets hold them.
const site = "../.."

// testServer is the Worker's handler natively (net/http), with its short
// links and cache in memory.
func testServer() http.Handler {
	return newServer(dirAssets(site), newLinkStore(), newResponseCache())
}

// ask sends the handler one request (to http://example.com).
func ask(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	h.ServeHTTP(rec, httptest.NewRequest(method, path, r))
	return rec
}

// get asks a fresh handler for path.
func get(t *testing.T, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	return ask(testServer(), method, path, "")
}

// sessionLink is a typed session's #part: a topic, a broker down.
func sessionLink() string {
	s := timeline.New()
	s.Do("cluster create", nil)
	s.Do("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3", nil)
	s.Do("broker kill 2", nil)
	s.Do("time advance 20s", nil)
	return "s=" + url.QueryEscape(s.Encode()) + "&lang=en"
}

// The same link gives the picture the page's renderer draws for it
// (ui/snapshot over the player booted on the link and run for the
// frames the page runs): for a scenario step and for a typed session
// that ends in a "time advance" (which the page runs to its end); and
// with w=, as a panel that wide lays it out; with panel=metrics, the
// dashboard under the diagram.
func TestSnapshotAnswersTheLinksPicture(t *testing.T) {
	for _, c := range []struct {
		query string
		width float64
		opts  snapshot.Options
	}{{"scenario=04-isr&step=3&lang=ko", 0, snapshot.Options{}}, {sessionLink(), 0, snapshot.Options{}}, {"w=390&scenario=04-isr&step=3&lang=ko", 390, snapshot.Options{}},
		{"panel=metrics&scenario=28-on-call&step=3&lang=en", 0, snapshot.Options{Dashboard: true}}} {
		query := c.query
		rec := get(t, http.MethodGet, "/snapshot.svg?"+query)
		if rec.Code != http.StatusOK {
			t.Fatalf("%.60s: %d %s", query, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "image/svg+xml; charset=utf-8" {
			t.Errorf("%.60s: Content-Type %q", query, ct)
		}
		// The page: booted on the link, then its frames (a second of
		// them, paused, as a link opens).
		p := player.New()
		p.Boot("", "#"+strings.TrimPrefix(strings.TrimPrefix(query, "w=390&"), "panel=metrics&"))
		for range 60 {
			p.Tick(16 * time.Millisecond)
		}
		if p.Error != "" {
			t.Fatal(p.Error)
		}
		style, err := (&server{assets: dirAssets(site)}).style()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if _, err := snapshot.SVG(&want, p, style, c.width, c.opts); err != nil {
			t.Fatal(err)
		}
		if rec.Body.String() != want.String() {
			t.Errorf("%.60s: the Worker's picture differs from the page renderer's for the same link", query)
		}
		if !strings.Contains(rec.Body.String(), `class="kd-card`) {
			t.Errorf("%.60s: no broker card in the picture", query)
		}
		if got := strings.Contains(rec.Body.String(), `id="sd-urp"`); got != c.opts.Dashboard {
			t.Errorf("%.60s: dashboard drawn %v", query, got)
		}
	}
}

// Bad requests get a status and a one-line reason, never a picture of
// something else.
func TestSnapshotRefusesBadLinks(t *testing.T) {
	cases := []struct {
		method, path string
		status       int
		says         string
	}{
		{http.MethodGet, "/snapshot.svg", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodGet, "/snapshot.svg?lang=ko", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodGet, "/snapshot.svg?scenario=no-such-scenario&step=1", http.StatusBadRequest, "no-such-scenario"},
		{http.MethodGet, "/snapshot.svg?s=not-a-session", http.StatusBadRequest, "session"},
		{http.MethodGet, "/snapshot.svg?s=" + strings.Repeat("a", player.MaxHashBytes), http.StatusRequestURITooLong, "longer than"},
		{http.MethodPost, "/snapshot.svg?scenario=04-isr&step=3", http.StatusMethodNotAllowed, "GET"},
		{http.MethodGet, "/snapshot.svg?id=AAAAAAAAAAAA", http.StatusNotFound, "no such short link"},
		{http.MethodGet, "/snapshot.svg?scenario=04-isr&w=100", http.StatusBadRequest, "w= is a width in CSS px from 240 to 1920"},
		{http.MethodGet, "/snapshot.svg?scenario=04-isr&w=400&w=500", http.StatusBadRequest, "given once"},
		{http.MethodGet, "/snapshot.svg?w=400", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodGet, "/snapshot.svg?scenario=04-isr&panel=disk", http.StatusBadRequest, "panel= is metrics"},
		{http.MethodGet, "/snapshot.svg?scenario=04-isr&panel=metrics&panel=metrics", http.StatusBadRequest, "given once"},
		{http.MethodGet, "/snapshot.svg?panel=metrics", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodGet, "/snapshot.svg?id=../etc", http.StatusNotFound, "not a short link's id"},
		{http.MethodGet, "/snapshot.svg?id=AAAAAAAAAAAA&scenario=04-isr", http.StatusBadRequest, "id= comes alone"},
	}
	for _, c := range cases {
		rec := get(t, c.method, c.path)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.says) || !strings.HasPrefix(rec.Body.String(), "kafkascope: ") {
			t.Errorf("%s %.70s: %d %q, want %d saying %q", c.method, c.path, rec.Code, rec.Body.String(), c.status, c.says)
		}
	}
	// A reason that quotes the request is clipped.
	if rec := get(t, http.MethodGet, "/snapshot.svg?scenario="+strings.Repeat("x", 5000)); rec.Code != http.StatusBadRequest || rec.Body.Len() > 2*maxErrorText {
		t.Errorf("a long bad link: %d with %d bytes", rec.Code, rec.Body.Len())
	}
	if rec := get(t, http.MethodHead, "/snapshot.svg?scenario=04-isr&step=3"); rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes, want 200 and no body", rec.Code, rec.Body.Len())
	}
}
