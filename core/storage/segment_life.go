package storage

import (
	"strings"

	"kafkascope/core/record"
)

// rebuildIndexes recreates both indexes from the segment's batches, as
// LogSegment.recover does after a crash or when an index is missing: an
// offset index entry for a batch (its last offset, its position) when more
// than index.interval.bytes lie between the previous entry and the batch's
// start, so a rebuilt index can differ from the one appends wrote (those
// index whole appends); then the time index gets the largest timestamp,
// and both are trimmed to their entries.
func (s *Segment) rebuildIndexes() error {
	if err := s.offsetIndex.reset(); err != nil {
		return err
	}
	if err := s.timeIndex.reset(); err != nil {
		return err
	}
	maxSoFar, _ := s.timeIndex.lastEntry()
	var validBytes, lastIndexEntry int64
	err := s.eachHeader(func(b BatchInfo, h record.BatchHeader) error {
		if h.MaxTimestamp > maxSoFar.Timestamp {
			maxSoFar = TimestampOffset{Timestamp: h.MaxTimestamp, Offset: b.LastOffset}
		}
		if validBytes-lastIndexEntry > s.indexIntervalBytes {
			if err := s.offsetIndex.append(b.LastOffset, int32(validBytes)); err != nil {
				return err
			}
			if err := s.timeIndex.maybeAppend(maxSoFar.Timestamp, maxSoFar.Offset, false); err != nil {
				return err
			}
			lastIndexEntry = validBytes
		}
		validBytes += int64(b.Size)
		return nil
	})
	if err != nil {
		return err
	}
	s.maxTimestampSoFar, s.maxTimestampKnown = maxSoFar, true
	if err := s.offsetIndex.trimToValidSize(); err != nil {
		return err
	}
	if err := s.timeIndex.maybeAppend(maxSoFar.Timestamp, maxSoFar.Offset, true); err != nil {
		return err
	}
	return s.timeIndex.trimToValidSize()
}

// truncateTo removes the batches from the one holding offset on, and the
// index entries at or above it; the indexes are preallocated again, since
// the truncated segment becomes the active one (LogSegment.truncateTo).
func (s *Segment) truncateTo(offset int64) error {
	at, found, err := s.translateOffset(offset)
	if err != nil {
		return err
	}
	if err := s.offsetIndex.truncateTo(offset); err != nil {
		return err
	}
	if err := s.timeIndex.truncateTo(offset); err != nil {
		return err
	}
	if err := s.txnIndex.truncateTo(offset); err != nil {
		return err
	}
	if err := s.resizeIndexes(s.offsetIndex.maxIndexSize); err != nil {
		return err
	}
	if found {
		if err := s.disk.Truncate(s.Path, at.position); err != nil {
			return err
		}
		s.batches.truncate(s.find(offset))
		s.Size = at.position
	}
	if s.Size == 0 {
		s.created = s.disk.Now()
		s.rollingBasedTimestampKnown = false
	}
	s.bytesSinceLastIndexEntry = 0
	if m, err := s.readMaxTimestampSoFar(); err != nil {
		return err
	} else if m.Timestamp >= 0 {
		return s.readLargestTimestamp()
	}
	return nil
}

// readLargestTimestamp recomputes the largest timestamp after a truncation:
// the time index's last entry, or a larger one in the batches after the
// position the offset index gives for it.
func (s *Segment) readLargestTimestamp() error {
	last, err := s.timeIndex.lastEntry()
	if err != nil {
		return err
	}
	at, err := s.offsetIndex.lookup(last.Offset)
	if err != nil {
		return err
	}
	after, err := s.largestTimestampAfter(int64(at.Position))
	if err != nil {
		return err
	}
	if after.Timestamp > last.Timestamp {
		last = after
	}
	s.maxTimestampSoFar, s.maxTimestampKnown = last, true
	return nil
}

// resizeIndexes sets both index files' lengths (preallocating them for the
// active segment).
func (s *Segment) resizeIndexes(size int64) error {
	if err := s.offsetIndex.resize(size); err != nil {
		return err
	}
	return s.timeIndex.resize(size)
}

// onBecomeInactiveSegment is a roll's work on the segment it closes: the
// time index gets the largest timestamp (what retention reads after a
// restart) and both indexes are trimmed to their entries.
func (s *Segment) onBecomeInactiveSegment() error {
	m, err := s.readMaxTimestampSoFar()
	if err != nil {
		return err
	}
	if err := s.timeIndex.maybeAppend(m.Timestamp, m.Offset, true); err != nil {
		return err
	}
	if err := s.offsetIndex.trimToValidSize(); err != nil {
		return err
	}
	return s.timeIndex.trimToValidSize()
}

// close is a clean shutdown's work on a segment (LogSegment.close): like a
// roll, but an index never opened is left alone.
func (s *Segment) close() error {
	if s.maxTimestampKnown {
		if err := s.timeIndex.maybeAppend(s.maxTimestampSoFar.Timestamp, s.maxTimestampSoFar.Offset, true); err != nil {
			return err
		}
	}
	if s.offsetIndex.loaded {
		if err := s.offsetIndex.trimToValidSize(); err != nil {
			return err
		}
	}
	if s.timeIndex.loaded {
		return s.timeIndex.trimToValidSize()
	}
	return nil
}

// flush makes the segment's files durable.
func (s *Segment) flush() error {
	f, err := s.disk.resolve(s.Path, &s.logFile)
	if err != nil {
		return err
	}
	s.disk.fsyncFile(f)
	if err := s.offsetIndex.flush(); err != nil {
		return err
	}
	if err := s.txnIndex.flush(); err != nil {
		return err
	}
	return s.timeIndex.flush()
}

// changeFileSuffixes renames the segment's files, e.g. "" to ".deleted"
// when it is scheduled for deletion. A file already at the new name is
// replaced (rename(2) semantics, as Kafka's atomic move).
func (s *Segment) changeFileSuffixes(oldSuffix, newSuffix string) error {
	rename := func(p string) (string, error) {
		to := strings.TrimSuffix(p, oldSuffix) + newSuffix
		if s.disk.Exists(p) {
			if s.disk.Exists(to) {
				_ = s.disk.Remove(to)
			}
			if err := s.disk.Rename(p, to); err != nil {
				return p, err
			}
		}
		return to, nil
	}
	var err error
	if s.Path, err = rename(s.Path); err != nil {
		return err
	}
	if to, err := rename(s.offsetIndex.path); err != nil {
		return err
	} else {
		s.offsetIndex.path = to
	}
	if to, err := rename(s.txnIndex.path); err != nil {
		return err
	} else {
		s.txnIndex.path = to
	}
	to, err := rename(s.timeIndex.path)
	s.timeIndex.path = to
	return err
}

// deleteIfExists removes the segment's files.
func (s *Segment) deleteIfExists() {
	for _, p := range []string{s.Path, s.offsetIndex.path, s.timeIndex.path, s.txnIndex.path} {
		if s.disk.Exists(p) {
			_ = s.disk.Remove(p)
		}
	}
}
