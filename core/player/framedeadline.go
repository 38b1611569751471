package player

import "time"

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
// Playing keeps its event count: chunking it too cost more than it gave
// in the browser benchmark (a 1000-partition topic's 100,000 records took
// 19 s to send instead of 12 s). Frames that draw nothing (a seek under
// way, a paused session's idle time on the standbys) are chunked against
// a deadline of their own, the quiet deadline (SetQuietDeadline,
// QuietWork): with the usual frame's share and count a seek left a third
// of the time idle (seekFrame), and a count for the larger share overran.
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

// TickCut reports whether the last Tick stopped a scenario step with the
// step unfinished, at the host's deadline or at the frame's event budget:
// the engine has more work than a frame (the host then splits frames:
// FrameSplit).
func (p *Player) TickCut() bool { return p.tickCut }

// SetQuietDeadline installs the host's deadline for a frame that draws
// nothing (QuietWork after the frame began): over reports whether it
// passed. nil removes it (tests and tools run such frames by their event
// counts).
func (p *Player) SetQuietDeadline(over func() bool) { p.quietOver = over }

// SetFastForwardDeadline installs the host's clock for a frame that
// fast-forwards a "time advance": left reports the part of the frame's
// time for it (FrameBudget.FastForwardTime) still left, 1 as the frame
// begins and 0 or less once spent. nil removes it (tests and tools run
// such frames by their event counts, SetFastForwardEvents).
func (p *Player) SetFastForwardDeadline(left func() float64) { p.ffLeft = left }

// fastForwardFrame runs a "time advance" on for one frame: first the
// host's count for such a frame (SetFastForwardEvents), then, while time
// is left and the advance goes on, that count scaled to the part left
// (at least minFastForwardShare of it; at most stepsPerFrame events in
// all). When the advance ends the frame ends too, and time plays on at
// the chosen speed from the next. The first run plays wall (the frame's
// time at the chosen speed), the others nothing more (the advance's end
// is their target).
//
// The count alone left the frame short: a leaped span is one event that
// costs far more than the events around it, so the count measured on the
// frames before undershot as often as not, and a Chrome profile of
// `time advance 7d` in the page had the main thread idle a fifth of the
// time. Runs must stay large, though: a leap is offered only its run's
// budget (each NoOp a unit per node), and runs of 64 events left the week
// stepping most of its events, three times slower. Only the pace
// changes: the same events run in the same order.
func (s *Session) fastForwardFrame(wall time.Duration) {
	before := s.p.steps()
	count := s.p.fastForwardCount()
	chunk := count
	for first := true; ; first = false {
		if !first {
			left := s.p.ffLeft()
			if left <= minFastForwardShare {
				return
			}
			if _, ff := s.TL.FastForward(); !ff {
				return
			}
			wall, chunk = 0, max(int(float64(count)*left), frameChunk)
		}
		chunk = min(chunk, stepsPerFrame-int(s.p.steps()-before))
		if chunk <= 0 {
			return
		}
		if _, err := s.TL.Play(wall, chunk); err != nil {
			s.p.Error = err.Error()
			return
		}
	}
}

// minFastForwardShare: with less of a fast-forwarding frame's time left,
// the frame ends (a run that small would add a leap's fixed cost for
// little time).
const minFastForwardShare = 0.1

// seekFrame carries a seek under way on for one frame and reports whether
// it arrived. Such a frame draws nothing (the diagram keeps its moment
// until the seek arrives), so the host gives it the quiet deadline
// (QuietWork) rather than what a render leaves; the seek runs in chunks
// of frameChunk events until that deadline passes, at most stepsPerFrame
// events. A count cannot stand in for the deadline: issue 15's hour-long
// session gave seek frames the quiet fast-forward's count, and because
// the events a replay runs cost more or less than those the count was
// measured on, frames during seeks went from p95 16.8 ms to 33-50 ms with
// one of 133 ms; with the usual count they left a third of the time idle
// (a Chrome profile of the seeks: 33% idle, 46% engine). Without a
// deadline (tests, tools) a frame runs half as much again as a playing
// frame's events. Only the pace changes: a seek in steps of any size
// arrives where one in a single run does (timeline.SeekStep).
func (s *Session) seekFrame() (bool, error) {
	if s.p.quietOver == nil {
		return s.TL.SeekStep(min(s.p.events(stepsPerFrame)*3/2, stepsPerFrame))
	}
	start := s.TL.SeekEvents()
	for ran := false; ; ran = true {
		if ran && s.p.quietOver() {
			return false, nil
		}
		chunk := min(frameChunk, stepsPerFrame-int(s.TL.SeekEvents()-start))
		if chunk <= 0 {
			return false, nil
		}
		if done, err := s.TL.SeekStep(chunk); done || err != nil {
			return done, err
		}
	}
}

// idleFrame spends a paused frame with nothing to do on the standby
// replays. It draws nothing, so with the quiet deadline it runs chunks of
// frameChunk events until that passes (at most stepsPerFrame); a standby
// that starts (creating a cluster, the costliest step of all) or is
// parked ends the frame, so that the next one starts in a frame of its
// own. Without a deadline it runs the idle frame's count.
func (s *Session) idleFrame() {
	if s.p.quietOver == nil {
		s.useIdleFrame(s.p.events(idleSteps))
		return
	}
	if s.TL.BackgroundStarts() && s.p.quiet < standbyQuiet {
		return
	}
	start := s.TL.BackgroundEvents()
	for {
		starts := s.TL.BackgroundStarts()
		more, err := s.TL.Background(frameChunk)
		if err != nil {
			s.p.Error = err.Error()
			return
		}
		if !more || starts || s.TL.BackgroundStarts() || s.p.quietOver() ||
			s.TL.BackgroundEvents()-start >= stepsPerFrame {
			return
		}
	}
}
