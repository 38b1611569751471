package storage

import (
	"slices"
	"sort"
)

// Read returns whole batches starting with the one that contains
// startOffset, stopping before any batch that reaches maxOffset (exclusive:
// the HW for consumers, the LEO for followers) and once maxBytes is reached.
// If minOneBatch, the first batch is returned even when larger than maxBytes.
//
// As in Kafka (LocalLog.read), a read stays within one segment: the one
// holding startOffset, or the next one if that segment has nothing at or
// above it. The next fetch continues in the next segment. Within the
// segment, the offset index finds where to start reading. A startOffset
// outside [logStartOffset, logEndOffset] is ErrOffsetOutOfRange.
//
// The bytes are the caller's own copy; ReadSlice gives a view instead.
func (l *Log) Read(startOffset int64, maxBytes int, maxOffset int64, minOneBatch bool) ([]byte, error) {
	data, _, err := l.ReadSlice(startOffset, maxBytes, maxOffset, minOneBatch)
	return slices.Clone(data), err
}

// FileSlice is where a read's bytes lie: Size bytes of the segment file
// Path from Position. Kafka's fetch path keeps its reads as such slices of
// the file (FileRecords.slice) and sends them with sendfile (Disk.SendFile)
// when it writes the response. An empty read has Size 0.
type FileSlice struct {
	Path     string
	Position int64
	Size     int64
}

// ReadSlice is Read, and where in which segment file the bytes lie. The
// bytes are not a copy but a view of the segment file, which they stay
// equal to: the disk never changes bytes a reader holds (file.shared), and
// the caller must not change them either. The fetch paths send them on
// as they are, as Kafka sends a FileRecords slice.
func (l *Log) ReadSlice(startOffset int64, maxBytes int, maxOffset int64, minOneBatch bool) ([]byte, FileSlice, error) {
	if startOffset < l.logStartOffset || startOffset > l.logEndOffset {
		return nil, FileSlice{}, ErrOffsetOutOfRange
	}
	if startOffset >= maxOffset {
		return nil, FileSlice{}, nil
	}
	for i := l.floorSegment(startOffset); i >= 0 && i < len(l.segments); i++ {
		data, slice, found, err := l.segments[i].read(startOffset, maxBytes, maxOffset, minOneBatch)
		if err != nil || found {
			return data, slice, err
		}
	}
	return nil, FileSlice{}, nil
}

// floorSegment is the index of the last segment whose base offset is at or
// below offset, or -1.
func (l *Log) floorSegment(offset int64) int {
	return sort.Search(len(l.segments), func(i int) bool { return l.segments[i].BaseOffset > offset }) - 1
}
