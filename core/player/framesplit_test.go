package player

import (
	"testing"
	"time"
)

// While a step has more work than a frame, frames alternate between the
// engine alone and the render; a render deferred is never deferred
// again, and an engine frame that ended early draws at once.
func TestFrameSplitAlternatesEngineAndRender(t *testing.T) {
	var s FrameSplit
	const engine = 6 * time.Millisecond // what the render leaves of FrameWork
	type frame struct {
		tickCut bool
		want    bool
		elapsed time.Duration
		kind    FrameKind
		render  bool
	}
	for i, f := range []frame{
		{tickCut: false, want: true, elapsed: 5 * time.Millisecond, kind: FrameBoth, render: true},
		{tickCut: false, want: false, elapsed: 1 * time.Millisecond, kind: FrameBoth, render: false},
		// A step's tick stopped at its deadline: the engine alone,
		// past what the render would leave, so the render waits.
		{tickCut: true, want: true, elapsed: 12 * time.Millisecond, kind: FrameEngine, render: false},
		// The next frame draws, whatever its tick did.
		{tickCut: true, want: false, elapsed: 1 * time.Millisecond, kind: FrameDraw, render: true},
		{tickCut: true, want: true, elapsed: 12 * time.Millisecond, kind: FrameEngine, render: false},
		{tickCut: true, want: true, elapsed: 1 * time.Millisecond, kind: FrameDraw, render: true},
		// The step ended early in an engine frame: it draws at once.
		{tickCut: true, want: true, elapsed: 3 * time.Millisecond, kind: FrameEngine, render: true},
		{tickCut: false, want: false, elapsed: 0, kind: FrameBoth, render: false},
	} {
		kind := s.Next(f.tickCut)
		if kind != f.kind {
			t.Fatalf("frame %d: kind %d, want %d", i, kind, f.kind)
		}
		if got := s.Render(kind, f.want, f.elapsed, engine); got != f.render {
			t.Fatalf("frame %d (kind %d): render %v, want %v", i, kind, got, f.render)
		}
	}
}

// An engine frame gets QuietWork and the events to fill it; a draw frame
// none (one chunk); any other frame what the render leaves.
func TestFrameBudgetForEachKindOfFrame(t *testing.T) {
	var b FrameBudget
	events := b.Observe(FrameCost{Events: 4000, Tick: 5 * time.Millisecond, Render: 4 * time.Millisecond, Interval: 16 * time.Millisecond})
	if got := b.EngineTimeFor(FrameBoth); got != b.EngineTime() {
		t.Fatalf("FrameBoth: %v, want EngineTime %v", got, b.EngineTime())
	}
	if got := b.EngineTimeFor(FrameEngine); got != QuietWork {
		t.Fatalf("FrameEngine: %v, want QuietWork %v", got, QuietWork)
	}
	if got := b.EngineTimeFor(FrameDraw); got != 0 {
		t.Fatalf("FrameDraw: %v, want 0", got)
	}
	if got := b.EventsFor(FrameBoth, events); got != events {
		t.Fatalf("FrameBoth events %d, want %d", got, events)
	}
	want := min(int(float64(events)*float64(QuietWork)/float64(b.EngineTime())), stepsPerFrame)
	if got := b.EventsFor(FrameEngine, events); got != want || got <= events {
		t.Fatalf("FrameEngine events %d, want %d (more than %d)", got, want, events)
	}
}

// TickCut says when a step's tick stopped at the host's deadline with
// work left, and only then: not without a deadline, not once the step
// has ended.
func TestTickCutWhileAStepOutrunsItsFrames(t *testing.T) {
	const id = "23-why-kafka-is-fast"
	p := New()
	if err := p.OpenScenario(id, 0); err != nil {
		t.Fatal(err)
	}
	if err := p.StartNext(); err != nil {
		t.Fatal(err)
	}
	for p.Scenario.Running() {
		p.Tick(16 * time.Millisecond)
		if p.TickCut() {
			t.Fatal("a tick with no deadline reports being cut")
		}
	}
	p.SetFrameDeadline(always)
	cut := 0
	for p.Scenario.Step+1 < p.Scenario.Steps() {
		if err := p.StartNext(); err != nil {
			t.Fatal(err)
		}
		for frames := 0; p.Scenario.Running(); frames++ {
			p.Tick(16 * time.Millisecond)
			if p.TickCut() {
				cut++
			}
			if p.TickCut() != p.Scenario.Running() {
				t.Fatalf("step %d, frame %d: TickCut %v with the step running %v", p.Scenario.Step+1, frames, p.TickCut(), p.Scenario.Running())
			}
			if frames > 1_000_000 {
				t.Fatal("the step never ends")
			}
		}
	}
	if cut == 0 {
		t.Fatal("no tick was cut by a deadline that had always passed")
	}
	p.Tick(16 * time.Millisecond)
	if p.TickCut() {
		t.Fatal("a tick after the step reports being cut")
	}
}
