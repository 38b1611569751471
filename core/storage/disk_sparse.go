package storage

// Sparse files. Kafka preallocates each index of the active segment to
// segment.index.bytes (10 MiB) with RandomAccessFile.setLength; on Linux
// that makes a sparse file: ls -l shows 10485760 bytes, the zeros take no
// space until an entry is written into them. The disk models exactly that:
// a file is its written bytes plus a hole of zeros, so a broker with many
// partitions costs memory for the entries it wrote, not 10 MiB an index.

// size is the file's length: its bytes and the hole after them.
func (f *file) size() int64 { return f.written() + f.hole }

// fillHole turns the hole's zeros up to end into real (allocated) bytes.
func (d *Disk) fillHole(f *file, end int64) error {
	n := end - f.written()
	if n <= 0 {
		return nil
	}
	if err := d.grow(int(n)); err != nil {
		return err
	}
	f.data.append(make([]byte, n))
	f.hole -= n
	return nil
}

// SetLength sets a file's length as ftruncate does: a longer file gets a
// hole of zeros (no space used), a shorter one is cut (journaled like
// Truncate). Extending is a change like a write: durable at writeback or
// fsync.
func (d *Disk) SetLength(p string, n int64) error {
	f, err := d.get(p)
	if err != nil {
		return err
	}
	if n < f.size() {
		return d.Truncate(p, n)
	}
	if n > f.size() {
		f.hole += n - f.size()
		d.touch(f)
	}
	return nil
}

// unflushed counts the bytes of f from the first one that differs from its
// flushed layer to its end: what a power loss right now would lose or
// change. Zeros of a hole count like written zeros; past both written
// prefixes both sides are zeros, so only the lengths can differ there.
func unflushed(f *file) int64 {
	size, dsize := f.size(), int64(f.durable.length())+f.durableHole
	common := min(size, dsize)
	written := min(common, int64(max(f.data.length(), f.durable.length())))
	// The first same bytes are known to be equal.
	if from := min(int64(f.same), written); from < written {
		if i := int64(f.data.firstDiff(f.durable, int(from), int(written))); i < written {
			return size - i
		}
	}
	return max(size-dsize, 0)
}
