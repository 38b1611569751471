package player

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/feed"
	"kafkascope/core/i18n"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
	"kafkascope/core/view"
)

// Speeds the playback offers (simulated time per real time).
var Speeds = []float64{0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 100}

// Limits on one animation frame's work, so the page stays responsive.
const (
	maxFrame      = 250 * time.Millisecond // longer gaps (a hidden tab) count as this
	stepsPerFrame = 30000
	// idleSteps is how many events of a frame left idle go to building
	// the timeline's standby replays (what makes seeking back fast).
	idleSteps = 1500
)

// DefaultCluster is what the app starts with.
const DefaultCluster = "cluster create --brokers 3"

// Player is the app.
type Player struct {
	TL     *timeline.Session
	Speed  float64
	Paused bool
	Lang   i18n.Lang
	Embed  bool

	// ShowHeartbeats and ShowMetadata add those messages to the diagram.
	ShowHeartbeats bool
	ShowMetadata   bool

	Scenario *Scenario // nil outside a scenario
	Sim      *SimRun   // nil outside a simulator run (simrun.go)
	Error    string    // a problem to show (bad link, failed replay)

	snap    *view.Snapshot
	stale   bool            // snap is out of date (refresh): Snapshot takes a new one
	changed map[string]bool // keys of what the last scenario step changed

	// frameEvents caps the events one frame may run (0: the defaults,
	// stepsPerFrame and stepEvents); the host sets it from what frames
	// cost on this machine (SetFrameEvents). lastEvents is how many the
	// last Tick ran.
	frameEvents int
	ffEvents    int // a fast-forwarding frame's events (0: frameEvents)
	// ffLast: the last Tick fast-forwarded a "time advance" (FastForwarding).
	ffLast     bool
	lastEvents uint64
	// frameOver is the host's deadline for a frame's engine work
	// (framedeadline.go); nil: none.
	frameOver func() bool
	// quietOver is the host's deadline for a frame that draws nothing (a
	// seek under way, a paused session's idle time): QuietWork; nil: none.
	quietOver func() bool
	// ffLeft is the part left of the host's time for a frame that
	// fast-forwards a "time advance" (FrameBudget.FastForwardTime): 1 as
	// the frame begins, 0 or less once spent; nil: its event count.
	ffLeft func() float64
	// tickCut: the last Tick stopped a scenario step unfinished, at
	// frameOver or at its event budget (TickCut).
	tickCut bool
	// quiet counts the frames since the viewer last did something (see
	// standbyQuiet).
	quiet int
	// carry is the virtual time playing at a speed still owes (paced).
	carry time.Duration
}

// New makes a player with no session.
func New() *Player {
	return &Player{TL: timeline.New(), Speed: 1, Lang: i18n.English}
}

// Boot opens what the URL asks for: a shared session, a scenario step, or
// the default cluster. A link that cannot be read leaves an error to show
// and opens the default cluster.
func (p *Player) Boot(query, hash string) {
	st, err := ParseURL(query, hash)
	p.Embed = st.Embed
	if st.Lang != "" {
		p.Lang = st.Lang
	}
	if err == nil {
		switch {
		case st.Sim != nil:
			p.OpenSim(*st.Sim)
			return
		case st.Session != "":
			tl, derr := timeline.Decode(st.Session)
			if derr == nil {
				p.TL = tl
				p.Paused = true
				p.refresh()
				return
			}
			err = derr
		case st.Scenario != "":
			if serr := p.OpenScenario(st.Scenario, st.Step); serr == nil {
				return
			} else {
				err = serr
			}
		}
	}
	if err != nil {
		// Whatever made the link fail (its URL, its session, its
		// scenario), the page says so the same way: as a link that could
		// not be opened, with the default cluster in its place.
		if !errors.Is(err, ErrBadLink) {
			err = fmt.Errorf("%w: %w", ErrBadLink, err)
		}
		p.Error = err.Error()
	}
	p.Scenario = nil // a scenario that failed half-way is not shown
	p.TL = timeline.New()
	p.TL.Do(DefaultCluster, nil)
	p.refresh()
}

