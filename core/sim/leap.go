package sim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"time"

	"kafkascope/core/sorts"
)

// A leap skips a span of virtual time in which nothing happens but
// periodic loops whose every event a caller can compute in closed form (a
// follower's empty long poll, repeated every replica.fetch.wait.max.ms
// plus two link latencies). The caller (a cluster, which knows its
// processes' loops) proves each loop steady, advances the processes' state
// across the span itself, and hands the world the loops' events that are
// still pending at its end. The world drops the events the span consumed
// and queues the new ones as if the loops had run event by event.
//
// What a leap keeps exact, and what it does not:
//   - Events queued by the span are pushed in the order a stepped run would
//     have pushed them (LeapEvent.Path, then Rank: leap_path.go). Every event a leap
//     leaves alone was pushed at or before the span began, and every event
//     it adds was pushed in the span, after it: so events due at the same
//     instant still run in the order a stepped run gives them.
//   - Not kept: the trace entries of the skipped events, World.Steps (a
//     leap adds what it cost, in events, as the pacing of a page's frames
//     reads it), and sequence numbers (so message IDs, which are only
//     keys).

// QueuedEvent is one live event in the queue: a timer that will fire (Timer
// set) or a message in flight (Env set).
type QueuedEvent struct {
	At       Time
	Seq      uint64 // the push order; unique
	PushedAt Time   // when it was queued
	Host     string // the timer's process, or the message's receiver
	Timer    *Timer
	Env      *Envelope
}

// Queued lists the live queued events in the order they will run (at, seq).
// Stopped timers are left out, and so are the timers and starts of a
// process incarnation that ended: they never run.
func (w *World) Queued() []QueuedEvent {
	out := make([]QueuedEvent, 0, w.queue.len())
	w.queue.each(func(e *event) {
		if e.stale() {
			return
		}
		switch e.kind {
		case evTimer:
			out = append(out, QueuedEvent{At: e.at, Seq: e.seq, PushedAt: e.pushed, Host: e.proc.host, Timer: e.timer})
		case evDeliver:
			out = append(out, QueuedEvent{At: e.at, Seq: e.seq, PushedAt: e.pushed, Host: e.env.To.Host(), Env: e.env})
		case evStart:
			out = append(out, QueuedEvent{At: e.at, Seq: e.seq, PushedAt: e.pushed, Host: e.proc.host})
		}
	})
	// sort.Slice, not slices.SortFunc: each element type slices sorts
	// is its own copy of the sort's code in main.wasm.
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.At < b.At || a.At == b.At && a.Seq < b.Seq
	})
	return out
}

// LeapEvent is an event a leap queues: a timer of Host's process (Timer,
// armed here with Name and Task to fire At) or a message in flight (Env,
// whose From, To, Msg, SentAt and DeliverAt the caller fills in).
type LeapEvent struct {
	// PushedAt is when a stepped run would have queued the event: the
	// timer's arming, the message's sending (Path.Push(0)).
	PushedAt Time
	// Path is how it came to be queued, back to an event queued before
	// the span (leap_path.go), and Rank its place among the pushes of the
	// handler that queued it (Path.Rank(0) is not read): together they
	// order the events a leap queues as a stepped run would have pushed
	// them.
	Path PushPath
	Rank int

	Host  string
	Timer *Timer
	At    Time
	Name  string
	Task  Task

	Env *Envelope
}

// ErrLeap is the error of a leap the world refuses.
var ErrLeap = errors.New("sim: leap refused")

