package storage

import (
	"fmt"

	"kafkascope/core/record"
)

// batchPos is where translateOffset found a batch.
type batchPos struct {
	position int64
	size     int64
}

// translateOffset finds the first batch whose last offset is at or above
// offset, as Kafka does: the offset index gives the last indexed position
// at or below it, and the batch headers are read from there (the log is
// never scanned from its start). ok is false if no such batch is in this
// segment.
//
// The scan resumes where the previous one from the same index entry
// stopped when it looked for a smaller offset (segmentScan): readers ask
// for increasing offsets (a Raft listener reads each committed batch in
// turn), and the headers between the entry and there were all read then.
func (s *Segment) translateOffset(offset int64) (batchPos, bool, error) {
	mapping, err := s.offsetIndex.lookup(offset)
	if err != nil {
		return batchPos{}, false, err
	}
	f, err := s.disk.get(s.Path)
	if err != nil {
		return batchPos{}, false, err
	}
	rewrites := f.rewrites
	from := int64(mapping.Position)
	pos := from
	if h := s.scan; h.file == f && h.rewrites == rewrites && h.from == from && h.offset <= offset {
		pos = h.pos
	}
	for pos < s.Size {
		h, size, err := s.headerAt(f, pos)
		if err != nil {
			return batchPos{}, false, err
		}
		if h.LastOffset() >= offset {
			s.scan = segmentScan{file: f, rewrites: rewrites, from: from, pos: pos, offset: offset}
			return batchPos{position: pos, size: size}, true, nil
		}
		pos += size
	}
	s.scan = segmentScan{file: f, rewrites: rewrites, from: from, pos: pos, offset: offset}
	return batchPos{}, false, nil
}

// segmentScan is where translateOffset's last scan stopped: walking the
// headers of the segment file from the index position from, every batch
// before pos ends below offset. While the file's bytes are the same (its
// rewrite count has not moved; appends only add batches after them), a
// scan from the same position for an offset at or above offset may start
// at pos and find what a scan from the start would.
type segmentScan struct {
	file     *file
	rewrites uint64
	from     int64
	pos      int64
	offset   int64
}

// headerAt reads the header of the batch at pos of the segment's file f.
func (s *Segment) headerAt(f *file, pos int64) (record.BatchHeader, int64, error) {
	n := f.written()
	h, err := record.ParseHeader(headerBytes(f, pos))
	if err == nil && pos+int64(h.SizeInBytes()) > n || err != nil && n < s.Size {
		// The file lost bytes this Log still holds: a log of a process
		// that is gone, read after a power loss reverted its files (a
		// running broker's log never sees this).
		return h, 0, fmt.Errorf("%w: %s holds %d bytes, the log wrote %d", ErrSegmentShorterThanIndex, s.Path, n, s.Size)
	}
	if err != nil {
		return h, 0, fmt.Errorf("segment %s at position %d: %w", s.Path, pos, err)
	}
	return h, int64(h.SizeInBytes()), nil
}

// read returns whole batches from the first one that holds an offset at or
// above startOffset: at most maxBytes (but the first batch whole if
// minOneBatch), stopping before a batch that reaches maxOffset. found is
// false when the segment has nothing at or above startOffset (the log then
// reads the next segment). A read never spans two segments, as in Kafka.
//
// The slice says where the bytes lie in the file (Kafka's LogSegment.read
// answers with such a slice of the file, not with its bytes).
func (s *Segment) read(startOffset int64, maxBytes int, maxOffset int64, minOneBatch bool) ([]byte, FileSlice, bool, error) {
	at, ok, err := s.translateOffset(startOffset)
	if err != nil || !ok {
		return nil, FileSlice{}, false, err
	}
	// The bytes are a view of the file, not a copy (file.readShared): the
	// file never changes them, and the reader must not either.
	f, err := s.disk.get(s.Path)
	if err != nil {
		return nil, FileSlice{}, false, err
	}
	end := at.position
	for end < s.Size {
		h, size, err := s.headerAt(f, end)
		if err != nil {
			return f.readShared(at.position, end-at.position), FileSlice{s.Path, at.position, end - at.position}, true, err
		}
		if h.LastOffset() >= maxOffset {
			break
		}
		if end-at.position+size > int64(maxBytes) && !(minOneBatch && end == at.position) {
			break
		}
		end += size
	}
	return f.readShared(at.position, end-at.position), FileSlice{s.Path, at.position, end - at.position}, true, nil
}

// headerBytes is the bytes of f from pos that a batch header there takes
// (fewer at the file's end): a header is parsed where it lies, without
// reading the whole file.
func headerBytes(f *file, pos int64) []byte {
	n := f.written()
	pos = min(pos, n)
	return f.readAt(pos, min(record.HeaderSize, n-pos))
}

// largestTimestampAfter is the largest batch max timestamp at or after
// position, and the last offset of the batch that has it.
func (s *Segment) largestTimestampAfter(position int64) (TimestampOffset, error) {
	best := TimestampOffset{Timestamp: record.NoTimestamp, Offset: -1}
	f, err := s.disk.get(s.Path)
	if err != nil {
		return best, err
	}
	for pos := position; pos < s.Size && pos < f.written(); {
		h, err := record.ParseHeader(headerBytes(f, pos))
		if err != nil {
			return best, err
		}
		if h.MaxTimestamp > best.Timestamp {
			best = TimestampOffset{Timestamp: h.MaxTimestamp, Offset: h.LastOffset()}
		}
		pos += int64(h.SizeInBytes())
	}
	return best, nil
}
