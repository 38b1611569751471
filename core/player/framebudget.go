package player

import "time"

// FrameBudget adapts how many simulation events a frame may run to what
// frames cost on this machine, so the page stays responsive while a heavy
// cluster plays (scenario 22 with __consumer_offsets' 150 replicas made
// frames of 300-500 ms at the fixed budget). The host measures each frame
// (events run, wall time including the render) and feeds Observe; the
// player applies the result with SetFrameEvents. Only the pace changes:
// the same events run in the same order however frames split them.
//
// Invariant: the budget stays within [MinFrameEvents, stepsPerFrame].
type FrameBudget struct {
	events int // the current budget (0 until the first observation)
}

const (
	// FrameTarget is the frame cost aimed at: a 60 Hz frame's worth.
	FrameTarget = 16 * time.Millisecond
	// MinFrameEvents keeps time moving on the slowest machine.
	MinFrameEvents = 1000
)

// Observe takes one frame's cost and returns the budget for the next: the
// events this machine runs in FrameTarget at the frame's rate, halfway
// from the current budget (so one odd frame does not swing it). A frame
// that ran too few events to measure leaves the budget as it is.
func (b *FrameBudget) Observe(events uint64, took time.Duration) int {
	if b.events == 0 {
		b.events = stepsPerFrame
	}
	if events < 200 || took <= 0 {
		return b.events
	}
	want := int(float64(events) * float64(FrameTarget) / float64(took))
	b.events = min(max((b.events+want)/2, MinFrameEvents), stepsPerFrame)
	return b.events
}