// Leap ends a span the caller advanced in closed form: the events of drop
// (found by Queued) happened in the span and leave the queue, stopped
// timers' events leave it too (their time may be in the span), the clock
// moves to now, and add is queued in a stepped run's push order (Path,
// then Rank). No handler
// runs. Every event left in the queue must be due at or after now, and
// every added one after now; a leap that breaks this changes nothing and
// fails.
func (w *World) Leap(now Time, drop []QueuedEvent, add []LeapEvent) error {
	if w.closed || w.err != nil {
		return fmt.Errorf("%w: the world has stopped", ErrLeap)
	}
	if w.running != nil {
		return fmt.Errorf("%w: inside a handler", ErrLeap)
	}
	if now < w.now {
		return fmt.Errorf("%w: the clock would go back from %s to %s", ErrLeap, w.now, now)
	}
	dropped := make(map[uint64]bool, len(drop))
	for _, d := range drop {
		dropped[d.Seq] = true
	}
	var bad error
	w.queue.each(func(e *event) {
		if bad == nil && !dropped[e.seq] && !e.stale() && e.at < now {
			bad = fmt.Errorf("%w: an event at %s is not in the span's drop list but due before %s", ErrLeap, e.at, now)
		}
	})
	for _, c := range w.captured {
		if bad == nil && c.e.at < now {
			bad = fmt.Errorf("%w: an event LeapRun queued is due at %s, before %s", ErrLeap, c.e.at, now)
		}
	}
	for _, a := range add {
		at := a.At
		if a.Env != nil {
			at = a.Env.DeliverAt
		}
		switch {
		case bad != nil:
		case (a.Env == nil) == (a.Timer == nil):
			bad = fmt.Errorf("%w: an added event must be a timer or a message", ErrLeap)
		case a.Path == nil:
			bad = fmt.Errorf("%w: an added event has no push path", ErrLeap)
		case func() bool { t, _ := a.Path.Push(0); return t != a.PushedAt }():
			bad = fmt.Errorf("%w: an added event's path does not start when it was pushed", ErrLeap)
		case at < now || a.PushedAt > now:
			bad = fmt.Errorf("%w: an added event due at %s, pushed at %s, is not after %s", ErrLeap, at, a.PushedAt, now)
		case a.Timer != nil && w.runningProc(a.Host) == nil:
			bad = fmt.Errorf("%w: host %s is not running", ErrLeap, a.Host)
		}
	}
	if bad != nil {
		return bad
	}
	for _, d := range drop {
		if d.Timer != nil {
			d.Timer.fired, d.Timer.ev = true, nil
		}
	}
	w.leaps++
	w.queue.remove(func(e *event) bool { return dropped[e.seq] || e.stale() })
	w.setNow(now)
	// The added events and those LeapRun held back, in the order a
	// stepped run would have pushed them.
	all := make([]pendingPush, 0, len(add)+len(w.captured))
	for i := range add {
		t, _ := add[i].Path.Push(0)
		all = append(all, pendingPush{pushed: t, path: add[i].Path, rank: add[i].Rank, add: &add[i]})
	}
	for _, c := range w.captured {
		t, _ := c.path.Push(0)
		all = append(all, pendingPush{pushed: t, path: c.path, rank: c.rank, held: c.e})
	}
	w.captured = nil
	sorts.StableFunc(all, comparePushes)
	for _, p := range all {
		switch {
		case p.held != nil:
			w.pushNow(p.held)
		case p.add.Env != nil:
			w.queueMessage(p.add.Env, p.add.PushedAt)
		default:
			a := p.add
			w.armAt(w.procs[a.Host], a.Timer, a.At, a.Name, a.Task, a.PushedAt)
		}
	}
	return nil
}

// pendingPush is an event a leap queues at its end: added (add) or held
// back by LeapRun (held). pushed is its path's first level, which
// ComparePaths compares first, read once: most pairs differ there.
type pendingPush struct {
	pushed Time
	path   PushPath
	rank   int
	add    *LeapEvent
	held   *event
}

// comparePushes orders two pending pushes as a stepped run would have
// pushed them (sorts.StableFunc: sort.SliceStable's code, already in
// main.wasm, where sort.Stable over an interface added 4 KB).
func comparePushes(a, b pendingPush) int {
	if a.pushed != b.pushed {
		return cmp.Compare(a.pushed, b.pushed)
	}
	return ComparePaths(a.path, a.rank, b.path, b.rank)
}

// stale reports whether e will never run: a stopped timer's, or a timer or
// start of a process incarnation that ended (prepare drops them).
func (e *event) stale() bool {
	switch e.kind {
	case evTimer:
		return e.timer == nil || e.proc.state != ProcRunning || e.proc.incarnation != e.inc
	case evStart:
		return e.proc.state != ProcRunning || e.proc.incarnation != e.inc
	}
	return false
}

// LeapPeriodic is the closed form of a periodic timer, e, that runs its
// task every period and re-arms itself with the same task and name: how
// many of its runs fall before end, the last of them, and the timer to
// queue after them (armed by the last run). runs is 0 when e is due at or
// after end.
func LeapPeriodic(e QueuedEvent, period time.Duration, end Time) (runs int, last Time, next LeapEvent) {
	p := Time(period)
	if e.At >= end || p <= 0 {
		return 0, 0, LeapEvent{}
	}
	runs = int((end-1-e.At)/p) + 1
	last = e.At + Time(runs-1)*p
	next = LeapEvent{PushedAt: last, Path: PeriodicRuns(e, period, runs), Host: e.Host, Timer: &Timer{}, At: last + p, Name: e.Timer.Name(), Task: e.Timer.Task()}
	return runs, last, next
}

