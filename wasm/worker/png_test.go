package main

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"net/http"
	"testing"

	"kafkascope/ui/snapshot"
	"kafkascope/ui/snapshot/raster"
)

// decodePNG reads an answer's PNG.
func decodePNG(t *testing.T, what string, body []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", what, err)
	}
	return img
}

// /snapshot.png is /snapshot.svg's picture for the same query, drawn in
// pixels at twice its size; for a scenario step, a session and w=.
func TestSnapshotPNGIsTheSVGsPicture(t *testing.T) {
	h := testServer()
	for _, query := range []string{"scenario=04-isr&step=3&lang=ko", sessionLink(), "scenario=08-leader-election-on-crash&step=4&w=390"} {
		svg := ask(h, http.MethodGet, "/snapshot.svg?"+query, "")
		rec := ask(h, http.MethodGet, "/snapshot.png?"+query, "")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" || svg.Code != http.StatusOK {
			t.Fatalf("%.50s: %d %q (svg %d)", query, rec.Code, rec.Header().Get("Content-Type"), svg.Code)
		}
		got := decodePNG(t, query, rec.Body.Bytes())
		want, err := raster.Render(svg.Body.Bytes(), pngScale)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%.50s: %v, want %v", query, got.Bounds(), want.Bounds())
		}
		for y := 0; y < want.Bounds().Dy(); y++ {
			for x := 0; x < want.Bounds().Dx(); x++ {
				if r, g, b, a := got.At(x, y).RGBA(); [4]uint32{r, g, b, a} != rgba(want.At(x, y)) {
					t.Fatalf("%.50s: pixel (%d,%d) differs from the SVG's drawing", query, x, y)
				}
			}
		}
	}
}

func rgba(c interface{ RGBA() (r, g, b, a uint32) }) [4]uint32 {
	r, g, b, a := c.RGBA()
	return [4]uint32{r, g, b, a}
}

// /card.png is the picture fitted whole into Open Graph's 1200×630,
// centred on the diagram's background, as large as fits at most twice
// its size.
func TestCardFitsThePictureWhole(t *testing.T) {
	h := testServer()
	for _, query := range []string{"scenario=04-isr&step=3&lang=en", "scenario=15-log-compaction&step=5&lang=ko"} {
		svg := ask(h, http.MethodGet, "/snapshot.svg?"+query, "")
		rec := ask(h, http.MethodGet, "/card.png?"+query, "")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %q", query, rec.Code, rec.Header().Get("Content-Type"))
		}
		card := decodePNG(t, query, rec.Body.Bytes())
		if card.Bounds() != image.Rect(0, 0, cardWidth, cardHeight) {
			t.Fatalf("%s: a %v card", query, card.Bounds())
		}
		pic, err := raster.Render(svg.Body.Bytes(), 1)
		if err != nil {
			t.Fatal(err)
		}
		// The background is the diagram's panel all round; the drawing
		// (what differs from it) is centred and touches the margin on
		// two opposite sides, or is drawn at twice its size.
		bg := rgba(pic.At(0, 0))
		lo, hi := image.Pt(cardWidth, cardHeight), image.Pt(-1, -1)
		for y := 0; y < cardHeight; y++ {
			for x := 0; x < cardWidth; x++ {
				if rgba(card.At(x, y)) != bg {
					lo = image.Pt(min(lo.X, x), min(lo.Y, y))
					hi = image.Pt(max(hi.X, x), max(hi.Y, y))
				}
			}
		}
		if hi.X < 0 {
			t.Fatalf("%s: the card is blank", query)
		}
		margin := int(math.Round(cardHeight * 0.04))
		if lo.X < margin-1 || lo.Y < margin-1 || hi.X > cardWidth-margin || hi.Y > cardHeight-margin {
			t.Errorf("%s: the drawing spans %v-%v, into the %d px margin", query, lo, hi, margin)
		}
		w, hgt := float64(pic.Bounds().Dx()), float64(pic.Bounds().Dy())
		scale := min(2, (cardWidth-2*float64(margin))/w, (cardHeight-2*float64(margin))/hgt)
		if drawn := float64(hi.X - lo.X + 1); drawn > w*scale+2 || drawn < w*scale*0.8 {
			t.Errorf("%s: the drawing is %g px wide, want about %g (the picture at scale %.2f)", query, drawn, w*scale, scale)
		}
	}
}

// The pictures in pixels refuse what /snapshot.svg refuses, with the
// same reasons.
func TestPNGsRefuseBadLinks(t *testing.T) {
	for _, path := range []string{"/snapshot.png", "/card.png"} {
		for _, c := range []struct {
			query  string
			status int
		}{{"", http.StatusBadRequest}, {"?scenario=no-such-scenario&step=1", http.StatusBadRequest}, {"?id=AAAAAAAAAAAA", http.StatusNotFound}, {"?scenario=04-isr&w=100", http.StatusBadRequest}} {
			if rec := get(t, http.MethodGet, path+c.query); rec.Code != c.status || rec.Header().Get("Content-Type") == "image/png" {
				t.Errorf("%s%s: %d %q, want %d", path, c.query, rec.Code, rec.Body.String(), c.status)
			}
		}
	}
}

// A picture too large for twice its size is drawn as large as fits in
// raster.MaxPixels; others at twice their size.
func TestPNGScaleFitsMaxPixels(t *testing.T) {
	for _, c := range []struct {
		size snapshot.Size
		want float64 // 0: less than 2, filling MaxPixels
	}{{snapshot.Size{Width: 979, Height: 278}, 2}, {snapshot.Size{Width: 1920, Height: 1080}, 2}, {snapshot.Size{Width: 1920, Height: 1081}, 0}, {snapshot.Size{Width: 1920, Height: 9000}, 0}, {snapshot.Size{Width: 1919.5, Height: 7777.3}, 0}} {
		s := pngScaleFor(c.size)
		pixels := math.Ceil(c.size.Width*s) * math.Ceil(c.size.Height*s)
		if c.want != 0 && s != c.want || pixels > raster.MaxPixels || c.want == 0 && (s >= 2 || pixels < raster.MaxPixels*0.99) {
			t.Errorf("%v: scale %g, %g pixels", c.size, s, pixels)
		}
	}
}
