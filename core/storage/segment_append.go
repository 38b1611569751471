package storage

import (
	"fmt"

	"kafkascope/core/record"
)

// appendSet is one append to a log: the batches of one produce request for
// the partition (leader) or of one fetch response (follower), which Kafka
// writes to one segment in one LogSegment.append.
type appendSet struct {
	data    []byte
	headers []record.BatchHeader
	// firstOffset and lastOffset of the whole set; maxTimestamp is the
	// largest batch max timestamp and shallowOffsetOfMaxTimestamp the last
	// offset of the first batch that has it (LogValidator's rule).
	firstOffset, lastOffset                   int64
	maxTimestamp, shallowOffsetOfMaxTimestamp int64
	// src is the run data is a batch of, if it is one (the file holds
	// it as the run's).
	src runRef
}

func newAppendSet(data []byte, hs []record.BatchHeader) appendSet {
	a := appendSet{data: data, headers: hs, firstOffset: hs[0].BaseOffset, lastOffset: hs[len(hs)-1].LastOffset(),
		maxTimestamp: record.NoTimestamp, shallowOffsetOfMaxTimestamp: -1}
	for _, h := range hs {
		if h.MaxTimestamp > a.maxTimestamp {
			a.maxTimestamp, a.shallowOffsetOfMaxTimestamp = h.MaxTimestamp, h.LastOffset()
		}
	}
	return a
}

// rollParams is what shouldRoll weighs (Kafka's RollParams).
type rollParams struct {
	maxSegmentMs, maxSegmentBytes int64
	maxTimestampInMessages        int64
	maxOffsetInMessages           int64
	messagesSize                  int64
	nowMs                         int64
}

// Why a segment rolled (what Kafka's debug line on a roll weighs).
const (
	RollSegmentBytes = "segment.bytes"
	RollSegmentMs    = "segment.ms"
	RollIndexFull    = "index full"
	RollOffsetRange  = "offsets beyond the index's range"
)

// shouldRoll is LogSegment.shouldRoll: roll before this append if it would
// overflow segment.bytes, if the segment is non-empty and segment.ms (less
// this segment's jitter) has passed, if an index is full, or if the
// append's offsets do not fit the index's relative offsets. It returns the
// first reason that holds, or "". Checking the indexes opens them
// (creating the files of a new segment).
func (s *Segment) shouldRoll(p rollParams) (string, error) {
	waited, err := s.timeWaitedForRoll(p.nowMs, p.maxTimestampInMessages)
	if err != nil {
		return "", err
	}
	offFull, err := s.offsetIndex.isFull()
	if err != nil {
		return "", err
	}
	timeFull, err := s.timeIndex.isFull()
	if err != nil {
		return "", err
	}
	fits, err := s.offsetIndex.canAppendOffset(p.maxOffsetInMessages)
	if err != nil {
		return "", err
	}
	switch {
	case s.Size > p.maxSegmentBytes-p.messagesSize:
		return RollSegmentBytes, nil
	case s.Size > 0 && waited > p.maxSegmentMs-s.rollJitterMs:
		return RollSegmentMs, nil
	case offFull || timeFull:
		return RollIndexFull, nil
	case !fits:
		return RollOffsetRange, nil
	}
	return "", nil
}

// timeWaitedForRoll: the new batch's max timestamp minus the segment's
// rolling timestamp, or, when the segment has no timestamp, the time since
// the segment was created.
func (s *Segment) timeWaitedForRoll(nowMs, messageTimestamp int64) (int64, error) {
	if err := s.loadFirstBatchTimestamp(); err != nil {
		return 0, err
	}
	if s.rollingBasedTimestampKnown && s.rollingBasedTimestamp >= 0 {
		return messageTimestamp - s.rollingBasedTimestamp, nil
	}
	return nowMs - s.created.UnixMilli(), nil
}

// loadFirstBatchTimestamp reads the first batch's max timestamp from the
// file if the segment was not appended to since it was opened.
func (s *Segment) loadFirstBatchTimestamp() error {
	if s.rollingBasedTimestampKnown || s.Size == 0 {
		return nil
	}
	f, err := s.disk.get(s.Path)
	if err != nil {
		return err
	}
	h, err := record.ParseHeader(headerBytes(f, 0))
	if err != nil {
		return err
	}
	s.rollingBasedTimestamp, s.rollingBasedTimestampKnown = h.MaxTimestamp, true
	return nil
}

// append writes a set of batches at the end of the segment and adds index
// entries as LogSegment.append does: an offset index entry (the set's last
// offset, the position where the set starts) when more than
// index.interval.bytes were appended since the last entry, counting the
// earlier appends only, and with it a time index entry for the largest
// timestamp so far if that grew. The first append to a segment never gets
// an entry.
func (s *Segment) append(a appendSet) error {
	if len(a.data) == 0 {
		return nil
	}
	physicalPosition := s.Size
	if physicalPosition == 0 {
		s.rollingBasedTimestamp, s.rollingBasedTimestampKnown = a.maxTimestamp, true
	}
	if ok, err := s.offsetIndex.canAppendOffset(a.lastOffset); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("segment %s: offset %d overflows the index's relative offsets", s.Path, a.lastOffset)
	}
	if err := s.appendToFile(a); err != nil {
		return err
	}
	pos := physicalPosition
	for _, h := range a.headers {
		s.addBatchInfo(h, pos)
		pos += int64(h.SizeInBytes())
	}
	s.Size = pos
	maxSoFar, err := s.readMaxTimestampSoFar()
	if err != nil {
		return err
	}
	if a.maxTimestamp > maxSoFar.Timestamp {
		s.maxTimestampSoFar = TimestampOffset{Timestamp: a.maxTimestamp, Offset: a.shallowOffsetOfMaxTimestamp}
	}
	if s.bytesSinceLastIndexEntry > s.indexIntervalBytes {
		if err := s.offsetIndex.append(a.lastOffset, int32(physicalPosition)); err != nil {
			return err
		}
		if err := s.timeIndex.maybeAppend(s.maxTimestampSoFar.Timestamp, s.maxTimestampSoFar.Offset, false); err != nil {
			return err
		}
		s.bytesSinceLastIndexEntry = 0
	}
	s.bytesSinceLastIndexEntry += int64(len(a.data))
	return nil
}

// appendToFile adds a's bytes to the .log file (Disk.Append, the file
// found through logFile), as its run's batch when it is one.
func (s *Segment) appendToFile(a appendSet) error {
	f, err := s.disk.resolve(s.Path, &s.logFile)
	if err != nil {
		return s.disk.Append(s.Path, a.data) // gone: Append creates it
	}
	if a.src.run != nil {
		return s.disk.appendRun(f, a.src.run, a.src.i)
	}
	return s.disk.appendFile(f, a.data)
}
