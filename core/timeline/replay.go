package timeline

import (
	"kafkascope/core/cluster"
	"kafkascope/core/console"
	"kafkascope/core/sim"
)

// replay is one run of the branch's actions in its own console session:
// the live one the user sees, or a standby paused at an earlier moment.
// Replays of the same actions to the same moment are identical (the engine
// is deterministic), so any of them can stand in for another.
type replay struct {
	con     *console.Session
	applied int // actions applied so far
	// lines holds the terminal's newest lines: the last MaxLines of them
	// are shown (shown); dropped counts those cut from its front.
	lines   []Line
	dropped int
	log     FeedLog
}

func newReplay() *replay { return &replay{con: console.NewSession()} }

// close ends a replay no one will use again: its cluster's goroutines
// would otherwise keep it in memory.
func (r *replay) close() {
	if r == nil {
		return
	}
	if c := r.Cluster(); c != nil {
		c.Close()
	}
}

// Cluster is the replay's cluster, or nil.
func (r *replay) Cluster() *cluster.Cluster { return r.con.Cluster() }

// at is the replay's virtual time (0 without a cluster).
func (r *replay) at() sim.Time {
	if c := r.Cluster(); c != nil {
		return c.World.Now()
	}
	return 0
}

func (r *replay) apply(a Action) {
	if a.Interrupt {
		r.lines = append(r.lines, Line{At: a.At, Kind: Input, Text: "^C"})
		r.con.Interrupt()
	} else {
		r.echo(a.At, a.Line, a.Stdin)
		r.note(a)
		r.con.Start(a.Line, a.Stdin)
	}
	r.drain()
}

// note shows the action's notes, as its command printed them when taken.
func (r *replay) note(a Action) {
	for _, n := range a.Notes {
		r.lines = append(r.lines, Line{At: a.At, Kind: Output, Text: n})
	}
}

func (r *replay) echo(at sim.Time, line string, stdin []string) {
	r.lines = append(r.lines, Line{At: at, Kind: Command, Text: line})
	for _, in := range stdin {
		r.lines = append(r.lines, Line{At: at, Kind: Input, Text: in})
	}
}

func (r *replay) drain() {
	if c := r.Cluster(); c != nil {
		r.log.Drain(c.World.Trace())
	}
	for _, l := range r.con.OutputLines() {
		r.lines = append(r.lines, Line{At: l.At, Kind: Output, Text: l.Text})
	}
	// Cut in batches: cutting on every drain copied MaxLines lines each
	// time once a long session reached the limit.
	if over := len(r.lines) - MaxLines; over > MaxLines/4 {
		r.lines = append([]Line(nil), r.lines[over:]...)
		r.dropped += over
	}
}

// shown is the terminal's newest lines, at most MaxLines.
func (r *replay) shown() []Line { return r.lines[max(0, len(r.lines)-MaxLines):] }

// base is how many of the replay's lines scrolled out before shown.
func (r *replay) base() int { return r.dropped + max(0, len(r.lines)-MaxLines) }

// runTo advances to target, applying actions on the way (actions are the
// branch; the replay has applied actions[:applied]).
func (r *replay) runTo(actions []Action, target sim.Time, maxSteps int) (bool, error) {
	c := r.Cluster()
	steps := maxSteps
	for {
		stop := target
		if r.applied < len(actions) && actions[r.applied].At <= target {
			stop = actions[r.applied].At
		}
		budget := stepsPerChunk
		if maxSteps > 0 {
			budget = min(budget, steps)
		}
		start := c.World.Steps()
		reached, err := c.World.RunUntilBudget(stop, budget)
		steps -= int(c.World.Steps() - start)
		r.con.Poll()
		r.drain()
		if err != nil {
			return false, err
		}
		if !reached {
			if maxSteps > 0 && steps <= 0 {
				return false, nil
			}
			continue
		}
		if stop == target && (r.applied >= len(actions) || actions[r.applied].At > target) {
			return true, nil
		}
		a := actions[r.applied]
		r.applied++
		r.apply(a)
		if isClusterCreate(a.Line) {
			c = r.Cluster()
		}
	}
}
