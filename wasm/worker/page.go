package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// sharePage answers GET /s/ID: the app's page, whose head describes the
// link for previews and embeds (Open Graph and Twitter tags, oEmbed
// discovery: chat apps, Medium, WordPress and Notion read them from the
// HTML without running it), and which moves to the full link before the
// app starts. The redirect happens in the page, not as an HTTP 302: a
// redirect's target carries the link in its #part, which no crawler sends
// back, so a crawler that followed it would describe the bare app.
func (s *server) sharePage(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r, "a short link") {
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/s/")
	fields, err := s.resolve(id)
	if failLink(w, err) {
		return
	}
	meta, err := metaOf(fields)
	if failLink(w, err) {
		return
	}
	index, err := s.assets("index.html")
	if err != nil {
		httpError(w, http.StatusInternalServerError, "the app's page: "+err.Error())
		return
	}
	page, err := previewPage(index, origin(r), id, fields, meta)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	// The page names the build's files: it lives as long as the site's
	// index.html does.
	w.Header().Set("Cache-Control", "public, max-age=300")
	write(w, r, http.StatusOK, "text/html; charset=utf-8", page)
}

// previewPage is index.html with the link's head: its <title> replaced by
// the link's title and the tags after it, and the page's description
// replaced by the link's.
func previewPage(index []byte, site, id, fields string, m linkMeta) ([]byte, error) {
	const titleTag = "<title>kafkascope</title>"
	const descStart = `<meta name="description" content="`
	page := string(index)
	t := strings.Index(page, titleTag)
	d := strings.Index(page, descStart)
	if t < 0 || d < t {
		return nil, fmt.Errorf("the app's page has no %s followed by its description", titleTag)
	}
	dEnd := strings.Index(page[d+len(descStart):], `"`)
	if dEnd < 0 {
		return nil, fmt.Errorf("the app's page's description is not closed")
	}
	dEnd += d + len(descStart) + 1
	if !strings.HasPrefix(page[dEnd:], ">") {
		return nil, fmt.Errorf("the app's page's description has more attributes than content")
	}
	dEnd++

	short := site + "/s/" + id
	image := site + "/card.png?id=" + id
	oembed := site + "/oembed?" + url.Values{"url": {short}, "format": {"json"}}.Encode()
	full, err := json.Marshal("/#" + fields) // escapes <, > and & too
	if err != nil {
		return nil, err
	}
	a := html.EscapeString
	var head bytes.Buffer
	fmt.Fprintf(&head, `<title>%s</title>`, a(m.Title))
	// The page's files are named from the site's root, not from /s/.
	head.WriteString(`<base href="/">`)
	fmt.Fprintf(&head, `<script>history.replaceState(null,"",%s)</script>`, full)
	fmt.Fprintf(&head, `<link rel="canonical" href="%s">`, a(short))
	fmt.Fprintf(&head, `<link rel="alternate" type="application/json+oembed" href="%s" title="%s">`, a(oembed), a(m.Title))
	for _, p := range [][2]string{
		{"og:type", "website"}, {"og:site_name", "kafkascope"}, {"og:title", m.Title}, {"og:description", m.Description},
		{"og:url", short}, {"og:image", image}, {"og:image:type", "image/png"},
		{"og:image:width", strconv.Itoa(cardWidth)}, {"og:image:height", strconv.Itoa(cardHeight)},
		{"og:image:alt", m.Title}, {"og:locale", locale(m)},
	} {
		fmt.Fprintf(&head, `<meta property="%s" content="%s">`, p[0], a(p[1]))
	}
	for _, p := range [][2]string{
		// The card is a PNG (/card.png): X and the chat apps show no SVG.
		{"twitter:card", "summary_large_image"}, {"twitter:title", m.Title}, {"twitter:description", m.Description},
		{"twitter:image", image}, {"twitter:image:alt", m.Title},
	} {
		fmt.Fprintf(&head, `<meta name="%s" content="%s">`, p[0], a(p[1]))
	}
	desc := fmt.Sprintf(`<meta name="description" content="%s">`, a(m.Description))
	out := page[:t] + head.String() + page[t+len(titleTag):d] + desc + page[dEnd:]
	// The document's language is the link's (the app sets it once it
	// runs; a crawler reads it here).
	return []byte(strings.Replace(out, `<html lang="en">`, `<html lang="`+string(m.Lang)+`">`, 1)), nil
}

func locale(m linkMeta) string {
	if m.Lang == "ko" {
		return "ko_KR"
	}
	return "en_US"
}
