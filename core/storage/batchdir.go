package storage

// batchDir is a segment's directory of batches (batchEntry), as spans of
// entries end to end. A span lists up to dirBlock entries, or is
// arithmetic: entries of one size, offset range, epoch and record count
// one after the other, held as the first and a count. An idle week's
// metadata log lists 1.2 million NoOp batches a replica, all alike but
// for their offsets and positions: listed one by one, they were the
// largest allocation of a leaped week after the logs' bytes. A listed
// span grows as a slice does; no entry is copied once its span is full.
//
// Invariants: spans are end to end (spans[k].first is the entries before
// it) and none is empty; a listed span holds at most dirBlock entries; n
// is the total.
type batchDir struct {
	spans []dirSpan
	n     int
}

// dirSpan is entries first.. of a directory: list, or count entries
// from e on, each step after the one before it (in baseDelta and
// position; the other fields repeat).
type dirSpan struct {
	first int
	list  []batchEntry
	e     batchEntry
	count int
	step  batchEntry
}

const dirBlock = 4096

// minArithmetic is how many alike entries in a row a listed span gives up
// to an arithmetic one.
const minArithmetic = 3

func (s *dirSpan) len() int {
	if s.list != nil {
		return len(s.list)
	}
	return s.count
}

// entry is the span's j-th entry.
func (s *dirSpan) entry(j int) batchEntry {
	if s.list != nil {
		return s.list[j]
	}
	e := s.e
	e.baseDelta += int32(j) * s.step.baseDelta
	e.position += int32(j) * s.step.position
	return e
}

// follows reports whether b comes step after a, alike in the rest.
func follows(a, b, step batchEntry) bool {
	return b.lastDelta == a.lastDelta && b.epoch == a.epoch && b.recordCount == a.recordCount &&
		int64(b.baseDelta) == int64(a.baseDelta)+int64(step.baseDelta) && int64(b.position) == int64(a.position)+int64(step.position)
}

// stepOf is the step from a to b.
func stepOf(a, b batchEntry) batchEntry {
	return batchEntry{baseDelta: b.baseDelta - a.baseDelta, position: b.position - a.position}
}

// len is the number of entries.
func (d *batchDir) len() int { return d.n }

// at is entry i (i < len).
func (d *batchDir) at(i int) batchEntry {
	k := len(d.spans) - 1
	if i < d.spans[k].first {
		lo, hi := 0, k // the span holding i: the last one starting at or before it
		for lo < hi {
			m := (lo + hi + 1) / 2
			if d.spans[m].first <= i {
				lo = m
			} else {
				hi = m - 1
			}
		}
		k = lo
	}
	s := &d.spans[k]
	return s.entry(i - s.first)
}

// push adds e at the end.
func (d *batchDir) push(e batchEntry) {
	if k := len(d.spans) - 1; k >= 0 {
		s := &d.spans[k]
		if s.list == nil && follows(s.entry(s.count-1), e, s.step) {
			s.count++
			d.n++
			return
		}
		if s.list != nil && len(s.list) < dirBlock {
			s.list = append(s.list, e)
			d.n++
			d.gather()
			return
		}
	}
	list := make([]batchEntry, 1, 4)
	list[0] = e
	d.spans = append(d.spans, dirSpan{first: d.n, list: list})
	d.n++
}

// pushAlike adds n entries, e and each next one step after the one
// before it, as n pushes would: a listed span takes them until it gathers
// them, an arithmetic one at once.
func (d *batchDir) pushAlike(e batchEntry, n int, step batchEntry) {
	for ; n > 0; n-- {
		if k := len(d.spans) - 1; k >= 0 {
			if s := &d.spans[k]; s.list == nil && s.step == step && follows(s.entry(s.count-1), e, step) {
				s.count += n
				d.n += n
				return
			}
		}
		d.push(e)
		e.baseDelta += step.baseDelta
		e.position += step.position
	}
}

// gather moves the last listed span's last minArithmetic entries to an
// arithmetic span when they are alike.
func (d *batchDir) gather() {
	s := &d.spans[len(d.spans)-1]
	l := len(s.list)
	if l < minArithmetic {
		return
	}
	tail := s.list[l-minArithmetic:]
	step := stepOf(tail[0], tail[1])
	for j := 1; j < len(tail); j++ {
		if !follows(tail[j-1], tail[j], step) {
			return
		}
	}
	a := dirSpan{first: s.first + l - minArithmetic, e: tail[0], count: minArithmetic, step: step}
	if l == minArithmetic {
		*s = a
		return
	}
	s.list = s.list[: l-minArithmetic : l-minArithmetic]
	d.spans = append(d.spans, a)
}

// truncate keeps the first n entries (n <= len).
func (d *batchDir) truncate(n int) {
	k := len(d.spans)
	for k > 0 && d.spans[k-1].first >= n {
		k--
	}
	clear(d.spans[k:]) // let the dropped spans go
	d.spans = d.spans[:k]
	if k > 0 {
		s := &d.spans[k-1]
		if s.list != nil {
			s.list = s.list[: n-s.first : n-s.first]
		} else {
			s.count = n - s.first
		}
	}
	d.n = n
}
