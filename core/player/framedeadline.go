package player

// A frame's event budget (SetFrameEvents) is a count, learned from what
// recent frames cost; but events differ a thousandfold in cost (an empty
// fetch against a producer's send of 4 MB, a metadata image rebuilt), so a
// frame whose events turned heavy ran far past its share: issue 15's
// browser profile of scenario 20 found 232 ms of engine work in one frame
// whose count was on budget. The host therefore also gives the player a
// deadline (SetFrameDeadline), and a scenario step's commands run in
// chunks of frameChunk events with the deadline checked between them: a
// frame overruns its share by at most one chunk.
//
// Only steps: playing, seeking and the standbys keep their event counts.
// Chunking them too cost more than it gave in the browser benchmark (a
// 1000-partition topic's 100,000 records took 19 s to send instead of
// 12 s, seeks in an hour's session took twice as long, and their
// longest frames were no shorter).
//
// Only the pace changes: a chunked step does exactly what one run with
// the same total would have done up to where it stopped (it stops only at
// an event boundary, and the next frame carries on from there), so
// results never depend on the machine or the clock.

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
