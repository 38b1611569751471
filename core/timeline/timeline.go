package timeline

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/console"
	"kafkascope/core/feed"
	"kafkascope/core/sim"
)

// Action is one thing the user did, at the virtual time they did it.
type Action struct {
	At        sim.Time `json:"t"`
	Line      string   `json:"c,omitempty"`
	Stdin     []string `json:"i,omitempty"`
	Interrupt bool     `json:"x,omitempty"`
}

// LineKind says what a terminal line is.
type LineKind uint8

const (
	Output LineKind = iota
	Command
	Input
)

// Line is one terminal line, stamped with the virtual time it appeared.
type Line struct {
	At   sim.Time
	Kind LineKind
	Text string
}

// Limits on a session.
const (
	MaxActions    = 2000
	MaxLines      = 20000
	stepsPerChunk = 20000 // events run between checks, so a long run can yield
)

// Session is a rewindable terminal session.
//
// Invariants: actions are in the order they were taken, with
// non-decreasing At; actions[:applied] have been applied to con; the first
// action (if any) is the "cluster create" that started the timeline.
type Session struct {
	con     *console.Session
	actions []Action
	applied int
	lines   []Line
	end     sim.Time // the furthest time this branch has reached
	before  []Line   // terminal lines from before the current timeline
	feed    []feed.Entry
	marks   []feed.Entry
	seen    uint64 // trace events already read into feed and marks
}

// MaxFeed bounds the event feed kept in memory (the newest entries).
const MaxFeed = 2000

// New makes an empty session (no cluster yet).
func New() *Session { return &Session{con: console.NewSession()} }

// Cluster is the current cluster, or nil.
func (s *Session) Cluster() *cluster.Cluster { return s.con.Cluster() }

// Now is the current virtual time (0 without a cluster).
func (s *Session) Now() sim.Time {
	if c := s.Cluster(); c != nil {
		return c.World.Now()
	}
	return 0
}

// End is the furthest moment of the current branch: seeking beyond Now and
// up to End replays the actions recorded there.
func (s *Session) End() sim.Time { return max(s.end, s.Now()) }

// Busy reports whether a command is running (the prompt waits).
func (s *Session) Busy() bool { return s.con.Busy() }

// Actions returns the recorded actions.
func (s *Session) Actions() []Action { return append([]Action(nil), s.actions...) }

// Lines returns the terminal: lines from before this timeline, then this
// timeline's lines up to now.
func (s *Session) Lines() []Line {
	out := append([]Line(nil), s.before...)
	return append(out, s.lines...)
}

// Do takes an action now: runs a command line with its input. Taking an
// action before the end of the branch forks it. "cluster create" starts a
// new timeline.
func (s *Session) Do(line string, stdin []string) {
	if isClusterCreate(line) {
		s.before = append(s.before, s.lines...)
		s.actions, s.applied, s.lines, s.end = nil, 0, nil, 0
		s.feed, s.marks, s.seen = nil, nil, 0
	} else if s.Cluster() == nil {
		// Nothing to record before there is a cluster: just run it.
		s.echo(0, line, stdin)
		s.con.Start(line, stdin)
		s.drain()
		s.before = append(s.before, s.lines...)
		s.lines = nil
		return
	}
	s.fork()
	if len(s.actions) >= MaxActions {
		s.lines = append(s.lines, Line{At: s.Now(), Text: fmt.Sprintf("kafkascope: this session has reached its limit of %d actions; start a new one with cluster create", MaxActions)})
		return
	}
	a := Action{At: s.Now(), Line: line, Stdin: append([]string(nil), stdin...)}
	s.actions = append(s.actions, a)
	s.apply(a)
	s.applied = len(s.actions)
	s.end = s.Now()
}

// Interrupt is Ctrl-C on the running command.
func (s *Session) Interrupt() {
	if s.Cluster() == nil || !s.Busy() {
		return
	}
	s.fork()
	a := Action{At: s.Now(), Interrupt: true}
	s.actions = append(s.actions, a)
	s.apply(a)
	s.applied = len(s.actions)
}

// fork drops the future of the branch when acting before its end.
func (s *Session) fork() {
	if s.applied < len(s.actions) {
		s.actions = s.actions[:s.applied]
	}
	s.end = s.Now()
}

func (s *Session) apply(a Action) {
	if a.Interrupt {
		s.lines = append(s.lines, Line{At: a.At, Kind: Input, Text: "^C"})
		s.con.Interrupt()
	} else {
		s.echo(a.At, a.Line, a.Stdin)
		s.con.Start(a.Line, a.Stdin)
	}
	s.drain()
}

