//go:build js && wasm

package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/timeline"
	"kafkascope/ui"
)

// The garbage collector's settings in the page. Go's collector marks on
// the page's only thread, in the middle of the frames: with the default
// GOGC of 100 it took 16-18% of the main thread while a 9-broker cluster
// played (issue 15's profile). Collecting when the heap has grown four
// times past what was live, not twice, collects a third as often. The
// soft limit keeps a large cluster's heap from growing that far: a wasm
// instance's memory never shrinks, and the tab (the heap, plus some
// 300 MB of the browser's own) must stay under 1 GB; a 1000-partition
// topic with 100000 records keeps ~360 MB live.
const (
	gcPercent   = 300
	memoryLimit = 600 << 20
)

// standbyLimit is how many standby replays (each a whole cluster, for
// fast seeks back) fit beside the live one in replayShare of the memory
// limit, estimating a replay's size from the live heap shared by the
// live replay and the n standbys kept now. A 1000-partition topic with
// 100000 records makes a replay of about 360 MB: it gets none, and seeks
// back replay from the start.
func standbyLimit(n int) int {
	live := liveHeapBytes()
	if live == 0 {
		return timeline.MaxStandbys
	}
	replay := float64(live) / float64(1+n)
	fit := int(replayShare*float64(memoryLimit)/replay) - 1
	return min(max(fit, 0), timeline.MaxStandbys)
}

// replayShare is the part of the memory limit the replays may hold (the
// rest: the page, and room for the collector to work).
const replayShare = 0.4

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// liveHeapBytes is the heap the last collection found live (0: unknown).
func liveHeapBytes() uint64 {
	metrics.Read(liveHeap)
	if liveHeap[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return liveHeap[0].Value.Uint64()
}

func main() {
	// The loader marks the fetch, the download's end and the compiled
	// module; this mark splits what follows into the Go runtime's and the
	// packages' start-up before main, and the app's boot and first render
	// after it (data-ready-ms).
	markPerformance("kafkascope:main")
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	pg, err := newPage()
	if err != nil {
		// Never panic: a panic exits the Go program, and the page would only
		// say "the engine stopped". Say what failed instead.
		fmt.Fprintln(os.Stderr, "kafkascope:", err)
		showStatus("error", "The kafkascope engine could not start: "+err.Error()+
			". See the browser console for details, and reload the page to try again.")
		select {}
	}
	pg.run()
	select {} // the render loop only ends when the page goes away
}

// page is the running app: the player, the Vugu root and its renderer, and
// the animation frame loop that plays the cluster.
type page struct {
	renderer *renderer
	ee       vugu.EventEnv
	env      *vugu.BuildEnv
	app      *ui.App
	host     *host

	frames  chan struct{}
	frameFn safejs.Func
	stats   frameStats
	// budget adapts the events a frame runs to what frames cost here.
	budget player.FrameBudget
	// split gives a step with more work than a frame alternate frames
	// for the engine and the render.
	split player.FrameSplit
	// engineUntil ends this frame's engine work (engineOver, the
	// player's frame deadline).
	engineUntil time.Time
	engineOver  func() bool
	// quietUntil ends the engine work of a frame that draws nothing
	// (quietOver, Player.SetQuietDeadline): player.QuietWork after its
	// start.
	quietUntil time.Time
	quietOver  func() bool
	// ffStart and ffShare are the engine's share of a frame that
	// fast-forwards a "time advance" (ffLeft, the part of it left, for
	// Player.SetFastForwardDeadline).
	ffStart time.Time
	ffShare time.Duration
	ffLeft  func() float64

	follows     map[string]*followState
	prepare     ui.Preparer
	renderTook  atomic.Int64 // the renders since a frame last read it (ns)
	buildFailed int
	seeks       seekStats
}

// followState is a scrolling list that sticks to its newest line until the
// user scrolls up, and sticks again once they scroll back to the end (the
// terminal, the event feed, the metadata log).
type followState struct {
	key     string
	stuck   bool
	seen    bool    // the element existed at the last measure
	lastTop float64 // scrollTop after the last measure or scroll
}

// followIDs are the elements whose data-follow attribute says when they
// grew.
var followIDs = []string{"terminal", "feed-list", "metalog-list"}

// newPage boots the player from the URL and mounts the app on #app. A panic
// anywhere in it comes back as an error.
func newPage() (pg *page, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic while starting: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("internal error while starting: %v", r)
		}
	}()
	mount, err := byID("app")
	if err != nil {
		return nil, err
	}
	if _, err := byID("status"); err != nil {
		return nil, err
	}
	search, hash := locationPart("search"), locationPart("hash")
	p := bootPlayer(search, hash)
	setDocumentLang(string(p.Lang))

	// The loading placeholder goes: the renderer draws the app's children
	// into the mount point.
	if err := mount.Set("textContent", ""); err != nil {
		return nil, fmt.Errorf("clearing #app: %w", err)
	}
	renderer, err := newRenderer("#app")
	if err != nil {
		return nil, fmt.Errorf("starting the renderer: %w", err)
	}
	ee := renderer.EventEnv()
	env, err := vugu.NewBuildEnv(ee)
	if err != nil {
		return nil, fmt.Errorf("starting the build environment: %w", err)
	}
	h := newHost(ee)
	app := ui.NewApp(p, h)
	h.onPanic = app.HandlerPanic
	return &page{
		renderer: renderer,
		ee:       ee,
		env:      env,
		app:      app,
		host:     h,
		frames:   make(chan struct{}, 1),
		follows:  map[string]*followState{},
	}, nil
}

