package storage

// CleanCandidate is a log the cleaner may consider, with its configs.
type CleanCandidate struct {
	Log    *Log
	Config CleanerLogConfig
}

// LogToClean is a log measured for cleaning (Kafka's LogToClean).
//
// Invariants: FirstDirtyOffset <= FirstUncleanableOffset, which is a
// segment's base offset (a pass cleans whole segments) and at most the
// active segment's; TotalBytes = CleanBytes + CleanableBytes.
type LogToClean struct {
	Log    *Log
	Config CleanerLogConfig

	FirstDirtyOffset       int64
	FirstUncleanableOffset int64
	CleanBytes             int64 // segments wholly before FirstDirtyOffset
	CleanableBytes         int64 // segments from the dirty one to FirstUncleanableOffset
	TotalBytes             int64
	CleanableRatio         float64 // CleanableBytes / TotalBytes: the "dirty ratio"
	// CompactionDelayMs > 0: dirty data is older than max.compaction.lag.ms
	// by this much, and the log must be cleaned now.
	CompactionDelayMs int64
}

// NeedCompactionNow: max.compaction.lag.ms has passed for some dirty data.
func (t *LogToClean) NeedCompactionNow() bool { return t.CompactionDelayMs > 0 }

// Cleanable says whether a pass should clean the log: it is dirtier than
// min.cleanable.dirty.ratio (strictly), or it has cleanable bytes and is
// past max.compaction.lag.ms.
func (t *LogToClean) Cleanable() bool {
	return (t.NeedCompactionNow() && t.CleanableBytes > 0) || t.CleanableRatio > t.Config.MinCleanableRatio
}

// MeasureLog computes a LogToClean from the log's checkpointed clean offset
// (hasLastClean false if the checkpoint has none) at nowMs.
func MeasureLog(c CleanCandidate, lastClean int64, hasLastClean bool, nowMs int64) (LogToClean, CleanableRange) {
	r := cleanableOffsets(c.Log, c.Config, lastClean, hasLastClean, nowMs)
	t := LogToClean{Log: c.Log, Config: c.Config, FirstDirtyOffset: r.FirstDirtyOffset}
	t.CompactionDelayMs = maxCompactionDelay(c.Log, c.Config, r.FirstDirtyOffset, nowMs)
	t.CleanBytes = segmentsSize(c.Log.segmentsIn(-1, r.FirstDirtyOffset))
	t.FirstUncleanableOffset, t.CleanableBytes = cleanableBytes(c.Log, r.FirstDirtyOffset, r.FirstUncleanableDirtyOffset)
	t.TotalBytes = t.CleanBytes + t.CleanableBytes
	if t.TotalBytes > 0 {
		t.CleanableRatio = float64(t.CleanableBytes) / float64(t.TotalBytes)
	}
	return t, r
}

// GrabFilthiestLog is Kafka's LogCleanerManager.grabFilthiestCompactedLog:
// measure every compacted candidate against its checkpointed clean offset,
// skip empty logs, keep the cleanable ones, and pick the one with the
// highest dirty ratio. Candidates come in a fixed order (the broker sorts
// them by topic and partition) and the first wins a tie, where Kafka's
// order is its log pool's hash order.
//
// resets are the checkpoint entries to rewrite because the checkpointed
// offset was outside its log (Kafka rewrites them while choosing).
func GrabFilthiestLog(cands []CleanCandidate, checkpoint map[TopicPartition]int64, nowMs int64) (filthiest *LogToClean, resets map[TopicPartition]int64) {
	for _, c := range cands {
		if !c.Config.Compact {
			continue
		}
		tp := c.Log.TopicPartition()
		last, has := checkpoint[tp]
		t, r := MeasureLog(c, last, has, nowMs)
		if r.ForceUpdateCheckpoint {
			if resets == nil {
				resets = map[TopicPartition]int64{}
			}
			resets[tp] = r.FirstDirtyOffset
		}
		if t.TotalBytes == 0 || !t.Cleanable() {
			continue
		}
		if filthiest == nil || t.CleanableRatio > filthiest.CleanableRatio {
			t := t
			filthiest = &t
		}
	}
	return filthiest, resets
}
