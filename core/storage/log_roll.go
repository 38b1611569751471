package storage

import (
	"fmt"
	"path"
)

// maybeRoll rolls to a new segment before an append if the active segment
// should roll (UnifiedLog.maybeRoll): all the batches of one append go to
// one segment, which starts at the append's first offset. It returns the
// new segment's base offset (or -1) and why it rolled.
func (l *Log) maybeRoll(a appendSet) (int64, string, error) {
	reason, err := l.active().shouldRoll(rollParams{
		maxSegmentMs: l.cfg.maxSegmentMs(), maxSegmentBytes: l.cfg.SegmentBytes,
		maxTimestampInMessages: a.maxTimestamp, maxOffsetInMessages: a.lastOffset,
		messagesSize: int64(len(a.data)), nowMs: l.disk.Now().UnixMilli(),
	})
	if err != nil || reason == "" {
		return -1, "", err
	}
	seg, err := l.roll(a.firstOffset)
	if err != nil {
		return -1, "", err
	}
	return seg.BaseOffset, reason, nil
}

// roll closes the active segment and starts a new one at
// max(expectedNextOffset, LEO) (LocalLog.roll, UnifiedLog.roll). The closed
// segment gets its last time index entry and its indexes trimmed; the new
// one's index files appear when it is first used. The segments before the
// new one are flushed (Kafka schedules that flush at once) and the recovery
// point moves to the new base.
func (l *Log) roll(expectedNextOffset int64) (*Segment, error) {
	newOffset := max(expectedNextOffset, l.logEndOffset)
	active := l.active()
	switch {
	case active.BaseOffset == newOffset && active.Size == 0:
		// An empty active segment asked to roll (an index that can hold no
		// entry, segment.index.bytes below one entry; KAFKA-6388): Kafka
		// replaces it with a new empty one and deletes the old files.
		seg, err := l.openSegmentReplacing(newOffset, active)
		if err != nil {
			return nil, err
		}
		l.segments[len(l.segments)-1] = seg
		return seg, nil
	case newOffset < active.BaseOffset || l.segmentAt(newOffset) != nil:
		return nil, fmt.Errorf("trying to roll a new log segment for %s with start offset %d =max(provided offset = %d, LEO = %d) while it already exists or is below the active segment %d",
			l.tp, newOffset, expectedNextOffset, l.logEndOffset, active.BaseOffset)
	}
	// Stray files of a segment at the new offset (a crash after an earlier
	// roll there) are deleted first.
	for _, suffix := range []string{LogFileSuffix, IndexFileSuffix, TimeIndexFileSuffix} {
		if p := path.Join(l.dir, SegmentFileName(newOffset, suffix)); l.disk.Exists(p) {
			_ = l.disk.Remove(p)
		}
	}
	if err := active.onBecomeInactiveSegment(); err != nil {
		return nil, err
	}
	seg, err := l.openSegment(newOffset)
	if err != nil {
		return nil, err
	}
	l.segments = append(l.segments, seg)
	if err := l.flushUpTo(newOffset); err != nil {
		return nil, err
	}
	return seg, nil
}

// openSegmentReplacing opens a segment at base in place of old, whose files
// are renamed .deleted and removed later (LocalLog.createAndDeleteSegment).
func (l *Log) openSegmentReplacing(base int64, old *Segment) (*Segment, error) {
	if old.BaseOffset == base {
		if err := old.changeFileSuffixes("", DeletedFileSuffix); err != nil {
			return nil, err
		}
	}
	seg, err := l.openSegment(base)
	if err != nil {
		return nil, err
	}
	l.scheduleFileDeletion([]*Segment{old})
	return seg, nil
}

// segmentAt is the segment whose base offset is base, or nil.
func (l *Log) segmentAt(base int64) *Segment {
	for _, s := range l.segments {
		if s.BaseOffset == base {
			return s
		}
	}
	return nil
}

// flushUpTo fsyncs the segments below offset that hold unflushed data and
// moves the recovery point to offset (UnifiedLog.flushUptoOffsetExclusive).
func (l *Log) flushUpTo(offset int64) error {
	if offset <= l.recoveryPoint {
		return nil
	}
	n := 0
	for i, s := range l.segments {
		if s.BaseOffset >= offset {
			break
		}
		if i+1 < len(l.segments) && l.segments[i+1].BaseOffset <= l.recoveryPoint {
			continue // wholly below the recovery point: flushed already
		}
		if err := s.flush(); err != nil {
			return err
		}
		n++
	}
	l.recoveryPoint = offset
	l.disk.segmentsFlushed(l.disk.clock(), n)
	return nil
}
