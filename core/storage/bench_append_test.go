package storage

import (
	"testing"
	"time"

	"kafkascope/core/record"
)

// BenchmarkNoOpAppend is the disk work of one KRaft NoOp on a voter: a
// one-record batch appended as a follower and the log flushed, every
// 500 ms of virtual time, on a log that grows as an idle week's metadata
// log does (one segment; an index entry every 4 KiB), held as a run as a
// leap holds it (flushedRunLog). A leaped idle week is some 3.6 million of these on a
// 3-node quorum.
func BenchmarkNoOpAppend(b *testing.B) {
	b.Run("one-by-one", func(b *testing.B) {
		r := newFlushedRunLog(b, DefaultLogConfig, DefaultPageCacheBytes)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			r.appendOne(b, i, false)
		}
	})
	// In place (AppendRunAsFollowerFlushed), in stretches of 10 as a
	// leap's are between a broker's checkpoints (every 5 s): the others
	// one by one, as a leap appends them.
	b.Run("in-place", func(b *testing.B) {
		r := newFlushedRunLog(b, DefaultLogConfig, DefaultPageCacheBytes)
		b.ResetTimer()
		for i := 0; i < b.N; {
			n := min(10, b.N-i)
			m := r.appendInPlace(b, i, n, false)
			if m == 0 {
				r.appendOne(b, i, false)
				m = 1
			}
			i += m
		}
	})
}

// restampRun is a BatchRun of first restamped: batch i at offset i, i
// intervals after time 0.
type restampRun struct {
	first    record.Valid
	interval time.Duration
}

func (r *restampRun) BatchSize() int { return len(r.first.Bytes()) }

func (r *restampRun) Batch(i int, dst []byte) { r.batch(i, dst) }

func (r *restampRun) batch(i int, dst []byte) record.Valid {
	return r.first.Restamped(dst, int64(i), (time.Duration(i) * r.interval).Milliseconds())
}
