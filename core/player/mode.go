package player

import (
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
)

// Mode is what a Player shows, and how it plays: the user's own session
// (*Session: a console and its timeline, perhaps a built-in scenario) or a
// fault-simulator run replayed from its #sim= link (*SimRun). The page
// drives the Player and never asks which mode it shows: the Player embeds
// its Mode, so the exported methods below are the Player's, and the
// Player's own methods do what both modes share (a frame's bookkeeping,
// the viewer's last action, the error shown) and hand the rest to the
// unexported ones.
//
// A mode holds the Player it plays for (its speed, pause, language, frame
// budgets and error): both are made together and a mode is never moved to
// another Player.
type Mode interface {
	// Now is the virtual time shown; End the furthest moment one can
	// seek to (a simulator run's is now: it has not played further).
	Now() sim.Time
	End() sim.Time

	// LineCount, Line and LineBase are the terminal: Line(i) for i below
	// LineCount, LineBase lines having scrolled out before the first.
	LineCount() int
	Line(i int) timeline.Line
	LineBase() int
	// Busy reports whether a typed command is still running (the prompt
	// waits); Advancing, the span of a "time advance" under way.
	Busy() bool
	Advancing() (from, to sim.Time, ok bool)

	// Seeking reports the moment a seek under way is going to (StartSeek);
	// FinishSeek carries it to its end now.
	Seeking() (sim.Time, bool)
	FinishSeek()
	// Standbys are the moments standby replays stand at (what makes
	// seeking back fast), SetStandbyLimit bounds how many are kept, and
	// LastSeek is what the last seek that arrived cost (timeline's).
	Standbys() []sim.Time
	SetStandbyLimit(n int)
	LastSeek() (from sim.Time, events uint64, seeks int)

	// BrokerAction runs what clicking a broker does (kill, power-loss,
	// stop, start, isolate, heal), or says why it cannot.
	BrokerAction(id int32, action string) error
	// Hash is the URL #part that reproduces what is shown now.
	Hash() string
	// Scenario is the built-in scenario being played (nil outside one).
	Scenario() *Scenario

	// cluster is the cluster shown (nil without one); feedLog, its event
	// feed.
	cluster() *cluster.Cluster
	feedLog() *timeline.FeedLog
	// tick plays one frame of wall time (already clamped to maxFrame).
	tick(wall time.Duration)
	// settle runs the frames a page runs after opening a link until the
	// picture rests (at most maxFrames).
	settle(maxFrames int)
	// command answers a typed line (trimmed, not empty).
	command(line string, stdin []string)
	// interrupt is Ctrl-C.
	interrupt()
	// seek goes to t now; startSeek begins going there (frames carry it
	// out where the mode seeks over frames).
	seek(t sim.Time)
	startSeek(t sim.Time)
	// runTo runs forward to t, at most steps events (0: no bound).
	runTo(t sim.Time, steps int)
	// close stops what the mode runs in the background.
	close()
}
