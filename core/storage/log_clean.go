package storage

import (
	"fmt"
	"math"
	"path"
	"slices"

	"kafkascope/core/record"
)

// The few Log methods the log cleaner needs: segment ranges as Kafka's
// LogSegments answers them, segment timestamps, the producers' last
// batches, and swapping cleaned segments in.

// Suffixes of the files a cleaning pass goes through (Kafka's LogFileUtils;
// DeletedFileSuffix is with the segment's own suffixes).
const (
	CleanedFileSuffix = ".cleaned" // a cleaned segment being written
	SwapFileSuffix    = ".swap"    // a cleaned segment about to replace others
)

// segmentsIn is Kafka's LogSegments.values(from, to): the segments from the
// one containing from (or the first) up to, excluding, the first whose base
// offset is at or past to. from == to is empty.
func (l *Log) segmentsIn(from, to int64) []*Segment {
	if from >= to {
		return nil
	}
	start := 0
	for i, s := range l.segments {
		if s.BaseOffset <= from {
			start = i
		}
	}
	end := start
	for end < len(l.segments) && l.segments[end].BaseOffset < to {
		end++
	}
	return l.segments[start:end]
}

// nonActiveSegmentsFrom is the segments from the one containing from up to,
// excluding, the active segment.
func (l *Log) nonActiveSegmentsFrom(from int64) []*Segment {
	if from > l.active().BaseOffset {
		return nil
	}
	return l.segmentsIn(from, l.active().BaseOffset)
}

// segmentsSize is the total size of segs in bytes.
func segmentsSize(segs []*Segment) int64 {
	var n int64
	for _, s := range segs {
		n += s.Size
	}
	return n
}

// largestTimestamp is the largest record timestamp in s, or ok=false if no
// batch carries one (Kafka then uses the file's last-modified time, which
// the simulated disk does not keep). The timestamps are read from the
// batch headers in the file (BatchInfo keeps none); a file that cannot be
// read counts as having none, which keeps the segment from being cleaned
// (an open log's file always holds its batches: see Segment.Header).
func (s *Segment) largestTimestamp() (int64, bool) {
	ts := int64(-1)
	err := s.eachHeader(func(_ BatchInfo, h record.BatchHeader) error {
		ts = max(ts, h.MaxTimestamp)
		return nil
	})
	return ts, err == nil && ts >= 0
}

// firstBatchTimestamp is the first batch's max timestamp, or MaxInt64 when
// the segment is empty or that batch has none (Kafka's
// LogSegment.getFirstBatchTimestamp, which also reads it from the file);
// a file that cannot be read counts as having none, as largestTimestamp.
func (s *Segment) firstBatchTimestamp() int64 {
	if s.NumBatches() == 0 {
		return math.MaxInt64
	}
	h, err := s.Header(s.Batch(0))
	if err != nil || h.MaxTimestamp < 0 {
		return math.MaxInt64
	}
	return h.MaxTimestamp
}

// replaceSegments swaps the cleaned bytes of old (consecutive non-active
// segments, oldest first) in as one segment at old[0]'s base offset, the
// way Kafka's Cleaner.cleanSegments and LocalLog.replaceSegments do it: a
// new segment is opened with the .cleaned suffix on its three files
// (<base>.log.cleaned, .index.cleaned, .timeindex.cleaned) and each chunk
// of cleaned bytes is appended to it as one append, so its indexes get
// entries by LogSegment.append's index.interval.bytes rule (Kafka appends
// what one read buffer kept; here a chunk is what one old segment kept,
// which always fits a buffer at the simulator's sizes), and its
// transaction index gets the aborted transactions whose markers stayed.
// The segment is
// then closed as on a roll (its last time index entry, its indexes
// trimmed) and flushed; its files are renamed .swap, the old segments are
// taken out of the log and deleted as every deleted segment is (renamed
// .deleted, removed file.delete.delay.ms later), and the .swap files lose
// their suffix.
//
// Each step is a durable rename on the simulated disk and the whole swap
// runs inside one event, so no crash can stop it halfway: the .cleaned and
// .swap names never outlive the call (the loader still handles them as
// Kafka's does, see removeStrayFiles).
func (l *Log) replaceSegments(chunks [][]byte, aborted []AbortedTxn, old []*Segment) error {
	if len(old) == 0 {
		return fmt.Errorf("replaceSegments: no segments to replace")
	}
	first := slices.Index(l.segments, old[0])
	if first < 0 || first+len(old) >= len(l.segments) {
		return fmt.Errorf("replaceSegments: segments are not in the log or include the active segment")
	}
	for i, s := range old {
		if l.segments[first+i] != s {
			return fmt.Errorf("replaceSegments: segments are not consecutive")
		}
	}
	base := old[0].BaseOffset
	// Files of an earlier cleaning at these names go first
	// (UnifiedLog.createNewCleanedSegment).
	for _, suffix := range segmentFileSuffixes {
		if p := path.Join(l.dir, SegmentFileName(base, suffix)+CleanedFileSuffix); l.disk.Exists(p) {
			if err := l.disk.Remove(p); err != nil {
				return err
			}
		}
	}
	seg, err := openSegmentWithSuffix(l.disk, l.dir, base, l.cfg, 0, CleanedFileSuffix)
	if err != nil {
		return err
	}
	for _, chunk := range chunks {
		var hs []record.BatchHeader
		if _, err := record.Scan(chunk, func(_ int, h record.BatchHeader) bool {
			hs = append(hs, h)
			return true
		}); err != nil {
			return fmt.Errorf("replaceSegments: cleaned bytes: %w", err)
		}
		if len(hs) == 0 {
			continue
		}
		if err := seg.append(newAppendSet(chunk, hs)); err != nil {
			return err
		}
	}
	// The aborted transactions whose markers the pass kept
	// (CleanedTransactionMetadata.cleanedIndex).
	for _, a := range aborted {
		if err := seg.txnIndex.append(a); err != nil {
			return err
		}
	}
	if err := seg.onBecomeInactiveSegment(); err != nil {
		return err
	}
	if err := seg.flush(); err != nil {
		return err
	}
	if err := seg.changeFileSuffixes(CleanedFileSuffix, SwapFileSuffix); err != nil {
		return err
	}
	l.segments = slices.Replace(l.segments, first, first+len(old), seg)
	l.scheduleFileDeletion(old)
	return seg.changeFileSuffixes(SwapFileSuffix, "")
}
