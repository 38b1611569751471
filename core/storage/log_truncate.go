package storage

// TruncateTo removes every batch at or after offset (a whole batch goes if
// offset falls inside it), as UnifiedLog.truncateTo does: the segments
// based above offset are deleted (their files renamed .deleted, removed
// file.delete.delay.ms later), the one holding offset is cut and becomes
// the active segment. The HW and recovery point follow the LEO down, and
// the epoch cache forgets epochs that start at or beyond the new LEO.
//
// An offset at or beyond the LEO removes no batch, but the epoch cache still
// forgets epochs starting at or beyond the LEO, as Kafka's
// UnifiedLog.truncateTo does: a replica that became leader (assigning its
// epoch at its LEO) and lost the leadership before appending anything keeps
// such an entry, and as a follower it would report that epoch as its last
// fetched one, be told its log diverges, find nothing to cut, and be told so
// again forever. Only followers truncate.
func (l *Log) TruncateTo(offset int64) error {
	if offset >= l.logEndOffset {
		if l.epochs.TruncateFromEnd(l.logEndOffset) {
			return l.writeEpochCheckpoint()
		}
		return nil
	}
	if offset < l.segments[0].BaseOffset {
		return l.TruncateFullyAndStartAt(max(offset, l.logStartOffset))
	}
	var above []*Segment
	for _, s := range l.segments {
		if s.BaseOffset > offset {
			above = append(above, s)
		}
	}
	l.removeSegments(above)
	l.forgetProducerState()
	seg := l.active()
	// [compaction] The LEO becomes offset, as in Kafka, even where the
	// cleaner left a gap before it; a batch straddling offset goes whole.
	end := offset
	if i := seg.find(offset); i < seg.NumBatches() {
		end = min(end, seg.Batch(i).BaseOffset)
	}
	if err := seg.truncateTo(offset); err != nil {
		return err
	}
	l.logEndOffset = max(seg.NextOffset(), end)
	l.logStartOffset = min(l.logStartOffset, l.logEndOffset)
	l.highWatermark = min(l.highWatermark, l.logEndOffset)
	l.recoveryPoint = min(l.recoveryPoint, l.logEndOffset)
	changed := l.epochs.TruncateFromEnd(l.logEndOffset)
	l.checkOffsets("truncating")
	if changed {
		return l.writeEpochCheckpoint()
	}
	return nil
}

// TruncateFullyAndStartAt deletes every segment and starts an empty log at
// offset (a follower far behind a leader whose log starts later). The new
// segment's index files appear when it is first used.
func (l *Log) TruncateFullyAndStartAt(offset int64) error {
	old := l.segments
	l.segments = nil
	l.scheduleFileDeletion(old[:len(old)-1])
	seg, err := l.openSegmentReplacing(offset, old[len(old)-1])
	if err != nil {
		return err
	}
	l.segments = []*Segment{seg}
	l.logStartOffset, l.logEndOffset, l.highWatermark, l.recoveryPoint = offset, offset, offset, offset
	l.epochs.Clear()
	l.forgetProducerState()
	l.checkOffsets("truncating fully")
	return l.writeEpochCheckpoint()
}
