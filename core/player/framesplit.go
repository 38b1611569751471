package player

import "time"

// A frame that runs the engine to its deadline and then draws does both
// on the page's only thread, and the browser's style, layout and paint of
// what the render changed come on top: issue 15's traces of the built-in
// scenarios found the renderer's main thread at 10-11 ms of CPU a frame
// while a step played (the engine's share, the build and patch, the
// browser's work), which fits a 60 Hz frame only on an idle machine;
// with V8 compiling the engine's hot functions and the compositor on the
// other core it came to 33 ms a frame. While a step has more work than a
// frame (its last tick stopped at the deadline or at the frame's event
// budget with the step unfinished, Player.TickCut), the host therefore
// splits the work over two frames: one runs the engine alone for
// FrameWork and draws nothing, so the browser has nothing to lay out or
// paint; the next draws what both did after a single event. Per two
// frames the engine gets about what two frames of EngineTime gave it, the
// render and the browser's work on it come once instead of twice, and no
// frame carries both. The picture shows every other frame's moment while
// such a step plays, and the step ends on the same moment with the same
// picture (only the pace changes, as with every frame budget). (QuietWork,
// the share of the other frames that draw nothing, left engine frames at
// 14 ms of the main thread's CPU in the traces: too close to a 60 Hz
// frame on a loaded machine.)

// FrameKind is what one animation frame does.
type FrameKind int

const (
	// FrameBoth runs the engine for FrameBudget.EngineTime and draws
	// whatever changed: every frame while nothing has more work than a
	// frame.
	FrameBoth FrameKind = iota
	// FrameEngine runs the engine alone for FrameWork; it draws only
	// when its work ended early enough to leave the render its time,
	// else the next frame draws (FrameDraw).
	FrameEngine
	// FrameDraw draws what the frame before it deferred, after one
	// event of engine work (EventsFor).
	FrameDraw
)

// FrameSplit decides frame by frame which kind of frame comes next. Its
// zero value is ready; a render it defers always comes in the very next
// frame (no frame defers twice in a row).
type FrameSplit struct {
	owed bool // the last frame deferred its render
}

// Next is the coming frame's kind: tickCut is Player.TickCut after the
// last frame's tick; handled: a handler ran since the last frame (a
// click, a key). What a handler changed is drawn in the very next frame,
// so while a step has more work than a frame that frame is a FrameDraw
// (the click on Next that starts a step, whose handler ran the step's
// first chunk, shows at once); otherwise handlers change nothing here.
func (s *FrameSplit) Next(tickCut, handled bool) FrameKind {
	switch {
	case s.owed, tickCut && handled:
		return FrameDraw
	case tickCut:
		return FrameEngine
	}
	return FrameBoth
}

// Render reports whether a frame of kind k draws now. want: something
// changed (or a handler ran); elapsed: the frame's work so far. A
// FrameEngine whose engine work took more than engineAlone defers its
// render to the next frame; a FrameDraw always draws, since the frame
// before it left its render owed.
func (s *FrameSplit) Render(k FrameKind, want bool, elapsed time.Duration) bool {
	switch k {
	case FrameDraw:
		s.owed = false
		return true
	case FrameEngine:
		if want && elapsed > engineAlone {
			s.owed = true
			return false
		}
	}
	return want
}

// engineAlone is how much engine work a FrameEngine may have done and
// still draw at once (its step ended, or its count ran out, early in the
// frame). A frame that drew after an engine's share of EngineTime, what
// the render leaves of FrameWork, came to 15-20 ms of the main thread's
// CPU in the traces, the browser's style, layout and paint included; a
// render after at most minEngine of engine work leaves the browser its
// part of the frame.
const engineAlone = minEngine

// EngineTimeFor is the engine's share of a frame of kind k: EngineTime for
// FrameBoth, all of FrameWork for FrameEngine (it draws nothing), none for
// FrameDraw (its event budget, EventsFor, keeps it to one event).
func (b *FrameBudget) EngineTimeFor(k FrameKind) time.Duration {
	switch k {
	case FrameEngine:
		return FrameWork
	case FrameDraw:
		return 0
	}
	return b.EngineTime()
}

// EventsFor is the event budget of a frame of kind k, from events (a
// budget for EngineTime, Observe's): a FrameEngine gets as many more as
// its longer share allows at the same rate, so that its count does not
// stop it long before its deadline; a FrameDraw gets drawEvents, so that
// its render does not come after a chunk of heavy events (the deadline
// alone lets a chunk of frameChunk run).
func (b *FrameBudget) EventsFor(k FrameKind, events int) int {
	switch k {
	case FrameEngine:
		return min(int(float64(events)*float64(FrameWork)/float64(b.EngineTime())), stepsPerFrame)
	case FrameDraw:
		return drawEvents
	}
	return events
}

// drawEvents is a FrameDraw's event budget: one event keeps a step moving
// (a frame that runs none would look like a step that stopped), and the
// next frame is the engine's.
const drawEvents = 1
