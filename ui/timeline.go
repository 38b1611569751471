package ui

import (
	"strconv"
	"time"

	"github.com/vugu/vugu"

	"kafkascope/core/feed"
	"kafkascope/core/player"
	"kafkascope/core/sim"
)

// Scrubbing: a seek back replays the session from its start, so a drag
// seeks only where the thumb rests, never on every pixel.
const (
	scrubSettle = 150 * time.Millisecond // the thumb rested this long: seek there
	scrubLost   = 3 * time.Second        // no move and no release: the drag is over
	markersMax  = 400                    // markers drawn (the newest)
)

// Timeline is the playback bar: play/pause, step one event, skip idle time,
// the speed, and a scrubber over the session with its markers (crashes,
// elections, ISR changes); in the embed view, the link that opens the
// full app.
type Timeline struct {
	App *App

	drag     bool     // the user holds the scrubber
	dragTo   sim.Time // where the thumb is
	dragAt   time.Time
	seekedTo sim.Time // where the drag last seeked (-1: not yet)
	release  bool     // the drag ended: seek now
}

// timeMarker is one marker drawn on the scrubber.
type timeMarker struct {
	At    sim.Time
	Left  string // CSS left
	Cat   string
	Title string
}

func (c *Timeline) p() *player.Player { return c.App.Player }

// simEnded reports whether a simulator run is shown and has ended:
// nothing plays any more, whatever Paused says (the play control offers
// to replay the run instead of pausing it).
func (c *Timeline) simEnded() bool {
	r := c.p().Sim()
	return r != nil && r.Done()
}

// TogglePlay plays or pauses; on a simulator run that has ended it replays
// the run from its start (deferred: that is about a second of work).
func (c *Timeline) TogglePlay() {
	if c.simEnded() {
		c.App.later(c.App.T("sim.replaying"), c.p().Sim().Replay)
		return
	}
	c.p().TogglePause()
}

// StepEvent runs exactly the next event.
func (c *Timeline) StepEvent() { c.p().StepEvent() }

// SkipIdle jumps to the next moment something happens.
func (c *Timeline) SkipIdle() { c.p().SkipIdle() }

// SetSpeed takes the speed picked in the selector.
func (c *Timeline) SetSpeed(e vugu.DOMEvent) {
	if x, ok := parseSpeedValue(e.PropString("target", "value")); ok {
		c.p().SetSpeed(x)
	}
}

// Scrub follows the scrubber while it moves (input events). Scrubbing
// pauses playback: the user is looking at a moment.
func (c *Timeline) Scrub(e vugu.DOMEvent) {
	t, ok := parseSliderMillis(e.PropString("target", "value"))
	if !ok {
		return
	}
	if !c.drag {
		c.drag, c.seekedTo = true, -1
		c.p().Paused = true
	}
	c.dragTo, c.dragAt = t, c.clock()
}

// ScrubDone ends a drag (the change event, or the pointer let go).
func (c *Timeline) ScrubDone(e vugu.DOMEvent) {
	if t, ok := parseSliderMillis(e.PropString("target", "value")); ok && e.PropString("type") == "change" {
		if !c.drag {
			c.drag, c.seekedTo = true, -1
			c.p().Paused = true
		}
		c.dragTo = t
	}
	if c.drag {
		c.release = true
	}
}

// SeekTo moves to a marker's moment (over the coming frames: see
// player.StartSeek).
func (c *Timeline) SeekTo(at sim.Time) {
	p := c.p()
	p.Paused = true
	p.StartSeek(at)
}

func (c *Timeline) clock() time.Time {
	if c.App.now.IsZero() {
		return time.Now()
	}
	return c.App.now
}

func (c *Timeline) dragging() bool { return c.drag }

// settle seeks where a drag rests or ends (each frame).
func (c *Timeline) settle(now time.Time) bool {
	if !c.drag {
		return false
	}
	end := c.release || now.Sub(c.dragAt) >= scrubLost
	if !end && (now.Sub(c.dragAt) < scrubSettle || c.dragTo == c.seekedTo) {
		return false
	}
	if c.dragTo != c.seekedTo {
		c.p().StartSeek(c.dragTo)
		c.seekedTo = c.dragTo
	}
	if end {
		c.drag, c.release = false, false
	}
	return true
}

// shown is the moment the bar shows: the thumb while dragging, and the
// moment a seek under way is going to.
func (c *Timeline) shown() sim.Time {
	if c.drag {
		return c.dragTo
	}
	if t, ok := c.p().Seeking(); ok {
		return t
	}
	return c.p().Now()
}

func (c *Timeline) end() sim.Time { return max(c.p().End(), c.shown(), sim.Time(time.Millisecond)) }

func (c *Timeline) maxValue() string { return strconv.FormatInt(c.end().Millis(), 10) }

func (c *Timeline) value() string { return strconv.FormatInt(c.shown().Millis(), 10) }

func (c *Timeline) nowText() string { return fmtVirtualTime(c.shown()) }

func (c *Timeline) clockText() string { return fmtClockTime(c.shown()) }

func (c *Timeline) endText() string { return fmtVirtualTime(c.p().End()) }

// playTitle is the play control's tooltip.
func (c *Timeline) playTitle() string {
	if c.simEnded() {
		return c.App.T("sim.replay.title")
	}
	return c.App.T("play.title")
}

func (c *Timeline) playLabel() string {
	if c.simEnded() {
		return c.App.T("sim.replay.button")
	}
	if c.p().Paused {
		return c.App.T("play")
	}
	return c.App.T("pause")
}

// playState is the play control's state: playing, paused, or ended (a
// simulator run that is over: nothing plays, whatever Paused says).
// seekingAttr marks the bar while the scrubber is held or just let go and
// the session has not reached the thumb's moment yet ("" once it has).
func (c *Timeline) seekingAttr() string {
	if _, seeking := c.p().Seeking(); c.drag || seeking {
		return "true"
	}
	return ""
}

func (c *Timeline) playState() string {
	if c.simEnded() {
		return "ended"
	}
	if c.p().Paused {
		return "paused"
	}
	return "playing"
}

func (c *Timeline) speedValue() string { return strconv.FormatFloat(c.p().Speed, 'f', -1, 64) }

type speedOption struct{ Value, Label string }

func (c *Timeline) speeds() []speedOption {
	out := make([]speedOption, 0, len(player.Speeds))
	for _, x := range player.Speeds {
		out = append(out, speedOption{strconv.FormatFloat(x, 'f', -1, 64), fmtSpeed(x)})
	}
	return out
}

// markers are the session's marked moments on the scrubber.
func (c *Timeline) markers() []timeMarker {
	tl := c.p().Timeline()
	ms := tl.Markers
	if len(ms) > markersMax {
		ms = ms[len(ms)-markersMax:]
	}
	end := c.end()
	out := make([]timeMarker, 0, len(ms))
	for _, m := range ms {
		out = append(out, timeMarker{
			At:    m.At,
			Left:  "left:" + pctOf(m.At, end),
			Cat:   m.Category,
			Title: fmtVirtualTime(m.At) + " · " + c.markerKind(m.Category) + ": " + m.Text,
		})
	}
	return out
}

// markerKind names a marker's category (feed.Entry.Marks: crashes,
// elections, ISR changes, a new quorum leader).
func (c *Timeline) markerKind(cat string) string {
	switch cat {
	case feed.CatCrash:
		return c.App.T("marker.crash")
	case feed.CatElection:
		return c.App.T("marker.election")
	case feed.CatISR:
		return c.App.T("marker.isr")
	case feed.CatQuorum:
		return c.App.T("marker.quorum")
	}
	return cat
}
