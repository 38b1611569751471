package raster

import (
	"math"
	"strconv"
	"strings"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

// point is a position in some coordinate system (user space until a
// path is added through a matrix).
type point struct{ x, y float64 }

// segment is one piece of a path: moveTo, lineTo, cubicTo or close.
type segment struct {
	op  byte // 'M', 'L', 'C', 'Z'
	pts [3]point
}

// path is a shape's outline in user space.
type path []segment

func (p *path) moveTo(x, y float64) { *p = append(*p, segment{op: 'M', pts: [3]point{{x, y}}}) }
func (p *path) lineTo(x, y float64) { *p = append(*p, segment{op: 'L', pts: [3]point{{x, y}}}) }
func (p *path) cubicTo(a, b, c point) {
	*p = append(*p, segment{op: 'C', pts: [3]point{a, b, c}})
}
func (p *path) close() { *p = append(*p, segment{op: 'Z'}) }

// kappa places a cubic's control points so that it follows a quarter
// circle (within 0.03%).
const kappa = 0.5522847498

// rect adds a rectangle with corners rounded by rx, ry (SVG's <rect>).
func (p *path) rect(x, y, w, h, rx, ry float64) {
	rx, ry = min(rx, w/2), min(ry, h/2)
	if rx <= 0 || ry <= 0 {
		p.moveTo(x, y)
		p.lineTo(x+w, y)
		p.lineTo(x+w, y+h)
		p.lineTo(x, y+h)
		p.close()
		return
	}
	kx, ky := rx*kappa, ry*kappa
	p.moveTo(x+rx, y)
	p.lineTo(x+w-rx, y)
	p.cubicTo(point{x + w - rx + kx, y}, point{x + w, y + ry - ky}, point{x + w, y + ry})
	p.lineTo(x+w, y+h-ry)
	p.cubicTo(point{x + w, y + h - ry + ky}, point{x + w - rx + kx, y + h}, point{x + w - rx, y + h})
	p.lineTo(x+rx, y+h)
	p.cubicTo(point{x + rx - kx, y + h}, point{x, y + h - ry + ky}, point{x, y + h - ry})
	p.lineTo(x, y+ry)
	p.cubicTo(point{x, y + ry - ky}, point{x + rx - kx, y}, point{x + rx, y})
	p.close()
}

// ellipse adds an ellipse centred on cx, cy.
func (p *path) ellipse(cx, cy, rx, ry float64) {
	kx, ky := rx*kappa, ry*kappa
	p.moveTo(cx+rx, cy)
	p.cubicTo(point{cx + rx, cy + ky}, point{cx + kx, cy + ry}, point{cx, cy + ry})
	p.cubicTo(point{cx - kx, cy + ry}, point{cx - rx, cy + ky}, point{cx - rx, cy})
	p.cubicTo(point{cx - rx, cy - ky}, point{cx - kx, cy - ry}, point{cx, cy - ry})
	p.cubicTo(point{cx + kx, cy - ry}, point{cx + rx, cy - ky}, point{cx + rx, cy})
	p.close()
}

// addTo sends the path, through m, to a rasterx filler, stroker or
// dasher, one subpath at a time.
func (p path) addTo(a rasterx.Adder, m matrix) {
	open := false
	for _, s := range p {
		switch s.op {
		case 'M':
			if open {
				a.Stop(false)
			}
			a.Start(m.fixed(s.pts[0]))
			open = true
		case 'L':
			a.Line(m.fixed(s.pts[0]))
		case 'C':
			a.CubeBezier(m.fixed(s.pts[0]), m.fixed(s.pts[1]), m.fixed(s.pts[2]))
		case 'Z':
			if open {
				a.Stop(true)
			}
			open = false
		}
	}
	if open {
		a.Stop(false)
	}
}

// matrix is an affine transform: x' = a x + c y + e, y' = b x + d y + f.
type matrix struct{ a, b, c, d, e, f float64 }

var identity = matrix{a: 1, d: 1}

// then is m followed by n: a point goes through m first.
func (m matrix) then(n matrix) matrix {
	return matrix{
		a: n.a*m.a + n.c*m.b, b: n.b*m.a + n.d*m.b,
		c: n.a*m.c + n.c*m.d, d: n.b*m.c + n.d*m.d,
		e: n.a*m.e + n.c*m.f + n.e, f: n.b*m.e + n.d*m.f + n.f,
	}
}

func (m matrix) apply(p point) point {
	return point{m.a*p.x + m.c*p.y + m.e, m.b*p.x + m.d*p.y + m.f}
}

func (m matrix) fixed(p point) fixed.Point26_6 {
	q := m.apply(p)
	return fixed.Point26_6{X: fixed.Int26_6(math.Round(q.x * 64)), Y: fixed.Int26_6(math.Round(q.y * 64))}
}

// scale is how much m stretches a length (the square root of its
// determinant): stroke widths and dashes are scaled by it.
func (m matrix) scale() float64 { return math.Sqrt(math.Abs(m.a*m.d - m.b*m.c)) }

func translate(x, y float64) matrix { return matrix{a: 1, d: 1, e: x, f: y} }
func scaling(x, y float64) matrix   { return matrix{a: x, d: y} }

// parseTransform reads a transform attribute: translate, scale, rotate
// and matrix, in order (the first applies last, as SVG says).
func parseTransform(v string) matrix {
	m := identity
	for {
		v = strings.TrimLeft(v, " ,\t\n")
		open := strings.IndexByte(v, '(')
		end := strings.IndexByte(v, ')')
		if open < 0 || end < open {
			return m
		}
		name := strings.TrimSpace(v[:open])
		args := numbers(v[open+1 : end])
		v = v[end+1:]
		var t matrix
		switch {
		case name == "translate" && len(args) >= 1:
			t = translate(args[0], at(args, 1, 0))
		case name == "scale" && len(args) >= 1:
			t = scaling(args[0], at(args, 1, args[0]))
		case name == "rotate" && len(args) >= 1:
			sin, cos := math.Sincos(args[0] * math.Pi / 180)
			cx, cy := at(args, 1, 0), at(args, 2, 0)
			t = translate(-cx, -cy).then(matrix{a: cos, b: sin, c: -sin, d: cos}).then(translate(cx, cy))
		case name == "matrix" && len(args) == 6:
			t = matrix{args[0], args[1], args[2], args[3], args[4], args[5]}
		default:
			return m
		}
		m = t.then(m)
	}
}

func at(xs []float64, i int, def float64) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return def
}

// numbers reads the numbers of a list separated by spaces or commas.
func numbers(v string) []float64 {
	var out []float64
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' }) {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return out
		}
		out = append(out, n)
	}
	return out
}
