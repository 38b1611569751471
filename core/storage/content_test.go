package storage

import (
	"bytes"
	"hash/crc32"
	"math/rand"
	"testing"
)

// content behaves as one slice of bytes under every operation, across
// piece boundaries and inside runs held in closed form, and what it
// shared never changes afterwards: the
// durable layers and readers' views that share a file's bytes see them
// as they were.
func TestContentIsOneSliceAndSharesSafely(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	type snapshot struct {
		c     content
		want  []byte
		view  []byte // a view taken with it
		vwant []byte
	}
	for round := 0; round < 6; round++ {
		var c content
		var model []byte
		shared := 0
		var snaps []snapshot
		var runs []*testRun
		next := 0
		for step := 0; step < 40; step++ {
			switch op := rnd.Intn(12); {
			case op < 4: // append, often across a chunk boundary
				b := make([]byte, rnd.Intn(chunkSize/2+chunkSize/8))
				rnd.Read(b)
				c.append(b)
				model = append(model, b...)
			case op >= 10: // a run's batches, often going on from its last one
				if len(runs) == 0 || rnd.Intn(4) == 0 {
					runs = append(runs, &testRun{size: 1 + rnd.Intn(300), seed: byte(rnd.Intn(256))})
					next = rnd.Intn(1000)
				}
				r := runs[len(runs)-1]
				if rnd.Intn(5) == 0 {
					next += 1 + rnd.Intn(3) // a gap: a new piece
				}
				for k := rnd.Intn(8000); k >= 0; k-- {
					c.appendRun(r, next)
					model = append(model, r.batch(next)...)
					next++
				}
			case op < 5 && len(snaps) > 0 && rnd.Intn(3) == 0: // revert to a snapshot (a power loss)
				s := snaps[rnd.Intn(len(snaps))]
				c, model = s.c.share(), bytes.Clone(s.want)
				shared = len(model)
			case op < 5 && len(model) > 0: // cut, often in the last chunk
				n := rnd.Intn(len(model) + 1)
				if rnd.Intn(2) == 0 {
					n = len(model) - rnd.Intn(min(len(model), 3000)+1)
				}
				c.cut(n)
				model = model[:n:n]
				shared = min(shared, n)
			case op < 7: // share (a flush or a reader), with a view
				s := snapshot{c: c.share(), want: bytes.Clone(model)}
				if len(model) > 0 {
					off := rnd.Intn(len(model))
					n := rnd.Intn(min(len(model)-off, chunkSize+100) + 1)
					s.view, s.vwant = c.view(off, n), bytes.Clone(model[off:off+n])
				}
				snaps = append(snaps, s)
				shared = len(model)
			case len(model) > 0: // overwrite
				off := rnd.Intn(len(model))
				b := make([]byte, rnd.Intn(min(len(model)-off, 3*chunkSize/2)+1))
				rnd.Read(b)
				c.writeAt(off, b, &shared)
				copy(model[off:], b)
			}
			if c.length() != len(model) || !bytes.Equal(c.bytes(), model) {
				t.Fatalf("round %d step %d: content differs from the model (%d bytes, want %d)", round, step, c.length(), len(model))
			}
			checkPieces(t, c, round, step)
			if c.checksum() != crc32.ChecksumIEEE(model) {
				t.Fatalf("round %d step %d: checksum", round, step)
			}
			if len(model) > 0 {
				i := rnd.Int63n(int64(len(model)) + 10)
				want := byte(0)
				if i < int64(len(model)) {
					want = model[i]
				}
				if c.padded(int(i), 1)[0] != want {
					t.Fatalf("round %d step %d: byte %d", round, step, i)
				}
			}
			for k, s := range snaps {
				if !bytes.Equal(s.c.bytes(), s.want) || !bytes.Equal(s.view, s.vwant) {
					t.Fatalf("round %d step %d: shared snapshot %d changed", round, step, k)
				}
			}
		}
	}
}

// A content made from an older share (a power loss reverting a file to
// its flushed layer) appends without touching what later shares hold.
func TestContentFromAnOlderShareAppendsApart(t *testing.T) {
	for _, first := range []int{100, chunkSize + 100, 3*chunkSize + 100} {
		var c content
		fill := func(n int, v byte) []byte { return bytes.Repeat([]byte{v}, n) }
		c.append(fill(first, 1))
		older := c.share()
		c.append(fill(chunkSize, 2))
		later := c.share()
		want := bytes.Clone(later.bytes())
		r := older.share()
		r.append(fill(2*chunkSize, 3))
		if !bytes.Equal(later.bytes(), want) {
			t.Fatalf("first %d: appending to a content made from an older share changed a later share", first)
		}
		if got := r.bytes(); !bytes.Equal(got[:first], fill(first, 1)) || !bytes.Equal(got[first:], fill(2*chunkSize, 3)) {
			t.Fatalf("first %d: the reverted content is wrong", first)
		}
	}
}

// testRun is a BatchRun whose batch i is size bytes made from i and seed.
type testRun struct {
	size int
	seed byte
}

func (r *testRun) BatchSize() int { return r.size }

func (r *testRun) Batch(i int, dst []byte) {
	if len(dst) != r.size {
		panic("testRun: a buffer of another size")
	}
	for j := range dst {
		dst[j] = r.seed + byte(i*7) + byte(j*13) + byte(i>>8)
	}
}

func (r *testRun) batch(i int) []byte {
	b := make([]byte, r.size)
	r.Batch(i, b)
	return b
}

// checkPieces checks content's invariants: pieces end to end, none empty
// but the open one, no bytes piece over chunkSize, the length their sum.
func checkPieces(t *testing.T, c content, round, step int) {
	t.Helper()
	at := 0
	for k := 0; k <= len(c.done); k++ {
		p := c.piece(k)
		if p.at != at {
			t.Fatalf("round %d step %d: piece %d starts at %d, want %d", round, step, k, p.at, at)
		}
		if k < len(c.done) && p.len() == 0 {
			t.Fatalf("round %d step %d: sealed piece %d is empty", round, step, k)
		}
		if p.run == nil && (len(p.b) > chunkSize || cap(p.b) > chunkSize) {
			t.Fatalf("round %d step %d: bytes piece %d has len %d cap %d", round, step, k, len(p.b), cap(p.b))
		}
		at += p.len()
	}
	if at != c.n {
		t.Fatalf("round %d step %d: pieces hold %d bytes, length %d", round, step, at, c.n)
	}
}

// A run held in closed form costs no memory for its batches: a million
// of them take one piece.
func TestContentHoldsARunInOnePiece(t *testing.T) {
	var c content
	c.append([]byte("head"))
	r := &testRun{size: 75, seed: 3}
	for i := 0; i < 1_000_000; i++ {
		c.appendRun(r, i)
	}
	c.append([]byte("tail"))
	if len(c.done) != 2 || c.length() != 8+75_000_000 {
		t.Fatalf("%d sealed pieces, %d bytes; want 2 and %d", len(c.done), c.length(), 8+75_000_000)
	}
	if got, want := c.view(4+75*500_000+10, 100), append(r.batch(500_000)[10:], r.batch(500_001)[:35]...); !bytes.Equal(got, want) {
		t.Fatalf("a view inside the run: %x, want %x", got, want)
	}
}
