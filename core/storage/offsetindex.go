package storage

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// OffsetIndexEntrySize is the size of one .index entry: the offset relative
// to the segment's base (int32) and the byte position of a batch in the
// .log file (int32), big-endian.
const OffsetIndexEntrySize = 8

// OffsetPosition is one .index entry (Kafka's OffsetPosition): Position is
// where, in the .log file, the append that ended at Offset begins.
type OffsetPosition struct {
	Offset   int64
	Position int32
}

var offsetCodec = indexCodec[OffsetPosition]{
	size: OffsetIndexEntrySize,
	encode: func(base int64, e OffsetPosition, dst []byte) {
		binary.BigEndian.PutUint32(dst, uint32(int32(e.Offset-base)))
		binary.BigEndian.PutUint32(dst[4:], uint32(e.Position))
	},
	decode: func(base int64, src []byte) OffsetPosition {
		return OffsetPosition{Offset: base + int64(int32(binary.BigEndian.Uint32(src))), Position: int32(binary.BigEndian.Uint32(src[4:]))}
	},
}

// offsetIndex is a segment's sparse .index (Kafka's OffsetIndex): a lookup
// finds the last entry at or below an offset, and the log is scanned from
// its position.
type offsetIndex struct{ *index[OffsetPosition] }

func newOffsetIndex(d *Disk, path string, base, maxIndexSize int64) offsetIndex {
	return offsetIndex{newIndex(d, path, base, maxIndexSize, offsetCodec)}
}

// isFull: no free slot.
func (x offsetIndex) isFull() (bool, error) {
	n, err := x.entries()
	return n >= x.maxEntries(), err
}

// lastOffset is the last entry's offset, or the base offset when empty.
func (x offsetIndex) lastOffset() int64 {
	if e, ok := x.last(); ok {
		return e.Offset
	}
	return x.base
}

// lookup returns the last entry whose offset is at or below target, or
// (base, 0) when there is none.
func (x offsetIndex) lookup(target int64) (OffsetPosition, error) {
	if err := x.load(); err != nil {
		return OffsetPosition{}, err
	}
	i := sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Offset > target }) - 1
	if i < 0 {
		return OffsetPosition{Offset: x.base, Position: 0}, nil
	}
	return x.ents[i], nil
}

// canAppendOffset: the offset fits the index's 32-bit relative offsets.
func (x offsetIndex) canAppendOffset(offset int64) (bool, error) {
	if err := x.load(); err != nil {
		return false, err
	}
	_, ok := x.relativeOffset(offset)
	return ok, nil
}

// append adds an entry; its offset must be above the last one.
func (x offsetIndex) append(offset int64, position int32) error {
	if err := x.load(); err != nil {
		return err
	}
	if _, ok := x.relativeOffset(offset); !ok {
		return fmt.Errorf("%s: integer overflow for offset %d", x.path, offset)
	}
	if len(x.ents) > 0 && offset <= x.lastOffset() {
		return fmt.Errorf("%s: attempt to append an offset %d to position %d no larger than the last offset appended (%d)", x.path, offset, len(x.ents), x.lastOffset())
	}
	return x.appendEntry(OffsetPosition{Offset: offset, Position: position})
}

// truncateTo removes the entries at or above offset.
func (x offsetIndex) truncateTo(offset int64) error {
	if err := x.load(); err != nil {
		return err
	}
	x.truncateToEntries(sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Offset >= offset }))
	return nil
}