// PeriodicRuns is the path of what the last of runs runs of periodic event
// e (each run queuing the next, every period) queues.
func PeriodicRuns(e QueuedEvent, period time.Duration, runs int) PeriodicPath {
	return PeriodicPath{Last: e.At + Time(runs-1)*Time(period), Period: period, Runs: runs, From: PathOf(e)}
}

// LeapOp is work a loop does at one instant of a span that reads the
// clock or shares state with other loops' work (a write to a disk, whose
// pages and journal the disk dates by the clock): the handler of an event
// due At, queued along Path(Arg). RunLeapOps runs every loop's in the
// order a stepped run would run those events, with the clock at At.
//
// A loop's ops share one function of an argument for their work, Do(Arg),
// and one for their push path, Path(Arg): a closure and a boxed path for
// each op were a sixth of a leaped idle week, and a path is needed only
// when ops of two loops fall on one instant.
type LeapOp struct {
	At   Time
	Rank int // the event's place among its pusher's pushes
	Arg  int
	Do   func(arg int)
	Path func(arg int) PushPath
}

// LeapRun is one loop's ops in a span, in the order a stepped run runs
// them: Len ops, the j-th made by Op when RunLeapOps comes to it. A
// week's NoOps are millions of ops, and holding them all in slices at
// once was a quarter of what a leaped week allocated. Op depends only on
// j, not on what earlier ops did: RunLeapOps may make an op before or
// after the ops before it ran.
type LeapRun interface {
	Len() int
	Op(j int) LeapOp
}

// LeapMachine is a run (LeapRun) whose ops all change one machine's state
// (its host's processes and disk): ops of runs on other machines share
// nothing with them but the clock. A run that does not say runs on every
// machine.
type LeapMachine interface {
	Machine() string
}

// LeapStretch is a run that can run several of its ops at a time: the
// ops of one machine where no other run's op comes between them.
type LeapStretch interface {
	LeapRun
	LeapMachine
	// Stretch runs ops j, j+1, … due before `before` (at least op j,
	// which is) and returns how many it ran. It runs them as one op after
	// another would, calling at(t) to set the clock to an op's instant t
	// before work that reads it; work done in closed form reads no clock.
	Stretch(j int, before Time, at func(Time)) int
}

