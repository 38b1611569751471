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
// log does (one segment; an index entry every 4 KiB). A leaped idle week
// is some 3.6 million of these on a 3-node quorum.
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
	// The log copies what it appends: one buffer serves every batch.
	buf := make([]byte, len(first.Bytes()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clock.now = sim.Time(i) * sim.Time(500*time.Millisecond)
		v := first.Restamped(buf, int64(i), clock.now.UnixMilli())
		if _, err := l.AppendValidAsFollower(v); err != nil {
			b.Fatal(err)
		}
		if err := l.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}
