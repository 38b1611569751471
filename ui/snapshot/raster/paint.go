package raster

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

// painter draws elements onto an image.
type painter struct {
	img     *image.RGBA
	clip    image.Rectangle // the innermost <svg>'s viewport, in pixels
	fonts   *fontSet
	scanner *boxScanner
	filler  *rasterx.Filler
	stroker *rasterx.Stroker
	dasher  *rasterx.Dasher
}

func newPainter(img *image.RGBA, fonts *fontSet) *painter {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	sc := &boxScanner{dest: img, clip: img.Bounds()}
	return &painter{
		img: img, clip: img.Bounds(), fonts: fonts, scanner: sc,
		filler: rasterx.NewFiller(w, h, sc), stroker: rasterx.NewStroker(w, h, sc), dasher: rasterx.NewDasher(w, h, sc),
	}
}

// viewport is the size percentages of an <svg>'s children resolve
// against.
type viewport struct{ w, h float64 }

// notDrawn are elements that hold no picture.
var notDrawn = setOf("title", "desc", "style", "defs", "metadata", "script", "foreignObject",
	"clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient", "symbol")

// element draws e (and what it holds) through the transform m.
func (p *painter) element(e *element, m matrix, vp viewport) {
	s := e.style
	if notDrawn[e.tag] || s.get("display") == "none" {
		return
	}
	if t := e.attr("transform"); t != "" {
		m = parseTransform(t).then(m)
	}
	opacity := max(0, min(1, number(s.get("opacity"), 1)))
	if opacity == 0 {
		return
	}
	switch e.tag {
	case "g", "svg", "a", "switch":
		p.group(e, m, vp, opacity)
		return
	}
	if s.get("visibility") == "hidden" || s.get("visibility") == "collapse" {
		return
	}
	var shape path
	switch e.tag {
	case "rect":
		w, h := p.len(e, "width", vp.w), p.len(e, "height", vp.h)
		if w <= 0 || h <= 0 {
			return
		}
		rx, hasRX := e.lookup("rx")
		ry, hasRY := e.lookup("ry")
		if !hasRX {
			rx = ry
		}
		if !hasRY {
			ry = rx
		}
		shape.rect(p.len(e, "x", vp.w), p.len(e, "y", vp.h), w, h, p.lenOf(rx, vp.w), p.lenOf(ry, vp.h))
	case "circle":
		r := p.len(e, "r", vp.diagonal())
		if r <= 0 {
			return
		}
		shape.ellipse(p.len(e, "cx", vp.w), p.len(e, "cy", vp.h), r, r)
	case "ellipse":
		rx, ry := p.len(e, "rx", vp.w), p.len(e, "ry", vp.h)
		if rx <= 0 || ry <= 0 {
			return
		}
		shape.ellipse(p.len(e, "cx", vp.w), p.len(e, "cy", vp.h), rx, ry)
	case "line":
		shape.moveTo(p.len(e, "x1", vp.w), p.len(e, "y1", vp.h))
		shape.lineTo(p.len(e, "x2", vp.w), p.len(e, "y2", vp.h))
	case "polyline", "polygon":
		pts := numbers(e.attr("points"))
		for i := 0; i+1 < len(pts); i += 2 {
			if i == 0 {
				shape.moveTo(pts[0], pts[1])
			} else {
				shape.lineTo(pts[i], pts[i+1])
			}
		}
		if e.tag == "polygon" && len(shape) > 0 {
			shape.close()
		}
	case "path":
		shape = parsePathData(e.attr("d"))
	case "text":
		shape = textPath(e, p.fonts, m.scale())
	default:
		return
	}
	p.paint(shape, s, m, opacity, e.tag == "line" || e.tag == "polyline")
}

// group draws a <g> or <svg>'s children; with opacity below 1, into a
// layer of their own that is then laid on with that opacity (SVG's group
// opacity: overlapping children do not show through each other).
func (p *painter) group(e *element, m matrix, vp viewport, opacity float64) {
	clip := p.clip
	if e.tag == "svg" {
		m, vp = p.enterViewport(e, m, vp)
		defer func() { p.clip = clip; p.scanner.SetClip(clip) }()
	}
	if opacity >= 1 {
		for _, c := range e.children {
			p.element(c, m, vp)
		}
		return
	}
	under := p.img
	layer := image.NewRGBA(under.Bounds())
	p.retarget(layer)
	for _, c := range e.children {
		p.element(c, m, vp)
	}
	p.retarget(under)
	mask := image.NewUniform(color.Alpha{A: uint8(opacity*255 + 0.5)})
	draw.DrawMask(under, p.clip, layer, p.clip.Min, mask, image.Point{}, draw.Over)
}

// retarget points the rasterizers at img.
func (p *painter) retarget(img *image.RGBA) {
	p.img = img
	p.scanner.dest = img
}

// enterViewport is the transform and viewport inside a nested <svg>: its
// x, y, width and height place it, its viewBox and preserveAspectRatio
// map its coordinates into that box, and it clips what it holds.
func (p *painter) enterViewport(e *element, m matrix, vp viewport) (matrix, viewport) {
	if e.parent == nil {
		return m, vp // the root's viewBox is the image's (Render)
	}
	x, y := p.len(e, "x", vp.w), p.len(e, "y", vp.h)
	w, h := vp.w, vp.h
	if _, ok := e.lookup("width"); ok {
		w = p.len(e, "width", vp.w)
	}
	if _, ok := e.lookup("height"); ok {
		h = p.len(e, "height", vp.h)
	}
	m = translate(x, y).then(m)
	a, b := m.apply(point{0, 0}), m.apply(point{w, h})
	p.clip = p.clip.Intersect(image.Rect(int(a.x+0.5), int(a.y+0.5), int(b.x+0.5), int(b.y+0.5)))
	p.scanner.SetClip(p.clip)
	box := numbers(e.attr("viewBox"))
	if len(box) != 4 || box[2] <= 0 || box[3] <= 0 {
		return m, viewport{w, h}
	}
	return viewBoxTransform(box, w, h, e.attr("preserveAspectRatio")).then(m), viewport{box[2], box[3]}
}

