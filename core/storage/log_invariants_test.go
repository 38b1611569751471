package storage

import (
	"strings"
	"testing"

	"kafkascope/core/invariant"
)

// wantViolation runs f and requires it to stop with a Violation that
// says want.
func wantViolation(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		v, ok := recover().(invariant.Violation)
		if !ok || !strings.Contains(v.What, want) {
			t.Errorf("got %#v, want a violation saying %q", v, want)
		}
	}()
	f()
}

// The checks fire on the states their invariants exclude, and only
// there.
func TestLogInvariantsAreChecked(t *testing.T) {
	tp := TopicPartition{Topic: "t", Partition: 0}
	ok := Log{tp: tp, logStartOffset: 2, highWatermark: 5, recoveryPoint: 3, logEndOffset: 7,
		epochs: LeaderEpochCache{entries: []EpochEntry{{0, 0}, {2, 4}, {3, 7}}}}
	ok.checkOffsets("checking")
	for _, c := range []struct {
		name string
		mess func(l *Log)
		says string
	}{
		{"HW past the LEO", func(l *Log) { l.highWatermark = 8 }, "log start, HW, recovery point, LEO: 2, 8, 3, 7"},
		{"HW below the log start", func(l *Log) { l.logStartOffset = 6 }, "log start, HW, recovery point, LEO: 6, 5"},
		{"recovery point past the LEO", func(l *Log) { l.recoveryPoint = 9 }, "LEO: 2, 5, 9, 7"},
		{"epochs not increasing", func(l *Log) { l.epochs.entries[1].Epoch = 0 }, "leader epoch cache"},
		{"starts not increasing", func(l *Log) { l.epochs.entries[1].StartOffset = 0 }, "leader epoch cache"},
		{"an entry past the LEO", func(l *Log) { l.epochs.entries[2].StartOffset = 8 }, "LEO: 3, 8, 2, 4, 7"},
	} {
		l := ok
		l.epochs.entries = append([]EpochEntry(nil), ok.epochs.entries...)
		c.mess(&l)
		t.Run(c.name, func(t *testing.T) { wantViolation(t, c.says, func() { l.checkOffsets("checking") }) })
	}
}