// Snapshot is the cluster now (nil without a cluster).
func (p *Player) Snapshot() *view.Snapshot {
	if p.stale {
		p.stale = false
		if c := p.Cluster(); c != nil {
			p.snap = view.Take(c)
		} else {
			p.snap = nil
		}
	}
	return p.snap
}

// Now is the virtual time now.
func (p *Player) Now() sim.Time {
	if p.Sim != nil {
		return p.Sim.Now()
	}
	return p.TL.Now()
}

// End is the furthest moment one can seek to.
func (p *Player) End() sim.Time {
	if p.Sim != nil {
		return p.Sim.Now()
	}
	return p.TL.End()
}

// Cluster is the cluster shown: the simulator run's, or the session's (nil
// without one).
func (p *Player) Cluster() *cluster.Cluster {
	if p.Sim != nil {
		return p.Sim.Cluster()
	}
	return p.TL.Cluster()
}

// Lines is the terminal: the session's, or the simulator run's schedule
// and verdict.
func (p *Player) Lines() []timeline.Line {
	if p.Sim != nil {
		return append([]timeline.Line(nil), p.Sim.lines...)
	}
	return p.TL.Lines()
}

// LineCount is how many lines Lines returns.
func (p *Player) LineCount() int {
	if p.Sim != nil {
		return len(p.Sim.lines)
	}
	return p.TL.LineCount()
}

// Line is Lines()[i], without copying the terminal (a frame reads only
// what it draws).
func (p *Player) Line(i int) timeline.Line {
	if p.Sim != nil {
		return p.Sim.lines[i]
	}
	return p.TL.Line(i)
}

// LineBase is how many lines scrolled out before Lines (timeline's
// LineBase; a simulator run keeps all of its lines).
func (p *Player) LineBase() int {
	if p.Sim != nil {
		return 0
	}
	return p.TL.LineBase()
}

// refresh marks the snapshot out of date: the next Snapshot re-reads the
// cluster. A frame that draws nothing (a quiet fast-forward frame, a
// seek's) then takes none: taking one every frame was a tenth of a week's
// "time advance" in the page (the metadata log's view reads every NoOp).
func (p *Player) refresh() { p.stale = true }

// Tick is one animation frame: wall real time passed since the last one.
// Time moves at Speed unless paused; a running "time advance" skips ahead
// (spread over frames when long).
func (p *Player) Tick(wall time.Duration) {
	p.quiet++
	p.tickCut = false
	before := p.steps()
	defer func() { p.lastEvents = max(p.steps(), before) - before }() // 0 if the cluster was replaced
	wall = min(max(wall, 0), maxFrame)
	p.ffLast = false
	if p.Sim != nil {
		p.tickSim(wall)
		return
	}
	if _, ok := p.TL.Seeking(); ok {
		// A seek under way (StartSeek) takes the frame: the diagram keeps
		// the moment it showed until the seek arrives, so the frame has no
		// render and the browser nothing to lay out (seekFrame). Its
		// frames are the viewer's doing, not time left alone: a standby
		// must not start (a long frame) right after a long seek arrives.
		p.quiet = 0
		done, err := p.seekFrame()
		if err != nil {
			p.Error = err.Error()
		}
		if done {
			p.refresh()
		}
		return
	}
	if p.Scenario.Running() {
		// A scenario step plays at its own pace: each command as long as
		// it would block, a share of events per frame.
		if err := p.advanceStep(p.events(stepEvents)); err != nil {
			p.Error = err.Error()
		}
		return
	}
	_, ff := p.fastForward()
	// A "time advance" under way skips to its end while playing, and when
	// the user has just typed it (at the branch's end); a paused moment in
	// its middle, where a seek back landed, stays where it is (it jumped to
	// the end of the advance on the next frame, and a link copied then
	// held that later moment).
	ff = ff && (!p.Paused || p.TL.Now() >= p.TL.End())
	p.ffLast = ff
	if p.Paused && !ff && !p.TL.Busy() {
		p.idleFrame()
		return
	}
	d := time.Duration(float64(wall) * p.Speed)
	if p.Paused && !ff {
		d = 0 // paused: a running command waits too
	} else if !ff {
		d = p.paced(d)
	}
	if d > 0 || ff {
		before := p.steps()
		if ff && p.ffLeft != nil {
			p.fastForwardFrame(d)
		} else {
			budget := p.events(stepsPerFrame)
			if ff {
				budget = p.fastForwardCount()
			}
			if _, err := p.TL.Play(d, budget); err != nil {
				p.Error = err.Error()
			}
		}
		if used := int(p.steps() - before); used < idleSteps {
			// What the frame's budget has left goes to the standbys.
			p.useIdleFrame(min(p.events(idleSteps), p.events(stepsPerFrame)-used))
		}
	}
	p.refresh()
}

