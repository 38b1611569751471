package raster

import (
	"image"
	"image/color"
	"math"

	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// boxScanner turns the outlines rasterx makes (a fill, or a stroke's
// outline) into pixels, with golang.org/x/image/vector sized to the
// shape's bounding box: vector's Draw costs as much as the area it is
// sized to, and a snapshot draws a thousand small shapes on a picture
// of a million pixels.
//
// It implements rasterx.Scanner; winding is always nonzero (vector's).
type boxScanner struct {
	dest  *image.RGBA
	clip  image.Rectangle
	src   image.Uniform
	moves []bool // per point: whether it starts a subpath
	pts   []point
	r     vector.Rasterizer
}

func (s *boxScanner) Start(a fixed.Point26_6) { s.add(a, true) }
func (s *boxScanner) Line(b fixed.Point26_6)  { s.add(b, false) }

func (s *boxScanner) add(a fixed.Point26_6, move bool) {
	s.pts = append(s.pts, point{float64(a.X) / 64, float64(a.Y) / 64})
	s.moves = append(s.moves, move)
}

// Draw lays the outline added since Clear onto dest, within clip.
func (s *boxScanner) Draw() {
	if len(s.pts) == 0 {
		return
	}
	lo, hi := s.pts[0], s.pts[0]
	for _, p := range s.pts[1:] {
		lo = point{min(lo.x, p.x), min(lo.y, p.y)}
		hi = point{max(hi.x, p.x), max(hi.y, p.y)}
	}
	box := image.Rect(int(math.Floor(lo.x)), int(math.Floor(lo.y)), int(math.Ceil(hi.x))+1, int(math.Ceil(hi.y))+1)
	box = box.Intersect(s.clip).Intersect(s.dest.Bounds())
	if box.Empty() {
		return
	}
	s.r.Reset(box.Dx(), box.Dy())
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for i, p := range s.pts {
		x, y := float32(p.x-ox), float32(p.y-oy)
		if s.moves[i] {
			// As vector's MoveTo does, without closing the subpath
			// before: rasterx's strokes draw their outlines in pieces
			// that add up.
			s.r.MoveTo(x, y)
		} else {
			s.r.LineTo(x, y)
		}
	}
	s.r.Draw(s.dest, box, &s.src, image.Point{})
}

func (s *boxScanner) Clear() {
	s.pts, s.moves = s.pts[:0], s.moves[:0]
}

func (s *boxScanner) SetColor(c interface{}) {
	if c, ok := c.(color.Color); ok {
		s.src.C = c
	}
}

func (s *boxScanner) SetClip(r image.Rectangle) { s.clip = r }
func (s *boxScanner) SetWinding(bool)           {}
func (s *boxScanner) SetBounds(int, int)        {}

func (s *boxScanner) GetPathExtent() fixed.Rectangle26_6 {
	var r fixed.Rectangle26_6
	for i, p := range s.pts {
		q := fixed.Point26_6{X: fixed.Int26_6(p.x * 64), Y: fixed.Int26_6(p.y * 64)}
		if i == 0 {
			r.Min, r.Max = q, q
			continue
		}
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	return r
}