// bootPlayer opens what the URL asks for, in the language the URL names or
// else the one chosen on an earlier visit. Should the player itself fail,
// the page still opens the default cluster and says so.
func bootPlayer(search, hash string) (p *player.Player) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic while opening the link: %v\n%s", r, debug.Stack())
			p = player.New()
			p.Boot("", "")
			p.Error = fmt.Sprintf("%v: internal error (%v)", player.ErrBadLink, r)
		}
	}()
	p = player.New()
	p.Boot(search, hash)
	if st, _ := player.ParseURL(search, hash); st.Lang == "" {
		switch savedLang() {
		case string(i18n.Korean):
			p.SetLang(i18n.Korean)
		case string(i18n.English):
			p.SetLang(i18n.English)
		}
	}
	return p
}

// listenHash reopens the app when the user changes the URL's #part by
// hand (pasting a shared link into the address bar of an open tab loads
// no new page). The app's own writes use replaceState, which fires no
// hashchange.
func (pg *page) listenHash() {
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		go pg.reopen() // never block in a JavaScript callback
		return nil
	})
	if err == nil {
		_, err = safejs.Global().Call("addEventListener", "hashchange", fn)
	}
	logErr("listening for hash changes", err)
}

func (pg *page) reopen() {
	search, hash := locationPart("search"), locationPart("hash")
	pg.ee.Lock()
	defer pg.ee.UnlockRender()
	defer func() {
		if r := recover(); r != nil {
			pg.app.HandlerPanic("hashchange", r)
		}
	}()
	if hash == pg.app.WrittenHash() {
		return
	}
	p := bootPlayer(search, hash)
	setDocumentLang(string(p.Lang))
	pg.app.Reopen(p)
}

// run is the render loop: render, then wait for a handler or a frame to ask
// for the next render.
func (pg *page) run() {
	first := true
	for ok := true; ok; ok = pg.renderer.EventWait() {
		pg.render()
		if first {
			first = false
			pg.ready()
			pg.startFrames()
			pg.listenHash()
			listenBench()
		}
	}
}

// render builds the tree under the read lock and draws it. A panic in a
// component's Build is shown in #status; the page keeps trying on the
// next event.
func (pg *page) render() {
	began := time.Now()
	br, err := pg.build()
	if err != nil {
		pg.buildFailed++
		if pg.buildFailed <= 3 {
			fmt.Fprintln(os.Stderr, "kafkascope:", err)
		}
		showStatus("error", "kafkascope could not draw the page: "+err.Error()+
			". Reload the page to start again; details are in the browser console.")
		return
	}
	if pg.buildFailed > 0 {
		pg.buildFailed = 0
		pg.showReady()
	}
	if err := pg.draw(br); err != nil {
		fmt.Fprintln(os.Stderr, "kafkascope: rendering:", err)
	}
	pg.followGrown()
	pg.host.afterRender()
	took := time.Since(began)
	pg.stats.rendered(took)
	pg.renderTook.Add(int64(took))
}