// viewBoxTransform maps a viewBox onto a w×h box as preserveAspectRatio
// says (default xMidYMid meet).
func viewBoxTransform(box []float64, w, h float64, par string) matrix {
	sx, sy := w/box[2], h/box[3]
	fields := strings.Fields(par)
	align := "xMidYMid"
	if len(fields) > 0 {
		align = fields[0]
	}
	if align == "none" {
		return translate(-box[0], -box[1]).then(scaling(sx, sy))
	}
	s := min(sx, sy)
	if len(fields) > 1 && fields[1] == "slice" {
		s = max(sx, sy)
	}
	dx, dy := w-box[2]*s, h-box[3]*s
	tx := map[bool]float64{true: 0, false: dx}[strings.HasPrefix(align, "xMin")]
	if strings.HasPrefix(align, "xMid") {
		tx = dx / 2
	}
	ty := map[bool]float64{true: 0, false: dy}[strings.Contains(align, "YMin")]
	if strings.Contains(align, "YMid") {
		ty = dy / 2
	}
	return translate(-box[0], -box[1]).then(scaling(s, s)).then(translate(tx, ty))
}

func (vp viewport) diagonal() float64 {
	return math.Sqrt((vp.w*vp.w + vp.h*vp.h) / 2)
}

// len is a length attribute in user units; % of the viewport's side.
func (p *painter) len(e *element, name string, side float64) float64 {
	return p.lenOf(e.attr(name), side)
}

func (p *painter) lenOf(v string, side float64) float64 {
	n, _ := length(v, 16, 16, side)
	return n
}

// paint fills and strokes a shape as its style says, in the order
// paint-order says. A line has no inside: it is only stroked.
func (p *painter) paint(shape path, s *style, m matrix, opacity float64, open bool) {
	if len(shape) == 0 {
		return
	}
	steps := []func(){func() {
		if !open {
			p.fill(shape, s, m, opacity)
		}
	}, func() { p.stroke(shape, s, m, opacity) }}
	if strings.HasPrefix(strings.TrimSpace(s.get("paint-order")), "stroke") {
		steps[0], steps[1] = steps[1], steps[0]
	}
	for _, step := range steps {
		step()
	}
}

func (p *painter) fill(shape path, s *style, m matrix, opacity float64) {
	fill := s.get("fill")
	if fill == "" {
		fill = "black"
	}
	c, ok := paint(fill, s)
	if !ok {
		return
	}
	c.A = alpha(c.A, opacity*clamp01(number(s.get("fill-opacity"), 1)))
	if c.A == 0 {
		return
	}
	p.filler.Clear()
	p.filler.SetWinding(s.get("fill-rule") != "evenodd")
	p.filler.SetColor(c)
	shape.addTo(p.filler, m)
	p.filler.Draw()
}

func (p *painter) stroke(shape path, s *style, m matrix, opacity float64) {
	c, ok := paint(s.get("stroke"), s)
	if !ok {
		return
	}
	size := s.fontSize()
	width := 1.0
	if v := s.get("stroke-width"); v != "" {
		width, _ = length(v, size, size, 100)
	}
	c.A = alpha(c.A, opacity*clamp01(number(s.get("stroke-opacity"), 1)))
	if width <= 0 || c.A == 0 {
		return
	}
	k := m.scale()
	w := fixed.Int26_6(width * k * 64)
	miter := fixed.Int26_6(number(s.get("stroke-miterlimit"), 4) * 64)
	capFn := map[string]rasterx.CapFunc{"round": rasterx.RoundCap, "square": rasterx.SquareCap}[s.get("stroke-linecap")]
	if capFn == nil {
		capFn = rasterx.ButtCap
	}
	join := map[string]rasterx.JoinMode{"round": rasterx.Round, "bevel": rasterx.Bevel}[s.get("stroke-linejoin")]
	if join == 0 { // rasterx.Arc is 0: no CSS value names it
		join = rasterx.Miter
	}
	var dashes []float64
	if v := s.get("stroke-dasharray"); v != "" && v != "none" {
		sum := 0.0
		for _, d := range numbers(strings.ReplaceAll(v, "px", "")) {
			dashes = append(dashes, d*k)
			sum += d
		}
		if sum <= 0 || len(dashes) == 0 {
			dashes = nil
		} else if len(dashes)%2 == 1 { // SVG repeats an odd list
			dashes = append(dashes, dashes...)
		}
	}
	var a interface {
		rasterx.Adder
		Draw()
		Clear()
		SetColor(interface{})
	}
	if dashes != nil {
		p.dasher.SetStroke(w, miter, capFn, nil, rasterx.FlatGap, join, dashes, number(s.get("stroke-dashoffset"), 0)*k)
		a = p.dasher
	} else {
		p.stroker.SetStroke(w, miter, capFn, nil, rasterx.FlatGap, join)
		a = p.stroker
	}
	a.Clear()
	a.SetColor(c)
	shape.addTo(a, m)
	a.Draw()
}

func clamp01(x float64) float64 { return max(0, min(1, x)) }

func alpha(a uint8, opacity float64) uint8 { return uint8(float64(a)*opacity + 0.5) }
