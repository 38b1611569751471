package player

import (
	"slices"
	"testing"
	"time"
)

// always is a host deadline that has always passed: every frame does the
// least it may (one chunk, or one command started).
func always() bool { return true }

func lineTexts(p *Player) []string {
	var out []string
	for _, l := range p.Lines() {
		out = append(out, l.Text)
	}
	return out
}

// A heavy step (scenario 23's perf test sends 4 MB in one burst) runs at
// most a chunk of events per frame once the deadline has passed, and ends
// exactly where the step played in one go ends: same moment, same output.
func TestFrameDeadlineSplitsAStepNotItsResult(t *testing.T) {
	const id = "23-why-kafka-is-fast"
	whole, framed := New(), New()
	for _, p := range []*Player{whole, framed} {
		if err := p.OpenScenario(id, 0); err != nil {
			t.Fatal(err)
		}
	}
	framed.SetFrameDeadline(always)
	for whole.Scenario.Step+1 < whole.Scenario.Steps() {
		if err := whole.Next(); err != nil {
			t.Fatal(err)
		}
		if err := framed.StartNext(); err != nil {
			t.Fatal(err)
		}
		for frames := 0; framed.Scenario.Running(); frames++ {
			framed.Tick(16 * time.Millisecond)
			if got := framed.LastFrameEvents(); got > frameChunk {
				t.Fatalf("step %d: a frame past its deadline ran %d events (a chunk is %d)", whole.Scenario.Step, got, frameChunk)
			}
			if frames > 1_000_000 {
				t.Fatal("the step never ends")
			}
		}
		if framed.Error != "" {
			t.Fatal(framed.Error)
		}
		if framed.Now() != whole.Now() || framed.Scenario.Step != whole.Scenario.Step {
			t.Fatalf("step %d: chunked frames ended at %s, one run at %s", whole.Scenario.Step, framed.Now(), whole.Now())
		}
		if a, b := lineTexts(framed), lineTexts(whole); !slices.Equal(a, b) {
			t.Fatalf("step %d: the terminals differ:\nchunked %q\none run %q", whole.Scenario.Step, a, b)
		}
	}
}

// Playing with the deadline passed runs a chunk per frame, and the perf
// test prints what it prints in frames without a deadline (its figures
// are virtual times: any event run differently would show), only later.
func TestFrameDeadlineSlowsPlayNotItsResult(t *testing.T) {
	free, framed := New(), New()
	for _, p := range []*Player{free, framed} {
		p.Boot("", "")
		p.SetSpeed(10)
		p.Run("kafka-topics.sh --create --topic t --partitions 6 --replication-factor 3", nil)
		for i := 0; p.TL.Busy(); i++ {
			p.Tick(16 * time.Millisecond)
			if i > 100000 {
				t.Fatal("the topic is never created")
			}
		}
	}
	framed.SetFrameDeadline(always)
	free.Run("kafka-producer-perf-test.sh --topic t --num-records 2000 --record-size 500 --throughput -1 --producer-props bootstrap.servers=kafka-1:9092", nil)
	framed.Run("kafka-producer-perf-test.sh --topic t --num-records 2000 --record-size 500 --throughput -1 --producer-props bootstrap.servers=kafka-1:9092", nil)
	most := uint64(0)
	for i := 0; free.TL.Busy(); i++ {
		free.Tick(16 * time.Millisecond)
		most = max(most, free.LastFrameEvents())
		if i > 100000 {
			t.Fatal("the perf test never ends")
		}
	}
	if most <= frameChunk {
		t.Fatalf("without a deadline no frame ran more than a chunk (%d events): the test shows nothing", most)
	}
	for i := 0; framed.TL.Busy(); i++ {
		framed.Tick(16 * time.Millisecond)
		if got := framed.LastFrameEvents(); got > frameChunk {
			t.Fatalf("a frame past its deadline ran %d events (a chunk is %d)", got, frameChunk)
		}
		if i > 1_000_000 {
			t.Fatal("the chunked player never caught up")
		}
	}
	if a, b := lineTexts(framed), lineTexts(free); !slices.Equal(a, b) {
		t.Fatalf("the terminals differ:\nchunked %q\nfree    %q", a, b)
	}
}
