package raster

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// textContent is a <text>'s characters as SVG lays them out by default:
// newlines and tabs become spaces, runs of spaces one, and the ends are
// trimmed; then text-transform.
func textContent(e *element) string {
	t := strings.Join(strings.Fields(strings.NewReplacer("\n", " ", "\t", " ").Replace(e.text)), " ")
	if e.style.get("text-transform") == "uppercase" {
		t = strings.ToUpper(t)
	}
	return t
}

// textPath is the outline of a <text>'s characters in user space,
// anchored at its x, y as text-anchor says. ppemScale is how many device
// pixels one user unit is: glyphs are loaded at the device's size, where
// their outlines are exact.
func textPath(e *element, fs *fontSet, ppemScale float64) path {
	s := e.style
	text := textContent(e)
	if text == "" {
		return nil
	}
	size := s.fontSize()
	root := size
	spacing, _ := length(s.get("letter-spacing"), size, root, size)
	faces := fs.faces(s)
	ppem := fixed.Int26_6(size * ppemScale * 64)
	unit := 1 / (ppemScale * 64) // a 26.6 device value in user units

	var buf sfnt.Buffer
	type placed struct {
		f     *sfnt.Font
		glyph sfnt.GlyphIndex
		r     rune
		x     float64
	}
	var glyphs []placed
	pen := 0.0
	var prev placed
	for _, r := range text {
		g := placed{r: r}
		for _, f := range faces {
			if i, err := f.GlyphIndex(&buf, r); err == nil && i != 0 {
				g.f, g.glyph = f, i
				break
			}
		}
		if g.f != nil && prev.f == g.f {
			if k, err := g.f.Kern(&buf, prev.glyph, g.glyph, ppem, font.HintingNone); err == nil {
				pen += float64(k) * unit
			}
		}
		g.x = pen
		switch {
		case g.f != nil:
			adv, err := g.f.GlyphAdvance(&buf, g.glyph, ppem, font.HintingNone)
			if err == nil {
				pen += float64(adv) * unit
			}
		case drawnSymbol(r):
			pen += symbolAdvance * size
		case unicode.IsSpace(r):
			pen += 0.25 * size
		default:
			pen += 0.5 * size // a character no font here has: a gap, as wide as a narrow one
		}
		pen += spacing
		glyphs = append(glyphs, g)
		prev = g
	}
	pen -= spacing // letter-spacing goes between characters, and after the last in the advance; the anchor ignores it

	xs, ys := numbers(e.attr("x")), numbers(e.attr("y"))
	x, y := at(xs, 0, 0), at(ys, 0, 0)
	switch s.get("text-anchor") {
	case "middle":
		x -= pen / 2
	case "end":
		x -= pen
	}
	var p path
	p.decorate(s, fs.strikeouts[faces[0]], x, y, pen, size)
	for _, g := range glyphs {
		ox := x + g.x
		if g.f == nil {
			if drawnSymbol(g.r) {
				p.symbol(g.r, ox, y, size)
			}
			continue
		}
		segs, err := g.f.LoadGlyph(&buf, g.glyph, ppem, nil)
		if err != nil {
			continue
		}
		pt := func(q fixed.Point26_6) point { return point{ox + float64(q.X)*unit, y + float64(q.Y)*unit} }
		var last fixed.Point26_6
		for _, seg := range segs {
			switch seg.Op {
			case sfnt.SegmentOpMoveTo:
				p.moveTo(pt(seg.Args[0]).x, pt(seg.Args[0]).y)
				last = seg.Args[0]
			case sfnt.SegmentOpLineTo:
				p.lineTo(pt(seg.Args[0]).x, pt(seg.Args[0]).y)
				last = seg.Args[0]
			case sfnt.SegmentOpQuadTo:
				p.quadTo(pt(last), pt(seg.Args[0]), pt(seg.Args[1]))
				last = seg.Args[1]
			case sfnt.SegmentOpCubeTo:
				p.cubicTo(pt(seg.Args[0]), pt(seg.Args[1]), pt(seg.Args[2]))
				last = seg.Args[2]
			}
		}
	}
	return p
}

