package main

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"net/http"

	"kafkascope/ui/snapshot"
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
// query) drawn in pixels by ui/snapshot/raster, twice its size (at most
// raster.MaxPixels in all).
func (s *server) snapshotPNG(w http.ResponseWriter, r *http.Request) {
	svg, size, ok := s.moment(w, r)
	if !ok {
		return
	}
	img, err := raster.Render(svg, pngScaleFor(size))
	s.answerPNG(w, r, img, err)
}

// cardPNG answers /card.png: the same picture fitted to a 1200×630 card,
// the image a share link's page names for link previews.
func (s *server) cardPNG(w http.ResponseWriter, r *http.Request) {
	svg, _, ok := s.moment(w, r)
	if !ok {
		return
	}
	img, err := raster.Card(svg, cardWidth, cardHeight, pngScale)
	s.answerPNG(w, r, img, err)
}

func (s *server) answerPNG(w http.ResponseWriter, r *http.Request, img *image.RGBA, err error) {
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
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

// pngScaleFor is /snapshot.png's scale for a picture of size: pngScale,
// or less for a picture that would have more than raster.MaxPixels (a
// session's many partitions laid out w=1920 wide), so that it fits them.
func pngScaleFor(size snapshot.Size) float64 {
	scale := min(pngScale, math.Sqrt(raster.MaxPixels/(size.Width*size.Height)))
	// The picture's pixels are its size times the scale, rounded up.
	for math.Ceil(size.Width*scale)*math.Ceil(size.Height*scale) > raster.MaxPixels {
		scale *= 0.999
	}
	return scale
}
