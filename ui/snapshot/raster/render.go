package raster

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
)

// MaxPixels bounds a picture's size (width × height in pixels): 4K's,
// which a link preview or a README never needs more of, and which keeps
// a Worker's memory well under its limit (4 bytes a pixel, twice for a
// group layer).
const MaxPixels = 3840 * 2160

// Render draws an SVG document as ui/snapshot writes it, scale pixels to
// each of its px (2 for a sharp picture on a phone or a laptop's
// screen). The document's <style> elements are its stylesheet.
func Render(doc []byte, scale float64) (*image.RGBA, error) {
	if !(scale > 0 && scale <= 8) {
		return nil, fmt.Errorf("raster: scale %g is not in (0, 8]", scale)
	}
	root, err := parseSVG(doc)
	if err != nil {
		return nil, err
	}
	return render(root, scale)
}

// render draws a parsed document.
func render(root *element, scale float64) (*image.RGBA, error) {
	fonts, err := loadFonts()
	if err != nil {
		return nil, fmt.Errorf("raster: the embedded fonts: %w", err)
	}
	var css strings.Builder
	collectStyles(root, &css)
	newSheet(css.String()).cascade(root, nil, 0)

	w, h, box, err := rootSize(root)
	if err != nil {
		return nil, err
	}
	pw, ph := int(math.Ceil(w*scale)), int(math.Ceil(h*scale))
	if pw <= 0 || ph <= 0 || float64(pw)*float64(ph) > MaxPixels {
		return nil, fmt.Errorf("raster: a %d×%d picture is larger than %d pixels", pw, ph, MaxPixels)
	}
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	m := scaling(scale, scale)
	vp := viewport{w, h}
	if box != nil {
		m = viewBoxTransform(box, w, h, root.attr("preserveAspectRatio")).then(m)
		vp = viewport{box[2], box[3]}
	}
	newPainter(img, fonts).element(root, m, vp)
	return img, nil
}

// collectStyles gathers the text of every <style>, in document order.
func collectStyles(e *element, css *strings.Builder) {
	if e.tag == "style" {
		css.WriteString(e.text)
		css.WriteByte('\n')
	}
	for _, c := range e.children {
		collectStyles(c, css)
	}
}

// rootSize is the root <svg>'s width and height in px and its viewBox
// (nil without one). Without width and height, the viewBox's size is
// the picture's.
func rootSize(root *element) (w, h float64, box []float64, err error) {
	box = numbers(root.attr("viewBox"))
	if len(box) != 4 || box[2] <= 0 || box[3] <= 0 {
		box = nil
	}
	w, errW := length(root.attr("width"), 16, 16, 0)
	h, errH := length(root.attr("height"), 16, 16, 0)
	if box != nil {
		if !errW || w <= 0 {
			w = box[2]
		}
		if !errH || h <= 0 {
			h = box[3]
		}
	}
	if !(w > 0 && h > 0) {
		return 0, 0, nil, errors.New("raster: the <svg> has no size (width and height, or a viewBox)")
	}
	return w, h, box, nil
}
