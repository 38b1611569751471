package storage

import (
	"errors"
	"fmt"
	"math"
)

// index is what a segment's .index and .timeindex share (Kafka's
// AbstractIndex with its LazyIndex wrapper): a file of fixed-size entries,
// sorted, appended at the end.
//
// Kafka mmaps the file; ents is that mapping's view, and every entry
// appended is written into the file at once, so ls, xxd and
// kafka-dump-log.sh see what Kafka's page cache would hold. The file of
// the active segment is preallocated to segment.index.bytes (rounded down
// to a whole entry) as a sparse file, and trimmed to its entries when the
// segment stops being active; maxEntries follows the file's length, as in
// Kafka, so a preallocation of N bytes holds N/entrySize entries.
//
// Like Kafka's LazyIndex, nothing touches the disk until the index is first
// used: then an absent file is created at its preallocated length and an
// existing one is read (its length gives the entry count).
//
// Invariants: len(ents) <= maxEntries() once loaded; ents strictly
// increase in the index's key; entry i sits at byte i*entrySize of the file.
type index[E any] struct {
	disk         *Disk
	path         string
	base         int64 // the segment's base offset; entries store offsets relative to it
	maxIndexSize int64 // segment.index.bytes when the segment was opened
	codec        indexCodec[E]

	loaded bool
	length int64 // the file's length: maxEntries = length / entrySize
	ents   []E
	// untrusted: the file read at load could not be a valid index (a
	// length that is not a whole number of entries, or an unwritten hole
	// read as entries). Kafka would use it as it is; the simulator rebuilds
	// the segment's indexes instead.
	untrusted bool
	// unflushed: the file may hold changes not fsynced since this index
	// last flushed it (true from load: an opened file's state is not
	// known). Only the index changes its file, and writeback or a power
	// loss only make it cleaner, so a flush with unflushed false would
	// change nothing: the segment's flush comes after every append of an
	// idle KRaft leader, whose indexes gain an entry every 4 KiB, and
	// their fsyncs were two of its three.
	unflushed bool
}

// indexCodec encodes one kind of entry.
type indexCodec[E any] struct {
	size   int
	encode func(base int64, e E, dst []byte)
	decode func(base int64, src []byte) E
}

// errIndexFull is appending to an index with no free slot (Kafka throws; a
// segment rolls before its index fills, so it never happens).
var errIndexFull = errors.New("attempt to append to a full index")

func newIndex[E any](d *Disk, path string, base, maxIndexSize int64, c indexCodec[E]) *index[E] {
	return &index[E]{disk: d, path: path, base: base, maxIndexSize: maxIndexSize, codec: c}
}

// roundDown is Kafka's roundDownToExactMultiple.
func roundDown(n, factor int64) int64 { return factor * (n / factor) }

// load opens the index on first use (LazyIndex.get).
func (x *index[E]) load() error {
	if x.loaded {
		return nil
	}
	f, ok := x.disk.files[clean(x.path)]
	if !ok {
		// A new file, preallocated: Kafka's createNewFile and setLength.
		if x.maxIndexSize < int64(x.codec.size) {
			return fmt.Errorf("%s: invalid max index size %d", x.path, x.maxIndexSize)
		}
		if err := x.disk.WriteFile(x.path, nil); err != nil {
			return err
		}
		x.length = roundDown(x.maxIndexSize, int64(x.codec.size))
		if err := x.disk.SetLength(x.path, x.length); err != nil {
			return err
		}
		x.loaded, x.unflushed = true, true
		return nil
	}
	x.unflushed = true
	x.disk.settle(f)
	x.length = f.size()
	n := int(x.length / int64(x.codec.size))
	x.untrusted = x.length%int64(x.codec.size) != 0 || f.hole > 0
	// Capacity for the entries the file holds data for, not for the whole
	// preallocated length (10 MiB of zeros would be 1.3M entries per index,
	// and a restarting broker loads an index per partition).
	data := f.data.bytes()
	x.ents = make([]E, 0, min(n, len(data)/x.codec.size))
	for i := 0; i < n && (i+1)*x.codec.size <= len(data); i++ {
		x.ents = append(x.ents, x.codec.decode(x.base, data[i*x.codec.size:]))
	}
	x.loaded = true
	return nil
}

func (x *index[E]) maxEntries() int { return int(x.length / int64(x.codec.size)) }

// entries is the number of entries (loading the index).
func (x *index[E]) entries() (int, error) {
	if err := x.load(); err != nil {
		return 0, err
	}
	return len(x.ents), nil
}

// last is the last entry, if any.
func (x *index[E]) last() (E, bool) {
	var zero E
	if len(x.ents) == 0 {
		return zero, false
	}
	return x.ents[len(x.ents)-1], true
}

// appendEntry writes e after the last entry.
func (x *index[E]) appendEntry(e E) error {
	if len(x.ents) >= x.maxEntries() {
		return fmt.Errorf("%s: %w (size = %d)", x.path, errIndexFull, len(x.ents))
	}
	buf := make([]byte, x.codec.size)
	x.codec.encode(x.base, e, buf)
	x.unflushed = true
	if err := x.disk.WriteAt(x.path, int64(len(x.ents)*x.codec.size), buf); err != nil {
		return err
	}
	x.ents = append(x.ents, e)
	return nil
}

// truncateToEntries forgets entries from n on. As with Kafka's mmap
// position, their bytes stay in the file until overwritten or trimmed.
func (x *index[E]) truncateToEntries(n int) { x.ents = x.ents[:n] }

// resize sets the file's length to newSize rounded down to whole entries
// (AbstractIndex.resize): preallocating again for an active segment, or
// trimming a closed one. The entries are kept.
func (x *index[E]) resize(newSize int64) error {
	if err := x.load(); err != nil {
		return err
	}
	rounded := roundDown(newSize, int64(x.codec.size))
	if rounded == x.length {
		return nil
	}
	x.unflushed = true
	if err := x.disk.SetLength(x.path, rounded); err != nil {
		return err
	}
	x.length = rounded
	return nil
}

// trimToValidSize cuts the file to its entries.
func (x *index[E]) trimToValidSize() error {
	if err := x.load(); err != nil {
		return err
	}
	return x.resize(int64(len(x.ents) * x.codec.size))
}

// reset forgets every entry and preallocates the file again.
func (x *index[E]) reset() error {
	if err := x.load(); err != nil {
		return err
	}
	x.ents = x.ents[:0]
	x.untrusted = false
	return x.resize(x.maxIndexSize)
}

// flush makes the file durable (the mmap's force). Like every use, it
// opens the index first: a segment flushed before its first append gets
// its index files then. A flush with nothing unflushed does nothing
// (index.unflushed).
func (x *index[E]) flush() error {
	if err := x.load(); err != nil {
		return err
	}
	if !x.unflushed {
		return nil
	}
	if err := x.disk.Fsync(x.path); err != nil {
		return err
	}
	x.unflushed = false
	return nil
}

// relativeOffset is offset - base if it fits an int32 (Kafka's toRelative).
func (x *index[E]) relativeOffset(offset int64) (int32, bool) {
	rel := offset - x.base
	if rel < 0 || rel > math.MaxInt32 {
		return 0, false
	}
	return int32(rel), true
}
