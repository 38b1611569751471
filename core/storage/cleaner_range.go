package storage

import "math"

// How much of a log a cleaning pass may touch, as Kafka's LogCleanerManager
// computes it.
//
//	log start ... clean section ... | firstDirty ... dirty ... | firstUncleanable ... active segment
//
// The clean section was cleaned by earlier passes (it holds at most one
// record per key of the keys it had); the dirty section holds what was
// appended since. A pass maps the dirty section's keys and recopies
// everything before firstUncleanable.

// CleanableRange is Kafka's OffsetsToClean.
//
// Invariant: FirstDirtyOffset <= FirstUncleanableDirtyOffset.
type CleanableRange struct {
	FirstDirtyOffset            int64 // where the dirty section starts
	FirstUncleanableDirtyOffset int64 // the first offset this pass may not clean
	// ForceUpdateCheckpoint: the checkpointed offset was outside the log
	// (below its start or past its end) and is reset to FirstDirtyOffset.
	ForceUpdateCheckpoint bool
}

// cleanableOffsets is Kafka's LogCleanerManager.cleanableOffsets. lastClean
// is the log's entry in cleaner-offset-checkpoint, if any. A pass never
// cleans past the last stable offset (an open transaction's records may
// still be aborted, and the cleaner must know which), the active segment,
// or the first dirty segment whose newest record is younger than
// min.compaction.lag.ms.
func cleanableOffsets(l *Log, cfg CleanerLogConfig, lastClean int64, hasLastClean bool, nowMs int64) CleanableRange {
	r := CleanableRange{FirstDirtyOffset: lastClean}
	switch {
	case !hasLastClean:
		r.FirstDirtyOffset = l.logStartOffset
	case lastClean < l.logStartOffset, lastClean > l.logEndOffset:
		r.FirstDirtyOffset, r.ForceUpdateCheckpoint = l.logStartOffset, true
	}
	lso, err := l.LastStableOffset()
	if err != nil {
		lso = l.highWatermark // a producer state that cannot be read: HW bounds the LSO
	}
	uncleanable := min(lso, l.active().BaseOffset)
	if lag := max(cfg.MinCompactionLagMs, 0); lag > 0 {
		for _, s := range l.nonActiveSegmentsFrom(r.FirstDirtyOffset) {
			// A segment with no timestamps counts as modified now, so it
			// waits out the lag (Kafka uses the file's mtime).
			ts, ok := s.largestTimestamp()
			if !ok || ts > nowMs-lag {
				uncleanable = min(uncleanable, s.BaseOffset)
				break
			}
		}
	}
	r.FirstUncleanableDirtyOffset = max(r.FirstDirtyOffset, uncleanable)
	return r
}

// maxCompactionDelay is how long past max.compaction.lag.ms the oldest
// dirty data of the log is (0 if not past it). A log with such data is
// cleaned even below min.cleanable.dirty.ratio. A segment's age is its
// first batch's timestamp.
func maxCompactionDelay(l *Log, cfg CleanerLogConfig, firstDirty, nowMs int64) int64 {
	earliest := int64(math.MaxInt64)
	for _, s := range l.nonActiveSegmentsFrom(firstDirty) {
		if ts := s.firstBatchTimestamp(); ts > 0 {
			earliest = min(earliest, ts)
		}
	}
	cleanUntil := nowMs - max(cfg.MaxCompactionLagMs, 0)
	if earliest < cleanUntil {
		return cleanUntil - earliest
	}
	return 0
}

// cleanableBytes is Kafka's calculateCleanableBytes: a pass cleans whole
// segments, so the uncleanable offset is rounded down to the base of the
// segment holding it (or the active segment), and the cleanable bytes are
// the sizes of the segments from the first dirty one up to there.
func cleanableBytes(l *Log, firstDirty, uncleanable int64) (firstUncleanableOffset, bytes int64) {
	seg := l.active()
	if segs := l.nonActiveSegmentsFrom(uncleanable); len(segs) > 0 {
		seg = segs[0]
	}
	firstUncleanableOffset = seg.BaseOffset
	return firstUncleanableOffset, segmentsSize(l.segmentsIn(min(firstDirty, firstUncleanableOffset), firstUncleanableOffset))
}
