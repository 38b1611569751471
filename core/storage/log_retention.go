package storage

import (
	"errors"
	"fmt"
	"math"
)

// Why segments were deleted (Kafka's SegmentDeletionReason).
const (
	DeletedBelowLogStart  = "log-start-offset" // wholly below the log start offset
	DeletedRetentionBytes = "retention.bytes"
	DeletedRetentionMs    = "retention.ms"
)

// SegmentDeletion is one pass of DeleteOldSegments that deleted segments.
type SegmentDeletion struct {
	Reason string
	// Bases are the deleted segments' base offsets, oldest first; Bytes
	// their total size.
	Bases []int64
	Bytes int64
	// LogStartOffset is the log start offset after the deletion.
	LogStartOffset int64
	// Rolled: every segment was deletable, so the log first rolled a new
	// empty active segment at the LEO.
	Rolled bool
}

// DeleteOldSegments is UnifiedLog.deleteOldSegments, run by the broker's
// retention task every log.retention.check.interval.ms: with a delete
// policy, three passes in order (segments wholly below the log start
// offset, then retention.bytes, then retention.ms), without one only the
// first. nowMs is the clock in Kafka's milliseconds.
//
// Each pass walks the segments from the oldest and stops at the first that
// may not go, so only a prefix is deleted. A segment may go only if the
// high watermark is at or above its end (the next segment's base, or the
// LEO for the last one), so the log start offset never passes the HW; an
// empty active segment never goes, but a non-empty active one does when it
// qualifies, after a new empty segment is rolled at the LEO. Deleting moves
// the log start offset to the first remaining segment's base; the files are
// renamed .deleted and removed file.delete.delay.ms later.
func (l *Log) DeleteOldSegments(nowMs int64) ([]SegmentDeletion, error) {
	var out []SegmentDeletion
	pass := func(reason string, pred func(s, next *Segment) (bool, error)) error {
		d, err := l.deleteOldSegments(reason, pred)
		if d != nil {
			out = append(out, *d)
		}
		return err
	}
	if err := pass(DeletedBelowLogStart, func(s, next *Segment) (bool, error) {
		return next != nil && next.BaseOffset <= l.logStartOffset, nil
	}); err != nil || !l.cfg.Delete {
		return out, err
	}
	if rb := l.cfg.RetentionBytes; rb >= 0 && l.Size() >= rb {
		diff := l.Size() - rb
		if err := pass(DeletedRetentionBytes, func(s, _ *Segment) (bool, error) {
			if diff-s.Size >= 0 {
				diff -= s.Size
				return true, nil
			}
			return false, nil
		}); err != nil {
			return out, err
		}
	}
	if rm := l.cfg.RetentionMs; rm >= 0 {
		if err := pass(DeletedRetentionMs, func(s, _ *Segment) (bool, error) {
			ts, err := s.LargestTimestamp()
			return nowMs-ts > rm, err
		}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// deleteOldSegments deletes the prefix of segments pred accepts under the
// HW guard (UnifiedLog.deletableSegments and deleteSegments).
func (l *Log) deleteOldSegments(reason string, pred func(s, next *Segment) (bool, error)) (*SegmentDeletion, error) {
	var deletable []*Segment
	for i, s := range l.segments {
		next, guarded := l.retentionGuard(i)
		if guarded {
			break
		}
		ok, err := pred(s, next)
		if err != nil {
			return nil, err
		}
		if !ok || (next == nil && s.Size == 0) {
			break
		}
		deletable = append(deletable, s)
	}
	if len(deletable) == 0 {
		return nil, nil
	}
	d := &SegmentDeletion{Reason: reason}
	if len(deletable) == len(l.segments) {
		// The log must keep a segment: roll an empty one at the LEO first.
		if _, err := l.roll(l.logEndOffset); err != nil {
			return nil, err
		}
		d.Rolled = true
	}
	newStart := l.segments[len(deletable)].BaseOffset
	if err := l.MaybeIncrementLogStartOffset(newStart); err != nil {
		return nil, err
	}
	for _, s := range deletable {
		d.Bases = append(d.Bases, s.BaseOffset)
		d.Bytes += s.Size
	}
	l.removeSegments(deletable)
	d.LogStartOffset = l.logStartOffset
	return d, nil
}

// retentionGuard is segment i's successor (nil for the active segment)
// and whether the high watermark keeps it from being deleted: a segment
// may go only once the HW is at or above its end, the next segment's base
// or the LEO.
func (l *Log) retentionGuard(i int) (next *Segment, guarded bool) {
	upper := l.logEndOffset
	if i+1 < len(l.segments) {
		next, upper = l.segments[i+1], l.segments[i+1].BaseOffset
	}
	return next, l.highWatermark < upper
}

// MaybeIncrementLogStartOffset moves the log start offset up to newStart
// (UnifiedLog.maybeIncrementLogStartOffset): after retention deleted
// segments, or on a follower when the leader's log start moved. It may not
// pass the HW. The epoch cache forgets what lies below the new start.
func (l *Log) MaybeIncrementLogStartOffset(newStart int64) error {
	if newStart > l.highWatermark {
		return fmt.Errorf("%w: cannot increment the log start offset to %d of partition %s since it is larger than the high watermark %d",
			ErrOffsetOutOfRange, newStart, l.tp, l.highWatermark)
	}
	if newStart <= l.logStartOffset {
		return nil
	}
	l.logStartOffset = newStart
	changed := l.epochs.TruncateFromStart(newStart)
	l.checkOffsets("moving the log start")
	if changed {
		return l.writeEpochCheckpoint()
	}
	return nil
}

// ErrTimestampUnread is RetentionDueMs's answer when the segment it must
// look at has not had its largest timestamp read yet.
var ErrTimestampUnread = errors.New("storage: the segment's largest timestamp was never read")

// RetentionDueMs is the earliest clock, in Kafka's milliseconds, at which
// DeleteOldSegments would delete something if the log does not change
// until then: now (any nowMs) when a segment below the log start or over
// retention.bytes may go already, else when the oldest segment outlives
// retention.ms, else never (math.MaxInt64). It changes nothing: a
// segment whose largest timestamp was never read (ErrTimestampUnread) is
// left for the task itself to read. A leap runs the retention task in
// closed form up to it.
func (l *Log) RetentionDueMs() (int64, error) {
	const never = math.MaxInt64
	// first is whether a pass of pred deletes anything: its first
	// segment (a pass deletes a prefix).
	first := func(pred func(s, next *Segment) (bool, error)) (bool, error) {
		if len(l.segments) == 0 {
			return false, nil
		}
		s := l.segments[0]
		next, guarded := l.retentionGuard(0)
		if guarded {
			return false, nil
		}
		ok, err := pred(s, next)
		if err != nil || !ok || (next == nil && s.Size == 0) {
			return false, err
		}
		return true, nil
	}
	if ok, err := first(func(s, next *Segment) (bool, error) { return next != nil && next.BaseOffset <= l.logStartOffset, nil }); ok || err != nil {
		return math.MinInt64, err
	}
	if !l.cfg.Delete {
		return never, nil
	}
	if rb := l.cfg.RetentionBytes; rb >= 0 && l.Size() >= rb {
		diff := l.Size() - rb
		if ok, err := first(func(s, _ *Segment) (bool, error) { return diff-s.Size >= 0, nil }); ok || err != nil {
			return math.MinInt64, err
		}
	}
	rm := l.cfg.RetentionMs
	if rm < 0 {
		return never, nil
	}
	due := int64(never)
	_, err := first(func(s, _ *Segment) (bool, error) {
		// Not LargestTimestamp: the first read of a segment's time
		// opens its time index, a disk operation of its own that a
		// stepped run makes only when the task reads it.
		if !s.maxTimestampKnown {
			return true, ErrTimestampUnread
		}
		ts := s.maxTimestampSoFar.Timestamp
		if ts < 0 {
			ts = s.created.UnixMilli()
		}
		if ts <= math.MaxInt64-rm-1 {
			due = ts + rm + 1
		}
		return true, nil
	})
	if err != nil {
		return math.MinInt64, err
	}
	// first stopped before the time pass's first segment (the HW guard, an
	// empty active segment): nothing will go.
	if ok, _ := first(func(*Segment, *Segment) (bool, error) { return true, nil }); !ok {
		return never, nil
	}
	return due, nil
}
