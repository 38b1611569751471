package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"kafkascope/core/player"
	"kafkascope/core/urlquery"
	"kafkascope/ui/snapshot"
)

// snapshot answers /snapshot.svg: the query holds a share link's #part
// (the same fields, the same limits: player.ParseURL), or id=ID, a short
// link's; the link is replayed to its moment, deterministically, and
// drawn.
func (s *server) snapshot(w http.ResponseWriter, r *http.Request) {
	svg, _, ok := s.moment(w, r)
	if !ok {
		return
	}
	answerPicture(w, r, "image/svg+xml; charset=utf-8", svg)
}

// moment is the SVG of the moment a snapshot's query names (package
// ui/snapshot), laid out for its w=, and its size; ok is false when it
// answered an error instead.
func (s *server) moment(w http.ResponseWriter, r *http.Request) (svg []byte, size snapshot.Size, ok bool) {
	var opts snapshot.Options
	if !readOnly(w, r, "a snapshot") {
		return nil, size, false
	}
	query, width, err := panelWidth(r.URL.RawQuery)
	if err == nil {
		query, opts, err = drawingOptions(query)
	}
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return nil, size, false
	}
	fields, status, err := s.queryFields(query)
	if err != nil {
		httpError(w, status, err.Error())
		return nil, size, false
	}
	p, err := replay(fields)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return nil, size, false
	}
	svg, size, err = s.picture(p, width, opts)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return nil, size, false
	}
	return svg, size, true
}

// answerPicture answers a snapshot. The same link always draws the same
// picture; a new deployment may draw it differently.
func answerPicture(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	write(w, r, http.StatusOK, contentType, body)
}

// The widths w= may ask for: a phone's to a wide screen's.
const (
	minPanelWidth = 240
	maxPanelWidth = 1920
)

// panelWidth takes w=N (the panel's width in CSS px, laid out as the page
// lays out a panel that wide: ui/snapshot.SVG) out of a snapshot's query,
// and answers the rest: the link's fields. Without w=, the width is 0:
// the page's default layout.
func panelWidth(query string) (string, float64, error) {
	if !strings.HasPrefix(query, "w=") && !strings.Contains(query, "&w=") {
		return query, 0, nil
	}
	var rest []string
	width := -1
	for _, part := range strings.Split(query, "&") {
		v, ok := strings.CutPrefix(part, "w=")
		if !ok {
			rest = append(rest, part)
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < minPanelWidth || n > maxPanelWidth || width >= 0 {
			return "", 0, fmt.Errorf("w= is a width in CSS px from %d to %d, given once", minPanelWidth, maxPanelWidth)
		}
		width = n
	}
	return strings.Join(rest, "&"), float64(width), nil
}

// drawingOptions takes panel=metrics (the page's query part that opens
// the on-call dashboard) out of a snapshot's query: the picture then has
// the dashboard under the diagram. Any other panel is refused, as is a
// second one.
func drawingOptions(query string) (string, snapshot.Options, error) {
	var opts snapshot.Options
	if !strings.HasPrefix(query, "panel=") && !strings.Contains(query, "&panel=") {
		return query, opts, nil
	}
	var rest []string
	for _, part := range strings.Split(query, "&") {
		v, ok := strings.CutPrefix(part, "panel=")
		if !ok {
			rest = append(rest, part)
			continue
		}
		if v != player.PanelMetrics || opts.Dashboard {
			return "", opts, fmt.Errorf("panel= is %s (the on-call dashboard under the diagram), given once", player.PanelMetrics)
		}
		opts.Dashboard = true
	}
	return strings.Join(rest, "&"), opts, nil
}

// queryFields reads a share link's #part from a query: the fields
// themselves, or id=ID for a short link.
func (s *server) queryFields(query string) (fields string, status int, err error) {
	if len(query) > player.MaxHashBytes {
		return "", http.StatusRequestURITooLong, fmt.Errorf("the link is longer than %d characters", player.MaxHashBytes)
	}
	q, err := urlquery.Parse(query)
	if err != nil {
		return "", http.StatusBadRequest, fmt.Errorf("%w: its fields are malformed", player.ErrBadLink)
	}
	if id := q.Get("id"); id != "" {
		if len(q) > 1 {
			return "", http.StatusBadRequest, fmt.Errorf("%w: id= comes alone", player.ErrBadLink)
		}
		fields, err := s.resolve(id)
		switch {
		case errors.Is(err, errNoLink):
			return "", http.StatusNotFound, err
		case err != nil:
			return "", http.StatusServiceUnavailable, err
		}
		return fields, 0, nil
	}
	if err := checkFields(query); err != nil {
		return "", http.StatusBadRequest, err
	}
	return query, 0, nil
}

// maxSettleFrames bounds the frames a replay runs after opening a link
// (player.Settle): a month's "time advance" typed last needs some
// thousands.
const maxSettleFrames = 100000

// replay opens a share link's #part as the page does (player.Boot): its
// scenario played to the step, or its session replayed to its moment;
// then the frames the page runs until its picture rests (a "time
// advance" typed last runs to its end).
func replay(fields string) (*player.Player, error) {
	p := player.New()
	p.Boot("", "#"+fields)
	if p.Error == "" {
		p.Settle(maxSettleFrames)
	}
	if p.Error != "" {
		return nil, errors.New(p.Error)
	}
	return p, nil
}

// picture draws p's moment as the page's diagram (ui/snapshot), with the
// page's own CSS, laid out for a panel panelWidth px wide (0: the page's
// default layout).
func (s *server) picture(p *player.Player, panelWidth float64, opts snapshot.Options) ([]byte, snapshot.Size, error) {
	style, err := s.style()
	if err != nil {
		return nil, snapshot.Size{}, fmt.Errorf("the page's styles: %w", err)
	}
	var out bytes.Buffer
	size, err := snapshot.SVG(&out, p, style, panelWidth, opts)
	return out.Bytes(), size, err
}

// style is the CSS a snapshot carries, from the page's own files.
func (s *server) style() (string, error) {
	page, err := s.assets("public/style.css")
	if err != nil {
		return "", err
	}
	diagram, err := s.assets("public/diagram.css")
	if err != nil {
		return "", err
	}
	return snapshot.Style(string(page), string(diagram)), nil
}
