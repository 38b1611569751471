package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/textdiff"
)

// Appends in place (AppendRunAsLeaderFlushed, AppendRunAsFollowerFlushed)
// must leave the log and its disk exactly as the same batches appended
// and flushed one by one, each at its instant: across page boundaries,
// offset index entries, rolls by segment.bytes and by segment.ms, a page
// cache small enough to evict, and another file written in between.
func TestAppendsInPlaceMatchOneByOne(t *testing.T) {
	cases := []struct {
		name  string
		cfg   func(*LogConfig)
		cache int64
	}{
		{"defaults", func(*LogConfig) {}, DefaultPageCacheBytes},
		{"segment.bytes", func(c *LogConfig) { c.SegmentBytes = 10_000 }, DefaultPageCacheBytes},
		{"segment.ms", func(c *LogConfig) { c.SegmentMs = 45_000 }, DefaultPageCacheBytes},
		{"index.interval.bytes", func(c *LogConfig) { c.IndexIntervalBytes = 700 }, DefaultPageCacheBytes},
		{"tiny cache", func(c *LogConfig) { c.SegmentBytes = 20_000 }, MinPageCacheBytes},
	}
	for _, tc := range cases {
		for _, leader := range []bool{true, false} {
			name := tc.name + "/follower"
			if leader {
				name = tc.name + "/leader"
			}
			t.Run(name, func(t *testing.T) {
				cfg := DefaultLogConfig
				tc.cfg(&cfg)
				oneByOne := newFlushedRunLog(t, cfg, tc.cache)
				inPlace := newFlushedRunLog(t, cfg, tc.cache)
				const n = 1000
				done := 0
				for i := 0; i < n; {
					// Another file written and fsynced every 23 batches,
					// as a broker's checkpoints are: a stretch ends there.
					end := min(n, (i/23+1)*23)
					for j := i; j < end; j++ {
						oneByOne.appendOne(t, j, leader)
					}
					for j := i; j < end; {
						m := inPlace.appendInPlace(t, j, end-j, leader)
						if m == 0 {
							inPlace.appendOne(t, j, leader)
							m = 1
						} else {
							done += m
						}
						j += m
					}
					oneByOne.checkpoint(t, end)
					inPlace.checkpoint(t, end)
					i = end
				}
				if a, b := oneByOne.state(), inPlace.state(); a != b {
					t.Fatalf("appended one by one and in place, the logs differ:\n%s", textdiff.FirstLine(a, b, "one by one", "in place"))
				}
				// Most appends must have been in place: else this test
				// checks nothing.
				if done < n/2 {
					t.Fatalf("only %d of %d appends were in place", done, n)
				}
				if len(oneByOne.log.Segments()) < 2 && tc.name != "defaults" && tc.name != "index.interval.bytes" {
					t.Fatalf("the log never rolled (%d segment)", len(oneByOne.log.Segments()))
				}
			})
		}
	}
}

// flushedRunLog is a log on a disk of its own, appended a run's batches.
type flushedRunLog struct {
	disk  *Disk
	clock *testClock
	log   *Log
	run   *restampRun
	buf   []byte
}

func newFlushedRunLog(t testing.TB, cfg LogConfig, cache int64) *flushedRunLog {
	d, clock := newTestDisk()
	if err := d.SetPageCacheBytes(cache); err != nil {
		t.Fatal(err)
	}
	l, err := CreateLog(d, testLogDir, fooTP, "AAAAAAAAAAAAAAAAAAAAAQ", cfg)
	if err != nil {
		t.Fatal(err)
	}
	first, err := record.ValidateBatch(record.Build(0, 3, record.NoProducer(), []record.Record{{Timestamp: 0, Value: make([]byte, 8)}}))
	if err != nil {
		t.Fatal(err)
	}
	run := &restampRun{first: first, interval: 500 * time.Millisecond}
	return &flushedRunLog{disk: d, clock: clock, log: l, run: run, buf: make([]byte, run.BatchSize())}
}

func (r *flushedRunLog) instant(i int) sim.Time { return sim.Time(i) * sim.Time(r.run.interval) }

// appendOne appends batch i and flushes, at its instant.
func (r *flushedRunLog) appendOne(t testing.TB, i int, leader bool) {
	t.Helper()
	r.clock.now = r.instant(i)
	b := RunBatch{V: r.run.batch(i, r.buf), Run: r.run, I: i}
	var err error
	if leader {
		_, err = r.log.AppendRunAsLeader(b, 3)
	} else {
		_, err = r.log.AppendRunAsFollower(b)
	}
	if err != nil {
		t.Fatalf("batch %d: %v", i, err)
	}
	if err := r.log.Flush(); err != nil {
		t.Fatal(err)
	}
}

// appendInPlace appends what it can of batches i..i+n-1 in place.
func (r *flushedRunLog) appendInPlace(t testing.TB, i, n int, leader bool) int {
	t.Helper()
	r.clock.now = r.instant(i)
	instant := func(k int) sim.Time { return r.instant(i + k) }
	var m int
	var err error
	if leader {
		m, err = r.log.AppendRunAsLeaderFlushed(r.run, i, n, 3, instant)
	} else {
		m, err = r.log.AppendRunAsFollowerFlushed(r.run, i, n, instant)
	}
	if err != nil || m < 0 || m > n {
		t.Fatalf("batches %d..%d in place: %d, %v", i, i+n-1, m, err)
	}
	return m
}

// checkpoint writes another file of the disk, at batch i's instant.
func (r *flushedRunLog) checkpoint(t *testing.T, i int) {
	t.Helper()
	r.clock.now = r.instant(i)
	if err := r.disk.WriteFileDurable(testLogDir+"/checkpoint", []byte(fmt.Sprintf("0\n1\n%d\n", i))); err != nil {
		t.Fatal(err)
	}
}

// state is the log's state and its disk's.
func (r *flushedRunLog) state() string {
	var s strings.Builder
	l := r.log
	fmt.Fprintf(&s, "LEO %d recovery point %d epochs %v\n", l.LogEndOffset(), l.RecoveryPoint(), l.epochs.entries)
	for _, g := range l.Segments() {
		fmt.Fprintf(&s, "segment %d size %d since index %d rolling %d/%v max %+v/%v:", g.BaseOffset, g.Size, g.bytesSinceLastIndexEntry,
			g.rollingBasedTimestamp, g.rollingBasedTimestampKnown, g.maxTimestampSoFar, g.maxTimestampKnown)
		for k := range g.batches.spans {
			sp := &g.batches.spans[k]
			fmt.Fprintf(&s, " [%d list %v e %+v count %d step %+v]", sp.first, sp.list, sp.e, sp.count, sp.step)
		}
		s.WriteString("\n")
	}
	s.WriteString(r.disk.Digest())
	return s.String()
}
