package raster

import (
	"image"
	"image/color"
	"image/draw"
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
	mask  *image.Alpha // the coverage of the last shape, reused
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
	// The coverage first (vector's fast path into an alpha mask), then
	// laid on: the inside of an opaque shape is a store, not a blend,
	// and the pixels it does not touch are skipped. (vector's own
	// RGBA path blends every pixel of the box, and was two thirds of the
	// time a snapshot took.)
	if s.mask == nil || cap(s.mask.Pix) < box.Dx()*box.Dy() {
		s.mask = image.NewAlpha(image.Rect(0, 0, box.Dx(), box.Dy()))
	} else {
		s.mask.Pix = s.mask.Pix[:box.Dx()*box.Dy()]
		s.mask.Stride, s.mask.Rect = box.Dx(), image.Rect(0, 0, box.Dx(), box.Dy())
	}
	s.r.DrawOp = draw.Src
	s.r.Draw(s.mask, s.mask.Rect, image.Opaque, image.Point{})
	over(s.dest, box, s.mask, s.src.C)
}

// over lays colour c on dest's box through mask (coverage from its
// origin), source over, premultiplied.
func over(dest *image.RGBA, box image.Rectangle, mask *image.Alpha, c color.Color) {
	r, g, b, a := c.RGBA()
	sr, sg, sb, sa := r>>8, g>>8, b>>8, a>>8
	for y := 0; y < box.Dy(); y++ {
		row := dest.Pix[dest.PixOffset(box.Min.X, box.Min.Y+y):]
		cov := mask.Pix[y*mask.Stride : y*mask.Stride+box.Dx()]
		for x, m := range cov {
			if m == 0 {
				continue
			}
			px := row[4*x : 4*x+4 : 4*x+4]
			if m == 255 && sa == 255 {
				px[0], px[1], px[2], px[3] = uint8(sr), uint8(sg), uint8(sb), 255
				continue
			}
			mm := uint32(m)
			keep := 255*255 - sa*mm // of 255*255: what of dest shows through
			px[0] = uint8((uint32(px[0])*keep + sr*mm*255 + 255*255/2) / (255 * 255))
			px[1] = uint8((uint32(px[1])*keep + sg*mm*255 + 255*255/2) / (255 * 255))
			px[2] = uint8((uint32(px[2])*keep + sb*mm*255 + 255*255/2) / (255 * 255))
			px[3] = uint8((uint32(px[3])*keep + sa*mm*255 + 255*255/2) / (255 * 255))
		}
	}
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
