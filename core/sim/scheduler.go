package sim

import (
	"fmt"
	"math"
	"runtime/debug"
	"time"
)

// The scheduler runs events in (time, sequence) order, each handler on its
// process's own goroutine, one at a time.
//
// Whoever holds the baton runs the scheduler: it pops the next event and,
// when the event belongs to a process whose goroutine is not this one,
// hands the baton to that goroutine together with the event, and waits to
// be handed the baton again. A process goroutine therefore runs every
// consecutive event of its own without a switch, and an event costs at
// most one switch, from the process that ran the previous event to the
// next one (the driver sends the baton out once per run, and gets it back
// when the run stops). A goroutine switch is the most expensive part of
// an event in WebAssembly, where it unwinds and rewinds the stack.
//
// Exactly one goroutine holds the baton at a time, and the baton travels
// over channels, so every access to the world and to process state is
// ordered (for the race detector as for the memory model): handlers, the
// run's stop condition and note hooks all run under the baton.
type scheduler struct {
	// driver carries the baton back to the driver when a run stops.
	driver chan struct{}
	job    runJob
	// handed is the event handed over with the baton, for the receiving
	// process to handle first.
	handed handed
	// condPanic is a panic of the run's stop condition on a process
	// goroutine, raised again on the driver's.
	condPanic any
	condStack []byte
	// handoffs counts the times the baton went to another goroutine.
	handoffs uint64
}

// runJob bounds one run of the scheduler.
type runJob struct {
	limit    Time        // run events at or before limit
	maxSteps int         // at most this many events (<0: no limit)
	cond     func() bool // run while cond holds (nil: no condition)
	ran      int         // events run so far
	// Why the run stopped.
	condFalse bool
}

// handed is what a process must run when handed the baton.
type handed struct {
	kind  eventKind
	timer *Timer
	env   *Envelope
}

// due reports whether the run goes on with the next event, in the order
// RunWhile, RunUntil and RunUntilBudget have always checked: the
// condition, a failure, the queue and the limit, then the budget.
func (w *World) due() bool {
	j := &w.sched.job
	if j.cond != nil && !w.callCond() {
		j.condFalse = true
		return false
	}
	if w.err != nil || w.queue.len() == 0 || w.queue.peek().at > j.limit {
		return false
	}
	return j.maxSteps < 0 || j.ran < j.maxSteps
}

// callCond evaluates the run's condition; a panic ends the run and is
// raised again on the driver's goroutine.
func (w *World) callCond() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			w.sched.condPanic, w.sched.condStack = r, debug.Stack()
			ok = false
		}
	}()
	return w.sched.job.cond()
}

// runJob runs the scheduler from the driver until the job stops, and
// returns with the baton back on the driver.
func (w *World) runJob(j runJob) {
	w.sched.job = j
	if w.dispatch(nil) {
		<-w.sched.driver
	}
	if p := w.sched.condPanic; p != nil {
		stack := w.sched.condStack
		w.sched.condPanic, w.sched.condStack = nil, nil
		panic(fmt.Sprintf("%v\n(raised by a run condition on a process goroutine)\n%s", p, stack))
	}
}

// dispatch runs events on the goroutine of self (nil: the driver) while
// the job goes on, and returns once the baton has left this goroutine:
// handed to a process goroutine with its event, or, from a process
// goroutine, back to the driver when the job stops. On the driver it
// reports whether the baton went out (the driver must wait for it);
// false means the job stopped without running a handler elsewhere.
func (w *World) dispatch(self *proc) bool {
	for {
		if !w.due() {
			if self != nil {
				w.sched.driver <- struct{}{}
			}
			return self != nil
		}
		e := w.queue.pop()
		w.now = e.at
		w.stepped++
		w.sched.job.ran++
		pr := w.prepare(e)
		w.queue.recycle(e)
		if pr == nil {
			continue
		}
		if pr == self {
			w.handle(pr)
			continue
		}
		w.sched.handoffs++
		pr.baton <- struct{}{}
		return true
	}
}

// procLoop is a process goroutine: each time it is handed the baton it
// handles the event handed over, then runs the scheduler until the baton
// leaves it. It ends when its process stops (the baton channel is closed).
func (w *World) procLoop(pr *proc) {
	for range pr.baton {
		w.handle(pr)
		w.dispatch(pr)
	}
}

