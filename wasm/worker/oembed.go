package main

import (
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"kafkascope/core/player"
	"kafkascope/ui/snapshot"
)

// oembedAnswer is an oEmbed 1.0 response of type rich (oembed.com, 2.3
// and 2.3.4.4): the embed's iframe, its size, and the snapshot as its
// thumbnail.
type oembedAnswer struct {
	Version         string `json:"version"`
	Type            string `json:"type"`
	ProviderName    string `json:"provider_name"`
	ProviderURL     string `json:"provider_url"`
	Title           string `json:"title"`
	HTML            string `json:"html"`
	Width           int    `json:"width"`
	Height          int    `json:"height"`
	ThumbnailURL    string `json:"thumbnail_url"`
	ThumbnailWidth  int    `json:"thumbnail_width"`
	ThumbnailHeight int    `json:"thumbnail_height"`
}

// oembed answers GET /oembed?url=<a share link of this site>&format=json
// [&maxwidth=W][&maxheight=H]: the link is replayed once, for the
// thumbnail's size. As the spec asks: 404 for a link this site does not
// serve, 501 for a format other than json; the frame and the thumbnail
// fit maxwidth and maxheight.
func (s *server) oembed(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r, "oEmbed") {
		return
	}
	q := r.URL.Query()
	if f := q.Get("format"); f != "" && f != "json" {
		httpError(w, http.StatusNotImplemented, "oEmbed is answered in format=json only")
		return
	}
	maxW, okW := dimension(q.Get("maxwidth"), player.EmbedWidthMax)
	maxH, okH := dimension(q.Get("maxheight"), player.EmbedHeight)
	if !okW || !okH {
		httpError(w, http.StatusBadRequest, "maxwidth and maxheight are numbers of pixels")
		return
	}
	link := q.Get("url")
	if link == "" {
		httpError(w, http.StatusBadRequest, "give url=, a share link of this site")
		return
	}
	fields, id, err := s.fieldsOfURL(r, link)
	if failLink(w, err) {
		return
	}
	meta, err := metaOf(fields)
	if failLink(w, err) {
		return
	}
	p, err := replay(fields)
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	// A link that opens the dashboard (?panel=metrics) embeds it, and
	// its thumbnail draws it.
	var opts snapshot.Options
	if u, err := url.Parse(link); err == nil && u.Query().Get("panel") == player.PanelMetrics {
		p.Panel, opts.Dashboard = player.PanelMetrics, true
	}
	_, size, err := s.picture(p, 0, opts)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	site := origin(r)
	thumb := site + "/snapshot.svg?" + fields
	if id != "" {
		thumb = site + "/snapshot.svg?id=" + id
	} else if len(fields) > maxThumbQuery {
		// A session's fields make too long a URL for an <img>: it gets
		// the short link that POST /s would give it (the same id).
		if id, err = s.store(fields); err != nil {
			httpError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		thumb = site + "/snapshot.svg?id=" + id
	}
	if opts.Dashboard {
		thumb += "&panel=" + player.PanelMetrics
	}
	// The thumbnail scales (an SVG with a viewBox) to fit the bounds
	// the consumer gave.
	scale := 1.0
	if q.Get("maxwidth") != "" {
		scale = math.Min(scale, float64(maxW)/size.Width)
	}
	if q.Get("maxheight") != "" {
		scale = math.Min(scale, float64(maxH)/size.Height)
	}
	answer := oembedAnswer{
		Version:         "1.0",
		Type:            "rich",
		ProviderName:    "kafkascope",
		ProviderURL:     site + "/",
		Title:           meta.Title,
		HTML:            p.EmbedSnippet(site+"/", maxW, maxH),
		Width:           maxW,
		Height:          maxH,
		ThumbnailURL:    thumb,
		ThumbnailWidth:  int(math.Floor(size.Width * scale)),
		ThumbnailHeight: int(math.Floor(size.Height * scale)),
	}
	body, err := json.Marshal(answer)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	write(w, r, http.StatusOK, "application/json; charset=utf-8", body)
}

// maxThumbQuery is the longest query a thumbnail's URL carries; past it,
// the thumbnail is a short link's.
const maxThumbQuery = 2000

// dimension reads maxwidth or maxheight: the frame's size is the smaller
// of it and def. ok is false for a value that is not a positive number.
func dimension(v string, def int) (int, bool) {
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, false
	}
	return min(n, def), true
}
