package ui

import (
	"fmt"
	"html"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
)

// Timings of the page's own behaviour (wall-clock time).
const (
	// hashEvery is how often a URL that only differs by the current
	// moment is rewritten; hashSoon bounds rewrites after an action.
	hashEvery = time.Second
	hashSoon  = 200 * time.Millisecond
	toastFor  = 2500 * time.Millisecond
	// jobDelayFrames: deferred work runs this many frames after it was
	// asked for, so the frame that shows "working…" is painted first (the
	// engine runs on the page's only thread).
	jobDelayFrames = 2
	maxJobs        = 8
)

// App is the root component: the header, the error banner, the diagram, the
// story and the event feed, the timeline bar and the terminal. It owns the
// child components (so their state survives every render) and the work that
// is not a single click: deferred jobs, the URL, the clipboard's answer.
//
// Everything here runs with the event lock held: handlers through Vugu,
// Frame from the render loop.
type App struct {
	Player *player.Player
	Host   Host

	Term    *Terminal
	Bar     *Timeline
	Story   *Story
	Gallery *Gallery
	Events  *Feed
	Quorum  *Quorum
	MetaLog *MetaLog
	// ZooKeeper takes the place of Quorum and MetaLog on a ZooKeeper-era
	// cluster (--version 2.8), under the same tab.
	ZooKeeper *ZooKeeper
	Disk      *Disk
	Metrics   *Metrics

	// SideTab is the side column's panel: the event feed (sideTabEvents),
	// the controller quorum with the metadata log (sideTabKRaft; on a
	// ZooKeeper-era cluster the ZooKeeper tab, which takes its place), a
	// partition's disk (sideTabDisk), or the on-call dashboard
	// (sideTabMetrics).
	SideTab string

	// Problem is an internal error to show (a recovered panic).
	Problem string

	// StageWidth is the diagram panel's width in CSS px as the page last
	// measured it (0: not measured; the diagram lays out for its width).
	StageWidth float64
	// PartsView is the part of the partitions' drawing on the screen, as
	// the page last measured it (a large topic is drawn where it shows).
	PartsView PartsView

	toast      string
	toastUntil time.Time
	// manualCopy is text the clipboard refused, shown for copying by hand.
	manualCopy string

	jobs    []appJob
	working string // what the pending job does, while it waits

	frames int64
	now    time.Time
	// drawnAt is when Frame last asked for a render.
	drawnAt time.Time

	url appURLState
}

type appJob struct {
	due  int64 // the frame it may run in
	what string
	run  func()
}

// appURLState is what the URL hash was last written from.
type appURLState struct {
	hash    string
	at      time.Time
	changes appChanges
	started bool
}

// appChanges are the things that change the URL hash beyond the current
// moment; any of them rewrites it soon, time alone only every hashEvery.
type appChanges struct {
	shown player.Mode // another session or simulator run shown
	lines int
	step  int
	lang  i18n.Lang
}

// NewApp makes the app for a booted player.
func NewApp(p *player.Player, host Host) *App {
	if host == nil {
		host = NopHost{}
	}
	a := &App{Player: p, Host: host}
	a.Term = &Terminal{App: a}
	a.Term.notes = []termNote{{key: "terminal.welcome", kind: "note"}}
	a.Bar = &Timeline{App: a}
	a.Story = &Story{App: a}
	a.Gallery = &Gallery{App: a}
	a.Events = &Feed{App: a}
	a.Quorum = &Quorum{App: a}
	a.MetaLog = &MetaLog{App: a}
	a.ZooKeeper = &ZooKeeper{App: a}
	a.Disk = NewDisk(a)
	a.Metrics = &Metrics{App: a}
	a.SideTab = sideTabEvents
	if p.Panel == player.PanelMetrics && !p.Embed {
		a.SideTab = sideTabMetrics // a link with panel=metrics
	}
	return a
}

