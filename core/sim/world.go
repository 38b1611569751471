package sim

import (
	"errors"
	"fmt"
	"iter"
	"sort"
	"time"
)

// Process is a state machine that runs as one host. All of its methods run on
// the process's own goroutine, one event at a time.
type Process interface {
	// Start is called once when the process starts (or restarts).
	Start(env *Env)
	// Receive handles one delivered message.
	Receive(env *Env, e *Envelope)
}

// Exiter is implemented by processes that can end themselves: after any of
// its handlers, a process whose Exited reports true stops (as if its main
// returned), at that exact virtual time.
type Exiter interface {
	Exited() bool
}

// ProcState is the life state of a host.
type ProcState uint8

const (
	ProcRunning  ProcState = iota + 1
	ProcDead               // the process exited or was killed; the host is up and answers with resets
	ProcHostDown           // the machine is off (power loss): nothing answers
)

type proc struct {
	host        string
	p           Process
	exiter      Exiter // p, if it can end itself
	state       ProcState
	incarnation uint64
	env         *Env
	ports       int // ephemeral ports handed out (EphemeralPort)
	// resume runs the process's coroutine until it yields; stop ends it
	// (scheduler.go). active: the coroutine is running now, so it must
	// end itself rather than be stopped.
	resume func()
	stop   func()
	active bool
}

// start makes pr's coroutine. Its goroutine exists from now on, suspended
// until the first resume, which hands it its start event.
func (w *World) start(pr *proc) {
	next, stop := iter.Pull(w.body(pr))
	pr.resume = func() { next() }
	pr.stop = stop
}

// end stops pr's coroutine unless it is the one running (a process that
// ended itself: its coroutine returns when its handler does).
func (pr *proc) end() {
	if !pr.active {
		pr.stop()
	}
}

// Limits that keep a run bounded. Hitting one is an error, never a hang.
const (
	MaxQueuedEvents = 1 << 20
	MaxProcesses    = 4096
)

// World is one simulation run. It is driven from a single goroutine (the
// driver: the console, the UI, a test); process handlers run on their own
// goroutines in lockstep with it.
type World struct {
	seed    uint64
	now     Time
	seq     uint64
	queue   eventQueue
	procs   map[string]*proc
	net     *Network
	trace   *Trace
	stepped uint64
	err     error
	// running is the process whose handler is executing, nil between events.
	running *proc
	// sched is the scheduler's state: the run in progress, the event
	// handed over with control, the process to run next (scheduler.go).
	sched scheduler
	// noteHook, if set, sees every Note as it is made.
	noteHook func(TraceEvent)
	// clockHook, if set, is told each time the clock moves forward
	// (setNow), before anything happens at the new time.
	clockHook func(from, to Time)
	// conns are the connections messages have opened: a delivery from A to
	// a running process at B opens (A, B). When B's process dies (not its
	// host), the operating system resets them: A learns at once, as a TCP
	// peer does, instead of waiting for its request timeout.
	conns map[conn]bool
	// streams counts the Rand streams handed out per name (see Rand).
	streams map[string]int
	// closed: Close has ended every process goroutine.
	closed bool
	// leaper, if set, is offered spans to leap (leap.go); the scheduler
	// offers none while the next event is due at or before leapRetry.
	leaper    Leaper
	leapRetry Time
	leaps     uint64
	leapMin   time.Duration // SetLeapMinSpan
	// capturing: a LeapRun is under way, and what it queues is held in
	// captured (with captureRank) until the leap ends.
	capturing   bool
	capturePath PushPath
	captureRank int
	captured    []capturedEvent
}

// conn is a connection from a sender's address to a receiver's.
type conn struct{ from, to Addr }

// NewWorld makes an empty world whose randomness derives from seed.
func NewWorld(seed uint64) *World {
	return &World{
		seed:    seed,
		conns:   map[conn]bool{},
		streams: map[string]int{},
		procs:   map[string]*proc{},
		sched:   scheduler{},
		net:     newNetwork(),
		trace:   newTrace(DefaultTraceLimit),
	}
}

// Seed is the run's seed.
func (w *World) Seed() uint64 { return w.seed }

// Now is the current virtual time.
func (w *World) Now() Time { return w.now }

// Net gives access to the network's cuts and delays.
func (w *World) Net() *Network { return w.net }

// Trace is the run's event trace.
func (w *World) Trace() *Trace { return w.trace }

// Steps is how many events have been processed, counting a leap as the
// events' worth of work it did (leap.go): drivers pace frames by it.
func (w *World) Steps() uint64 { return w.stepped }

// Pending is how many events are queued.
func (w *World) Pending() int { return w.queue.len() }

// Err is the first fatal error of the run (a handler panicked or a limit was
// hit). Once set, the world does not step any more.
func (w *World) Err() error { return w.err }

