package storage

import (
	"fmt"

	"kafkascope/core/record"
)

// The log cleaner (Kafka's LogCleaner and Cleaner): log compaction of one
// partition's log, as functions over its segments. The broker decides when
// to clean and which log (GrabFilthiestLog); Clean does one pass.
//
// A pass, in Kafka's order:
//  1. map every key of the dirty section [FirstDirtyOffset,
//     FirstUncleanableOffset) to its last offset, until the map is full;
//  2. recopy every segment from the start of the log up to the map's end,
//     grouped so a group's old sizes fit in segment.bytes, keeping a record
//     only if no later offset in the map has its key (a tombstone also goes
//     once its batch's delete horizon has passed);
//  3. swap each group's cleaned segment in for the old ones.
//
// The active segment is never cleaned; offsets never change. What the pass
// reached (the map's end + 1) is the next pass's first dirty offset, which
// the broker writes to cleaner-offset-checkpoint.

// CleanerStats counts what a pass read and kept (Kafka's CleanerStats).
type CleanerStats struct {
	MapMessagesRead   int64 // records read while building the offset map
	MapBytesRead      int64
	MessagesRead      int64 // records read while recopying
	MessagesWritten   int64 // records kept
	BytesRead         int64
	BytesWritten      int64
	InvalidMessages   int64 // keyless records dropped
	TombstonesRemoved int64 // tombstones dropped (their horizon had passed)
}

// CleanResult is what one pass did.
type CleanResult struct {
	FirstDirtyOffset int64
	EndOffset        int64 // the first offset not cleaned: the next pass's first dirty offset
	Stats            CleanerStats
	// Segments are the base offsets of the cleaned segments swapped in.
	// The replaced segments' files are renamed .deleted and removed
	// file.delete.delay.ms later, as every deleted segment's.
	Segments []int64
}

// Clean runs one cleaning pass over t.Log at nowMs with m as its offset
// map (cleared first). On error the log may have been cleaned in part
// (whole groups are swapped in one at a time), which is still a valid log.
func Clean(t *LogToClean, m *OffsetMap, nowMs int64) (CleanResult, error) {
	l := t.Log
	res := CleanResult{FirstDirtyOffset: t.FirstDirtyOffset}
	if err := buildOffsetMap(l, t.FirstDirtyOffset, t.FirstUncleanableOffset, m, &res.Stats); err != nil {
		return res, err
	}
	res.EndOffset = m.LatestOffset() + 1
	last, err := l.lastRecords()
	if err != nil {
		return res, err
	}
	// One transactions' state through every group of the pass, as Kafka's
	// doClean hands one CleanedTransactionMetadata to each cleanSegments.
	f := &batchFilter{m: m, nowMs: nowMs, deleteRetentionMs: t.Config.DeleteRetentionMs, last: last, txns: newCleanerTxns(), stats: &res.Stats}
	groups, err := groupSegmentsBySize(l.segmentsIn(0, res.EndOffset), t.Config.SegmentBytes, t.Config.SegmentIndexBytes, t.FirstUncleanableOffset)
	if err != nil {
		return res, err
	}
	for _, group := range groups {
		chunks := make([][]byte, 0, len(group))
		for i, s := range group {
			// The aborted transactions of the whole segment, for the
			// cleaned segment's index (cleanSegments).
			upper := s.NextOffset()
			if i+1 < len(group) {
				upper = group[i+1].BaseOffset
			}
			aborted, err := l.collectAbortedTxns(s.BaseOffset, upper)
			if err != nil {
				return res, err
			}
			f.txns.add(aborted)
			data, err := l.disk.ReadFile(s.Path)
			if err != nil {
				return res, err
			}
			var cleaned []byte
			for b := range s.Batches() {
				end := b.End()
				if end > int64(len(data)) {
					return res, fmt.Errorf("%w: %s", ErrSegmentShorterThanIndex, s.Path)
				}
				cleaned = f.filter(cleaned, data[b.Position:end])
			}
			chunks = append(chunks, cleaned)
		}
		if err := l.replaceSegments(chunks, f.txns.takeIndex(), group); err != nil {
			return res, err
		}
		res.Segments = append(res.Segments, group[0].BaseOffset)
	}
	return res, nil
}

// buildOffsetMap is Kafka's Cleaner.buildOffsetMap: map the keys of
// [start, end) segment by segment, stopping in the middle of a segment when
// the map is full. Its latest offset ends at the last offset mapped, or at
// the end of the last segment read whole (end - 1 if every one was).
func buildOffsetMap(l *Log, start, end int64, m *OffsetMap, stats *CleanerStats) error {
	m.Clear()
	dirty := l.segmentsIn(start, end)
	aborted, err := l.collectAbortedTxns(start, end)
	if err != nil {
		return err
	}
	txns := newCleanerTxns()
	txns.add(aborted)
	for i, s := range dirty {
		next := end
		if i+1 < len(dirty) {
			next = dirty[i+1].BaseOffset
		}
		full, err := mapSegment(l, s, m, start, next, txns, stats)
		if err != nil || full {
			return err
		}
	}
	return nil
}

// mapSegment adds the keyed records of s at or after start to m, except
// aborted data (its keys do not hide older records: they are not the
// latest values of the log). It reports whether m filled up before the
// segment's end.
func mapSegment(l *Log, s *Segment, m *OffsetMap, start, nextSegmentStart int64, txns *cleanerTxns, stats *CleanerStats) (bool, error) {
	data, err := l.disk.ReadFile(s.Path)
	if err != nil {
		return false, err
	}
	for bi := range s.batchesFrom(s.find(start)) {
		end := bi.End()
		if end > int64(len(data)) {
			return false, fmt.Errorf("%w: %s", ErrSegmentShorterThanIndex, s.Path)
		}
		b, _, err := record.Decode(data[bi.Position:end])
		if err != nil {
			return false, fmt.Errorf("mapping %s at offset %d: %w", s.Path, bi.BaseOffset, err)
		}
		h, err := record.ParseHeader(data[bi.Position:end])
		if err != nil {
			return false, err
		}
		switch aborted := txns.onBatch(h, &b); {
		case b.IsControl():
			stats.MapMessagesRead++
		case aborted:
			stats.MapMessagesRead += int64(len(b.Records))
		default:
			for i := range b.Records {
				r := &b.Records[i]
				if r.Key != nil && r.Offset >= start {
					if m.Full() {
						return true, nil
					}
					m.Put(r.Key, r.Offset)
				}
				stats.MapMessagesRead++
			}
		}
		if b.LastOffset() >= start {
			m.UpdateLatestOffset(b.LastOffset())
		}
		stats.MapBytesRead += int64(bi.Size)
	}
	// Offsets missing at the segment's end (cleaned away earlier) are
	// covered too.
	m.UpdateLatestOffset(nextSegmentStart - 1)
	return false, nil
}
