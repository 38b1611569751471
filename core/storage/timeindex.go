package storage

import (
	"encoding/binary"
	"fmt"
	"sort"

	"kafkascope/core/record"
)

// TimeIndexEntrySize is the size of one .timeindex entry: a timestamp
// (int64) and an offset relative to the segment's base (int32), big-endian.
const TimeIndexEntrySize = 12

// TimestampOffset is one .timeindex entry (Kafka's TimestampOffset): no
// record before Offset has a timestamp above Timestamp.
type TimestampOffset struct {
	Timestamp int64
	Offset    int64
}

var timeCodec = indexCodec[TimestampOffset]{
	size: TimeIndexEntrySize,
	encode: func(base int64, e TimestampOffset, dst []byte) {
		binary.BigEndian.PutUint64(dst, uint64(e.Timestamp))
		binary.BigEndian.PutUint32(dst[8:], uint32(int32(e.Offset-base)))
	},
	decode: func(base int64, src []byte) TimestampOffset {
		return TimestampOffset{Timestamp: int64(binary.BigEndian.Uint64(src)), Offset: base + int64(int32(binary.BigEndian.Uint32(src[8:])))}
	},
}

// timeIndex is a segment's .timeindex (Kafka's TimeIndex): entries of
// growing timestamps, used to find offsets by time and, through its last
// entry, the segment's largest timestamp after a restart (what time-based
// retention compares).
type timeIndex struct{ *index[TimestampOffset] }

func newTimeIndex(d *Disk, path string, base, maxIndexSize int64) timeIndex {
	return timeIndex{newIndex(d, path, base, maxIndexSize, timeCodec)}
}

// isFull keeps the last slot free for the entry a roll appends (Kafka
// overrides isFull for that reason).
func (x timeIndex) isFull() (bool, error) {
	n, err := x.entries()
	return n >= x.maxEntries()-1, err
}

// lastEntry is the last entry, or (NoTimestamp, base) when empty.
func (x timeIndex) lastEntry() (TimestampOffset, error) {
	if err := x.load(); err != nil {
		return TimestampOffset{}, err
	}
	if e, ok := x.last(); ok {
		return e, nil
	}
	return TimestampOffset{Timestamp: record.NoTimestamp, Offset: x.base}, nil
}

// maybeAppend adds (timestamp, offset) if timestamp is above the last
// entry's. skipFullCheck is for the entry written when the segment rolls or
// closes, which may use the reserved last slot.
func (x timeIndex) maybeAppend(timestamp, offset int64, skipFullCheck bool) error {
	if err := x.load(); err != nil {
		return err
	}
	if full, _ := x.isFull(); !skipFullCheck && full {
		return fmt.Errorf("%s: attempt to append to a full time index (size = %d)", x.path, len(x.ents))
	}
	last, _ := x.lastEntry()
	if len(x.ents) > 0 && offset < last.Offset {
		return fmt.Errorf("%s: attempt to append an offset (%d) to slot %d no larger than the last offset appended (%d)", x.path, offset, len(x.ents), last.Offset)
	}
	if len(x.ents) > 0 && timestamp < last.Timestamp {
		return fmt.Errorf("%s: attempt to append a timestamp (%d) to slot %d no larger than the last timestamp appended (%d)", x.path, timestamp, len(x.ents), last.Timestamp)
	}
	if timestamp <= last.Timestamp {
		return nil // the same entry again (a roll or close after an entry for the max)
	}
	if _, ok := x.relativeOffset(offset); !ok {
		return fmt.Errorf("%s: integer overflow for offset %d", x.path, offset)
	}
	return x.appendEntry(TimestampOffset{Timestamp: timestamp, Offset: offset})
}

// lookup returns the last entry whose timestamp is at or below target, or
// (NoTimestamp, base) when there is none.
func (x timeIndex) lookup(target int64) (TimestampOffset, error) {
	if err := x.load(); err != nil {
		return TimestampOffset{}, err
	}
	i := sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Timestamp > target }) - 1
	if i < 0 {
		return TimestampOffset{Timestamp: record.NoTimestamp, Offset: x.base}, nil
	}
	return x.ents[i], nil
}

// truncateTo removes the entries at or above offset.
func (x timeIndex) truncateTo(offset int64) error {
	if err := x.load(); err != nil {
		return err
	}
	x.truncateToEntries(sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Offset >= offset }))
	return nil
}