// RunLeapOps runs the loops' ops in a stepped run's order, each with the
// clock at its instant (no handler runs, and an op may queue nothing).
// Each loop lists its ops (a run) in the order a stepped
// run runs them: the runs are merged by time, and ops of one instant from
// different runs are put in their paths' order. The runs are read as
// they are merged, an instant at a time.
func (w *World) RunLeapOps(runs []LeapRun) {
	if w.running != nil {
		panic("sim: RunLeapOps inside a handler")
	}
	type runOp struct {
		op  LeapOp
		run int
	}
	// Each run's length, next op and that op's instant, read once: the
	// merge below looks at every run's head at every instant, and in
	// WebAssembly a method call through the interface for each look
	// was a tenth of a leaped idle week.
	lens := make([]int, len(runs))
	next := make([]int, len(runs))     // each run's next op
	heads := make([]LeapOp, len(runs)) // each run's op next[r], when it has one
	live := 0
	for r, run := range runs {
		if lens[r] = run.Len(); lens[r] > 0 {
			heads[r] = run.Op(0)
			live++
		}
	}
	// Stretches: each run's machine ("" for every machine), and its
	// stretching if it has any.
	machines := make([]string, len(runs))
	stretch := make([]LeapStretch, len(runs))
	for r, run := range runs {
		if m, ok := run.(LeapMachine); ok {
			machines[r] = m.Machine()
		}
		if s, ok := run.(LeapStretch); ok && machines[r] != "" {
			stretch[r] = s
		}
	}
	setNow := func(t Time) { w.now = t }
	saved := w.now
	var group []runOp
	for live > 0 {
		// The earliest instant any run is at, and whether another run
		// has an op at that instant too.
		r0, shared := -1, false
		for r := range runs {
			switch {
			case next[r] == lens[r]:
			case r0 < 0 || heads[r].At < heads[r0].At:
				r0, shared = r, false
			case heads[r].At == heads[r0].At:
				shared = true
			}
		}
		t := heads[r0].At
		w.now = t
		if stretch[r0] != nil {
			// The run's ops on its machine up to the next op of another
			// run there (or on every machine) run as a stretch: ops of
			// other machines, due in between or at the same instants,
			// share nothing with them.
			before := Time(math.MaxInt64)
			for r := range runs {
				if r != r0 && next[r] < lens[r] && (machines[r] == "" || machines[r] == machines[r0]) {
					before = min(before, heads[r].At)
				}
			}
			if before > t {
				if next[r0] += stretch[r0].Stretch(next[r0], before, setNow); next[r0] == lens[r0] {
					live--
				} else {
					heads[r0] = runs[r0].Op(next[r0])
				}
				continue
			}
		}
		if !shared {
			// One run at this instant (nearly always): its ops run in
			// its order, as they come.
			for {
				heads[r0].Do(heads[r0].Arg)
				if next[r0]++; next[r0] == lens[r0] {
					live--
					break
				}
				if heads[r0] = runs[r0].Op(next[r0]); heads[r0].At != t {
					break
				}
			}
			continue
		}
		// Every run's ops of that instant, run by run (the first run's
		// first), put in their paths' order by an insertion sort (a few
		// ops; sort.SliceStable's reflection costs more). Ops of one run
		// keep their order: their paths are in it.
		group = group[:0]
		for r := range runs {
			for next[r] < lens[r] && heads[r].At == t {
				group = append(group, runOp{heads[r], r})
				if next[r]++; next[r] < lens[r] {
					heads[r] = runs[r].Op(next[r])
				} else {
					live--
				}
			}
		}
		for a := 1; a < len(group); a++ {
			for b := a; b > 0 && ComparePaths(group[b].op.Path(group[b].op.Arg), group[b].op.Rank, group[b-1].op.Path(group[b-1].op.Arg), group[b-1].op.Rank) < 0; b-- {
				group[b], group[b-1] = group[b-1], group[b]
			}
		}
		for i := range group {
			group[i].op.Do(group[i].op.Arg)
		}
	}
	// The clock goes back to where it was. Not deferred: an op
	// that panics ends the run (a bug), and a defer per op was a cost of
	// its own in WebAssembly.
	w.now = saved
}

// LeapRun runs fn as host's handler at t, a time inside the span a leap
// covers, handling an event whose path is by (by.Push(0) is when that
// event was queued): the clock reads t, and what fn queues (timers it
// arms, messages it sends) is held back and queued by the World.Leap that
// ends the span, in the order a stepped run would have pushed it (its path
// is t, then by's). It lets a loop's closed form hand the end of its last
// cycle to the code that does it in a stepped run.
func (w *World) LeapRun(host string, t Time, by PushPath, fn func(env *Env)) error {
	pr := w.runningProc(host)
	switch {
	case w.running != nil:
		return fmt.Errorf("%w: LeapRun inside a handler", ErrLeap)
	case pr == nil:
		return fmt.Errorf("%w: host %s is not running", ErrLeap, host)
	case t < w.now:
		return fmt.Errorf("%w: LeapRun at %s, before the clock (%s)", ErrLeap, t, w.now)
	}
	saved := w.now
	w.now, w.running, w.capturing, w.capturePath, w.captureRank = t, pr, true, LeadPath{Lead: []Time{t}, Then: by}, 0
	defer func() { w.now, w.running, w.capturing = saved, nil, false }()
	fn(pr.env)
	return nil
}

// capturedEvent is an event LeapRun held back, with the path of its
// push and its rank among the handler's pushes.
type capturedEvent struct {
	e    *event
	path PushPath
	rank int
}

// runningProc is host's process if it runs.
func (w *World) runningProc(host string) *proc {
	if pr, ok := w.procs[host]; ok && pr.state == ProcRunning {
		return pr
	}
	return nil
}

// queueMessage puts env in flight as it is (a leap's message): it keeps
// its link FIFO from here on and takes its ID from its place in the queue.
func (w *World) queueMessage(env *Envelope, pushed Time) {
	l := link{env.From.Host(), env.To.Host()}
	last := w.net.lastDeliver[l]
	if last == nil {
		last = new(Time)
		w.net.lastDeliver[l] = last
	}
	*last = max(*last, env.DeliverAt)
	ev := w.queue.alloc()
	ev.at, ev.kind, ev.env, ev.pushed = env.DeliverAt, evDeliver, env, pushed
	w.pushNow(ev)
}