// takeRender is the time the renders since the last call took.
func (pg *page) takeRender() time.Duration { return time.Duration(pg.renderTook.Swap(0)) }

// draw syncs the DOM with a build; a JavaScript exception inside Vugu's
// renderer (a panic in syscall/js) comes back as an error.
func (pg *page) draw(br *vugu.BuildResults) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return pg.renderer.Render(br)
}

func (pg *page) build() (br *vugu.BuildResults, err error) {
	pg.ee.RLock()
	defer pg.ee.RUnlock()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic while drawing: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("internal error while drawing: %v", r)
		}
	}()
	br = pg.env.RunBuild(pg.app)
	pg.prepare.Prepare(br, pg.app.HandlerPanic)
	return br, nil
}

// startFrames drives the player with requestAnimationFrame. The callback
// only signals; the frame loop goroutine does the work.
func (pg *page) startFrames() {
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		select {
		case pg.frames <- struct{}{}:
		default:
		}
		return nil
	})
	if err != nil {
		showStatus("error", "kafkascope could not start playback: "+err.Error())
		return
	}
	pg.frameFn = fn
	pg.engineOver = func() bool { return !time.Now().Before(pg.engineUntil) }
	pg.quietOver = func() bool { return !time.Now().Before(pg.quietUntil) }
	pg.ffLeft = func() float64 { return 1 - float64(time.Since(pg.ffStart))/float64(pg.ffShare) }
	go pg.frameLoop()
	pg.requestFrame()
}

func (pg *page) requestFrame() {
	_, err := safejs.Global().Call("requestAnimationFrame", pg.frameFn)
	logErr("requesting an animation frame", err)
}

// frameLoop plays one frame of the cluster per animation frame, under the
// event lock, and asks for a render when something changed.
func (pg *page) frameLoop() {
	last := time.Now()
	nextStats := last.Add(time.Second)
	var nextMeasure time.Time
	var took time.Duration // the last frame's tick
	for range pg.frames {
		now := time.Now()
		wall := now.Sub(last)
		last = now
		// The last frame's cost (its render, if it asked for one, ran
		// since) sets this frame's events.
		events := pg.budget.Observe(player.FrameCost{
			Events: pg.app.Player.LastFrameEvents(), Tick: took, Render: pg.takeRender(), Interval: wall})
		// A step with more work than a frame runs the engine and draws
		// in alternate frames (player.FrameSplit).
		pg.ee.Lock()
		handled := pg.renderer.takeRenderDue()
		pg.ee.UnlockOnly()
		kind := pg.split.Next(pg.app.Player.TickCut(), handled)
		pg.app.Player.SetFrameEvents(pg.budget.EventsFor(kind, events))
		quiet := pg.app.FastForwardQuiet(now)
		pg.app.Player.SetFastForwardEvents(pg.budget.FastForwardEvents(events, quiet))
		pg.ffStart, pg.ffShare = now, pg.budget.FastForwardTime(quiet)
		pg.app.Player.SetFastForwardDeadline(pg.ffLeft)
		// The count above follows recent frames; the deadline stops a
		// frame whose events turned out heavy (a player may be new: set
		// it every frame).
		pg.engineUntil = now.Add(pg.budget.EngineTimeFor(kind))
		pg.app.Player.SetFrameDeadline(pg.engineOver)
		pg.quietUntil = now.Add(player.QuietWork)
		if kind == player.FrameDraw {
			pg.quietUntil = now // the frame's time is the render's
		}
		pg.app.Player.SetQuietDeadline(pg.quietOver)
		if !quiet {
			// A quiet frame draws nothing, so no list moved: reading
			// their positions each such frame was 3% of `time advance
			// 7d` in the page. The next frame that draws (within
			// player.FastForwardRedraw) reads them first.
			pg.followMeasure()
		}
		width, measured := 0.0, false
		if !now.Before(nextMeasure) {
			nextMeasure = now.Add(measureEvery)
			width, measured = stageWidth()
		}
		view := partsView()
		pg.ee.Lock()
		pg.seeks.before(pg.app.Player)
		render := pg.app.Frame(now, wall)
		pg.seeks.frame(pg.app.Player, time.Since(now))
		if handled || pg.renderer.takeRenderDue() {
			render = true // a handler ran: draw what it changed
		}
		if measured && width != pg.app.StageWidth {
			pg.app.StageWidth = width // the diagram lays out for its panel
			render = true
		}
		if pg.app.SetPartsView(view) {
			render = true // a large topic scrolled: draw the rows in view
		}
		render = pg.split.Render(kind, render, time.Since(now))
		if render {
			pg.ee.UnlockRender()
		} else {
			pg.ee.UnlockOnly()
		}
		took = time.Since(now)
		pg.stats.ticked(took, render)
		if now.After(nextStats) {
			nextStats = now.Add(time.Second)
			pg.ee.Lock()
			standbys := pg.app.Player.StandbyCount()
			pg.app.Player.SetStandbyLimit(standbyLimit(standbys))
			pg.ee.UnlockOnly()
			pg.stats.publish(standbys)
		}
		pg.requestFrame()
	}
}