// T is a UI string in the current language.
func (a *App) T(key string) string { return a.Player.T(key) }

// Tf is a UI string with arguments (fmt verbs in the string).
func (a *App) Tf(key string, args ...any) string { return fmt.Sprintf(a.T(key), args...) }

// Frame is one animation frame: wall time passed since the last. It runs
// deferred work and a settled scrub, feeds queued terminal lines, plays the
// cluster, and keeps the URL in step. It reports whether anything changed
// that needs a render.
func (a *App) Frame(now time.Time, wall time.Duration) (render bool) {
	p := a.Player
	defer func() {
		if r := recover(); r != nil {
			a.fail("playing the cluster", r)
			p.Paused = true // do not hit the same panic every frame
			render = true
		}
	}()
	a.frames++
	a.now = now
	beforeNow, beforeBusy, beforeShown := p.Now(), p.Busy(), p.Mode
	beforeRunning := p.Scenario().Running()
	_, beforeSeeking := p.Seeking()
	if a.runDue() {
		render = true
	}
	if a.Bar.settle(now) {
		render = true
	}
	if a.Term.pump() {
		render = true
	}
	if _, seeking := p.Seeking(); seeking || !a.Bar.dragging() {
		p.Tick(wall) // while the thumb is held, only a seek goes on
	}
	if a.toast != "" && a.toastUntil.IsZero() {
		a.toastUntil = now.Add(toastFor)
	}
	if a.toast != "" && now.After(a.toastUntil) {
		a.toast = ""
		render = true
	}
	// A seek under way changes nothing on the page until it arrives (then
	// the moment shown changes): its frames render nothing.
	_, seeking := p.Seeking()
	// A step can end in a frame of no events (the frame before ran out
	// of time just as its last command finished): its end still draws.
	if p.Busy() != beforeBusy || p.Mode != beforeShown || seeking != beforeSeeking || len(a.jobs) > 0 ||
		p.Scenario().Running() || beforeRunning {
		render = true
	}
	// Time that moved draws, but a "time advance" fast-forwarding draws
	// every player.FastForwardRedraw only (its end draws at once: the
	// command is then no longer busy).
	if p.Now() != beforeNow && !a.FastForwardQuiet(now) {
		render = true
	}
	if render {
		a.drawnAt = now
	}
	a.syncURL(now)
	return render
}

// FastForwardQuiet reports whether a frame at now draws nothing for the
// fast-forward under way: the player fast-forwarded a "time advance" in
// its last frame, and the page drew less than player.FastForwardRedraw
// ago. The host gives such a frame's engine more events
// (player.FrameBudget.FastForwardEvents).
func (a *App) FastForwardQuiet(now time.Time) bool {
	return a.Player.FastForwarding() && now.Sub(a.drawnAt) < player.FastForwardRedraw
}

// later runs f a couple of frames from now, showing what it does until
// then. Slow work (a scenario step, a replay) goes through here so the
// page first shows that it is working.
func (a *App) later(what string, f func()) {
	if len(a.jobs) >= maxJobs {
		return // a click storm: the queue is already long
	}
	a.jobs = append(a.jobs, appJob{due: a.frames + jobDelayFrames, what: what, run: f})
	a.working = what
}

// Busy reports whether deferred work is waiting, a scenario step is
// still playing, or a seek is under way (its text is shown).
func (a *App) Busy() bool {
	_, seeking := a.Player.Seeking()
	return len(a.jobs) > 0 || a.Player.Scenario().Running() || seeking
}

// Working says what the page is busy with.
func (a *App) Working() string {
	if a.working == "" && a.Player.Scenario().Running() {
		return a.T("story.running")
	}
	if _, seeking := a.Player.Seeking(); a.working == "" && seeking {
		return a.T("timeline.seeking")
	}
	return a.working
}