// arm queues t to run task in pr at at (Env.Arm's work, for a caller
// outside pr's handlers).
func (w *World) arm(pr *proc, t *Timer, at Time, name string, task Task) {
	w.armAt(pr, t, at, name, task, w.now)
}

// armAt is arm for a timer armed at pushed (a leap's, armed as of an
// instant of its span).
func (w *World) armAt(pr *proc, t *Timer, at Time, name string, task Task, pushed Time) {
	if t.task != nil {
		panic("sim: a Timer is armed twice")
	}
	*t = Timer{name: name, task: task, at: at}
	ev := w.queue.alloc()
	ev.at, ev.kind, ev.proc, ev.inc, ev.timer = at, evTimer, pr, pr.incarnation, t
	t.ev = ev
	if w.capturing {
		w.push(ev)
		return
	}
	ev.pushed = pushed
	w.pushNow(ev)
}

// Latency is the one-way delay of a message sent now from host a to host
// b, as Env.Send would give it (the link's FIFO order aside).
func (w *World) Latency(a, b string) time.Duration { return w.net.Latency(a, b) }

// Leaper advances a world in closed form across spans where only steady
// loops run (a cluster: it knows its processes' loops).
type Leaper interface {
	// Leap may advance w through the events due at or before limit that
	// it can compute, ending with World.Leap, doing at most about budget
	// events' worth of work (budget < 0: no bound; a page's frame gives a
	// run a budget). It returns when to try again (the scheduler does not
	// call it while the next event is due at or before retry) and what
	// the leap cost, counted in events for the run's budget.
	Leap(w *World, limit Time, budget int) (retry Time, work int)
	// MayLeap reports whether next, the event the scheduler would run
	// next, may be a loop's. A span begins with a loop's event, so the
	// scheduler offers a span only then: a quick look that spares a
	// search of the whole queue before every other event.
	MayLeap(next QueuedEvent) bool
}

// SetLeaper makes the scheduler offer l every span it could leap: before
// it runs an event of a run bounded in time (RunUntil, RunUntilBudget,
// RunFor, RunWhile; not Step). A RunWhile condition is checked before and
// after each span, as before and after each event: it must not depend on
// what only a loop changes (a follower's fetch times). Nil turns leaping
// off.
func (w *World) SetLeaper(l Leaper) {
	w.leaper, w.leapRetry = l, w.now
}

// Leaps is how many leaps the world took.
func (w *World) Leaps() uint64 { return w.leaps }

// SetLeapMinSpan makes the scheduler offer a span only to a run that
// goes on at least d past now (0: any run bounded in time).
func (w *World) SetLeapMinSpan(d time.Duration) { w.leapMin = d }

// leapable reports whether the run in progress may leap: it is bounded in
// time, and ends at least leapMin from now.
func (w *World) leapable() bool {
	limit := w.sched.job.limit
	return limit < math.MaxInt64 && limit-w.now >= Time(w.leapMin)
}

// mayLeap asks the leaper whether the next event may begin a span.
func (w *World) mayLeap() bool {
	e := w.queue.peek()
	if e.stale() {
		return false
	}
	q := QueuedEvent{At: e.at, Seq: e.seq, PushedAt: e.pushed}
	switch e.kind {
	case evTimer:
		q.Host, q.Timer = e.proc.host, e.timer
	case evDeliver:
		q.Host, q.Env = e.env.To.Host(), e.env
	default:
		return false
	}
	return w.leaper.MayLeap(q)
}

// tryLeap offers the leaper the span up to the run's limit. A panic in
// it (a loop computed wrong) is the world's error, as a handler's is.
func (w *World) tryLeap() {
	defer func() {
		if r := recover(); r != nil {
			w.err = fmt.Errorf("sim: a leap at %s panicked: %v\n%s", w.now, r, debug.Stack())
		}
	}()
	j := &w.sched.job
	budget := -1
	if j.maxSteps >= 0 {
		budget = max(j.maxSteps-j.ran, 0)
	}
	retry, work := w.leaper.Leap(w, j.limit, budget)
	w.leapRetry = retry
	j.ran += work
	w.stepped += uint64(work)
}
