package storage

import (
	"hash/crc32"
	"slices"
)

// chunkSize is the size of the chunks a file's bytes are held in past its
// first. An idle week's metadata log takes 21 of them a node; with 1 MiB
// chunks the week ran 8% slower in WebAssembly (node, the page's collector
// settings: more large allocations, more growth of the wasm memory), at
// the same peak memory.
const chunkSize = 4 << 20

// content is a file's bytes: full chunks of exactly chunkSize bytes, then
// a tail of fewer. A file held in one slice is copied whole each time it
// outgrows that slice's capacity: an idle week's metadata log (some 84 MB
// a node, one segment until metadata.log.segment.ms) was copied twice
// over, and with the page faults of the new memory those copies were a
// quarter of a leaped week's native time. In chunks, an append copies
// only its own bytes, and a file past its first chunk takes a whole chunk
// at a time. Reads of a range inside one chunk are views of it (view);
// reading a whole file of several chunks (bytes) copies it, which only
// tools and log recovery do.
//
// Sharing (file.shared): a content's bytes may also be another content's
// (share: a flush's durable layer, a reader's view); every such view is
// capped at its length, so appends write past it, cut caps what it keeps
// so the next append moves it, and writeAt copies the shared chunks it
// writes first (unshare).
//
// Invariants: every full chunk has len == cap == chunkSize; len(tail) <
// chunkSize.
type content struct {
	full [][]byte
	tail []byte
}

// length is the number of bytes.
func (c content) length() int { return len(c.full)*chunkSize + len(c.tail) }

// chunk is chunk i (the tail when i == len(c.full)).
func (c content) chunk(i int) []byte {
	if i < len(c.full) {
		return c.full[i]
	}
	return c.tail
}

// append adds b at the end (b is copied).
func (c *content) append(b []byte) {
	for len(b) > 0 {
		n := min(chunkSize-len(c.tail), len(b))
		if cap(c.tail)-len(c.tail) < n {
			c.tail = c.grownTail(len(c.tail) + n)
		}
		c.tail = append(c.tail, b[:n]...)
		b = b[n:]
		if len(c.tail) == chunkSize {
			c.full = append(c.full, c.tail[:chunkSize:chunkSize])
			c.tail = nil
		}
	}
}

// grownTail is the tail in new memory with room for need bytes (need <=
// chunkSize). A file of one chunk doubles it, as Go's append would (a
// segment grows by one batch an append); a file past its first chunk is
// large, and gets a whole chunk at once.
func (c *content) grownTail(need int) []byte {
	n := chunkSize
	if len(c.full) == 0 {
		n = min(max(2*cap(c.tail), need, 512), chunkSize)
	}
	t := make([]byte, len(c.tail), n)
	copy(t, c.tail)
	return t
}

// share is a view of c that c's later changes leave as it is.
func (c content) share() content {
	return content{full: c.full[:len(c.full):len(c.full)], tail: c.tail[:len(c.tail):len(c.tail)]}
}

// cut keeps the first n bytes. What it keeps is capped: bytes cut may be
// shared, and an append must not write over them.
func (c *content) cut(n int) {
	if n >= c.length() {
		return
	}
	k, r := n/chunkSize, n%chunkSize
	if k < len(c.full) {
		c.tail = c.full[k][:r:r]
		c.full = c.full[:k:k]
		return
	}
	c.tail = c.tail[:r:r]
}

// writeAt overwrites bytes from off (off+len(b) <= length). Bytes below
// *shared may be another content's: the chunks holding them from off's
// on are copied first, and *shared drops to off's chunk.
func (c *content) writeAt(off int, b []byte, shared *int) {
	if off < *shared {
		c.unshare(off/chunkSize, *shared)
		*shared = off / chunkSize * chunkSize
	}
	for len(b) > 0 {
		n := copy(c.chunk(off / chunkSize)[off%chunkSize:], b)
		b, off = b[n:], off+n
	}
}

// unshare copies chunk i and every later chunk with bytes below shared
// into new memory (and the list of full chunks, which may be shared).
func (c *content) unshare(i, shared int) {
	if i < len(c.full) {
		c.full = slices.Clone(c.full)
	}
	for j := i; j <= (shared-1)/chunkSize && j <= len(c.full); j++ {
		if j < len(c.full) {
			ch := make([]byte, chunkSize)
			copy(ch, c.full[j])
			c.full[j] = ch
		} else {
			t := make([]byte, len(c.tail), cap(c.tail))
			copy(t, c.tail)
			c.tail = t
		}
	}
}

// view is bytes [off, off+n) (within length): c's own memory, capped, when
// they lie in one chunk, else a copy. The caller must not change it.
func (c content) view(off, n int) []byte {
	r := off % chunkSize
	if r+n <= chunkSize {
		ch := c.chunk(off / chunkSize)
		return ch[r : r+n : r+n]
	}
	out := make([]byte, n)
	for k := 0; k < n; {
		k += copy(out[k:], c.chunk((off + k) / chunkSize)[(off+k)%chunkSize:])
	}
	return out
}

// bytes is the whole content: c's own memory when it is one chunk, else a
// copy. The caller must not change it.
func (c content) bytes() []byte {
	if len(c.full) == 0 {
		return c.tail
	}
	return c.view(0, c.length())
}

// at is byte i, or 0 past the end (a sparse file's hole).
func (c content) at(i int64) byte {
	if i >= int64(c.length()) {
		return 0
	}
	return c.chunk(int(i / chunkSize))[i%chunkSize]
}

// checksum is the IEEE CRC-32 of the bytes.
func (c content) checksum() uint32 {
	var sum uint32
	for _, ch := range c.full {
		sum = crc32.Update(sum, crc32.IEEETable, ch)
	}
	return crc32.Update(sum, crc32.IEEETable, c.tail)
}
