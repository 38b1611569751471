package player

import (
	"testing"
	"time"
)

// While a step has more work than a frame, frames alternate between the
// engine alone and the render; a render deferred is never deferred
// again, an engine frame whose work ended within engineAlone draws at
// once, and so does the frame after a handler ran.
func TestFrameSplitAlternatesEngineAndRender(t *testing.T) {
	var s FrameSplit
	type frame struct {
		tickCut bool
		handled bool
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
		// An engine frame past engineAlone defers even what its step's
		// end changed.
		{tickCut: true, want: true, elapsed: engineAlone + time.Millisecond, kind: FrameEngine, render: false},
		{tickCut: false, want: false, elapsed: 0, kind: FrameDraw, render: true},
		// A handler ran (a click): the next frame draws it, even in
		// the middle of a step.
		{tickCut: true, handled: true, want: true, elapsed: 1 * time.Millisecond, kind: FrameDraw, render: true},
		{tickCut: true, want: true, elapsed: 12 * time.Millisecond, kind: FrameEngine, render: false},
		{tickCut: true, handled: true, want: true, elapsed: 1 * time.Millisecond, kind: FrameDraw, render: true},
		// Outside a step, a handler's frame is any other frame.
		{tickCut: false, handled: true, want: true, elapsed: 5 * time.Millisecond, kind: FrameBoth, render: true},
		// The step ended early in an engine frame: it draws at once.
		{tickCut: true, want: true, elapsed: engineAlone, kind: FrameEngine, render: true},
		{tickCut: false, want: false, elapsed: 0, kind: FrameBoth, render: false},
	} {
		kind := s.Next(f.tickCut, f.handled)
		if kind != f.kind {
			t.Fatalf("frame %d: kind %d, want %d", i, kind, f.kind)
		}
		if got := s.Render(kind, f.want, f.elapsed); got != f.render {
			t.Fatalf("frame %d (kind %d): render %v, want %v", i, kind, got, f.render)
		}
	}
}

// An engine frame gets all of FrameWork and the events to fill it; a
// draw frame a single event; any other frame what the render leaves.
func TestFrameBudgetForEachKindOfFrame(t *testing.T) {
	var b FrameBudget
	events := b.Observe(FrameCost{Events: 4000, Tick: 5 * time.Millisecond, Render: 4 * time.Millisecond, Interval: 16 * time.Millisecond})
	if got := b.EngineTimeFor(FrameBoth); got != b.EngineTime() {
		t.Fatalf("FrameBoth: %v, want EngineTime %v", got, b.EngineTime())
	}
	if got := b.EngineTimeFor(FrameEngine); got != FrameWork {
		t.Fatalf("FrameEngine: %v, want FrameWork %v", got, FrameWork)
	}
	if got := b.EngineTimeFor(FrameDraw); got != 0 {
		t.Fatalf("FrameDraw: %v, want 0", got)
	}
	if got := b.EventsFor(FrameDraw, events); got != drawEvents {
		t.Fatalf("FrameDraw events %d, want %d", got, drawEvents)
	}
	if got := b.EventsFor(FrameBoth, events); got != events {
		t.Fatalf("FrameBoth events %d, want %d", got, events)
	}
	want := min(int(float64(events)*float64(FrameWork)/float64(b.EngineTime())), stepsPerFrame)
	if got := b.EventsFor(FrameEngine, events); got != want || got <= events {
		t.Fatalf("FrameEngine events %d, want %d (more than %d)", got, want, events)
	}
}

// TickCut says when a step's tick stopped with work left, at the host's
// deadline or at the frame's event budget, and only then: not once the
// step has ended.
func TestTickCutWhileAStepOutrunsItsFrames(t *testing.T) {
	for _, c := range []struct {
		name   string
		events int
		over   func() bool
	}{
		{"a count the steps outrun", MinFrameEvents, nil},
		{"a deadline that has always passed", 0, always},
	} {
		p := New()
		if err := p.OpenScenario("23-why-kafka-is-fast", 0); err != nil {
			t.Fatal(err)
		}
		p.SetFrameEvents(c.events)
		p.SetFrameDeadline(c.over)
		cut := 0
		for p.Scenario().Step+1 < p.Scenario().Steps() {
			if err := p.Scenario().StartNext(); err != nil {
				t.Fatal(err)
			}
			for frames := 0; p.Scenario().Running(); frames++ {
				p.Tick(16 * time.Millisecond)
				if p.TickCut() != p.Scenario().Running() {
					t.Fatalf("%s: step %d, frame %d: TickCut %v with the step running %v",
						c.name, p.Scenario().Step+1, frames, p.TickCut(), p.Scenario().Running())
				}
				if p.TickCut() {
					cut++
				}
				if frames > 1_000_000 {
					t.Fatal("the step never ends")
				}
			}
		}
		if cut == 0 {
			t.Fatalf("%s: no tick was cut", c.name)
		}
		p.Tick(16 * time.Millisecond)
		if p.TickCut() {
			t.Fatalf("%s: a tick after the last step reports being cut", c.name)
		}
	}
}