// runDue runs the jobs whose frame has come.
func (a *App) runDue() bool {
	ran := false
	for len(a.jobs) > 0 && a.jobs[0].due <= a.frames {
		j := a.jobs[0]
		a.jobs = a.jobs[1:]
		a.runJob(j)
		ran = true
	}
	if len(a.jobs) == 0 {
		a.working = ""
	} else {
		a.working = a.jobs[0].what
	}
	return ran
}

func (a *App) runJob(j appJob) {
	defer func() {
		if r := recover(); r != nil {
			a.fail(j.what, r)
		}
	}()
	j.run()
}

// Flush runs every deferred job now, and carries a seek under way to its
// end (tests, and catchUp).
func (a *App) Flush() {
	for _, j := range a.jobs {
		a.runJob(j)
	}
	a.jobs, a.working = nil, ""
	a.Player.FinishSeek()
}

// fail records an internal error to show and logs its stack.
func (a *App) fail(doing string, r any) {
	fmt.Fprintf(os.Stderr, "kafkascope: panic while %s: %v\n%s", doing, r, debug.Stack())
	a.Problem = a.Tf("error.internal", doing, r)
}

// HandlerPanic is Prepare's onPanic: a handler panicked.
func (a *App) HandlerPanic(event string, r any) {
	a.fail("handling "+event, r)
}

// syncURL keeps the URL hash reproducing what is shown: soon after an
// action, and at most every hashEvery while only time moves.
func (a *App) syncURL(now time.Time) {
	p := a.Player
	ch := appChanges{shown: p.Mode, lines: a.Term.base + a.Term.count, step: -2, lang: p.Lang}
	if sc := p.Scenario(); sc != nil {
		ch.step = sc.Step
	}
	since := now.Sub(a.url.at)
	switch {
	case !a.url.started:
	case ch != a.url.changes && since >= hashSoon:
	case since >= hashEvery:
	default:
		return
	}
	a.url.started, a.url.at, a.url.changes = true, now, ch
	if h := p.Hash(); h != a.url.hash {
		a.url.hash = h
		a.Host.ReplaceHash(h)
	}
}

// SetPartsView takes the page's measure of the partitions' drawing and
// reports whether the diagram must be drawn again: only when it holds a
// topic large enough to be drawn where the viewer looks (dgDrawAllUpTo),
// and the view moved by a step (partsViewStep CSS px; the diagram draws a
// view's height around it, so a step is never seen).
func (a *App) SetPartsView(v PartsView) bool {
	q := func(x float64) float64 { return math.Round(x/partsViewStep) * partsViewStep }
	v.Top, v.Bottom = q(v.Top), q(v.Bottom)
	if v == a.PartsView {
		return false
	}
	a.PartsView = v
	s := a.Player.Snapshot()
	if s == nil {
		return false
	}
	n := 0
	for _, t := range s.Topics {
		if !t.Light {
			n += len(t.Partitions)
		}
	}
	return n > dgDrawAllUpTo
}

// partsViewStep is how far the view of the partitions moves before the
// diagram is drawn again (CSS px).
const partsViewStep = 32

// WrittenHash is the hash the app last wrote to the URL.
func (a *App) WrittenHash() string { return a.url.hash }

// Reopen shows another player (a link opened in the same tab). The child
// components keep their own state (history, the feed's filter); the
// terminal notices the new session and starts a fresh view.
func (a *App) Reopen(p *player.Player) {
	if a.Player != nil && a.Player != p {
		a.Player.Close() // a simulator run in the old player stops
	}
	a.Player = p
	a.jobs, a.working = nil, ""
	a.Gallery.Open = false
	a.url = appURLState{}
}

// ---- header ----

// OpenGallery shows the scenario gallery.
func (a *App) OpenGallery() {
	a.Gallery.Open = true
	a.Host.Focus("gallery-close") // keyboard users start in the dialog (Escape closes it)
}

// ManualCopyKey closes the copy-by-hand box on Escape.
func (a *App) ManualCopyKey(e vugu.DOMEvent) {
	if e.PropString("key") == "Escape" {
		a.manualCopy = ""
	}
}

