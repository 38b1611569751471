package storage

import (
	"bytes"
	"hash/crc32"
	"slices"
	"sort"
)

// chunkSize is the most bytes one piece of a file's content holds. An
// idle week's metadata log takes 21 of them a node; with 1 MiB chunks the
// week ran 8% slower in WebAssembly (node, the page's collector settings:
// more large allocations, more growth of the wasm memory), at the same
// peak memory.
const chunkSize = 4 << 20

// content is a file's bytes, as a list of pieces end to end. A piece holds
// bytes, or is a run of record batches held in closed form (BatchRun).
//
// Bytes pieces hold at most chunkSize bytes. A file held in one slice is
// copied whole each time it outgrows that slice's capacity: an idle week's
// metadata log (some 84 MB a node, one segment until
// metadata.log.segment.ms) was copied twice over, and with the page faults
// of the new memory those copies were a quarter of a leaped week's native
// time. In pieces, an append copies only its own bytes, and a file past
// its first piece takes a whole chunk at a time. Reads of a range inside
// one bytes piece are views of it (view); reading a range across pieces,
// or in a run, makes a copy.
//
// Run pieces: a leap appends the KRaft quorum's NoOp batches to every
// node's metadata log, millions a week, each a function of its place in
// the run (its offset and timestamp). Even written once, in chunks, their
// bytes were a third of a leaped week's native time, nearly all of it the
// kernel handing out the fresh pages they filled; a run piece holds only
// the run and which of its batches it has, and makes their bytes when they
// are read. Everything else an append does (the batch directory, the
// indexes, the page cache, the flushes) is done batch by batch as for
// bytes: only where the bytes live differs.
//
// Sharing (file.shared): a content's pieces may also be another content's
// (share: a flush's durable layer, a reader's view). Sealed pieces (done)
// never change in place; the open piece is capped in every share, so
// appends write past it; cut caps what it keeps so the next append moves
// it; and writeAt copies the shared pieces it writes first.
//
// Invariants: done[i].at + done[i].len() == done[i+1].at, and likewise
// into open; n == open.at + open.len(); a bytes piece holds at most
// chunkSize bytes; only the open piece, and only when it is the last
// byte piece appended, may have spare capacity.
type content struct {
	done []piece
	open piece
	n    int
}

// BatchRun is a run of record batches of one size whose bytes are a pure
// function of their index in the run (a leap's NoOp batches, which differ
// only in offset and timestamp).
type BatchRun interface {
	// BatchSize is every batch's size in bytes (at most chunkSize).
	BatchSize() int
	// Batch writes batch i's bytes into dst (len(dst) == BatchSize()).
	Batch(i int, dst []byte)
}

// piece is a part of a content starting at byte at: bytes b, or batches
// first..first+count-1 of run.
type piece struct {
	at           int
	b            []byte
	run          BatchRun
	first, count int
}

func (p *piece) len() int {
	if p.run != nil {
		return p.count * p.run.BatchSize()
	}
	return len(p.b)
}

// length is the number of bytes.
func (c content) length() int { return c.n }

// contentOf is a content holding a copy of b.
func contentOf(b []byte) content {
	if len(b) <= chunkSize {
		return content{open: piece{b: slices.Clone(b)}, n: len(b)}
	}
	var c content
	c.append(b)
	return c
}

// seal closes the open piece (if it has bytes) and opens an empty one at
// the end.
func (c *content) seal() {
	if c.open.len() > 0 {
		c.done = append(c.done, c.open)
	}
	c.open = piece{at: c.n}
}

// append adds b at the end (b is copied).
func (c *content) append(b []byte) {
	for len(b) > 0 {
		if c.open.run != nil || len(c.open.b) == chunkSize {
			c.seal()
		}
		o := &c.open
		n := min(chunkSize-len(o.b), len(b))
		if cap(o.b)-len(o.b) < n {
			o.b = c.grown(len(o.b) + n)
		}
		o.b = append(o.b, b[:n]...)
		b = b[n:]
		c.n += n
	}
}

