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