// CopyLink copies a link that reopens what is shown now.
func (a *App) CopyLink() {
	a.catchUp()
	a.copy(a.Host.PageURL()+a.Player.Hash(), a.T("share.done"))
}

// CopyEmbed copies the iframe snippet for what is shown now.
func (a *App) CopyEmbed() {
	a.catchUp()
	a.copy(a.Player.EmbedSnippet(a.Host.BaseURL(), player.EmbedWidthMax, player.EmbedHeight), a.T("embed.done"))
}

// catchUp does now what the frame loop has not done yet of what the page
// already shows: the seek to a scrubber thumb just let go (the bar shows
// the thumb's moment before the seek has run) and deferred work such as a
// marker's seek. A link copied then holds the moment on screen.
func (a *App) catchUp() {
	if a.Bar.dragging() {
		a.Bar.release = true
		a.Bar.settle(a.now)
	}
	a.Flush()
}

func (a *App) copy(text, done string) {
	a.manualCopy = ""
	a.Host.Copy(text, func(ok bool) {
		if ok {
			a.toast, a.toastUntil = done, time.Time{} // the next frame starts its time
			return
		}
		a.manualCopy = text
		a.Host.Focus("manual-copy")
	})
}

// CloseManualCopy hides the copy-by-hand box.
func (a *App) CloseManualCopy() { a.manualCopy = "" }

// SetLang switches the language (and remembers it).
func (a *App) SetLang(lang string) {
	l := i18n.English
	if lang == string(i18n.Korean) {
		l = i18n.Korean
	}
	a.Player.SetLang(l)
	a.Host.SaveLang(string(l))
}

func (a *App) langPressed(lang string) string {
	return strconv.FormatBool(string(a.Player.Lang) == lang)
}

// DismissError hides the error banner.
func (a *App) DismissError() {
	a.Player.Error = ""
	a.Player.Notice = ""
	a.Problem = ""
}

// hasError reports whether the error banner shows.
func (a *App) hasError() bool {
	return a.Player.Error != "" || a.Player.Notice != "" || a.Problem != ""
}

// errorTitle heads the banner: a link that could not be opened, a problem
// in the page, or a link that opened with a change (a notice alone).
func (a *App) errorTitle() string {
	switch {
	case strings.HasPrefix(a.Player.Error, player.ErrBadLink.Error()):
		return a.T("error.link")
	case a.Player.Error == "" && a.Problem == "":
		return a.T("error.link.changed")
	}
	return a.T("error.title")
}

// errorText is the banner's detail. The player's messages are English
// (they name what was wrong with the link); they are shown as text.
func (a *App) errorText() string {
	var parts []string
	if e := a.Player.Error; e != "" {
		if rest, ok := strings.CutPrefix(e, player.ErrBadLink.Error()+": "); ok {
			parts = append(parts, appSentence(rest), a.T("error.link.default"))
		} else {
			parts = append(parts, appSentence(e))
		}
	}
	for n := range strings.SplitSeq(a.Player.Notice, "; ") {
		if n != "" {
			parts = append(parts, appSentence(n))
		}
	}
	if a.Problem != "" {
		parts = append(parts, a.Problem)
	}
	return strings.Join(parts, " ")
}