// grown is the open piece's bytes in new memory with room for need bytes
// (need <= chunkSize). A piece after a full chunk of bytes belongs to a
// large file, and gets a whole chunk at once; any other doubles, as Go's
// append would (a segment grows by one batch an append, and a metadata
// log between a leap's runs by a few NoOps: a chunk for each of those
// was fresh memory for a few bytes).
func (c *content) grown(need int) []byte {
	n := chunkSize
	if k := len(c.done); k == 0 || c.done[k-1].run != nil || len(c.done[k-1].b) < chunkSize {
		n = min(max(2*cap(c.open.b), need, 512), chunkSize)
	}
	t := make([]byte, len(c.open.b), n)
	copy(t, c.open.b)
	return t
}

// appendRun adds batch i of run at the end, held in closed form: the open
// piece grows when it holds the run's batch i-1.
func (c *content) appendRun(run BatchRun, i int) {
	size := run.BatchSize()
	if size > chunkSize {
		panic("storage: a run's batches are larger than a chunk")
	}
	if o := &c.open; o.run != run || o.first+o.count != i {
		c.seal()
		c.open.run, c.open.first = run, i
	}
	c.open.count++
	c.n += size
}

// appendRunN adds batches i..i+n-1 of run at the end, as n appendRun
// calls would.
func (c *content) appendRunN(run BatchRun, i, n int) {
	if n <= 0 {
		return
	}
	c.appendRun(run, i)
	c.open.count += n - 1
	c.n += (n - 1) * run.BatchSize()
}

// share is a view of c that c's later changes leave as it is.
func (c content) share() content {
	o := c.open
	o.b = o.b[:len(o.b):len(o.b)]
	return content{done: c.done[:len(c.done):len(c.done)], open: o, n: c.n}
}

// find is the index of the piece holding byte off (off < n): len(done)
// for the open piece.
func (c *content) find(off int) int {
	if off >= c.open.at {
		return len(c.done)
	}
	return sort.Search(len(c.done), func(k int) bool { return c.done[k].at+c.done[k].len() > off }) // done[k] ends past off
}

// piece is piece k (len(done): the open one).
func (c *content) piece(k int) *piece {
	if k == len(c.done) {
		return &c.open
	}
	return &c.done[k]
}

// cut keeps the first n bytes. What it keeps is capped: bytes cut may be
// shared, and an append must not write over them.
func (c *content) cut(n int) {
	if n >= c.n {
		return
	}
	k := c.find(n)
	p := *c.piece(k)
	c.done = c.done[:min(k, len(c.done)):min(k, len(c.done))]
	c.n = n
	r := n - p.at
	if p.run == nil {
		p.b = p.b[:r:r]
		c.open = p
		return
	}
	size := p.run.BatchSize()
	whole, part := r/size, r%size
	p.count = whole
	c.open = p
	if part > 0 {
		// The cut batch's first bytes, made.
		b := make([]byte, size)
		p.run.Batch(p.first+whole, b)
		c.n = p.at + whole*size
		c.seal()
		c.open.b = b[:part:part]
		c.n = n
	}
}

// writeAt overwrites bytes from off (off+len(b) <= length). Bytes below
// *shared may be another content's: the pieces holding them from off's
// on are copied first (runs made into bytes), and *shared drops to the
// start of off's piece.
func (c *content) writeAt(off int, b []byte, shared *int) {
	if len(b) == 0 {
		return
	}
	k := c.find(off)
	if off < *shared || c.runsIn(k, off+len(b)) {
		c.own(k, max(*shared, off+len(b)))
		*shared = min(*shared, c.piece(c.find(off)).at)
	}
	for len(b) > 0 {
		p := c.piece(c.find(off))
		n := copy(p.b[off-p.at:], b)
		b, off = b[n:], off+n
	}
}

// runsIn reports whether a run piece holds a byte of [piece k's start,
// end).
func (c *content) runsIn(k, end int) bool {
	for ; k <= len(c.done); k++ {
		p := c.piece(k)
		if p.at >= end {
			return false
		}
		if p.run != nil && p.count > 0 {
			return true
		}
	}
	return false
}