// measureEvery is how often the diagram's panel is measured: a resized
// window or a side column that came or went lays the diagram out again
// within this time.
const measureEvery = 250 * time.Millisecond

// partsView measures the part of the partitions' drawing (.kd-parts) on
// the screen: inside the diagram's scrolling panel (.kd-scroll) and the
// window, in CSS px from the drawing's top. It runs at the start of a
// frame, when the last paint has laid the page out: reading positions
// costs nothing then.
func partsView() ui.PartsView {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return ui.PartsView{}
	}
	rect := func(sel string) (top, bottom float64, ok bool) {
		el, err := doc.Call("querySelector", sel)
		if err != nil || el.IsNull() || el.IsUndefined() {
			return 0, 0, false
		}
		r, err := el.Call("getBoundingClientRect")
		if err != nil {
			return 0, 0, false
		}
		top, e1 := numProp(r, "top")
		bottom, e2 := numProp(r, "bottom")
		return top, bottom, e1 == nil && e2 == nil
	}
	svgTop, _, ok1 := rect(".kd-parts")
	panelTop, panelBottom, ok2 := rect(".kd-scroll")
	win, err := safejs.Global().Get("innerHeight")
	if !ok1 || !ok2 || err != nil {
		return ui.PartsView{}
	}
	winH, err := win.Float()
	if err != nil {
		return ui.PartsView{}
	}
	top, bottom := max(panelTop, 0), min(panelBottom, winH)
	return ui.PartsView{Known: true, Top: top - svgTop, Bottom: max(bottom, top) - svgTop}
}

// stageWidth is the diagram panel's width in whole CSS px (ok is false
// when there is none to measure).
func stageWidth() (float64, bool) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return 0, false
	}
	el, err := doc.Call("querySelector", ".stage")
	if err != nil || el.IsNull() || el.IsUndefined() {
		return 0, false
	}
	w, err := numProp(el, "clientWidth")
	if err != nil {
		return 0, false
	}
	return w, true
}

// Following lists (the terminal, the event feed, the metadata log) stay
// at their newest line until the user scrolls up, and stick again once
// they scroll back to the end. Reading a list's scroll position right
// after a render makes the browser lay the page out there and then
// (issue 15's profile of a 9-broker cluster: a quarter of each frame in
// syscall/js.valueGet under the old after-render measure), so positions
// are read at the start of a frame, when the last paint has just laid the
// page out (followMeasure), and after a render only for a list that grew
// while stuck (followGrown): the layout that forces is the one the next
// paint needs anyway.

// followMeasure notes which lists the user scrolled away from their end,
// and brings a stuck list whose end moved (a resize) back to it.
func (pg *page) followMeasure() {
	for _, id := range followIDs {
		st := pg.followState(id)
		el, err := byID(id)
		if err != nil {
			st.seen, st.stuck = false, true
			continue
		}
		top, height, total, ok := scrollMetrics(el)
		if !ok {
			continue
		}
		switch {
		case top+height >= total-24:
			st.stuck = true
		case st.seen && top < st.lastTop-2:
			st.stuck = false // only a scroll up unsticks
		}
		st.seen, st.lastTop = true, top
		if st.stuck && top+height < total-1 {
			pg.scrollToEnd(id, el, st, total, height)
		}
	}
}

