package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kafkascope/core/player"
)

// shorten posts a link and answers the short link.
func shorten(t *testing.T, h http.Handler, link string) string {
	t.Helper()
	rec := ask(h, http.MethodPost, "/s", link)
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST /s %.60q: %d %s", link, rec.Code, rec.Body)
	}
	short := strings.TrimSpace(rec.Body.String())
	if rec.Header().Get("Location") != short || !regexp.MustCompile(`^http://example\.com/s/[A-Za-z0-9_-]{12}$`).MatchString(short) {
		t.Fatalf("POST /s answered %q, Location %q", short, rec.Header().Get("Location"))
	}
	return short
}

// metaContent reads a <meta property|name="key" content="..."> of a page.
func metaContent(page, key string) string {
	m := regexp.MustCompile(`<meta (?:property|name)="` + regexp.QuoteMeta(key) + `" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return htmlUnescape(m[1])
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

// A short link stands for its link: the same link gives the same id, the
// page at /s/ID describes it for previews and moves to it, its picture is
// the link's, and its oEmbed the link's.
func TestShortLinkRoundTrip(t *testing.T) {
	h := testServer()
	const fields = "lang=ko&scenario=04-isr&step=3"
	short := shorten(t, h, "https://kafkascope.example/#"+fields)
	if again := shorten(t, h, "#"+fields); again != short {
		t.Errorf("the same link got two short links: %s and %s", short, again)
	}
	if other := shorten(t, h, "#lang=ko&scenario=04-isr&step=2"); other == short {
		t.Errorf("two links got one short link %s", short)
	}
	id := strings.TrimPrefix(short, "http://example.com/s/")

	rec := ask(h, http.MethodGet, "/s/"+id, "")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /s/ID: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	page := rec.Body.String()
	index, err := os.ReadFile(site + "/index.html")
	if err != nil {
		t.Fatal(err)
	}
	// The app's page, its body untouched.
	body := string(index[strings.Index(string(index), "</head>"):])
	if !strings.HasSuffix(page, body) {
		t.Errorf("the page's body differs from index.html's")
	}
	want := map[string]string{
		"og:title":        "ISR: 뒤처진 팔로워는 빠졌다가 다시 돌아온다 (4/",
		"og:description":  "",
		"og:url":          short,
		"og:image":        "http://example.com/card.png?id=" + id,
		"og:image:type":   "image/png",
		"og:image:width":  "1200",
		"og:image:height": "630",
		"og:locale":       "ko_KR",
		"twitter:card":    "summary_large_image",
		"twitter:image":   "http://example.com/card.png?id=" + id,
		"description":     "",
	}
	for key, prefix := range want {
		if got := metaContent(page, key); got == "" || !strings.HasPrefix(got, prefix) {
			t.Errorf("%s = %q, want it to start with %q", key, got, prefix)
		}
	}
	if d := metaContent(page, "og:description"); !strings.ContainsAny(d, "가나다라마바사아자차카타파하") || d != metaContent(page, "description") {
		t.Errorf("the description %q is not the step's Korean narration, or differs from the page's description", d)
	}
	if !strings.Contains(page, `<html lang="ko">`) {
		t.Errorf("the Korean link's page is not marked Korean")
	}
	if strings.Count(page, `<meta name="description"`) != 1 || strings.Count(page, "<title>") != 1 {
		t.Errorf("the page has not exactly one title and one description")
	}
	for _, part := range []string{
		`<base href="/">`,
		`<script>history.replaceState(null,"","/#` + strings.ReplaceAll(fields, "&", `\u0026`) + `")</script>`,
		`<link rel="alternate" type="application/json+oembed" href="http://example.com/oembed?format=json&amp;url=http%3A%2F%2Fexample.com%2Fs%2F` + id + `"`,
	} {
		if !strings.Contains(page, part) {
			t.Errorf("the page lacks %s", part)
		}
	}
	// The tags come before the page's own files are named.
	if strings.Index(page, "<base") > strings.Index(page, `href="public/`) {
		t.Errorf("<base> comes after the first relative link")
	}

	// Its picture is the link's.
	byID := ask(h, http.MethodGet, "/snapshot.svg?id="+id, "")
	byFields := ask(h, http.MethodGet, "/snapshot.svg?"+fields, "")
	if byID.Code != http.StatusOK || byID.Body.String() != byFields.Body.String() {
		t.Errorf("the short link's picture (%d) is not the link's", byID.Code)
	}

	for _, c := range []struct {
		method, path, body string
		status             int
		says               string
	}{
		{http.MethodGet, "/s/AAAAAAAAAAAA", "", http.StatusNotFound, "no such short link: /s/AAAAAAAAAAAA"},
		{http.MethodGet, "/nowhere", "", http.StatusNotFound, "no such page: /nowhere"},
		{http.MethodGet, "/s/a/b", "", http.StatusNotFound, "not a short link's id"},
		{http.MethodPost, "/s/" + id, "", http.StatusMethodNotAllowed, "GET"},
		{http.MethodGet, "/s", "", http.StatusMethodNotAllowed, "POST /s"},
		{http.MethodPost, "/s", "", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodPost, "/s", "https://x.example/#lang=en", http.StatusBadRequest, "give a share link's fields"},
		{http.MethodPost, "/s", "#scenario=no-such&step=1", http.StatusBadRequest, `no scenario "no-such"`},
		{http.MethodPost, "/s", "#s=not-a-session", http.StatusBadRequest, "session"},
		{http.MethodPost, "/s", "#" + strings.Repeat("a", maxLinkBody), http.StatusRequestEntityTooLarge, "longer than"},
		{http.MethodPost, "/s", "#s=" + strings.Repeat("a", player.MaxHashBytes), http.StatusBadRequest, "longer than"},
	} {
		rec := ask(h, c.method, c.path, c.body)
		if rec.Code != c.status || !strings.HasPrefix(rec.Body.String(), "kafkascope: ") || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s %s %.40q: %d %q, want %d saying %q", c.method, c.path, c.body, rec.Code, rec.Body, c.status, c.says)
		}
	}
}

