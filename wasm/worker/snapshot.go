package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"kafkascope/core/player"
	"kafkascope/core/urlquery"
	"kafkascope/ui/snapshot"
)

// snapshot answers /snapshot.svg: the query holds a share link's #part
// (the same fields, the same limits: player.ParseURL), or id=ID, a short
// link's; the link is replayed to its moment, deterministically, and
// drawn.
func (s *server) snapshot(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r, "a snapshot") {
		return
	}
	fields, status, err := s.queryFields(r.URL.RawQuery)
	if err != nil {
		httpError(w, status, err.Error())
		return
	}
	p, err := replay(fields)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	svg, _, err := s.picture(p)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	// The same link always draws the same picture; a new deployment may
	// draw it differently.
	w.Header().Set("Cache-Control", "public, max-age=3600")
	write(w, r, http.StatusOK, "image/svg+xml; charset=utf-8", svg)
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
// page's own CSS.
func (s *server) picture(p *player.Player) ([]byte, snapshot.Size, error) {
	style, err := s.style()
	if err != nil {
		return nil, snapshot.Size{}, fmt.Errorf("the page's styles: %w", err)
	}
	var out bytes.Buffer
	size, err := snapshot.SVG(&out, p, style)
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
