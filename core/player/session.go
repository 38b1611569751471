package player

import (
	"fmt"
	"strconv"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
	"kafkascope/core/urlquery"
)

// Session is the user's own session, the Mode a Player starts in: a
// console whose commands and time the timeline records (core/timeline),
// so that any moment can be seeked to and shared as a link, perhaps
// playing a built-in scenario's steps (scenario.go). Frames play it at the
// chosen speed; a "time advance" fast-forwards, a seek back replays from
// a standby, and frames left idle build standbys (framedeadline.go).
type Session struct {
	TL *timeline.Session

	p  *Player
	sc *Scenario // nil outside a scenario
	// carry is the virtual time playing at a speed still owes (paced).
	carry time.Duration
}

func newSession(p *Player, tl *timeline.Session) *Session { return &Session{TL: tl, p: p} }

// Now is the virtual time now.
func (s *Session) Now() sim.Time { return s.TL.Now() }

// End is the furthest moment one can seek to.
func (s *Session) End() sim.Time { return s.TL.End() }

// LineCount is how many lines the terminal holds.
func (s *Session) LineCount() int { return s.TL.LineCount() }

// Line is the terminal's line i, without copying the terminal (a frame
// reads only what it draws).
func (s *Session) Line(i int) timeline.Line { return s.TL.Line(i) }

// LineBase is how many lines scrolled out before the first (timeline's
// LineBase).
func (s *Session) LineBase() int { return s.TL.LineBase() }

// Busy reports whether a typed command is still running.
func (s *Session) Busy() bool { return s.TL.Busy() }

// Advancing is the span of a "time advance" under way.
func (s *Session) Advancing() (from, to sim.Time, ok bool) { return s.TL.Advancing() }

// Seeking reports the moment a seek under way is going to.
func (s *Session) Seeking() (sim.Time, bool) { return s.TL.Seeking() }

// FinishSeek carries a seek under way to its end now (a link copied must
// hold the moment the scrubber shows).
func (s *Session) FinishSeek() {
	if _, ok := s.TL.Seeking(); ok {
		if _, err := s.TL.SeekStep(0); err != nil {
			s.p.Error = err.Error()
		}
		s.p.refresh()
	}
}

// Standbys are the moments the standby replays stand at.
func (s *Session) Standbys() []sim.Time { return s.TL.Standbys() }

// SetStandbyLimit keeps at most n standby replays (timeline's
// SetStandbyLimit): the page fits them in its memory.
func (s *Session) SetStandbyLimit(n int) { s.TL.SetStandbyLimit(n) }

// LastSeek is what the last seek that arrived cost (timeline's LastSeek).
func (s *Session) LastSeek() (from sim.Time, events uint64, seeks int) { return s.TL.LastSeek() }

// Scenario is the built-in scenario being played (nil outside one).
func (s *Session) Scenario() *Scenario { return s.sc }

// Hash is the URL #part that reproduces what is shown now: the scenario
// step, or the whole session.
func (s *Session) Hash() string {
	v := urlquery.Values{}
	v.Set("lang", string(s.p.Lang))
	if sc := s.sc; sc != nil {
		v.Set("scenario", sc.ID)
		v.Set("step", strconv.Itoa(max(sc.Step, 0)))
	} else if s.TL.Cluster() != nil {
		v.Set("s", s.TL.Encode())
	}
	return "#" + v.Encode()
}

// BrokerAction runs what clicking a broker does: kill, power-loss, stop,
// start, isolate (cut every link) or heal (undo its cuts). It goes through
// the command language, so it shows in the terminal and replays.
func (s *Session) BrokerAction(id int32, action string) error {
	c := s.TL.Cluster()
	if c == nil || c.Node(id) == nil {
		return fmt.Errorf("no broker %d", id)
	}
	run := func(format string, args ...any) { s.p.Run(fmt.Sprintf(format, args...), nil) }
	switch action {
	case "kill":
		run("broker kill %d", id)
	case "power-loss":
		run("broker kill %d --power-loss", id)
	case "stop":
		run("broker stop %d", id)
	case "start":
		run("broker start %d", id)
	case "isolate", "heal":
		verb := "cut"
		if action == "heal" {
			verb = "heal"
		}
		for _, other := range c.NodeIDs() {
			if other != id {
				run("network %s %d %d", verb, id, other)
			}
		}
	default:
		return fmt.Errorf("unknown broker action %q", action)
	}
	return nil
}

func (s *Session) cluster() *cluster.Cluster  { return s.TL.Cluster() }
func (s *Session) feedLog() *timeline.FeedLog { return s.TL.FeedLog() }

