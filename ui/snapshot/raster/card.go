package raster

import (
	"fmt"
	"image"
	"image/draw"
	"math"
)

// Card draws a document to fit a w×h picture (a link preview's: Open
// Graph's 1200×630), as large as fits within a margin, at most maxScale
// pixels to its px, centred on the colour of its top-left pixel (a
// snapshot's background, its first rect). Sites that show a preview crop
// it to their own shape around its centre; a whole diagram in a card of
// that shape is not cropped.
func Card(doc []byte, w, h int, maxScale float64) (*image.RGBA, error) {
	if w <= 0 || h <= 0 || float64(w)*float64(h) > MaxPixels {
		return nil, fmt.Errorf("raster: a %d×%d card is not a picture this package draws", w, h)
	}
	root, err := parseSVG(doc)
	if err != nil {
		return nil, err
	}
	dw, dh, _, err := rootSize(root)
	if err != nil {
		return nil, err
	}
	margin := float64(min(w, h)) * cardMargin
	scale := min(maxScale, (float64(w)-2*margin)/dw, (float64(h)-2*margin)/dh)
	if !(scale > 0) {
		return nil, fmt.Errorf("raster: the picture does not fit a %d×%d card", w, h)
	}
	pic, err := render(root, scale)
	if err != nil {
		return nil, err
	}
	card := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(card, card.Bounds(), image.NewUniform(pic.RGBAAt(0, 0)), image.Point{}, draw.Src)
	at := image.Pt(int(math.Round(float64(w-pic.Bounds().Dx())/2)), int(math.Round(float64(h-pic.Bounds().Dy())/2)))
	draw.Draw(card, pic.Bounds().Add(at), pic, image.Point{}, draw.Over)
	return card, nil
}

// cardMargin is the margin around a card's picture, a part of its
// shorter side.
const cardMargin = 0.04
