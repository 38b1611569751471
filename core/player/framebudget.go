package player

import "time"

// FrameBudget adapts how many simulation events a frame may run to what
// frames cost on this machine, so the page stays smooth while a heavy
// cluster plays. The host measures each frame (FrameCost) and feeds
// Observe; the player applies the result with SetFrameEvents. Only the
// pace changes: the same events run in the same order however frames
// split them (time then moves slower than the chosen speed, never
// differently).
//
// A 60 Hz frame is 16.7 ms of the page's only thread, shared by the
// engine's events, the page's build and render, and the browser's own
// style, layout and paint. The budget gives the engine what is left of
// FrameWork after the page's render (whose cost it follows), and shrinks
// further while frames come late (the browser's share was larger than
// the rest of the frame), growing back slowly while they come on time.
// (It aimed at 16 ms for the engine and the render together, which left
// nothing for the browser: every frame ran late, issue 15.)
//
// Invariant: the budget stays within [MinFrameEvents, stepsPerFrame].
type FrameBudget struct {
	events int     // the current budget (0 until the first observation)
	render float64 // the render's cost, smoothed (ms)
	late   float64 // a cap from late frames (events; 0: none yet)
}

// FrameCost is what one frame cost.
type FrameCost struct {
	Events   uint64        // events the frame's tick ran
	Tick     time.Duration // the tick: the engine and the snapshot
	Render   time.Duration // the render the frame asked for (0: none)
	Interval time.Duration // since the previous frame began
}

const (
	// FrameWork is the page's share of a 60 Hz frame (the tick and the
	// render); the rest is the browser's.
	FrameWork = 10 * time.Millisecond
	// minEngine is the least of FrameWork the engine gets, however
	// costly the render.
	minEngine = 2 * time.Millisecond
	// MinFrameEvents keeps time moving on the slowest machine.
	MinFrameEvents = 300
	// lateFrame: a frame that began this long after the previous one
	// missed the display's next refresh.
	lateFrame = 24 * time.Millisecond
	// firstFrameEvents is the budget before any frame was measured.
	firstFrameEvents = 2000
)

// FastForwardWork is the page's share of a frame that fast-forwards a
// "time advance" (playing, at the branch's end): the viewer waits for the
// advance, and the picture changes in little more than its clock, so the
// browser needs less of the frame. issue 15's profile of `time advance
// 1d` in the page found 17% of it idle with frames on time; with 12 ms
// the advance ran about 45% faster (2,080-2,560 simulated seconds a
// second against 1,420-1,770) with frames still one refresh apart, while
// 13 ms was no faster and let a twentieth of the frames run late.
// (Scenario steps and playing keep FrameWork: with 13 ms for every
// frame, scenario steps ran more long frames.)
const FastForwardWork = 12 * time.Millisecond

// FastForwardEvents is the budget of a frame that fast-forwards: events,
// a budget for FrameWork (Observe's), scaled to the engine's share of
// FastForwardWork at the same rate; a quiet frame draws nothing (the page
// redraws a fast-forward only every FastForwardRedraw), and its engine
// gets fastForwardQuietWork.
func (b *FrameBudget) FastForwardEvents(events int, quiet bool) int {
	return min(int(float64(events)*float64(b.FastForwardTime(quiet))/float64(b.EngineTime())), stepsPerFrame)
}

// FastForwardTime is the engine's share of a frame that fast-forwards:
// fastForwardQuietWork for a quiet frame (it draws nothing), else what
// FastForwardWork leaves after the render (never less than minEngine).
// The host ends such a frame's engine work there
// (Player.SetFastForwardDeadline).
func (b *FrameBudget) FastForwardTime(quiet bool) time.Duration {
	if quiet {
		return fastForwardQuietWork
	}
	return max(FastForwardWork-time.Duration(b.render*float64(time.Millisecond)), minEngine)
}

// FastForwardRedraw is how often the page draws a "time advance" while it
// fast-forwards. A profile of `time advance 7d` in the page found the
// engine with 23% of the time: the build and patch of the page took 25%
// and the browser's own work on what they changed ("(program)": style,
// layout, paint) 38%, every frame, for a picture that jumps by half a
// simulated minute each frame. Drawn ten times a second, it still shows the clock and the
// cluster move, and the frames between give the engine most of the frame
// (fastForwardQuietWork): the engine's share of the profile went from 23%
// to 62%.
const FastForwardRedraw = 100 * time.Millisecond

// fastForwardQuietWork is the engine's share of a fast-forwarding frame
// that draws nothing: the browser has no style, layout or paint to do.
// Measured over the first 90 s of `time advance 7d` in the page (make
// bench-browser): 156,000 simulated seconds drawing every frame; 215,000
// with quiet frames at 12 ms, 281,000 at 14 ms and 342,000 at 15 ms, with
// frames still one refresh apart at p95 and none over 50 ms.
const fastForwardQuietWork = 15 * time.Millisecond

// QuietWork is the engine's share of a frame that draws nothing: one that
// carries a seek on (the diagram keeps its moment until the seek
// arrives) or spends a paused session's idle time on standbys. As in a
// quiet fast-forwarding frame, the browser has no style, layout or paint
// to do; the host ends such a frame's engine work there
// (Player.SetQuietDeadline) and leaves the browser the rest. (A deadline
// that shortened while such frames came late was tried and dropped: on a
// machine loaded by other programs frames came late whatever the engine
// did, the deadline fell to its floor, and seeks in the browser benchmark
// took longer, one of them 13.8 s, with frames no better.)
const QuietWork = 12 * time.Millisecond

// EngineTime is the engine's share of a frame: what FrameWork leaves after
// the render, and never less than minEngine. The host ends a frame's
// engine work there (Player.SetFrameDeadline) whatever the event count.
func (b *FrameBudget) EngineTime() time.Duration {
	return max(FrameWork-time.Duration(b.render*float64(time.Millisecond)), minEngine)
}

// Observe takes one frame's cost and returns the budget for the next:
// the events the engine runs, at this frame's rate, in what FrameWork
// leaves after the render, halfway from the current budget (so one odd
// frame does not swing it), and no more than late frames allow. A frame
// that ran too few events to measure its rate leaves that part as is.
func (b *FrameBudget) Observe(c FrameCost) int {
	if b.events == 0 {
		// Start low: the first frames of a page are often idle, and the
		// first busy one would run the whole default unmeasured.
		b.events = firstFrameEvents
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	if c.Render > 0 {
		b.render += (ms(c.Render) - b.render) / 4
	}
	// A late frame that ran (nearly) its whole budget: the engine's share
	// was part of why; cut the cap. Frames on time let it grow back.
	switch {
	case c.Interval >= lateFrame && c.Events*10 >= uint64(b.events)*9:
		b.late = float64(b.events) * 0.75
	case b.late > 0 && c.Interval > 0 && c.Interval < lateFrame:
		b.late *= 1.05
	}
	if c.Events >= 200 && c.Tick > 0 {
		engine := ms(b.EngineTime())
		want := int(float64(c.Events) * engine / ms(c.Tick))
		b.events = (b.events + want) / 2
	}
	if b.late > 0 && float64(b.events) > b.late {
		b.events = int(b.late)
	}
	b.events = min(max(b.events, MinFrameEvents), stepsPerFrame)
	if b.late > float64(stepsPerFrame) {
		b.late = 0 // grown back past the default: no cap
	}
	return b.events
}
