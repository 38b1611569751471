package player

import (
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/scenario"
	"kafkascope/core/timeline"
)

// A scenario played step by step over frames, as the browser plays it,
// shows what each step's narration claims ("## state: " lines) and prints
// exactly what its transcript's run prints: each command starts at
// the moment the previous one ended, as in the transcript, not when a
// frame's share of time happens to run out. (Play would run a finished
// command's frame on for up to a minute, and the background consumers,
// heartbeats and timeouts of the later commands would see other times.)
func TestScenarioPlaysAsItsTranscript(t *testing.T) {
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		if testing.Short() && sc.ID != "22-rebalance" {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			outs, _, _ := console.RunTranscript(sc.Transcript, nil)
			var want []string
			for _, o := range outs {
				want = append(want, o...)
			}
			p := New()
			if err := p.OpenScenario(sc.ID, 0); err != nil {
				t.Fatal(err)
			}
			for p.Scenario().Step+1 < p.Scenario().Steps() {
				if err := p.Scenario().StartNext(); err != nil {
					t.Fatal(err)
				}
				for frames := 0; p.Scenario().Running(); frames++ {
					if frames > 100000 {
						t.Fatal("the step never ends")
					}
					p.Tick(16 * time.Millisecond)
				}
				if p.Error != "" {
					t.Fatal(p.Error)
				}
				// What the step's narration claims holds in the picture
				// the page shows now.
				for _, cl := range p.Scenario().steps[p.Scenario().Step].State {
					for _, err := range p.Snapshot().CheckClaims(cl.Text) {
						t.Errorf("line %d: step %d's claim does not hold in the picture: %v", cl.Line, p.Scenario().Step+1, err)
					}
				}
			}
			var got []string
			for _, l := range p.tl().Lines() {
				if l.Kind == timeline.Output {
					got = append(got, strings.TrimRight(l.Text, " \t"))
				}
			}
			for i := range want {
				want[i] = strings.TrimRight(want[i], " \t")
			}
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("line %d of %d/%d differs:\nplayer:     %q\ntranscript: %q", i, len(got), len(want), got[i], want[i])
					}
				}
				t.Fatalf("the player printed %d lines, the transcript %d", len(got), len(want))
			}
		})
	}
}
