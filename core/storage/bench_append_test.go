package storage

import (
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// BenchmarkNoOpAppend is the disk work of one KRaft NoOp on a voter: a
// one-record batch appended as a follower and the log flushed, every
// 500 ms of virtual time, on a log that grows as an idle week's metadata
// log does (one segment; an index entry every 4 KiB), held as a run as a
// leap holds it. A leaped idle week is some 3.6 million of these on a
// 3-node quorum.
func BenchmarkNoOpAppend(b *testing.B) {
	d, clock := newTestDisk()
	l, err := CreateLog(d, testLogDir, fooTP, "AAAAAAAAAAAAAAAAAAAAAQ", DefaultLogConfig)
	if err != nil {
		b.Fatal(err)
	}
	first, err := record.ValidateBatch(record.Build(0, 1, record.NoProducer(), []record.Record{{Timestamp: 0, Value: make([]byte, 8)}}))
	if err != nil {
		b.Fatal(err)
	}
	// The log keeps the run, not the bytes: one buffer serves every batch.
	run := &restampRun{first: first, interval: 500 * time.Millisecond}
	buf := make([]byte, len(first.Bytes()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clock.now = sim.Time(i) * sim.Time(run.interval)
		v := run.batch(i, buf)
		if _, err := l.AppendRunAsFollower(RunBatch{V: v, Run: run, I: i}); err != nil {
			b.Fatal(err)
		}
		if err := l.Flush(); err != nil {
			b.Fatal(err)
		}
	}
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
