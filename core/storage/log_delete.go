package storage

import "time"

// scheduleFileDeletion removes segments' files file.delete.delay.ms later
// (LocalLog.deleteSegmentFiles with asyncDelete): their files are renamed
// with the .deleted suffix now, so ls shows them until then, and reads that
// started before still had their bytes in Kafka. The segments must already
// be out of the log. Without a scheduler the files go at once. If the
// process dies first, the next start deletes the stray .deleted files.
func (l *Log) scheduleFileDeletion(segs []*Segment) {
	if len(segs) == 0 {
		return
	}
	for _, s := range segs {
		if !hasDeletedSuffix(s.Path) {
			// A rename can only fail if the file vanished; deleting is
			// still what was asked.
			_ = s.changeFileSuffixes("", DeletedFileSuffix)
		}
	}
	if l.schedule == nil {
		for _, s := range segs {
			s.deleteIfExists()
		}
		return
	}
	l.schedule(time.Duration(l.cfg.FileDeleteDelayMs)*time.Millisecond, "delete-file", func() {
		for _, s := range segs {
			s.deleteIfExists()
		}
	})
}

func hasDeletedSuffix(p string) bool {
	return len(p) > len(DeletedFileSuffix) && p[len(p)-len(DeletedFileSuffix):] == DeletedFileSuffix
}

// removeSegments takes segs (a prefix or suffix of the log's segments) out
// of the log and schedules their files' deletion.
func (l *Log) removeSegments(segs []*Segment) {
	if len(segs) == 0 {
		return
	}
	gone := map[*Segment]bool{}
	for _, s := range segs {
		gone[s] = true
	}
	kept := l.segments[:0:0]
	for _, s := range l.segments {
		if !gone[s] {
			kept = append(kept, s)
		}
	}
	l.segments = kept
	l.scheduleFileDeletion(segs)
}