// followGrown scrolls each stuck list whose content changed (its
// data-follow) to its end, after a render.
func (pg *page) followGrown() {
	for _, id := range followIDs {
		st := pg.followState(id)
		if !st.stuck {
			continue
		}
		el, err := byID(id)
		if err != nil {
			continue
		}
		v, err := el.Call("getAttribute", "data-follow")
		if err != nil || v.IsNull() {
			continue
		}
		key, _ := v.String()
		if key == st.key {
			continue
		}
		st.key = key
		if _, height, total, ok := scrollMetrics(el); ok {
			pg.scrollToEnd(id, el, st, total, height)
		}
	}
}

func (pg *page) followState(id string) *followState {
	st := pg.follows[id]
	if st == nil {
		st = &followState{stuck: true}
		pg.follows[id] = st
	}
	return st
}

func (pg *page) scrollToEnd(id string, el safejs.Value, st *followState, total, height float64) {
	err := el.Set("scrollTop", total)
	if err == nil {
		st.lastTop = max(total-height, 0) // where the browser clamps it
	}
	logErr("scrolling #"+id, err)
}

// scrollMetrics reads an element's scrollTop, clientHeight and
// scrollHeight.
func scrollMetrics(el safejs.Value) (top, height, total float64, ok bool) {
	top, e1 := numProp(el, "scrollTop")
	height, e2 := numProp(el, "clientHeight")
	total, e3 := numProp(el, "scrollHeight")
	return top, height, total, e1 == nil && e2 == nil && e3 == nil
}

func numProp(v safejs.Value, name string) (float64, error) {
	p, err := v.Get(name)
	if err != nil {
		return 0, err
	}
	return p.Float()
}

// ready marks #status loaded, with how long the page took to become
// usable (for tests, and for anyone measuring in devtools).
func (pg *page) ready() {
	pg.showReady()
	if ms, ok := sinceNavigationMs(); ok {
		if status, err := byID("status"); err == nil {
			_, err = status.Call("setAttribute", "data-ready-ms", strconv.Itoa(ms))
			logErr("setting data-ready-ms", err)
		}
		fmt.Printf("kafkascope: first render %d ms after navigation\n", ms)
	}
}

func (pg *page) showReady() {
	showStatus("loaded", fmt.Sprintf("kafkascope engine ready (Go %s)", strings.TrimPrefix(runtime.Version(), "go")))
}

// locationPart is location.search or location.hash ("" if unreadable).
func locationPart(name string) string {
	loc, err := safejs.Global().Get("location")
	if err != nil {
		return ""
	}
	v, err := loc.Get(name)
	if err != nil {
		return ""
	}
	s, _ := v.String()
	return s
}

// showStatus sets #status's text and its data-state (loading, starting,
// loaded or error; the stylesheet keys on it).
func showStatus(state, text string) {
	status, err := byID("status")
	if err == nil {
		err = status.Set("textContent", text)
	}
	if err == nil {
		_, err = status.Call("setAttribute", "data-state", state)
	}
	logErr("showing the status", err)
}

// markPerformance adds a mark to the page's performance timeline (devtools
// and the load benchmark read them).
func markPerformance(name string) {
	perf, err := safejs.Global().Get("performance")
	if err != nil || perf.IsUndefined() || perf.IsNull() {
		return
	}
	_, err = perf.Call("mark", name)
	logErr("marking "+name, err)
}

// sinceNavigationMs is performance.now(): milliseconds since the page's
// navigation started.
func sinceNavigationMs() (int, bool) {
	perf, err := safejs.Global().Get("performance")
	if err != nil || perf.IsUndefined() || perf.IsNull() {
		return 0, false
	}
	now, err := perf.Call("now")
	if err != nil {
		return 0, false
	}
	ms, err := now.Float()
	if err != nil {
		return 0, false
	}
	return int(ms + 0.5), true
}
