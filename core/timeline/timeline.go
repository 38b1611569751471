package timeline

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/feed"
	"kafkascope/core/sim"
)

// Action is one thing the user did, at the virtual time they did it.
type Action struct {
	At        sim.Time `json:"t"`
	Line      string   `json:"c,omitempty"`
	Stdin     []string `json:"i,omitempty"`
	Interrupt bool     `json:"x,omitempty"`
	// Notes are lines the action printed that a replay of the branch
	// cannot print again: a cluster create typed over a running cluster
	// says what it stopped, but the branch it starts has no such
	// cluster. Replays show them after the command; links leave them
	// out (whoever opens one never had that cluster).
	Notes []string `json:"-"`
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
	MaxActions = 2000
	MaxLines   = 20000
	// MaxActionTime is the latest virtual time an action may be taken at:
	// a share link replays the whole branch, so its length is bounded.
	MaxActionTime = 31 * 24 * time.Hour
	stepsPerChunk = 20000 // events run between checks, so a long run can yield
)

// Session is a rewindable terminal session.
//
// Invariants: actions are in the order they were taken, with
// non-decreasing At; the live replay has applied actions[:applied]; the
// first action (if any) is the "cluster create" that started the
// timeline; every standby replay has applied a prefix of actions and
// stands at or before end.
type Session struct {
	*replay          // the live replay: what the user sees
	actions []Action // the branch
	end     sim.Time // the furthest time this branch has reached
	before  []Line   // terminal lines from before the current timeline
	standby standbys // paused replays of this branch, for fast seeks back

	pending       *pendingSeek // a seek under way (StartSeek), or nil
	lastSeekSteps uint64       // events the last seek ran (for tests and benchmarks)
	lastSeekFrom  sim.Time     // where the last seek's replay stood when it began
	seeks         int          // seeks that arrived
}

// MaxFeed bounds the event feed kept in memory (the newest entries).
const MaxFeed = 2000

// New makes an empty session (no cluster yet).
func New() *Session { return &Session{replay: newReplay()} }

// Cluster is the current cluster, or nil.

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
	return append(out, s.shown()...)
}

// LineCount is how many lines Lines returns.
func (s *Session) LineCount() int { return len(s.before) + len(s.shown()) }

// Line is Lines()[i], without copying them all (a frame reads the
// terminal's newest lines only).
func (s *Session) Line(i int) Line {
	if i < len(s.before) {
		return s.before[i]
	}
	return s.shown()[i-len(s.before)]
}

// LineBase is how many of this timeline's lines have scrolled out of
// Lines (beyond MaxLines): a line stays at LineBase()+i while newer ones
// arrive, so a view can key what it draws by that number.
func (s *Session) LineBase() int { return s.base() }

// Do takes an action now: runs a command line with its input. Taking an
// action before the end of the branch forks it. "cluster create" starts a
// new timeline.
func (s *Session) Do(line string, stdin []string) {
	s.finishSeek()
	if isClusterCreate(line) {
		s.create(line, stdin)
		return
	}
	if s.Cluster() == nil {
		// Nothing to record before there is a cluster: just run it.
		s.echo(0, line, stdin)
		s.con.Start(line, stdin)
		s.drain()
		s.before = append(s.before, s.shown()...)
		s.lines, s.dropped = nil, 0
		return
	}
	s.fork()
	if len(s.actions) >= MaxActions {
		s.lines = append(s.lines, Line{At: s.Now(), Text: fmt.Sprintf("kafkascope: this session has reached its limit of %d actions; start a new one with cluster create", MaxActions)})
		return
	}
	if s.Now() > sim.Time(MaxActionTime) {
		s.lines = append(s.lines, Line{At: s.Now(), Text: fmt.Sprintf("kafkascope: this session has reached its time limit of %s; start a new one with cluster create", sim.FormatDuration(MaxActionTime))})
		return
	}
	a := Action{At: s.Now(), Line: line, Stdin: append([]string(nil), stdin...)}
	s.actions = append(s.actions, a)
	s.apply(a)
	s.applied = len(s.actions)
	s.end = s.Now()
}