// Settle runs the frames a page runs after opening a link, until the
// picture comes to rest: a scenario step's commands to their end, a
// "time advance" typed last to its end, a seek to its moment (a
// simulator run plays on; it is left where it is). At most maxFrames
// frames run. A picture of a link (the Worker's snapshot) is what the
// page shows then.
func (p *Player) Settle(maxFrames int) {
	for i := 0; i < maxFrames && p.Sim == nil; i++ {
		p.Tick(maxFrame)
		// A frame that fast-forwarded may have reached the advance's end:
		// the next one says whether it rests.
		if _, seeking := p.TL.Seeking(); !seeking && !p.Scenario.Running() && !p.ffLast {
			return
		}
	}
}

// SetFrameEvents caps the events a frame may run, at most the defaults; 0
// restores them. Fewer events per frame keep a slow machine's page smooth:
// time then moves slower than the chosen speed, never differently (the
// same events run in the same order however frames split them).
func (p *Player) SetFrameEvents(n int) { p.frameEvents = max(n, 0) }

// FastForwarding reports whether the last Tick fast-forwarded a "time
// advance" (it ran the frame's fast-forward budget toward the advance's
// end, rather than playing at the chosen speed).
func (p *Player) FastForwarding() bool { return p.ffLast }

// SetFastForwardEvents caps the events of a frame that fast-forwards a
// "time advance" (0: the same as any frame's). The host gives such frames
// more of its time (FrameBudget.FastForwardEvents).
func (p *Player) SetFastForwardEvents(n int) { p.ffEvents = max(n, 0) }

// fastForwardCount is a fast-forwarding frame's events: the host's count
// (SetFastForwardEvents), else any frame's.
func (p *Player) fastForwardCount() int {
	if p.ffEvents > 0 {
		return min(p.ffEvents, stepsPerFrame)
	}
	return p.events(stepsPerFrame)
}

// LastFrameEvents is how many events the last Tick ran.
func (p *Player) LastFrameEvents() uint64 { return p.lastEvents }

// events is a frame's event budget for work whose default is def.
func (p *Player) events(def int) int {
	if p.frameEvents > 0 {
		return min(def, p.frameEvents)
	}
	return def
}

// steps counts the events the cluster on screen has run: the simulator
// run's, or the session's (0 without one).
func (p *Player) steps() uint64 {
	if c := p.Cluster(); c != nil {
		return c.World.Steps()
	}
	return 0
}

// standbyQuiet is how many frames the player must have been left alone
// (paused, no action) before idle time starts a standby replay: starting
// one creates a cluster in one step (50-150 ms in the page), which must
// not land among the frames of a scenario being stepped through or a
// cluster playing. Carrying one on is cheap and is done in any idle time.
const standbyQuiet = 90

