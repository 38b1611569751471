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
// Each process goroutine is a coroutine (iter.Pull): it runs only when
// resumed, and hands control straight back when it yields, without the Go
// scheduler in between. The driver resumes the process that owns the next
// event, with that event handed over; the process handles it, then goes on
// popping events while they are its own, so a process runs every
// consecutive event of its own without a switch. When the next event
// belongs to another process it yields, naming that process, and the driver
// resumes it. A change of process costs two coroutine switches (to the
// driver and out), each a direct handoff of the thread without the Go
// scheduler. The goroutines used to pass a baton over channels instead:
// one switch, but through the scheduler, which natively also woke an idle
// thread that found nothing to do (issue 15's profile: a fifth of an idle
// cluster's time in futex, findRunnable and stopm). BenchmarkHandoff went
// from 484 to 205 ns an event; a bare two-goroutine ping-pong costs 120 ns
// a switch over channels and 28 ns as coroutines natively, 570 and 85 ns
// in WebAssembly under Node.
//
// Exactly one goroutine runs at a time (a coroutine switch orders every
// access to the world and to process state, for the race detector as for
// the memory model): handlers, the run's stop condition and note hooks all
// run in that order.
type scheduler struct {
	job runJob
	// handed is the event handed over with control, for the receiving
	// process to handle first.
	handed handed
	// next is the process a yielding coroutine named: the owner of the
	// event it popped and handed over (nil: the job stopped).
	next *proc
	// condPanic is a panic of the run's stop condition on a process
	// goroutine, raised again on the driver's.
	condPanic any
	condStack []byte
	// handoffs counts the times the driver resumed a process.
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

// handed is what a process must run first when it is resumed.
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

// runJob runs the scheduler from the driver until the job stops: it
// resumes each process whose event comes next, until none does.
func (w *World) runJob(j runJob) {
	w.sched.job = j
	for pr := w.dispatch(nil); pr != nil; pr = w.dispatch(nil) {
		for pr != nil {
			w.resume(pr)
			pr, w.sched.next = w.sched.next, nil
		}
	}
	if p := w.sched.condPanic; p != nil {
		stack := w.sched.condStack
		w.sched.condPanic, w.sched.condStack = nil, nil
		panic(fmt.Sprintf("%v\n(raised by a run condition on a process goroutine)\n%s", p, stack))
	}
}

// dispatch pops events while the job goes on: it runs those of self (nil:
// the driver, which owns none) on this goroutine, and returns the first
// process that must run elsewhere, with its event handed over, or nil once
// the job stops.
func (w *World) dispatch(self *proc) *proc {
	for w.due() {
		if w.leaper != nil && w.queue.peek().at > w.leapRetry && w.leapable() && w.mayLeap() {
			w.tryLeap()
			if !w.due() {
				break
			}
		}
		e := w.queue.pop()
		w.setNow(e.at)
		w.stepped++
		w.sched.job.ran++
		pr := w.prepare(e)
		w.queue.recycle(e)
		if pr == nil {
			continue
		}
		if pr != self {
			return pr
		}
		w.handle(pr)
		if pr.state != ProcRunning {
			return nil // it ended itself: prepare gives it no more events
		}
	}
	return nil
}

// resume runs pr's coroutine until it yields or ends: it handles the event
// handed over, and every next one of its own.
func (w *World) resume(pr *proc) {
	w.sched.handoffs++
	pr.active = true
	pr.resume()
	pr.active = false
}

// body is a process's coroutine: each time it is resumed it handles the
// event handed over, then runs the scheduler while the events are its own,
// and yields the next process to run (sched.next). It ends when its process
// stops: killed while suspended (the yield reports false), or ended by its
// own handler.
func (w *World) body(pr *proc) func(yield func(struct{}) bool) {
	return func(yield func(struct{}) bool) {
		for {
			w.handle(pr)
			if pr.state == ProcRunning {
				w.sched.next = w.dispatch(pr)
			}
			if pr.state != ProcRunning || !yield(struct{}{}) {
				return
			}
		}
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
		if t == nil || t.stopped || e.proc.state != ProcRunning || e.proc.incarnation != e.inc {
			return nil // stopped (Stop let go of it), or its process is gone
		}
		t.fired, t.ev = true, nil
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
	cut := w.net.IsCut(from, to)
	switch {
	case env.stream != nil:
		if !env.stream.arrive(env, cut) {
			w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: to, Env: env, Detail: "network cut (TCP retransmits it)"})
			return nil
		}
	case env.Dropped:
		return nil // a Stream sent it again
	case cut:
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
		h.timer.task.Fire(pr.env)
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
	w.setNow(t)
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
	w.setNow(t)
	return true, nil
}

// Handoffs is how many times the driver resumed a process: each is a
// switch to the process's goroutine and one back.
func (w *World) Handoffs() uint64 { return w.sched.handoffs }

// RunFor advances the clock by d, processing every event on the way.
func (w *World) RunFor(d time.Duration) error { return w.RunUntil(w.now.Add(d)) }

// RunWhile steps while cond holds, up to virtual time limit. It returns
// whether cond became false; if the limit is reached first the clock stands
// at limit.
func (w *World) RunWhile(cond func() bool, limit Time) (bool, error) {
	return w.RunWhileBudget(cond, limit, -1)
}

// RunWhileBudget is RunWhile that runs at most maxSteps events' worth of
// work (a leap's counted as World.Steps counts it; <0: no bound). When the
// budget runs out first the clock stands at the last event run.
func (w *World) RunWhileBudget(cond func() bool, limit Time, maxSteps int) (bool, error) {
	w.runJob(runJob{limit: limit, maxSteps: maxSteps, cond: cond})
	if maxSteps >= 0 && w.sched.job.ran >= maxSteps && !w.sched.job.condFalse {
		return !cond(), w.err
	}
	if w.sched.job.condFalse {
		return true, w.err
	}
	if w.err != nil {
		return false, w.err
	}
	w.setNow(limit)
	return !cond(), nil
}
