package storage

import (
	"fmt"

	"kafkascope/core/record"
)

// Header reads batch b's header from the segment's .log file: the fields
// the directory of batches does not keep (BatchInfo: the max timestamp, the
// producer). b must be one of the segment's batches. While the log is open
// its file holds every batch of the directory (appends, truncations and
// the cleaner change both together); a file cut short under a log whose
// process is gone (a power loss) is an error here.
func (s *Segment) Header(b BatchInfo) (record.BatchHeader, error) {
	f, err := s.disk.get(s.Path)
	if err != nil {
		return record.BatchHeader{}, err
	}
	return headerAt(s.Path, f, b)
}

// eachHeader calls fn with every batch of the directory and its header,
// read from one look at the .log file, in file order; it stops at fn's
// first error.
func (s *Segment) eachHeader(fn func(b BatchInfo, h record.BatchHeader) error) error {
	if s.batches.len() == 0 {
		return nil
	}
	f, err := s.disk.get(s.Path)
	if err != nil {
		return err
	}
	for b := range s.Batches() {
		h, err := headerAt(s.Path, f, b)
		if err != nil {
			return err
		}
		if err := fn(b, h); err != nil {
			return err
		}
	}
	return nil
}

// headerAt parses b's header from the file f and checks that it is the
// batch the directory lists.
func headerAt(path string, f *file, b BatchInfo) (record.BatchHeader, error) {
	if b.Position < 0 || b.End() > f.written() {
		return record.BatchHeader{}, fmt.Errorf("%w: %s: the batch at %d (%d bytes) is past the file's end (%d bytes)", ErrSegmentShorterThanIndex, path, b.Position, b.Size, f.written())
	}
	h, err := record.ParseHeader(f.readAt(int64(b.Position), min(int64(b.Size), record.HeaderSize)))
	if err != nil {
		return record.BatchHeader{}, fmt.Errorf("%s: the batch at %d: %w", path, b.Position, err)
	}
	if h.BaseOffset != b.BaseOffset {
		return record.BatchHeader{}, fmt.Errorf("%s: the batch at %d has base offset %d, the log lists %d", path, b.Position, h.BaseOffset, b.BaseOffset)
	}
	return h, nil
}

// markerAt reads the transaction marker of the control batch b (nil if it
// holds another control record).
func (s *Segment) markerAt(b BatchInfo) (*record.EndTxnMarker, error) {
	f, err := s.disk.get(s.Path)
	if err != nil {
		return nil, err
	}
	if b.Position < 0 || b.End() > f.written() {
		return nil, fmt.Errorf("%w: %s: the batch at %d (%d bytes) is past the file's end (%d bytes)", ErrSegmentShorterThanIndex, s.Path, b.Position, b.Size, f.written())
	}
	return parseMarker(f.readAt(int64(b.Position), int64(b.Size)))
}
