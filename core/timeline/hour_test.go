package timeline

import (
	"os"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// hourSession is issue 15's browser benchmark session (scripts/e2e
// benchHour) on its own: a 3-broker cluster, a consumer group and a
// producer at 2 records/s running throughout, a broker killed and
// restarted, an hour of virtual time. It runs about 280,000 events. Its
// commands are testdata/hour-session.commands (one a line, no output to
// check: not a transcript, whose files end in .txt), which the browser
// benchmark types too.
func hourSession(tb testing.TB) *Session {
	tb.Helper()
	script, err := os.ReadFile("testdata/hour-session.commands")
	if err != nil {
		tb.Fatal(err)
	}
	s := New()
	s.Do("cluster create --brokers 3", nil)
	for _, line := range strings.Split(strings.TrimSpace(string(script)), "\n") {
		s.Do(line, nil)
		for s.Busy() {
			if _, err := s.Play(time.Minute, 0); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return s
}

// The page's budgets in the browser benchmark, in events: the page
// replays about 120 events a millisecond in a frame that draws nothing,
// and such a frame gives the engine 12 ms (player.QuietWork).
const (
	pageFrameEvents = 1400
	// pageIdleEvents is what idle time ran on standbys in the 10 s the
	// benchmark leaves the page paused (the first 1.5 s start none:
	// player's standbyQuiet).
	pageIdleEvents = 714_000
	// pageFramesBetweenSeeks: the benchmark waits 300 ms after a seek
	// arrives; idle frames then carry on the standby being built.
	pageFramesBetweenSeeks = 18
)

// BenchmarkHourSeeks replays the browser benchmark's hour deterministically
// and counts what its seeks cost in events, the figure a seek's latency
// in the page follows (scripts/e2e logs each seek's events beside it):
// idle time with the page's budget builds standbys, then the benchmark's
// ten seeks, with the idle frames between them. It reports the events
// the seeks replayed (mean and most), the standbys idle time built, and
// the replay a seek to a moment picked at random would need from them on
// average (virtual time).
func BenchmarkHourSeeks(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		s := hourSession(b)
		b.StartTimer()
		for s.BackgroundEvents() < pageIdleEvents {
			more, err := s.Background(pageFrameEvents)
			if err != nil {
				b.Fatal(err)
			}
			if !more {
				break
			}
		}
		end := s.End()
		var dist time.Duration
		const points = 120
		for i := range points {
			at := end * sim.Time(i) / points
			from := sim.Time(0)
			for _, sb := range append(s.Standbys(), s.Now()) {
				if sb <= at {
					from = max(from, sb)
				}
			}
			dist += at.Sub(from)
		}
		b.ReportMetric(float64(len(s.Standbys())), "standbys")
		b.ReportMetric((dist / points).Seconds(), "random-seek-replay-s")
		var total, most uint64
		fractions := []float64{0.5, 0.1, 0.75, 0.3, 0.9, 0.02, 0.6, 0.45, 0.99, 0.2}
		for _, f := range fractions {
			// The scrubber speaks whole milliseconds.
			at := sim.Time(time.Duration(float64(end.Millis())*f) * time.Millisecond)
			if err := s.Seek(at); err != nil {
				b.Fatal(err)
			}
			_, events, _ := s.LastSeek()
			total, most = total+events, max(most, events)
			for range pageFramesBetweenSeeks {
				if s.BackgroundStarts() {
					break // a standby starts only once the page is left alone
				}
				if _, err := s.Background(pageFrameEvents); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(total)/float64(len(fractions)), "events/seek")
		b.ReportMetric(float64(most), "max-events/seek")
	}
}