// create runs a "cluster create". Only a cluster the engine accepted
// starts a timeline: its action is the branch's first, at the new
// cluster's time 0 (the old cluster's clock means nothing to it, and a
// share link's first action must be at 0). A refused one (bad flags, too
// many brokers) records nothing and leaves the current timeline as it was:
// its error stays on the terminal until the next replay redraws it.
func (s *Session) create(line string, stdin []string) {
	old, shown := s.Cluster(), len(s.lines)
	s.echo(s.Now(), line, stdin)
	s.con.Start(line, stdin)
	if c := s.Cluster(); c == nil || c == old {
		s.drain()
		return
	}
	s.before = append(s.before, s.lines[max(0, shown-MaxLines):shown]...)
	s.lines, s.dropped = nil, 0
	s.log.Reset()
	s.standby.reset()
	a := Action{At: 0, Line: line, Stdin: append([]string(nil), stdin...)}
	for _, l := range s.con.OutputLines() {
		a.Notes = append(a.Notes, l.Text)
	}
	s.actions, s.applied = []Action{a}, 1
	s.echo(a.At, line, stdin)
	s.note(a)
	s.drain()
	s.end = s.Now()
}

// Interrupt is Ctrl-C on the running command.
func (s *Session) Interrupt() {
	s.finishSeek()
	if s.Cluster() == nil || !s.Busy() {
		return
	}
	s.fork()
	a := Action{At: s.Now(), Interrupt: true}
	s.actions = append(s.actions, a)
	s.apply(a)
	s.applied = len(s.actions)
}

// fork drops the future of the branch when acting before its end, with
// the standby replays that saw any of it.
func (s *Session) fork() {
	if s.applied < len(s.actions) {
		s.actions = s.actions[:s.applied]
	}
	s.end = s.Now()
	s.standby.dropAfter(s.applied, s.end)
}

