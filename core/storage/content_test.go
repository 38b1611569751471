package storage

import (
	"bytes"
	"hash/crc32"
	"math/rand"
	"testing"
)

// content behaves as one slice of bytes under every operation, across
// chunk boundaries, and what it shared never changes afterwards: the
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
		for step := 0; step < 40; step++ {
			switch op := rnd.Intn(10); {
			case op < 4: // append, often across a chunk boundary
				b := make([]byte, rnd.Intn(chunkSize/2+chunkSize/8))
				rnd.Read(b)
				c.append(b)
				model = append(model, b...)
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
			for i, ch := range c.full {
				if len(ch) != chunkSize || cap(ch) != chunkSize {
					t.Fatalf("round %d step %d: full chunk %d has len %d cap %d", round, step, i, len(ch), cap(ch))
				}
			}
			if len(c.tail) >= chunkSize {
				t.Fatalf("round %d step %d: a tail of %d bytes", round, step, len(c.tail))
			}
			if c.checksum() != crc32.ChecksumIEEE(model) {
				t.Fatalf("round %d step %d: checksum", round, step)
			}
			if len(model) > 0 {
				i := rnd.Int63n(int64(len(model)) + 10)
				want := byte(0)
				if i < int64(len(model)) {
					want = model[i]
				}
				if c.at(i) != want {
					t.Fatalf("round %d step %d: at(%d)", round, step, i)
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