// useIdleFrame gives a frame with little to do to the timeline's standby
// replays: steps events at most.
func (p *Player) useIdleFrame(steps int) {
	if steps <= 0 || p.TL.BackgroundStarts() && (!p.Paused || p.quiet < standbyQuiet) {
		return
	}
	if _, err := p.TL.Background(steps); err != nil {
		p.Error = err.Error()
	}
}

func (p *Player) fastForward() (sim.Time, bool) { return p.TL.FastForward() }

// Run types a command line (with standard input for a producer).
func (p *Player) Run(line string, stdin []string) {
	p.quiet = 0
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	p.Error = ""
	if p.Sim != nil {
		p.simCommand(line, stdin)
		return
	}
	if p.Scenario != nil {
		p.Scenario = nil // acting on your own leaves the story
	}
	p.TL.Do(line, stdin)
	p.refresh()
}

// Interrupt is Ctrl-C.
func (p *Player) Interrupt() {
	p.quiet = 0
	if p.Sim != nil {
		p.Paused = true // nothing runs a command: Ctrl-C pauses the run
		return
	}
	p.TL.Interrupt()
	p.refresh()
}

// BrokerAction runs what clicking a broker does: kill, power-loss, stop,
// start, isolate (cut every link) or heal (undo its cuts). It goes through
// the command language, so it shows in the terminal and replays.
func (p *Player) BrokerAction(id int32, action string) error {
	if p.Sim != nil {
		return fmt.Errorf("%s", p.T("sim.noactions"))
	}
	c := p.TL.Cluster()
	if c == nil || c.Node(id) == nil {
		return fmt.Errorf("no broker %d", id)
	}
	switch action {
	case "kill":
		p.Run(fmt.Sprintf("broker kill %d", id), nil)
	case "power-loss":
		p.Run(fmt.Sprintf("broker kill %d --power-loss", id), nil)
	case "stop":
		p.Run(fmt.Sprintf("broker stop %d", id), nil)
	case "start":
		p.Run(fmt.Sprintf("broker start %d", id), nil)
	case "isolate", "heal":
		verb := "cut"
		if action == "heal" {
			verb = "heal"
		}
		for _, other := range c.NodeIDs() {
			if other != id {
				p.Run(fmt.Sprintf("network %s %d %d", verb, id, other), nil)
			}
		}
	default:
		return fmt.Errorf("unknown broker action %q", action)
	}
	return nil
}

// TogglePause pauses or resumes playback.
func (p *Player) TogglePause() { p.Paused, p.quiet = !p.Paused, 0 }

// SetSpeed picks a playback speed (clamped to the offered range).
func (p *Player) SetSpeed(x float64) {
	p.Speed = min(max(x, Speeds[0]), Speeds[len(Speeds)-1])
}

// StepEvent runs exactly the next event of the simulation (paused).
func (p *Player) StepEvent() {
	p.Paused = true
	c := p.Cluster()
	if c == nil {
		return
	}
	if next, ok := c.World.NextEventAt(); ok {
		if p.Sim != nil {
			p.Sim.stepTo(next, 1)
		} else {
			p.seekForward(next, 1)
		}
	}
	p.refresh()
}

// SkipIdle jumps to the next moment something happens: the next event, or
// the next recorded action when replaying.
func (p *Player) SkipIdle() {
	c := p.Cluster()
	if c == nil {
		return
	}
	if next, ok := c.World.NextEventAt(); ok && next > c.World.Now() {
		if p.Sim != nil {
			p.Sim.stepTo(next, 0)
		} else {
			p.seekForward(next, 0)
		}
	}
	p.refresh()
}

func (p *Player) seekForward(t sim.Time, steps int) {
	if _, err := p.TL.Play(t.Sub(p.TL.Now()), steps); err != nil {
		p.Error = err.Error()
	}
}

// Seek moves the session to virtual time t (replaying when going back).
func (p *Player) Seek(t sim.Time) {
	p.quiet = 0
	if p.Sim != nil {
		p.seekSim(t)
		return
	}
	if err := p.TL.Seek(t); err != nil {
		p.Error = err.Error()
	}
	p.refresh()
}