// A scenario link that names a step past the last one describes the last
// one (one before the first, the first), as the player shows it; a
// session's preview names its commands.
func TestLinkMeta(t *testing.T) {
	m, err := metaOf("scenario=04-isr&step=999")
	if err != nil || !strings.HasPrefix(m.Title, "The ISR: followers that fall behind leave, and come back (") || m.Lang != "en" {
		t.Fatalf("%+v, %v", m, err)
	}
	n := strings.TrimSuffix(strings.SplitN(m.Title, "(", 2)[1], ") · kafkascope")
	if parts := strings.Split(n, "/"); len(parts) != 2 || parts[0] != parts[1] {
		t.Errorf("the title %q does not name the last step", m.Title)
	}
	// One before the first describes the first, as the player opens it.
	m, err = metaOf("scenario=04-isr&step=-1")
	if err != nil || !strings.Contains(m.Title, " (1/") || m.Description == "" {
		t.Errorf("step=-1: %+v, %v", m, err)
	}
	m, err = metaOf(sessionLink())
	if err != nil || m.Description != "4 commands: cluster create · kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3 · broker kill 2 · time advance 20s" {
		t.Errorf("session: %+v, %v", m, err)
	}
	long := clip(strings.Repeat("word ", 100), 40)
	if len([]rune(long)) > 40 || !strings.HasSuffix(long, "word…") {
		t.Errorf("clip: %q", long)
	}
	if ko := clip(strings.Repeat("가", 50), 10); ko != strings.Repeat("가", 9)+"…" {
		t.Errorf("clip of text without spaces: %q", ko)
	}
}

