package player

import "time"

// A frame's event budget (SetFrameEvents) is a count, learned from what
// recent frames cost; but events differ a thousandfold in cost (an empty
// fetch against a producer's send of 4 MB, a metadata image rebuilt), so a
// frame whose events turned heavy ran far past its share: issue 15's
// browser profile of scenario 20 found 232 ms of engine work in one frame
// whose count was on budget. The host therefore also gives the player a
// deadline (SetFrameDeadline), and the engine's work is run in chunks of
// frameChunk events with the deadline checked between them: a frame
// overruns its share by at most one chunk.
//
// Only the pace changes: a chunked run does exactly what one run with the
// same total would have done up to where it stopped (every run the player
// makes stops only at an event boundary, and the next frame carries on
// from there), so results never depend on the machine or the clock.

// frameChunk is how many events run between two looks at the deadline:
// small enough that a chunk of heavy events stays a few milliseconds in
// the page, large enough that the chunks' own cost (a look at the clock,
// the console's poll) does not show.
const frameChunk = 64

// SetFrameDeadline installs the host's deadline: over reports whether
// the current frame's time for the engine is spent. nil removes it (tests
// and tools run every frame to its event budget).
func (p *Player) SetFrameDeadline(over func() bool) { p.frameOver = over }

// overDeadline reports whether the host's deadline for this frame passed.
func (p *Player) overDeadline() bool { return p.frameOver != nil && p.frameOver() }

// chunked runs work in chunks of at most frameChunk events, within budget
// events, until work reports it is done, fails, or the frame's deadline
// passes. work(n) must run at most n events and report done=false only
// when it ran all n (so a stop between chunks is a stop at the budget).
func (p *Player) chunked(budget int, work func(n int) (bool, error)) (bool, error) {
	if p.frameOver == nil || budget <= 0 {
		return work(budget) // one run (budget 0: no bound)
	}
	for {
		n := min(budget, frameChunk)
		done, err := work(n)
		budget -= n
		if done || err != nil || budget <= 0 || p.overDeadline() {
			return done, err
		}
	}
}

// play lets d of virtual time pass (Play) in chunks: each chunk aims at
// the same target, so the run is the one Play(d, budget) makes.
func (p *Player) play(d time.Duration, budget int) (bool, error) {
	target := p.TL.Now().Add(d)
	return p.chunked(budget, func(n int) (bool, error) {
		return p.TL.Play(max(target.Sub(p.TL.Now()), 0), n)
	})
}
