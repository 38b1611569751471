package player

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

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

// Player is the app: the mode shown (Mode: the user's session or a
// simulator run) and what every mode shares, the playback's speed and
// pause, the language, the error to show, the host's frame budgets.
// Make one with New: its Mode is then never nil.
type Player struct {
	Mode   // what is shown: a *Session or a *SimRun (mode.go)
	Speed  float64
	Paused bool
	Lang   i18n.Lang
	Embed  bool
	// Panel is the panel beside the diagram a link or an embed asks for:
	// PanelMetrics for the on-call dashboard, "" for the default (the
	// story, or the event feed).
	Panel string

	// ShowHeartbeats and ShowMetadata add those messages to the diagram.
	ShowHeartbeats bool
	ShowMetadata   bool

	Error string // a problem to show (bad link, failed replay)
	// Notice says how a link that opened was read differently from what
	// it asked (an unknown language, a step out of range): sentences
	// joined by "; ". Error is for links that did not open.
	Notice string

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
}

// New makes a player showing a session with no cluster.
func New() *Player {
	p := &Player{Speed: 1, Lang: i18n.English}
	p.Mode = newSession(p, timeline.New())
	return p
}

// show makes m the mode shown: the mode it replaces stops, and what the
// last scenario step changed is forgotten with it.
func (p *Player) show(m Mode) {
	if p.Mode != nil { // nil only in a Player not made by New
		p.Mode.close()
	}
	p.Mode = m
	p.changed = nil
	p.refresh()
}

// Boot opens what the URL asks for: a shared session, a scenario step, a
// simulator run, or the default cluster. A link that cannot be read leaves
// an error to show and opens the default cluster.
func (p *Player) Boot(query, hash string) {
	st, err := ParseURL(query, hash)
	p.Embed, p.Panel = st.Embed, st.Panel
	if st.Lang != "" {
		p.Lang = st.Lang
	}
	// An unknown language alone still opens what the link names; the page
	// says the language was not known.
	var notes []string
	var badLang unknownLanguage
	if errors.As(err, &badLang) {
		notes, err = append(notes, badLang.note()), nil
	}
	p.Notice = ""
	defer func() { p.Notice = strings.Join(notes, "; ") }()
	if err == nil {
		switch {
		case st.Sim != nil:
			p.OpenSim(*st.Sim)
			return
		case st.Session != "":
			tl, derr := timeline.Decode(st.Session)
			if derr == nil {
				p.show(newSession(p, tl))
				p.Paused = true
				return
			}
			err = derr
		case st.Scenario != "":
			if serr := p.OpenScenario(st.Scenario, st.Step); serr == nil {
				if got := p.Scenario().Step; got != st.Step {
					notes = append(notes, stepNote(st.Step, got))
				}
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
	// A fresh session: a scenario that failed half-way is not shown.
	s := newSession(p, timeline.New())
	p.show(s)
	s.TL.Do(DefaultCluster, nil)
	p.refresh()
}

// stepNote says that a scenario link asked for step asked, outside the
// scenario, and opened at step got (in the link's own numbering, from 0).
func stepNote(asked, got int) string {
	if asked < got {
		return fmt.Sprintf("The link asks for step=%d, before the scenario's first step: it opened at its first, step=%d", asked, got)
	}
	return fmt.Sprintf("The link asks for step=%d, past the scenario's last step: it opened at its last, step=%d", asked, got)
}

// Snapshot is the cluster now (nil without a cluster).
func (p *Player) Snapshot() *view.Snapshot {
	if p.stale {
		p.stale = false
		if c := p.cluster(); c != nil {
			p.snap = view.Take(c)
		} else {
			p.snap = nil
		}
	}
	return p.snap
}

// Lines is the terminal (LineCount lines, copied).
func (p *Player) Lines() []timeline.Line {
	out := make([]timeline.Line, p.LineCount())
	for i := range out {
		out[i] = p.Line(i)
	}
	return out
}

// refresh marks the snapshot out of date: the next Snapshot re-reads the
// cluster. A frame that draws nothing (a quiet fast-forward frame, a
// seek's) then takes none: taking one every frame was a tenth of a week's
// "time advance" in the page (the metadata log's view reads every NoOp).
func (p *Player) refresh() { p.stale = true }

// Tick is one animation frame: wall real time passed since the last one.
// Time moves at Speed unless paused, as the mode plays it (a session's
// running "time advance" skips ahead, spread over frames when long).
func (p *Player) Tick(wall time.Duration) {
	p.quiet++
	p.tickCut, p.ffLast = false, false
	before := p.steps()
	defer func() { p.lastEvents = max(p.steps(), before) - before }() // 0 if the cluster was replaced
	p.Mode.tick(min(max(wall, 0), maxFrame))
}

// Settle runs the frames a page runs after opening a link, until the
// picture comes to rest: a scenario step's commands to their end, a
// "time advance" typed last to its end, a seek to its moment (a
// simulator run plays on; it is left where it is). At most maxFrames
// frames run. A picture of a link (the Worker's snapshot) is what the
// page shows then.
func (p *Player) Settle(maxFrames int) { p.Mode.settle(maxFrames) }

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

// steps counts the events the cluster shown has run (0 without one).
func (p *Player) steps() uint64 {
	if c := p.cluster(); c != nil {
		return c.World.Steps()
	}
	return 0
}

// Run types a command line (with standard input for a producer).
func (p *Player) Run(line string, stdin []string) {
	p.quiet = 0
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	p.Error, p.Notice = "", ""
	p.command(line, stdin)
}

// Interrupt is Ctrl-C.
func (p *Player) Interrupt() {
	p.quiet = 0
	p.interrupt()
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
	c := p.cluster()
	if c == nil {
		return
	}
	if next, ok := c.World.NextEventAt(); ok {
		p.runTo(next, 1)
	}
	p.refresh()
}

// SkipIdle jumps to the next moment something happens: the next event, or
// the next recorded action when replaying.
func (p *Player) SkipIdle() {
	c := p.cluster()
	if c == nil {
		return
	}
	if next, ok := c.World.NextEventAt(); ok && next > c.World.Now() {
		p.runTo(next, 0)
	}
	p.refresh()
}

// Seek moves to virtual time t (replaying when going back).
func (p *Player) Seek(t sim.Time) {
	p.quiet = 0
	p.seek(t)
}

// StartSeek begins a seek to virtual time t that the coming frames carry
// out (Tick), each within its share of events, so that replaying from far
// back never freezes the page; until it arrives the diagram shows the
// moment it showed (Seeking reports where it is going). A simulator run
// seeks at once.
func (p *Player) StartSeek(t sim.Time) {
	p.quiet = 0
	p.startSeek(t)
}

// StandbyCount is how many standby replays are kept now.
func (p *Player) StandbyCount() int { return len(p.Standbys()) }

// Close stops what the player runs in the background (a simulator run's
// coroutine); the page calls it when another player replaces this one.
func (p *Player) Close() { p.close() }

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
	for _, e := range p.feedLog().Markers() {
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

// FeedEntries is the feed as the engine noted it, oldest first: each
// entry with its typed note (core/event), for a view that reads what
// happened rather than the sentence (the disk panel's cleaning passes).
// The slice is the feed's own: not to be changed.
func (p *Player) FeedEntries() []feed.Entry { return p.feedLog().Feed() }

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

// T returns a UI string in the current language (i18n.UI).
func (p *Player) T(key string) string { return i18n.UI(p.Lang, key) }