// prepare does the scheduler's part of event e (its trace entry, a drop, a
// reset) and returns the process whose handler must run, with the event in
// w.sched.handed, or nil if none must.
func (w *World) prepare(e *event) *proc {
	switch e.kind {
	case evStart:
		if e.proc.state != ProcRunning || e.proc.incarnation != e.inc {
			return nil
		}
		w.trace.add(TraceEvent{At: w.now, Kind: TraceStart, Host: e.proc.host})
		w.sched.handed = handed{kind: evStart}
		return e.proc
	case evTimer:
		t := e.timer
		if t.stopped || e.proc.state != ProcRunning || e.proc.incarnation != e.inc {
			return nil
		}
		t.fired = true
		w.trace.add(TraceEvent{At: w.now, Kind: TraceTimer, Host: e.proc.host, Detail: t.name})
		w.sched.handed = handed{kind: evTimer, timer: t}
		return e.proc
	case evDeliver:
		return w.deliver(e.env)
	}
	return nil
}

// deliver routes env to its process (returned, with the envelope handed
// over) or drops it, answering with a reset for a dead process.
func (w *World) deliver(env *Envelope) *proc {
	from, to := env.From.Host(), env.To.Host()
	if w.net.IsCut(from, to) {
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: to, Env: env, Detail: "network cut"})
		return nil
	}
	pr, ok := w.procs[to]
	if !ok {
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: to, Env: env, Detail: "unknown host"})
		return nil
	}
	switch pr.state {
	case ProcRunning:
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDeliver, Host: to, Env: env})
		if _, isReset := env.Msg.(*Disconnected); !isReset && from != to {
			w.conns[conn{env.From, env.To}] = true
		}
		w.sched.handed = handed{kind: evDeliver, env: env}
		return pr
	case ProcDead:
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: to, Env: env, Detail: "process not running (connection reset)"})
		if _, isReset := env.Msg.(*Disconnected); !isReset {
			w.send(env.To, env.From, &Disconnected{Peer: env.To, Request: env.Msg})
		}
	default:
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: to, Env: env, Detail: "host down"})
	}
	return nil
}

// handle runs the handler handed over to pr (on pr's goroutine). A panic
// in a handler becomes the world's error (with the stack), never a crash.
// A process that ended itself stops at once.
func (w *World) handle(pr *proc) {
	h := w.sched.handed
	w.sched.handed = handed{}
	w.running = pr
	w.call(pr, h)
	w.running = nil
	if pr.exiter != nil && pr.state == ProcRunning && w.err == nil && pr.exiter.Exited() {
		_ = w.Exit(pr.host)
	}
}

func (w *World) call(pr *proc, h handed) {
	defer func() {
		if r := recover(); r != nil {
			w.err = fmt.Errorf("sim: %s at %s panicked: %v\n%s", pr.host, w.now, r, debug.Stack())
		}
	}()
	switch h.kind {
	case evStart:
		pr.p.Start(pr.env)
	case evTimer:
		h.timer.fn(pr.env)
	case evDeliver:
		pr.p.Receive(pr.env, h.env)
	}
}

// Step processes the next event. It returns false when there is nothing left
// to do or the run has failed.
func (w *World) Step() bool {
	if w.err != nil || w.queue.len() == 0 {
		return false
	}
	w.runJob(runJob{limit: math.MaxInt64, maxSteps: 1})
	return w.err == nil
}

// RunUntil processes every event up to and including time t, then sets the
// clock to t. It stops early (returning the error) if the run fails.
func (w *World) RunUntil(t Time) error {
	w.runJob(runJob{limit: t, maxSteps: -1})
	if w.err != nil {
		return w.err
	}
	if t > w.now {
		w.now = t
	}
	return nil
}

// RunUntilBudget is RunUntil that processes at most maxSteps events. It
// reports whether it reached t (false: the budget ran out first and the
// clock stands at the last event processed).
func (w *World) RunUntilBudget(t Time, maxSteps int) (bool, error) {
	w.runJob(runJob{limit: t, maxSteps: max(maxSteps, 0)})
	if w.err != nil {
		return false, w.err
	}
	if w.queue.len() > 0 && w.queue.peek().at <= t {
		return false, nil // the budget ran out
	}
	if t > w.now {
		w.now = t
	}
	return true, nil
}

// Handoffs is how many times the scheduler has handed the baton from one
// goroutine to another (a goroutine switch); the driver's getting it back
// at the end of a run is not counted.
func (w *World) Handoffs() uint64 { return w.sched.handoffs }

// RunFor advances the clock by d, processing every event on the way.
func (w *World) RunFor(d time.Duration) error { return w.RunUntil(w.now.Add(d)) }

// RunWhile steps while cond holds, up to virtual time limit. It returns
// whether cond became false; if the limit is reached first the clock stands
// at limit.
func (w *World) RunWhile(cond func() bool, limit Time) (bool, error) {
	w.runJob(runJob{limit: limit, maxSteps: -1, cond: cond})
	if w.sched.job.condFalse {
		return true, w.err
	}
	if w.err != nil {
		return false, w.err
	}
	if limit > w.now {
		w.now = limit
	}
	return !cond(), nil
}