// Rand derives a PRNG stream of this run's seed. The first stream of a
// name is NewRand(seed, name); asking again for the same name (a restarted
// controller, a broker's coordinator coming back) gives the next stream,
// "name#2", "name#3"..., never the first one again. A process that asks
// for its stream when it starts would otherwise replay its previous life's
// draws after a restart: the same topic ids, the same member ids, where
// Kafka draws fresh random UUIDs. Invariant: no two Rand calls of one world
// share a stream, and the n-th call for a name is the same in every run.
func (w *World) Rand(name string) *Rand {
	w.streams[name]++
	if n := w.streams[name]; n > 1 {
		return NewRand(w.seed, fmt.Sprintf("%s#%d", name, n))
	}
	return NewRand(w.seed, name)
}

// NextEventAt is the time of the next queued event, if any.
func (w *World) NextEventAt() (Time, bool) {
	if w.queue.len() == 0 {
		return 0, false
	}
	return w.queue.peek().at, true
}

// InFlight lists the messages on the wire now, in delivery order.
func (w *World) InFlight() []*Envelope {
	var out []*Envelope
	w.queue.each(func(e *event) {
		if e.kind == evDeliver {
			out = append(out, e.env)
		}
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].DeliverAt != out[j].DeliverAt {
			return out[i].DeliverAt < out[j].DeliverAt
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// State returns the life state of host, and false if it was never spawned.
func (w *World) State(host string) (ProcState, bool) {
	p, ok := w.procs[host]
	if !ok {
		return 0, false
	}
	return p.state, true
}

// Process returns the running process object of host, or nil. The driver may
// read its state between steps.
func (w *World) Process(host string) Process {
	if p, ok := w.procs[host]; ok && p.state == ProcRunning {
		return p.p
	}
	return nil
}

// Hosts lists every host ever spawned, sorted.
func (w *World) Hosts() []string {
	out := make([]string, 0, len(w.procs))
	for h := range w.procs {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// Spawn starts p as host. A host that is running must be killed first.
func (w *World) Spawn(host string, p Process) error {
	if w.closed {
		return ErrClosed
	}
	old, exists := w.procs[host]
	if exists && old.state == ProcRunning {
		return fmt.Errorf("sim: host %s is already running", host)
	}
	if !exists && len(w.procs) >= MaxProcesses {
		return fmt.Errorf("sim: too many processes (limit %d)", MaxProcesses)
	}
	pr := &proc{host: host, p: p, state: ProcRunning}
	pr.exiter, _ = p.(Exiter)
	if exists {
		pr.incarnation = old.incarnation + 1
		// The operating system does not hand a new process the ports of
		// the one that just died (their connections were reset, and
		// TIME_WAIT holds them): an answer still on its way to one of
		// them must not reach the new process as if it were its own.
		pr.ports = old.ports
	}
	pr.env = &Env{w: w, pr: pr}
	w.procs[host] = pr
	w.start(pr)
	e := w.queue.alloc()
	e.at, e.kind, e.proc, e.inc = w.now, evStart, pr, pr.incarnation
	w.push(e)
	return nil
}

// ErrClosed is the error of a world after Close.
var ErrClosed = errors.New("sim: the world was closed")

// Close ends the world: the goroutine of every running process exits, and
// the world takes no step or change any more (Err is ErrClosed unless it
// had failed before). Its state stays readable. A world no one will run
// again must be closed, or its goroutines keep it, and all it references,
// in memory for good (a 2000-seed sweep grew to 24 GB without it).
func (w *World) Close() {
	if w.closed {
		return
	}
	w.closed = true
	for _, host := range w.Hosts() {
		if pr := w.procs[host]; pr.state == ProcRunning {
			pr.end()
		}
	}
	if w.err == nil {
		w.err = ErrClosed
	}
}

// Kill stops host's process at once, as a crash does: no handler runs, its
// timers never fire and messages to it are lost. With powerOff the machine is
// off as well, so nothing answers at all.
func (w *World) Kill(host string, powerOff bool) error {
	if w.closed {
		return ErrClosed
	}
	pr, ok := w.procs[host]
	if !ok {
		return fmt.Errorf("sim: unknown host %s", host)
	}
	if pr.state != ProcRunning {
		if powerOff {
			pr.state = ProcHostDown
		}
		return nil
	}
	detail := "killed"
	pr.state = ProcDead
	if powerOff {
		pr.state = ProcHostDown
		detail = "power loss"
	}
	pr.end()
	w.trace.add(TraceEvent{At: w.now, Kind: TraceStop, Host: host, Detail: detail})
	w.closeConns(host, !powerOff)
	return nil
}

// Exit is Kill for a process that stops by itself (from the driver, after the
// process asked to): the host stays up.
func (w *World) Exit(host string) error {
	if w.closed {
		return ErrClosed
	}
	pr, ok := w.procs[host]
	if !ok || pr.state != ProcRunning {
		return nil
	}
	pr.state = ProcDead
	pr.end()
	w.trace.add(TraceEvent{At: w.now, Kind: TraceStop, Host: host, Detail: "exited"})
	w.closeConns(host, true)
	return nil
}

// closeConns forgets every connection of host's process. With reset (the
// process died but its host is up), each peer that had sent it messages
// gets a Disconnected from the operating system, across the network (a cut
// link loses it, as it would a TCP reset).
func (w *World) closeConns(host string, reset bool) {
	var peers []conn
	for c := range w.conns {
		if c.from.Host() == host || c.to.Host() == host {
			delete(w.conns, c)
			if reset && c.to.Host() == host && c.from.Host() != host {
				peers = append(peers, c)
			}
		}
	}
	sort.Slice(peers, func(i, j int) bool {
		if peers[i].from != peers[j].from {
			return peers[i].from < peers[j].from
		}
		return peers[i].to < peers[j].to
	})
	for _, c := range peers {
		w.send(c.to, c.from, &Disconnected{Peer: c.to})
	}
}

func (w *World) push(e *event) {
	e.pushed = w.now
	if w.capturing {
		w.captured = append(w.captured, capturedEvent{e: e, path: w.capturePath, rank: w.captureRank})
		w.captureRank++
		return
	}
	w.pushNow(e)
}

// pushNow queues e with the next sequence number (a message takes it as
// its ID).
func (w *World) pushNow(e *event) {
	if w.err != nil {
		w.queue.recycle(e)
		return
	}
	if w.queue.len() >= MaxQueuedEvents {
		w.err = fmt.Errorf("sim: event queue limit reached (%d events)", MaxQueuedEvents)
		w.queue.recycle(e)
		return
	}
	w.seq++
	e.seq = w.seq
	if e.kind == evDeliver {
		e.env.ID = e.seq
	}
	w.queue.push(e)
}

func (w *World) send(from, to Addr, m Message) *Envelope {
	env := &Envelope{From: from, To: to, Msg: m, SentAt: w.now}
	fh, th := from.Host(), to.Host()
	if w.net.IsCut(fh, th) {
		w.seq++
		env.ID = w.seq
		env.DeliverAt = w.now
		env.Dropped = true
		w.trace.add(TraceEvent{At: w.now, Kind: TraceDrop, Host: th, Env: env, Detail: "network cut"})
		return env
	}
	env.Msg = w.net.maybeCorrupt(th, m)
	env.DeliverAt = w.net.deliveryTime(w.now, fh, th)
	ev := w.queue.alloc()
	ev.at, ev.kind, ev.env = env.DeliverAt, evDeliver, env
	w.push(ev)
	env.ID = ev.seq
	return env
}

// Env is a process's handle on the world, valid only inside its handlers.
type Env struct {
	w  *World
	pr *proc
}

// Now is the current virtual time.
func (e *Env) Now() Time { return e.w.now }

// Host is the name of this process's host.
func (e *Env) Host() string { return e.pr.host }

// Send puts m on the network from this host. from must be an address of this
// host (its port names the sending component).
func (e *Env) Send(from, to Addr, m Message) *Envelope {
	e.assertRunning()
	if from.Host() != e.pr.host {
		panic(fmt.Sprintf("sim: %s sent from foreign address %s", e.pr.host, from))
	}
	return e.w.send(from, to, m)
}

// Rand derives a PRNG stream of the run's seed.
func (e *Env) Rand(name string) *Rand { return e.w.Rand(name) }

// FirstEphemeralPort is where EphemeralPort starts: the start of Linux's
// default net.ipv4.ip_local_port_range.
const FirstEphemeralPort = 32768

// EphemeralPort is a new address of this host for an outgoing connection,
// as the operating system gives each new socket an unused local port. A
// peer tells connections apart by it (a broker mutes one connection while
// its request is in purgatory; a new connection from the same client is
// not behind it). Ports count up per process incarnation, so runs stay
// deterministic.
func (e *Env) EphemeralPort() Addr {
	port := FirstEphemeralPort + e.pr.ports
	e.pr.ports++
	return Addr(fmt.Sprintf("%s:%d", e.pr.host, port))
}

// Note records what the process just did (see Note): the trace keeps and
// hashes it, and the note hook (SetNoteHook) sees it at once.
func (e *Env) Note(n Note) {
	ev := TraceEvent{At: e.w.now, Kind: TraceNote, Host: e.pr.host, Detail: n.Key(), Note: n}
	e.w.trace.add(ev)
	if e.w.noteHook != nil {
		e.w.noteHook(ev)
	}
}

// SetNoteHook registers fn to see every Note as it is made (in the process
// that makes it, under the lockstep, so fn needs no locking). It lets the
// harness keep measurements that the bounded trace cannot: fn must not
// change the simulation.
func (w *World) SetNoteHook(fn func(TraceEvent)) { w.noteHook = fn }

// SetClockHook calls fn(from, to) whenever the clock moves forward from
// from to to, before any event at to runs: through [from, to) the world
// stood as fn sees it (a leap's span too, but for the idle loops it moved
// in closed form). fn must change nothing; the page's metric plots sample
// the world there without adding events to it.
func (w *World) SetClockHook(fn func(from, to Time)) { w.clockHook = fn }

// setNow moves the clock forward to t (never back), telling the clock
// hook first.
func (w *World) setNow(t Time) {
	if t <= w.now {
		return
	}
	if w.clockHook != nil {
		w.clockHook(w.now, t)
	}
	w.now = t
}

// Field returns a note's field value in text ("" if absent), as NoteFields
// renders it: for tests and tools that print; code that decides reads the
// note's own type.
func (e TraceEvent) Field(name string) string {
	f := NoteFields(e.Note)
	for i := 0; i+1 < len(f); i += 2 {
		if f[i] == name {
			return f[i+1]
		}
	}
	return ""
}

// Timer is a pending callback in a process.
type Timer struct {
	name    string
	task    Task
	at      Time
	stopped bool
	fired   bool
	// ev is the queued event that fires the timer, while it is queued
	// (see Stop).
	ev *event
}

// Task is what a timer runs when it fires. After takes a function; Arm
// takes an object that is its own handler and holds its Timer by value,
// so a timer per request (an RPC's timeout, a parked fetch's expiry) costs
// no allocation besides the request's own state: in WebAssembly the
// collector runs on the page's only thread, and the Timer and its closure
// were a tenth of an idle cluster's allocations.
type Task interface{ Fire(env *Env) }

// funcTask runs a function as a Task (a func is pointer-shaped: making it
// an interface allocates nothing).
type funcTask func(env *Env)

func (f funcTask) Fire(env *Env) { f(env) }

// Stop cancels the timer; it is safe to call more than once, or after it
// fired. It reports whether the call stopped a pending timer.
//
// A stopped timer's event stays queued until its time or until the queue
// compacts (finding it in the heap would cost every event a position to
// keep up to date: see eventQueue.compact), but it lets go of the timer at
// once: a request's timeout (30 s) is stopped when
// the answer comes, and the queue held each stopped timer, with the call
// around it and all the call's callback captured (a producer's batches and
// their records), until the timeout's time. A perf test of 100,000 records
// kept 25 MB alive that way.
func (t *Timer) Stop() bool {
	if t == nil || t.stopped || t.fired {
		return false
	}
	t.stopped = true
	if t.ev != nil && t.ev.timer == t {
		t.ev.timer = nil
	}
	t.ev = nil
	return true
}

// Pending reports whether the timer will still fire.
func (t *Timer) Pending() bool { return t != nil && !t.stopped && !t.fired }

// At is when the timer fires (or fired).
func (t *Timer) At() Time { return t.at }

// Name is what the timer was armed as (the trace's name for it).
func (t *Timer) Name() string { return t.name }

// Task is what the timer runs (a leap re-arms a periodic task's timer with
// its own task).
func (t *Timer) Task() Task { return t.task }

// After schedules fn to run in this process after d. The timer dies with the
// process incarnation that set it.
func (e *Env) After(d time.Duration, name string, fn func(env *Env)) *Timer {
	t := &Timer{}
	e.Arm(t, d, name, funcTask(fn))
	return t
}

// Arm schedules task to run in this process after d, as After does, with
// the caller's t as its timer: t is a field of the object task belongs to.
// t must be a zero Timer (a Timer is armed once: the queue keeps a pointer
// to it until it is due, so re-arming would make the old event fire it).
func (e *Env) Arm(t *Timer, d time.Duration, name string, task Task) {
	e.assertRunning()
	if d < 0 {
		d = 0
	}
	e.w.arm(e.pr, t, e.w.now.Add(d), name, task)
}

func (e *Env) assertRunning() {
	if e.w.running != e.pr {
		panic(fmt.Sprintf("sim: %s used its Env outside its own handler", e.pr.host))
	}
}

// Call schedules fn to run inside host's process at the current time, after
// the events already due now. It is how the driver (a user action) asks a
// process to do something, without breaking the lockstep order.
func (w *World) Call(host, name string, fn func(env *Env)) error {
	pr, ok := w.procs[host]
	if !ok || pr.state != ProcRunning {
		return fmt.Errorf("sim: host %s is not running", host)
	}
	t := &Timer{name: name, task: funcTask(fn), at: w.now}
	ev := w.queue.alloc()
	ev.at, ev.kind, ev.proc, ev.inc, ev.timer = w.now, evTimer, pr, pr.incarnation, t
	t.ev = ev
	w.push(ev)
	return nil
}