// oEmbed answers a rich embed for a share link of the site, short or
// full, sized to the consumer's bounds.
func TestOEmbed(t *testing.T) {
	h := testServer()
	short := shorten(t, h, "#lang=en&scenario=04-isr&step=3")
	for _, link := range []string{short, "http://example.com/#lang=en&scenario=04-isr&step=3"} {
		rec := ask(h, http.MethodGet, "/oembed?format=json&url="+url.QueryEscape(link), "")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("%s: %d %s", link, rec.Code, rec.Body)
		}
		var a oembedAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		p, err := replay("lang=en&scenario=04-isr&step=3")
		if err != nil {
			t.Fatal(err)
		}
		if a.Version != "1.0" || a.Type != "rich" || a.ProviderName != "kafkascope" || a.ProviderURL != "http://example.com/" ||
			a.Width != player.EmbedWidthMax || a.Height != player.EmbedHeight || a.HTML != p.EmbedSnippet("http://example.com/", player.EmbedWidthMax, player.EmbedHeight) ||
			!strings.HasPrefix(a.Title, "The ISR") {
			t.Errorf("%s: %+v", link, a)
		}
		thumb, err := url.Parse(a.ThumbnailURL)
		if err != nil || thumb.Path != "/snapshot.svg" {
			t.Fatalf("thumbnail %q", a.ThumbnailURL)
		}
		pic := ask(h, http.MethodGet, thumb.RequestURI(), "")
		if pic.Code != http.StatusOK || !strings.Contains(pic.Body.String(), `width="`+strconv.Itoa(a.ThumbnailWidth)+`" height="`+strconv.Itoa(a.ThumbnailHeight)+`"`) {
			t.Errorf("%s: the thumbnail %s answers %d, not %d wide", link, a.ThumbnailURL, pic.Code, a.ThumbnailWidth)
		}
	}

	// A link that opens the dashboard (?panel=metrics) embeds it, and its
	// thumbnail draws it.
	rec := ask(h, http.MethodGet, "/oembed?url="+url.QueryEscape("http://example.com/?panel=metrics#lang=en&scenario=28-on-call&step=3"), "")
	var dash oembedAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &dash); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("dashboard link: %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(dash.HTML, "?embed=1&amp;panel=metrics#") || !strings.HasSuffix(dash.ThumbnailURL, "&panel=metrics") {
		t.Errorf("dashboard link: %+v", dash)
	}
	if thumb, err := url.Parse(dash.ThumbnailURL); err != nil || !strings.Contains(ask(h, http.MethodGet, thumb.RequestURI(), "").Body.String(), `id="sd-urp"`) {
		t.Errorf("dashboard link: the thumbnail %s has no dashboard", dash.ThumbnailURL)
	}

	// Bounds: the frame and the thumbnail fit them.
	rec = ask(h, http.MethodGet, "/oembed?url="+url.QueryEscape(short)+"&maxwidth=500&maxheight=400", "")
	var a oembedAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if a.Width != 500 || a.Height != 400 || a.ThumbnailWidth > 500 || a.ThumbnailHeight > 400 || a.ThumbnailWidth < 100 ||
		!strings.Contains(a.HTML, "max-width:500px;height:400px") || !strings.Contains(a.HTML, `height="400"`) {
		t.Errorf("bounded: %+v", a)
	}

	// A long session's thumbnail is its short link's picture.
	rec = ask(h, http.MethodGet, "/oembed?url="+url.QueryEscape("http://example.com/#"+sessionLink()), "")
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("session: %d %s", rec.Code, rec.Body)
	}
	if len(sessionLink()) > maxThumbQuery && !strings.Contains(a.ThumbnailURL, "?id=") || len(a.ThumbnailURL) > maxThumbQuery+100 {
		t.Errorf("session thumbnail %.120s", a.ThumbnailURL)
	}

	for _, c := range []struct {
		query  string
		status int
		says   string
	}{
		{"url=" + url.QueryEscape(short) + "&format=xml", http.StatusNotImplemented, "format=json"},
		{"url=" + url.QueryEscape("https://elsewhere.example/s/"+strings.TrimPrefix(short, "http://example.com/s/")), http.StatusNotFound, "not a kafkascope link of this site (example.com): it is on elsewhere.example"},
		{"url=" + url.QueryEscape("http://example.com/s/AAAAAAAAAAAA"), http.StatusNotFound, "no such short link"},
		{"url=" + url.QueryEscape("http://example.com/#scenario=nope&step=1"), http.StatusNotFound, "nope"},
		{"url=" + url.QueryEscape("http://example.com/docs"), http.StatusNotFound, "not a share link"},
		{"url=" + url.QueryEscape("not a url"), http.StatusNotFound, "is not a web address"},
		{"", http.StatusBadRequest, "give url="},
		{"url=" + url.QueryEscape(short) + "&maxwidth=wide", http.StatusBadRequest, "maxwidth"},
	} {
		rec := ask(h, http.MethodGet, "/oembed?"+c.query, "")
		if rec.Code != c.status || !strings.HasPrefix(rec.Body.String(), "kafkascope: ") || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s: %d %q, want %d saying %q", c.query, rec.Code, rec.Body, c.status, c.says)
		}
	}
}

// A picture is drawn once: the same URL again is the cache's copy, for GET
// and HEAD; a failure is not kept.
func TestAnswersAreCached(t *testing.T) {
	h := testServer()
	first := ask(h, http.MethodGet, "/snapshot.svg?scenario=04-isr&step=3&lang=ko", "")
	second := ask(h, http.MethodGet, "/snapshot.svg?scenario=04-isr&step=3&lang=ko", "")
	head := ask(h, http.MethodHead, "/snapshot.svg?scenario=04-isr&step=3&lang=ko", "")
	if first.Header().Get(cacheHeader) != "miss" || second.Header().Get(cacheHeader) != "hit" || head.Header().Get(cacheHeader) != "hit" {
		t.Errorf("cache: %q then %q then HEAD %q", first.Header().Get(cacheHeader), second.Header().Get(cacheHeader), head.Header().Get(cacheHeader))
	}
	if second.Body.String() != first.Body.String() || second.Header().Get("Content-Type") != first.Header().Get("Content-Type") || head.Body.Len() != 0 {
		t.Errorf("the cached answer differs from the first")
	}
	for range 2 {
		if bad := ask(h, http.MethodGet, "/snapshot.svg?scenario=nope&step=1", ""); bad.Code != http.StatusBadRequest || bad.Header().Get(cacheHeader) != "miss" {
			t.Errorf("a bad link: %d %q", bad.Code, bad.Header().Get(cacheHeader))
		}
	}
}