// own gives c its own copy of pieces k on up to byte end, runs made into
// bytes pieces (and its own list of pieces, which may be shared).
func (c *content) own(k, end int) {
	rest := make([]piece, 0, len(c.done)-k+1)
	for j := k; j <= len(c.done); j++ {
		p := *c.piece(j)
		switch {
		case p.len() == 0:
		case p.at >= end:
			rest = append(rest, p)
		case p.run != nil:
			b := c.view(p.at, p.len())
			for len(b) > 0 {
				n := min(len(b), chunkSize)
				rest = append(rest, piece{at: p.at + p.len() - len(b), b: b[:n:n]})
				b = b[n:]
			}
		default:
			rest = append(rest, piece{at: p.at, b: slices.Clone(p.b)})
		}
	}
	c.done = append(slices.Clone(c.done[:k]), rest...)
	c.open = piece{at: c.n}
	if last := len(c.done) - 1; last >= 0 && c.done[last].run == nil {
		c.open, c.done = c.done[last], c.done[:last]
	}
}

// view is bytes [off, off+n) (within length): c's own memory, capped, when
// they lie in one bytes piece, else a copy. The caller must not change it.
func (c content) view(off, n int) []byte {
	if n == 0 {
		return []byte{}
	}
	k := c.find(off)
	if p := c.piece(k); p.run == nil && off+n <= p.at+len(p.b) {
		r := off - p.at
		return p.b[r : r+n : r+n]
	}
	out := make([]byte, n)
	c.copyOut(out, off, k)
	return out
}

// copyOut fills out with bytes from off, which piece k holds.
func (c *content) copyOut(out []byte, off, k int) {
	var batch []byte
	for w := 0; w < len(out); k++ {
		p := c.piece(k)
		r := off + w - p.at
		if p.run == nil {
			w += copy(out[w:], p.b[r:])
			continue
		}
		size := p.run.BatchSize()
		if batch == nil {
			batch = make([]byte, size)
		}
		for ; w < len(out) && r < p.len(); r = off + w - p.at {
			i := r / size
			if r%size == 0 && len(out)-w >= size {
				p.run.Batch(p.first+i, out[w:w+size]) // a whole batch, in place
				w += size
				continue
			}
			p.run.Batch(p.first+i, batch)
			w += copy(out[w:], batch[r%size:])
		}
	}
}

// bytes is the whole content: c's own memory when it is one bytes piece,
// else a copy. The caller must not change it.
func (c content) bytes() []byte {
	if len(c.done) == 0 && c.open.run == nil {
		return c.open.b
	}
	return c.view(0, c.n)
}

// firstDiff is the first offset in [from, to) where c and o differ (to if
// none), either read as zeros past its end (a sparse file's hole).
func (c content) firstDiff(o content, from, to int) int {
	const step = 4096
	for i := from; i < to; i += step {
		n := min(step, to-i)
		a, b := c.padded(i, n), o.padded(i, n)
		if !bytes.Equal(a, b) {
			for j := range a {
				if a[j] != b[j] {
					return i + j
				}
			}
		}
	}
	return to
}

// padded is view(off, n) with zeros past the end.
func (c content) padded(off, n int) []byte {
	if off+n <= c.n {
		return c.view(off, n)
	}
	out := make([]byte, n)
	if off < c.n {
		c.copyOut(out[:c.n-off], off, c.find(off))
	}
	return out
}

// checksum is the IEEE CRC-32 of the bytes (a run's made batch by batch).
func (c content) checksum() uint32 {
	var sum uint32
	var batch []byte
	for k := 0; k <= len(c.done); k++ {
		p := c.piece(k)
		if p.run == nil {
			sum = crc32.Update(sum, crc32.IEEETable, p.b)
			continue
		}
		if size := p.run.BatchSize(); len(batch) != size {
			batch = make([]byte, size)
		}
		for i := 0; i < p.count; i++ {
			p.run.Batch(p.first+i, batch)
			sum = crc32.Update(sum, crc32.IEEETable, batch)
		}
	}
	return sum
}
