package ui

// dgRect is a box in the network SVG's user units.
type dgRect struct{ x, y, w, h float64 }

func (r dgRect) overlaps(o dgRect) bool {
	return r.x < o.x+o.w && o.x < r.x+r.w && r.y < o.y+o.h && o.y < r.y+r.h
}

// dgLabels keeps the network SVG's labels apart: what is drawn there (the
// cards, the clients' box, the coordinator badges, the cut links' labels)
// and every message label placed so far. A message's label that would
// cover one of them moves up or down just past what it covers (the nearer
// way, up on a tie), then, when neither works, to either side; its dot
// stays on the link. With no free place left the label is left out (the
// dot keeps its tooltip). Two resets sent at the same instant to two
// brokers, drawn near the clients' box, so read as two labels instead of
// one smudge.
type dgLabels struct {
	taken []dgRect
}

// dgLabelGap is the least space between two labels.
const dgLabelGap = 1.0

func (ls *dgLabels) reset() { ls.taken = ls.taken[:0] }

// block marks a box as drawn.
func (ls *dgLabels) block(x, y, w, h float64) { ls.taken = append(ls.taken, dgRect{x, y, w, h}) }

// place finds where a label of w×h wanted at (x, y) covers nothing, inside
// the box (0, 0)–(right, bottom), marks it drawn, and returns how far it
// moved; ok is false when there is no such place (nothing is marked).
func (ls *dgLabels) place(x, y, w, h, right, bottom float64) (dx, dy float64, ok bool) {
	for _, side := range [...]float64{0, 0.6, -0.6} {
		r := dgRect{min(max(x+side*w, 0), right-w), y, w, h}
		if side != 0 && r.x == x {
			continue // clamped back to where it was wanted: tried
		}
		up, okUp := ls.slide(r, -1, bottom)
		down, okDown := ls.slide(r, 1, bottom)
		switch {
		case okUp && (!okDown || y-up.y <= down.y-y):
			r = up
		case okDown:
			r = down
		default:
			continue
		}
		ls.taken = append(ls.taken, r)
		return r.x - x, r.y - y, true
	}
	return 0, 0, false
}

// slide moves r up (dir -1) or down (dir 1) past whatever it covers until
// it covers nothing, staying between 0 and bottom.
func (ls *dgLabels) slide(r dgRect, dir, bottom float64) (dgRect, bool) {
	for range len(ls.taken) + 1 {
		if r.x < 0 || r.y < 0 || r.y+r.h > bottom {
			return r, false
		}
		hit := -1
		for i, o := range ls.taken {
			if r.overlaps(o) {
				hit = i
				break
			}
		}
		if hit < 0 {
			return r, true
		}
		o := ls.taken[hit]
		if dir < 0 {
			r.y = o.y - r.h - dgLabelGap
		} else {
			r.y = o.y + o.h + dgLabelGap
		}
	}
	return r, false
}

// blockDrawn marks what the network SVG draws before the messages: the
// cards (with their coordinator badges above the edge), the clients' box
// and the cut links' labels.
func (l *dgLayout) blockDrawn() {
	ls := &l.labels
	ls.reset()
	for _, b := range l.Brokers {
		ls.block(b.X, b.Y, b.W, dgCardH)
		if b.Coord != "" {
			w := dgTextWidth(b.Coord, 10) + 14
			ls.block(b.X+b.W-12-w, b.Y-8, w, 15)
		}
	}
	ch := 30 + 15*float64(len(l.Clients.Lines))
	ls.block(l.cardX(-1), l.cardsY+max(0, (dgCardH-ch)/2), l.cardW(-1), ch)
	for _, k := range l.Links {
		if k.Cut == "" {
			continue
		}
		mid := dgBezier(k.p, 0.5)
		w := dgTextWidth(k.Cut, 11) + 4
		ls.block(mid[0]-w/2, mid[1]-6-11, w, 14) // the text's baseline is 6 above the curve
	}
}