// close: a session runs nothing in the background.
func (s *Session) close() {}

// command types a line into the console; acting on your own leaves the
// scenario's story.
func (s *Session) command(line string, stdin []string) {
	s.sc = nil
	s.TL.Do(line, stdin)
	s.p.refresh()
}

func (s *Session) interrupt() {
	s.TL.Interrupt()
	s.p.refresh()
}

func (s *Session) seek(t sim.Time) {
	if err := s.TL.Seek(t); err != nil {
		s.p.Error = err.Error()
	}
	s.p.refresh()
}

// startSeek begins a seek the coming frames carry out (tick, seekFrame).
func (s *Session) startSeek(t sim.Time) {
	if err := s.TL.StartSeek(t); err != nil {
		s.p.Error = err.Error()
	}
}

func (s *Session) runTo(t sim.Time, steps int) {
	if _, err := s.TL.Play(t.Sub(s.TL.Now()), steps); err != nil {
		s.p.Error = err.Error()
	}
}

// tick plays one frame: a seek under way, else a scenario step's
// commands, else time at the chosen speed (a "time advance" fast-forwards;
// a paused frame goes to the standbys).
func (s *Session) tick(wall time.Duration) {
	p := s.p
	if _, ok := s.TL.Seeking(); ok {
		// A seek under way (StartSeek) takes the frame: the diagram keeps
		// the moment it showed until the seek arrives, so the frame has no
		// render and the browser nothing to lay out (seekFrame). Its
		// frames are the viewer's doing, not time left alone: a standby
		// must not start (a long frame) right after a long seek arrives.
		p.quiet = 0
		done, err := s.seekFrame()
		if err != nil {
			p.Error = err.Error()
		}
		if done {
			p.refresh()
		}
		return
	}
	if s.sc.Running() {
		// A scenario step plays at its own pace: each command as long as
		// it would block, a share of events per frame.
		if err := s.sc.advance(p.events(stepEvents)); err != nil {
			p.Error = err.Error()
		}
		return
	}
	_, ff := s.TL.FastForward()
	// A "time advance" under way skips to its end while playing, and when
	// the user has just typed it (at the branch's end); a paused moment in
	// its middle, where a seek back landed, stays where it is (it jumped to
	// the end of the advance on the next frame, and a link copied then
	// held that later moment).
	ff = ff && (!p.Paused || s.TL.Now() >= s.TL.End())
	p.ffLast = ff
	if p.Paused && !ff && !s.TL.Busy() {
		s.idleFrame()
		return
	}
	d := time.Duration(float64(wall) * p.Speed)
	if p.Paused && !ff {
		d = 0 // paused: a running command waits too
	} else if !ff {
		d = s.paced(d)
	}
	if d > 0 || ff {
		before := p.steps()
		if ff && p.ffLeft != nil {
			s.fastForwardFrame(d)
		} else {
			budget := p.events(stepsPerFrame)
			if ff {
				budget = p.fastForwardCount()
			}
			if _, err := s.TL.Play(d, budget); err != nil {
				p.Error = err.Error()
			}
		}
		if used := int(p.steps() - before); used < idleSteps {
			// What the frame's budget has left goes to the standbys.
			s.useIdleFrame(min(p.events(idleSteps), p.events(stepsPerFrame)-used))
		}
	}
	p.refresh()
}

// settle ticks until a scenario step's commands, a "time advance" typed
// last and a seek have come to their ends.
func (s *Session) settle(maxFrames int) {
	for i := 0; i < maxFrames; i++ {
		s.p.Tick(maxFrame)
		// A frame that fast-forwarded may have reached the advance's end:
		// the next one says whether it rests.
		if _, seeking := s.TL.Seeking(); !seeking && !s.sc.Running() && !s.p.ffLast {
			return
		}
	}
}

// standbyQuiet is how many frames the player must have been left alone
// (paused, no action) before idle time starts a standby replay: starting
// one creates a cluster in one step (50-150 ms in the page), which must
// not land among the frames of a scenario being stepped through or a
// cluster playing. Carrying one on is cheap and is done in any idle time.
const standbyQuiet = 90

// useIdleFrame gives a frame with little to do to the timeline's standby
// replays: steps events at most.
func (s *Session) useIdleFrame(steps int) {
	if steps <= 0 || s.TL.BackgroundStarts() && (!s.p.Paused || s.p.quiet < standbyQuiet) {
		return
	}
	if _, err := s.TL.Background(steps); err != nil {
		s.p.Error = err.Error()
	}
}
