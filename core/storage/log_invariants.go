package storage

import "kafkascope/core/invariant"

// checkOffsets stops the run if the offsets of l broke Log's invariants
// (log.go) after op changed them: logStartOffset <= HW <= LEO,
// recoveryPoint <= LEO, and the epoch cache ordered and within the log.
func (l *Log) checkOffsets(op string) {
	if l.logStartOffset > l.highWatermark || l.highWatermark > l.logEndOffset || l.recoveryPoint > l.logEndOffset {
		invariant.Fail(l.tp.String()+" "+op+": log start, HW, recovery point, LEO", l.logStartOffset, l.highWatermark, l.recoveryPoint, l.logEndOffset)
	}
	l.epochs.check(l.tp, op, l.logEndOffset)
}

// check stops the run if the cache broke its invariant (entries strictly
// increasing in epoch and start offset) or names an offset past the log
// it belongs to: every entry starts at most at the LEO (the latest may
// start there: a new leader assigns its epoch at its LEO; being strictly
// increasing, the others then start below it).
func (c *LeaderEpochCache) check(tp TopicPartition, op string, logEndOffset int64) {
	for i, e := range c.entries {
		prev := EpochEntry{Epoch: -1, StartOffset: -1}
		if i > 0 {
			prev = c.entries[i-1]
		}
		if e.Epoch <= prev.Epoch || e.StartOffset <= prev.StartOffset || e.StartOffset > logEndOffset {
			invariant.Fail(tp.String()+" "+op+": leader epoch cache entry (epoch, start) after (epoch, start), LEO",
				int64(e.Epoch), e.StartOffset, int64(prev.Epoch), prev.StartOffset, logEndOffset)
		}
	}
}
