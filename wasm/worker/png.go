package main

import (
	"bytes"
	"image"
	"image/png"
	"net/http"

	"kafkascope/ui/snapshot/raster"
)

// The pictures in pixels, for what shows no SVG: chat apps' and social
// sites' link previews (Open Graph's og:image), and image hosts.
const (
	// pngScale is /snapshot.png's pixels per CSS px: sharp on the
	// screens of phones and laptops, which have two or more.
	pngScale = 2
	// The link preview card's size: Open Graph's recommended 1200×630
	// (1.91:1), which Facebook, LinkedIn, X's large card and the chat
	// apps show whole or crop little of.
	cardWidth, cardHeight = 1200, 630
)

// snapshotPNG answers /snapshot.png: /snapshot.svg's picture (the same
// query) drawn in pixels by ui/snapshot/raster, twice its size.
func (s *server) snapshotPNG(w http.ResponseWriter, r *http.Request) {
	svg, ok := s.moment(w, r)
	if !ok {
		return
	}
	img, err := raster.Render(svg, pngScale)
	s.answerPNG(w, r, img, err)
}

// cardPNG answers /card.png: the same picture fitted to a 1200×630 card,
// the image a share link's page names for link previews.
func (s *server) cardPNG(w http.ResponseWriter, r *http.Request) {
	svg, ok := s.moment(w, r)
	if !ok {
		return
	}
	img, err := raster.Card(svg, cardWidth, cardHeight, pngScale)
	s.answerPNG(w, r, img, err)
}

func (s *server) answerPNG(w http.ResponseWriter, r *http.Request, img *image.RGBA, err error) {
	if err != nil {
		// A drawing too large to draw (w= wide and many partitions).
		httpError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	var out bytes.Buffer
	// BestSpeed: a diagram is flat colour, which any level compresses
	// well, and a Worker's CPU time is the scarcer.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, img); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	answerPicture(w, r, "image/png", out.Bytes())
}
