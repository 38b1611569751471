package raster

import (
	"strconv"
	"strings"
)

// parsePathData reads a <path>'s d: M, L, H, V, C, S, Q, T, Z in both
// cases. An arc (A) is drawn as a straight line to its end: the snapshot
// draws none. Reading stops at the first error and keeps what came
// before, as SVG says.
func parsePathData(d string) path {
	var p path
	s := &pathScanner{s: d}
	var cur, start, lastCtrl point
	var lastOp byte
	for {
		op, ok := s.command()
		if !ok {
			return p
		}
		rel := op >= 'a'
		up := op &^ 0x20
		base := func() point {
			if rel {
				return cur
			}
			return point{}
		}
		for first := true; first || s.moreNumbers(); first = false {
			o := base()
			switch up {
			case 'M', 'L', 'T':
				x, y, ok := s.pair()
				if !ok {
					return p
				}
				to := point{o.x + x, o.y + y}
				switch {
				case up == 'M' && first:
					p.moveTo(to.x, to.y)
					start = to
				case up == 'T':
					ctrl := cur
					if lastOp == 'Q' || lastOp == 'T' {
						ctrl = point{2*cur.x - lastCtrl.x, 2*cur.y - lastCtrl.y}
					}
					p.quadTo(cur, ctrl, to)
					lastCtrl = ctrl
				default:
					p.lineTo(to.x, to.y)
				}
				cur = to
			case 'H', 'V':
				n, ok := s.number()
				if !ok {
					return p
				}
				if up == 'H' {
					cur.x = o.x + n
				} else {
					cur.y = o.y + n
				}
				p.lineTo(cur.x, cur.y)
			case 'C', 'S', 'Q':
				var pts []point
				count := map[byte]int{'C': 3, 'S': 2, 'Q': 2}[up]
				for range count {
					x, y, ok := s.pair()
					if !ok {
						return p
					}
					pts = append(pts, point{o.x + x, o.y + y})
				}
				switch up {
				case 'C':
					p.cubicTo(pts[0], pts[1], pts[2])
					lastCtrl, cur = pts[1], pts[2]
				case 'S':
					c1 := cur
					if lastOp == 'C' || lastOp == 'S' {
						c1 = point{2*cur.x - lastCtrl.x, 2*cur.y - lastCtrl.y}
					}
					p.cubicTo(c1, pts[0], pts[1])
					lastCtrl, cur = pts[0], pts[1]
				case 'Q':
					p.quadTo(cur, pts[0], pts[1])
					lastCtrl, cur = pts[0], pts[1]
				}
			case 'A':
				var args [7]float64
				for i := range args {
					n, ok := s.number()
					if !ok {
						return p
					}
					args[i] = n
				}
				cur = point{o.x + args[5], o.y + args[6]}
				p.lineTo(cur.x, cur.y)
			case 'Z':
				p.close()
				cur = start
			default:
				return p
			}
			lastOp = up
			if up == 'Z' {
				break
			}
		}
	}
}

// quadTo adds a quadratic Bézier as the cubic that draws it.
func (p *path) quadTo(from, ctrl, to point) {
	c1 := point{from.x + 2.0/3*(ctrl.x-from.x), from.y + 2.0/3*(ctrl.y-from.y)}
	c2 := point{to.x + 2.0/3*(ctrl.x-to.x), to.y + 2.0/3*(ctrl.y-to.y)}
	p.cubicTo(c1, c2, to)
}

type pathScanner struct {
	s string
	i int
}

func (s *pathScanner) skip() {
	for s.i < len(s.s) && strings.IndexByte(" \t\n\r,", s.s[s.i]) >= 0 {
		s.i++
	}
}

// command reads a command letter.
func (s *pathScanner) command() (byte, bool) {
	s.skip()
	if s.i >= len(s.s) {
		return 0, false
	}
	c := s.s[s.i]
	if strings.IndexByte("MmLlHhVvCcSsQqTtAaZz", c) < 0 {
		return 0, false
	}
	s.i++
	return c, true
}

// moreNumbers tells whether a number comes next (a command's arguments
// repeat it).
func (s *pathScanner) moreNumbers() bool {
	s.skip()
	return s.i < len(s.s) && strings.IndexByte("+-.0123456789", s.s[s.i]) >= 0
}

func (s *pathScanner) number() (float64, bool) {
	s.skip()
	from := s.i
	if s.i < len(s.s) && (s.s[s.i] == '+' || s.s[s.i] == '-') {
		s.i++
	}
	dot, exp := false, false
	for s.i < len(s.s) {
		c := s.s[s.i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && !exp:
			exp = true
			if s.i+1 < len(s.s) && (s.s[s.i+1] == '-' || s.s[s.i+1] == '+') {
				s.i++
			}
		default:
			n, err := strconv.ParseFloat(s.s[from:s.i], 64)
			return n, err == nil
		}
		s.i++
	}
	n, err := strconv.ParseFloat(s.s[from:s.i], 64)
	return n, err == nil
}

func (s *pathScanner) pair() (float64, float64, bool) {
	x, ok := s.number()
	if !ok {
		return 0, 0, false
	}
	y, ok := s.number()
	return x, y, ok
}