// The symbols the snapshot uses that neither font has: the topic rows'
// fold marks (▸ folded, ▾ open), a cut link's ✕ and a narrow replica
// caption's ∉ (not in the ISR). They are drawn as shapes, in the em box a
// symbol font gives them.
const symbolAdvance = 0.7

func drawnSymbol(r rune) bool { return r == '▸' || r == '▾' || r == '✕' || r == '∉' }

// symbol adds r's shape with its baseline origin at x, y, size px tall.
func (p *path) symbol(r rune, x, y, size float64) {
	em := func(dx, dy float64) (float64, float64) { return x + dx*size, y + dy*size }
	switch r {
	case '▸':
		p.moveTo(em(0.17, -0.58))
		p.lineTo(em(0.55, -0.37))
		p.lineTo(em(0.17, -0.16))
		p.close()
	case '▾':
		p.moveTo(em(0.14, -0.50))
		p.lineTo(em(0.56, -0.50))
		p.lineTo(em(0.35, -0.12))
		p.close()
	case '∉':
		// ∈: a left half-ring with straight arms and a middle bar, then a
		// slash through it; every part wound alike (the fill is nonzero).
		const w, cx, cy, r, arm = 0.045, 0.40, -0.36, 0.2, 0.2
		var ring []point
		for i := 0; i <= 12; i++ {
			a := math.Pi/2 + math.Pi*float64(i)/12 // top, round the left, to the bottom
			ring = append(ring, point{cx + (r+w)*math.Cos(a), cy - (r+w)*math.Sin(a)})
		}
		for i := 12; i >= 0; i-- {
			a := math.Pi/2 + math.Pi*float64(i)/12
			ring = append(ring, point{cx + (r-w)*math.Cos(a), cy - (r-w)*math.Sin(a)})
		}
		bar := func(x0, y0, x1, y1 float64) []point {
			return []point{{x0, y0 - w}, {x1, y1 - w}, {x1, y1 + w}, {x0, y0 + w}}
		}
		for _, poly := range [][]point{
			ring,
			bar(cx, cy-r, cx+arm, cy-r),
			bar(cx, cy+r, cx+arm, cy+r),
			bar(cx-r, cy, cx+arm, cy),
			{{cx + 0.16, cy - r - 0.12}, {cx + 0.16 + 2*w, cy - r - 0.12}, {cx - 0.1 + 2*w, cy + r + 0.12}, {cx - 0.1, cy + r + 0.12}},
		} {
			p.polygon(poly, x, y, size)
		}
	case '✕':
		// Two bars 0.1 em thick, crossing at the centre of the x-height.
		const w = 0.05
		cx, cy, r := 0.35, -0.36, 0.27
		// Both wound the same way, so that where they cross stays filled.
		p.moveTo(em(cx-r-w, cy-r+w))
		p.lineTo(em(cx-r+w, cy-r-w))
		p.lineTo(em(cx+r+w, cy+r-w))
		p.lineTo(em(cx+r-w, cy+r+w))
		p.close()
		p.moveTo(em(cx-r+w, cy+r+w))
		p.lineTo(em(cx-r-w, cy+r-w))
		p.lineTo(em(cx+r-w, cy-r-w))
		p.lineTo(em(cx+r+w, cy-r+w))
		p.close()
	}
}

// polygon adds a closed polygon given in em units (baseline origin at x,
// y), wound clockwise on screen whatever the order given, so that
// overlapping parts of one symbol stay filled.
func (p *path) polygon(pts []point, x, y, size float64) {
	area := 0.0
	for i := range pts {
		j := (i + 1) % len(pts)
		area += pts[i].x*pts[j].y - pts[j].x*pts[i].y
	}
	if area < 0 {
		pts = slices.Clone(pts)
		slices.Reverse(pts)
	}
	for i, q := range pts {
		if i == 0 {
			p.moveTo(x+q.x*size, y+q.y*size)
		} else {
			p.lineTo(x+q.x*size, y+q.y*size)
		}
	}
	p.close()
}