// Play lets virtual time pass for d: it applies recorded actions that fall
// in that time (when replaying a branch), and runs a "time advance" straight
// to its end. It runs at most maxSteps events (0: no limit) and reports
// whether it got all the way (so a caller can spread long runs over frames).
func (s *Session) Play(d time.Duration, maxSteps int) (bool, error) {
	s.finishSeek()
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

// Finish runs the running command towards its end as a transcript does,
// spending at most maxSteps events, and reports whether it finished. Time
// stops at the event that ends the command, so a scenario step's next
// command starts when a transcript's would (Play would run on to its
// target). At the branch's end only; elsewhere it plays a minute.
func (s *Session) Finish(maxSteps int) (bool, error) {
	s.finishSeek()
	c := s.Cluster()
	if c == nil || !s.Busy() {
		return true, nil
	}
	if s.applied < len(s.actions) {
		return s.Play(time.Minute, maxSteps)
	}
	done := s.con.WaitBudget(maxSteps)
	s.drain()
	s.end = max(s.end, s.Now())
	return done, c.World.Err()
}

// runTo advances the live replay to target, applying the branch's actions
// on the way.
func (s *Session) runTo(target sim.Time, maxSteps int) (bool, error) {
	done, err := s.replay.runTo(s.actions, target, maxSteps)
	if done {
		s.end = max(s.end, s.Now())
	}
	return done, err
}

// Seek moves to virtual time t: by resuming the latest standby replay at
// or before t when that is closer than the live replay (always when going
// back; replaying the branch from the start if there is none), then
// playing the branch to t. The replay left behind becomes a standby. The
// state at t includes every action taken at or before t.
func (s *Session) Seek(t sim.Time) error {
	if err := s.StartSeek(t); err != nil {
		return err
	}
	_, err := s.SeekStep(0)
	return err
}

// pendingSeek is a seek being carried out over several calls (StartSeek,
// SeekStep): r is brought to target; when swap is set r is not the live
// replay, which the user still sees, and r replaces it on arrival.
type pendingSeek struct {
	r      *replay
	target sim.Time
	swap   bool
	steps  uint64   // events run so far
	from   sim.Time // where r stood when the seek began
}

// StartSeek begins a seek to t that SeekStep carries out, a share of
// events at a time, so that a long replay does not freeze the page: until
// it arrives the live replay (what is shown) stays as it was, unless the
// seek plays the live replay itself forward. A seek already under way is
// redirected (a replay that has not passed t keeps going; one that has is
// kept as a standby).
func (s *Session) StartSeek(t sim.Time) error {
	if s.Cluster() == nil || len(s.actions) == 0 {
		return nil
	}
	end := s.End()
	t = min(t, end)
	if p := s.pending; p != nil {
		if p.r.at() <= t && (p.swap || s.Now() <= t) {
			p.target = t
			return nil
		}
		if p.swap {
			s.standby.park(p.r)
		}
		s.pending = nil
	}
	// Resume the latest standby at or before t when going back, or when
	// going forward past one (it is closer than the live replay).
	if base := s.standby.peek(t); t < s.Now() || base != nil && base.at() > s.Now() {
		base = s.standby.take(t)
		if base == nil {
			r, err := s.fresh()
			if err != nil {
				return err
			}
			base = r
		}
		s.end = end
		s.pending = &pendingSeek{r: base, target: t, swap: true, from: base.at()}
		return nil
	}
	s.pending = &pendingSeek{r: s.replay, target: t, from: s.Now()}
	return nil
}

// Seeking reports the moment a seek under way is going to.
func (s *Session) Seeking() (sim.Time, bool) {
	if s.pending == nil {
		return 0, false
	}
	return s.pending.target, true
}

// SeekEvents is how many events the seek under way has run so far, or
// the last seek ran when none is under way (a seek that resumes a
// standby runs them on a replay the session does not show yet).
func (s *Session) SeekEvents() uint64 {
	if s.pending != nil {
		return s.pending.steps
	}
	return s.lastSeekSteps
}

// LastSeek is where the last seek that arrived replayed from (the
// standby, fresh replay or live replay it ran on, at the moment the seek
// began) and how many events it ran, and how many seeks have arrived:
// what a seek cost, for benchmarks.
func (s *Session) LastSeek() (from sim.Time, events uint64, seeks int) {
	return s.lastSeekFrom, s.lastSeekSteps, s.seeks
}

// SeekStep carries a seek under way on for at most maxSteps events (0: to
// its end) and reports whether it arrived (true when there is none).
func (s *Session) SeekStep(maxSteps int) (bool, error) {
	p := s.pending
	if p == nil {
		return true, nil
	}
	c := p.r.Cluster()
	before := c.World.Steps()
	done, err := p.r.runTo(s.actions, p.target, maxSteps)
	p.steps += p.r.Cluster().World.Steps() - before
	if err != nil {
		s.pending = nil
		if p.swap {
			p.r.close()
		}
		return true, err
	}
	if !done {
		return false, nil
	}
	s.pending = nil
	s.lastSeekSteps, s.lastSeekFrom = p.steps, p.from
	s.seeks++
	if p.swap {
		live := s.replay
		s.replay = p.r
		s.standby.park(live)
	}
	s.end = max(s.end, s.Now())
	return true, nil
}

// finishSeek carries a seek under way to its end before anything else
// happens to the session (an action is taken where the seek was going).
func (s *Session) finishSeek() {
	if s.pending != nil {
		if _, err := s.SeekStep(0); err != nil {
			s.lines = append(s.lines, Line{At: s.Now(), Text: "kafkascope: seeking failed: " + err.Error()})
		}
	}
}

// fresh replays the first action (the cluster) into a new replay.
func (s *Session) fresh() (*replay, error) {
	r := newReplay()
	r.applied = 1
	r.apply(s.actions[0])
	if r.con.Cluster() == nil {
		return nil, fmt.Errorf("replaying %q did not create a cluster", s.actions[0].Line)
	}
	return r, nil
}

// Markers are the moments the timeline marks, oldest first: crashes,
// elections and ISR changes.
func (s *Session) Markers() []feed.Entry { return s.log.Markers() }

// Feed is the event feed, oldest first (at most MaxFeed entries).
func (s *Session) Feed() []feed.Entry { return s.log.Feed() }

// FeedLog is the live replay's feed (its places and changes: FeedBase,
// FeedGen).
func (s *Session) FeedLog() *FeedLog { return &s.log }

func isClusterCreate(line string) bool {
	f := strings.Fields(line)
	return len(f) >= 2 && f[0] == "cluster" && f[1] == "create"
}

// FastForward reports the end of a running "time advance": a player skips
// straight there rather than playing it.
func (s *Session) FastForward() (sim.Time, bool) { return s.con.FastForward() }

// Advancing is the time advance under way, if any: when it began and the
// moment it runs to (console.Session.Advancing).
func (s *Session) Advancing() (from, to sim.Time, ok bool) { return s.con.Advancing() }