func (s *Session) echo(at sim.Time, line string, stdin []string) {
	s.lines = append(s.lines, Line{At: at, Kind: Command, Text: line})
	for _, in := range stdin {
		s.lines = append(s.lines, Line{At: at, Kind: Input, Text: in})
	}
}

func (s *Session) drain() {
	if c := s.Cluster(); c != nil {
		tr := c.World.Trace()
		for _, e := range feed.Recent(tr, s.seen, 0) {
			s.feed = append(s.feed, e)
			if e.Marks() {
				s.marks = append(s.marks, e)
			}
		}
		s.seen = tr.Count()
		if over := len(s.feed) - MaxFeed; over > 0 {
			s.feed = append([]feed.Entry(nil), s.feed[over:]...)
		}
	}
	for _, l := range s.con.OutputLines() {
		s.lines = append(s.lines, Line{At: l.At, Kind: Output, Text: l.Text})
	}
	if over := len(s.lines) - MaxLines; over > 0 {
		s.lines = append([]Line(nil), s.lines[over:]...)
	}
}

// Play lets virtual time pass for d: it applies recorded actions that fall
// in that time (when replaying a branch), and runs a "time advance" straight
// to its end. It runs at most maxSteps events (0: no limit) and reports
// whether it got all the way (so a caller can spread long runs over frames).
func (s *Session) Play(d time.Duration, maxSteps int) (bool, error) {
	c := s.Cluster()
	if c == nil {
		return true, nil
	}
	target := c.World.Now().Add(d)
	if ff, ok := s.con.FastForward(); ok && ff > target {
		target = ff
	}
	return s.runTo(target, maxSteps)
}

// runTo advances to target, applying the branch's actions on the way.
func (s *Session) runTo(target sim.Time, maxSteps int) (bool, error) {
	c := s.Cluster()
	steps := maxSteps
	for {
		stop := target
		if s.applied < len(s.actions) && s.actions[s.applied].At <= target {
			stop = s.actions[s.applied].At
		}
		budget := stepsPerChunk
		if maxSteps > 0 {
			budget = min(budget, steps)
		}
		start := c.World.Steps()
		reached, err := c.World.RunUntilBudget(stop, budget)
		steps -= int(c.World.Steps() - start)
		s.con.Poll()
		s.drain()
		if err != nil {
			return false, err
		}
		if !reached {
			if maxSteps > 0 && steps <= 0 {
				return false, nil
			}
			continue
		}
		if stop == target && (s.applied >= len(s.actions) || s.actions[s.applied].At > target) {
			s.end = max(s.end, c.World.Now())
			return true, nil
		}
		a := s.actions[s.applied]
		s.applied++
		s.apply(a)
		if isClusterCreate(a.Line) {
			c = s.Cluster()
		}
	}
}

// Seek moves to virtual time t: forward by playing the branch, backward by
// replaying it from the start. The state at t includes every action taken
// at or before t.
func (s *Session) Seek(t sim.Time) error {
	if s.Cluster() == nil || len(s.actions) == 0 {
		return nil
	}
	if t < s.Now() {
		if err := s.rebuild(); err != nil {
			return err
		}
	}
	t = min(t, s.End())
	_, err := s.runTo(t, 0)
	return err
}

// rebuild replays the first action (the cluster) into a fresh console.
func (s *Session) rebuild() error {
	end := s.End()
	s.con = console.NewSession()
	s.lines, s.applied = nil, 1
	s.feed, s.marks, s.seen = nil, nil, 0
	s.apply(s.actions[0])
	s.end = end
	if s.Cluster() == nil {
		return fmt.Errorf("replaying %q did not create a cluster", s.actions[0].Line)
	}
	return nil
}

// Markers are the moments the timeline marks, oldest first: crashes,
// elections and ISR changes.
func (s *Session) Markers() []feed.Entry { return s.marks }

// Feed is the event feed, oldest first (at most MaxFeed entries).
func (s *Session) Feed() []feed.Entry { return s.feed }

func isClusterCreate(line string) bool {
	f := strings.Fields(line)
	return len(f) >= 2 && f[0] == "cluster" && f[1] == "create"
}

// FastForward reports the end of a running "time advance": a player skips
// straight there rather than playing it.
func (s *Session) FastForward() (sim.Time, bool) { return s.con.FastForward() }