// appSentence capitalises a Go error message and ends it with a full stop.
func appSentence(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// openFullHref is the embed view's link to the full app, at the moment
// last written to the URL (computing the hash every frame is too costly),
// on the Metrics tab while the embed shows the dashboard.
func (a *App) openFullHref() string {
	h := a.url.hash
	if h == "" {
		h = a.Player.Hash()
	}
	q := ""
	if a.embedMetrics() {
		q = "?panel=" + player.PanelMetrics
	}
	return a.Host.BaseURL() + q + h
}

// openFullLong reports whether the link to the full app is longer than a
// render can carry in an attribute (a long session's: pasted producer
// input makes links of tens of KiB). It is then drawn as HTML, which the
// renderer sends in pieces (see Prepare).
func (a *App) openFullLong() bool { return len(a.openFullHref()) > MaxRenderString }

// openFullHTML is the link to the full app as HTML (openFullLong).
func (a *App) openFullHTML() vugu.HTML {
	return vugu.HTML(`<a class="open-full" id="open-full" href="` + html.EscapeString(a.openFullHref()) + `" target="_blank" rel="noopener">` +
		html.EscapeString(a.T("open.full")+" ↗") + `</a>`)
}

func (a *App) embedAttr() string {
	if a.Player.Embed {
		return "embed"
	}
	return "full"
}

// The side column's tabs.
const (
	sideTabEvents  = "events"
	sideTabKRaft   = "kraft"
	sideTabDisk    = "disk"
	sideTabMetrics = "metrics"
)

// ShowTab picks the side column's panel.
func (a *App) ShowTab(tab string) {
	if tab != sideTabKRaft && tab != sideTabDisk && tab != sideTabMetrics {
		tab = sideTabEvents
	}
	a.SideTab = tab
	// An embed snippet copied now opens on the dashboard too.
	a.Player.Panel = ""
	if tab == sideTabMetrics {
		a.Player.Panel = player.PanelMetrics
	}
}

// embedMetrics reports whether the embed view shows the dashboard: in the
// story's place (its step, Back and Next stay), or alone beside the
// diagram when there is no story.
func (a *App) embedMetrics() bool {
	return a.Player.Embed && a.Player.Panel == player.PanelMetrics
}

// ToggleEmbedMetrics switches the embed's side panel between the story
// and the dashboard.
func (a *App) ToggleEmbedMetrics() {
	if a.embedMetrics() {
		a.Player.Panel = ""
	} else {
		a.Player.Panel = player.PanelMetrics
	}
}

func (a *App) embedMetricsPressed() string {
	return strconv.FormatBool(a.embedMetrics())
}

// OpenDisk shows a replica's partition on its broker's disk (a click on
// its strip in the diagram). The embedded view has no side tabs.
func (a *App) OpenDisk(topic string, partition, broker int32) {
	if a.Player.Embed {
		return
	}
	a.Disk.Show(topic, partition, broker)
	a.SideTab = sideTabDisk
}

func (a *App) tabSelected(tab string) string {
	return strconv.FormatBool(a.SideTab == tab)
}

// quorumFrozen reports whether the controller quorum cannot commit (the
// KRaft tab shows an alert).
func (a *App) quorumFrozen() bool {
	s := a.Player.Snapshot()
	return s != nil && s.Quorum.Frozen()
}

// zkEra reports whether the cluster shown runs in the ZooKeeper era: the
// ZooKeeper tab replaces the quorum and metadata log's.
func (a *App) zkEra() bool {
	s := a.Player.Snapshot()
	return s != nil && s.ZooKeeper != nil
}

// zkFrozen reports whether no ZooKeeper server serves (the ZooKeeper tab
// shows an alert).
func (a *App) zkFrozen() bool { return a.zkEra() && !zkServing(a.Player.Snapshot().ZooKeeper) }

// showSide reports whether the side column has anything: the story, or
// (outside embeds) the event feed, or an embed's dashboard.
func (a *App) showSide() bool {
	return a.Player.Scenario() != nil || !a.Player.Embed || a.embedMetrics()
}

// sideClass is the side column's class: side-story while it holds the
// story. The stylesheet keys the feed's compact lines on it rather than
// on .side:has(.story): with :has() the browser restyled every line of
// the feed (hundreds of elements) whenever a render inserted or removed
// nodes anywhere in the app (issue 15's traces of the built-in
// scenarios, with invalidation tracking).
func (a *App) sideClass() string {
	if a.Player.Scenario() != nil {
		return "side side-story"
	}
	return "side"
}