// StartSeek begins a seek to virtual time t that the coming frames carry
// out (Tick), each within its share of events, so that replaying from far
// back never freezes the page; until it arrives the diagram shows the
// moment it showed (Seeking reports where it is going). A simulator run
// seeks at once.
func (p *Player) StartSeek(t sim.Time) {
	p.quiet = 0
	if p.Sim != nil {
		p.seekSim(t)
		return
	}
	if err := p.TL.StartSeek(t); err != nil {
		p.Error = err.Error()
	}
}

// Seeking reports the moment a seek under way is going to.
func (p *Player) Seeking() (sim.Time, bool) {
	if p.Sim != nil {
		return 0, false
	}
	return p.TL.Seeking()
}

// FinishSeek carries a seek under way to its end now (a link copied must
// hold the moment the scrubber shows).
func (p *Player) FinishSeek() {
	if _, ok := p.Seeking(); ok {
		if _, err := p.TL.SeekStep(0); err != nil {
			p.Error = err.Error()
		}
		p.refresh()
	}
}

// StandbyCount is how many standby replays the session keeps now.
func (p *Player) StandbyCount() int { return len(p.TL.Standbys()) }

// SetStandbyLimit keeps at most n standby replays (timeline's
// SetStandbyLimit): the page fits them in its memory.
func (p *Player) SetStandbyLimit(n int) { p.TL.SetStandbyLimit(n) }

// Timeline is what the scrubber draws: its range, now, and markers.
type Timeline struct {
	Start, Now, End sim.Time
	Markers         []Marker
}

// Marker is one marked moment.
type Marker struct {
	At       sim.Time
	Category string
	Text     string
}

// Timeline describes the scrubber.
func (p *Player) Timeline() Timeline {
	tl := Timeline{Now: p.Now(), End: p.End()}
	marks := p.TL.Markers()
	if p.Sim != nil {
		marks = p.Sim.log.Markers()
	}
	for _, e := range marks {
		tl.Markers = append(tl.Markers, Marker{At: e.At, Category: e.Category, Text: e.Text(p.Lang)})
	}
	return tl
}

// FeedLine is one event of the feed, in the chosen language. Seq is its
// place in the feed: it stays while newer events arrive, so a view can
// key what it draws by it.
type FeedLine struct {
	Seq      int
	At       sim.Time
	Category string
	Text     string
}

// feedLog is the feed of what is shown.
func (p *Player) feedLog() *timeline.FeedLog {
	if p.Sim != nil {
		return &p.Sim.log
	}
	return p.TL.FeedLog()
}

// FeedVersion changes whenever the feed Feed reads does (another session
// or simulator run shown, or an event added or replaced).
type FeedVersion struct {
	log *timeline.FeedLog
	gen uint64
}

// FeedVersion is the feed's version now.
func (p *Player) FeedVersion() FeedVersion {
	l := p.feedLog()
	return FeedVersion{log: l, gen: l.FeedGen()}
}

// Feed returns the newest n events (data events only when withData).
func (p *Player) Feed(n int, withData bool) []FeedLine {
	l := p.feedLog()
	entries, base := l.Feed(), l.FeedBase()
	var out []FeedLine
	for i := len(entries) - 1; i >= 0 && len(out) < n; i-- {
		e := entries[i]
		if e.Category == feed.CatData && !withData {
			continue
		}
		out = append(out, FeedLine{Seq: base + i, At: e.At, Category: e.Category, Text: e.Text(p.Lang)})
	}
	slices.Reverse(out)
	return out
}

// Changed reports whether the last scenario step changed the thing named by
// key ("broker/2", "partition/t-0", "replica/t-0/2").
func (p *Player) Changed(key string) bool { return p.changed[key] }

// SetLang switches the UI language.
func (p *Player) SetLang(l i18n.Lang) {
	if l == i18n.Korean {
		p.Lang = i18n.Korean
	} else {
		p.Lang = i18n.English
	}
}
