package sim

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// pinger sends a numbered ping to its peer every so often with a random
// extra delay; the peer answers each. Used to check determinism.
type pinger struct {
	self, peer Addr
	rnd        *Rand
	got        []string
	sent       int
}

type ping struct{ N int }

func (*ping) Kind() string { return "Ping" }

type pong struct{ N int }

func (*pong) Kind() string { return "Pong" }

func (p *pinger) Start(env *Env) {
	p.rnd = env.Rand("pinger/" + string(p.self))
	p.tick(env)
}

func (p *pinger) tick(env *Env) {
	if p.sent >= 50 {
		return
	}
	p.sent++
	env.Send(p.self, p.peer, &ping{N: p.sent})
	env.After(time.Duration(1+p.rnd.Intn(5))*time.Millisecond, "tick", p.tick)
}

func (p *pinger) Receive(env *Env, e *Envelope) {
	switch m := e.Msg.(type) {
	case *ping:
		env.Send(p.self, e.From, &pong{N: m.N})
	case *pong:
		p.got = append(p.got, fmt.Sprintf("%s:%d@%s", e.From, m.N, env.Now()))
	case *Disconnected:
		p.got = append(p.got, "reset:"+string(m.Peer))
	}
}

func runPing(t *testing.T, seed uint64) (*World, *pinger, *pinger) {
	t.Helper()
	w := NewWorld(seed)
	a := &pinger{self: "a:1", peer: "b:1"}
	b := &pinger{self: "b:1", peer: "a:1"}
	if err := w.Spawn("a", a); err != nil {
		t.Fatal(err)
	}
	if err := w.Spawn("b", b); err != nil {
		t.Fatal(err)
	}
	w.Net().SetDelay("b", 3*time.Millisecond)
	if err := w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	return w, a, b
}

func TestSameSeedSameTrace(t *testing.T) {
	w1, a1, _ := runPing(t, 7)
	w2, a2, _ := runPing(t, 7)
	if w1.Trace().Hash() != w2.Trace().Hash() || w1.Trace().Count() != w2.Trace().Count() {
		t.Fatalf("same seed gave different traces: %x/%d vs %x/%d", w1.Trace().Hash(), w1.Trace().Count(), w2.Trace().Hash(), w2.Trace().Count())
	}
	if strings.Join(a1.got, ",") != strings.Join(a2.got, ",") {
		t.Fatal("same seed gave different process state")
	}
	w3, _, _ := runPing(t, 8)
	if w3.Trace().Hash() == w1.Trace().Hash() {
		t.Fatal("different seeds gave the same trace; the seed is not used")
	}
	if len(a1.got) != 50 {
		t.Fatalf("a got %d pongs, want 50", len(a1.got))
	}
}

func TestLinkIsFIFOWhenDelayShrinks(t *testing.T) {
	w := NewWorld(1)
	var order []int
	recv := &funcProc{recv: func(env *Env, e *Envelope) { order = append(order, e.Msg.(*ping).N) }}
	send := &funcProc{}
	w.Spawn("r", recv)
	w.Spawn("s", send)
	w.RunFor(0)
	w.Net().SetDelay("s", 10*time.Millisecond)
	w.Call("s", "send1", func(env *Env) { env.Send("s:1", "r:1", &ping{N: 1}) })
	w.RunFor(0)
	w.Net().SetDelay("s", 0)
	w.Call("s", "send2", func(env *Env) { env.Send("s:1", "r:1", &ping{N: 2}) })
	w.RunFor(time.Second)
	if fmt.Sprint(order) != "[1 2]" {
		t.Fatalf("order %v, want [1 2]", order)
	}
}

func TestCutDropsAndIsTraced(t *testing.T) {
	w, a, _ := func() (*World, *pinger, *pinger) {
		w := NewWorld(3)
		a := &pinger{self: "a:1", peer: "b:1"}
		b := &pinger{self: "b:1", peer: "a:1"}
		w.Spawn("a", a)
		w.Spawn("b", b)
		w.Net().Cut("b", "a") // one way: pings arrive, pongs are lost
		w.RunFor(time.Second)
		return w, a, b
	}()
	if len(a.got) != 0 {
		t.Fatalf("a received %d pongs through a cut link", len(a.got))
	}
	drops := 0
	for _, e := range w.Trace().Recent(0) {
		if e.Kind == TraceDrop && e.Detail == "network cut" && e.Env.Msg.Kind() == "Pong" {
			drops++
		}
	}
	if drops != 50 {
		t.Fatalf("traced %d dropped pongs, want 50", drops)
	}
}

func TestKilledProcessResetsAndStopsTimers(t *testing.T) {
	w := NewWorld(1)
	a := &pinger{self: "a:1", peer: "b:1"}
	b := &pinger{self: "b:1", peer: "a:1"}
	w.Spawn("a", a)
	w.Spawn("b", b)
	w.RunFor(0)
	w.Kill("b", false)
	w.RunFor(time.Second)
	resets := 0
	for _, g := range a.got {
		if g == "reset:b:1" {
			resets++
		}
	}
	if resets == 0 {
		t.Fatal("a got no connection resets from a killed process")
	}
	if b.sent != 1 {
		t.Fatalf("killed b kept running timers: sent %d", b.sent)
	}
	// A powered-off host answers nothing.
	w2 := NewWorld(1)
	a2 := &pinger{self: "a:1", peer: "b:1"}
	w2.Spawn("a", a2)
	w2.Spawn("b", &pinger{self: "b:1", peer: "a:1"})
	w2.RunFor(0)
	w2.Kill("b", true)
	w2.RunFor(time.Second)
	if len(a2.got) != 0 {
		t.Fatalf("a powered-off host answered: %v", a2.got)
	}
	// Restart: a new incarnation runs again.
	b3 := &pinger{self: "b:1", peer: "a:1"}
	if err := w2.Spawn("b", b3); err != nil {
		t.Fatal(err)
	}
	w2.RunFor(time.Second)
	if b3.sent != 50 {
		t.Fatalf("restarted process sent %d, want 50", b3.sent)
	}
}

func TestHandlerPanicBecomesError(t *testing.T) {
	w := NewWorld(1)
	w.Spawn("x", &funcProc{start: func(env *Env) { panic("boom") }})
	if err := w.RunFor(time.Millisecond); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the panic", err)
	}
	if w.Step() {
		t.Fatal("a failed world kept stepping")
	}
}

func TestRunWhileStopsAtLimit(t *testing.T) {
	w, _, _ := runPing(t, 1)
	start := w.Now()
	done, err := w.RunWhile(func() bool { return true }, start.Add(5*time.Second))
	if err != nil || done {
		t.Fatalf("RunWhile = %v, %v; want false, nil", done, err)
	}
	if w.Now() != start.Add(5*time.Second) {
		t.Fatalf("clock at %s, want the limit", w.Now())
	}
}

func TestParseAndFormatDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"500ms": 500 * time.Millisecond, "30s": 30 * time.Second, "7d": 7 * 24 * time.Hour,
		"1d12h": 36 * time.Hour, "1500": 1500 * time.Millisecond, "1.5s": 1500 * time.Millisecond,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "abc", "-1s", "5x", "-3"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", bad)
		}
	}
	for d, want := range map[time.Duration]string{0: "0s", 1500 * time.Millisecond: "1.5s", 7 * 24 * time.Hour: "7d", 90 * time.Second: "1m30s", 3 * time.Millisecond: "3ms"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestRandStreamsAreIndependentAndStable(t *testing.T) {
	a := NewRand(1, "x")
	b := NewRand(1, "x")
	c := NewRand(1, "y")
	same := true
	for i := 0; i < 10; i++ {
		va, vb, vc := a.Uint64(), b.Uint64(), c.Uint64()
		if va != vb {
			t.Fatal("same stream diverged")
		}
		if va != vc {
			same = false
		}
	}
	if same {
		t.Fatal("different streams gave the same numbers")
	}
	r := NewRand(9, "intn")
	counts := make([]int, 3)
	for i := 0; i < 3000; i++ {
		counts[r.Intn(3)]++
	}
	for _, n := range counts {
		if n < 850 || n > 1150 {
			t.Fatalf("Intn(3) is not uniform: %v", counts)
		}
	}
}

type funcProc struct {
	start func(env *Env)
	recv  func(env *Env, e *Envelope)
}

func (f *funcProc) Start(env *Env) {
	if f.start != nil {
		f.start(env)
	}
}
func (f *funcProc) Receive(env *Env, e *Envelope) {
	if f.recv != nil {
		f.recv(env, e)
	}
}

// sink receives and never answers: like a broker holding a long-poll.
type sink struct{ got int }

func (*sink) Start(*Env)                {}
func (s *sink) Receive(*Env, *Envelope) { s.got++ }

// asker sends one message and records what comes back.
type asker struct {
	self, peer Addr
	got        []string
}

func (a *asker) Start(env *Env) { env.Send(a.self, a.peer, &ping{N: 1}) }
func (a *asker) Receive(env *Env, e *Envelope) {
	if d, ok := e.Msg.(*Disconnected); ok {
		a.got = append(a.got, fmt.Sprintf("reset:%s@%s", d.Peer, env.Now()))
	}
}

// A request the peer already received (and holds) is reset when the peer's
// process dies, one link latency later, as a TCP peer learns of the crash;
// a power loss, a cut link or a dead sender leaves no reset.
func TestDeathResetsOpenConnections(t *testing.T) {
	run := func(kill func(w *World)) []string {
		w := NewWorld(1)
		a := &asker{self: "a:1", peer: "b:1"}
		w.Spawn("b", &sink{})
		w.Spawn("a", a)
		w.RunFor(10 * time.Millisecond) // the ping is delivered and held
		kill(w)
		w.RunFor(time.Second)
		return a.got
	}
	if got := run(func(w *World) { w.Kill("b", false) }); len(got) != 1 || got[0] != "reset:b:1@T+11ms" {
		t.Fatalf("after the holder was killed the sender got %v, want one reset one latency later", got)
	}
	if got := run(func(w *World) { w.Exit("b") }); len(got) != 1 {
		t.Fatalf("after the holder exited the sender got %v, want one reset", got)
	}
	if got := run(func(w *World) { w.Kill("b", true) }); len(got) != 0 {
		t.Fatalf("a powered-off host reset connections: %v", got)
	}
	if got := run(func(w *World) { w.Net().Cut("b", "a"); w.Kill("b", false) }); len(got) != 0 {
		t.Fatalf("a reset crossed a cut link: %v", got)
	}
}

// A name asked for again (a process restarting and drawing its stream
// anew) gets a fresh stream, never its first one: a restarted controller
// that replayed its first stream created a topic under another topic's id.
// The first stream of a name stays NewRand(seed, name), and a second world
// of the same seed hands out the same sequence.
func TestWorldRandRepeatedNameGivesFreshStreams(t *testing.T) {
	draw := func(w *World) []uint64 {
		var out []uint64
		for range 3 {
			out = append(out, w.Rand("controller-1/ids").Uint64())
		}
		return out
	}
	a, b := draw(NewWorld(7)), draw(NewWorld(7))
	if !slices.Equal(a, b) {
		t.Fatalf("same seed, different streams: %v vs %v", a, b)
	}
	if first := NewRand(7, "controller-1/ids").Uint64(); a[0] != first {
		t.Fatalf("first stream %d, want NewRand's %d", a[0], first)
	}
	if a[0] == a[1] || a[1] == a[2] || a[0] == a[2] {
		t.Fatalf("a repeated name replayed a stream: %v", a)
	}
}

// Close ends every process goroutine (a closed world holds no goroutine,
// so it can be collected), stops the world, and refuses changes; its state
// stays readable.
func TestCloseEndsTheGoroutines(t *testing.T) {
	w := NewWorld(1)
	for i := range 20 {
		if err := w.Spawn(fmt.Sprintf("h%d", i), &sink{}); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	with := runtime.NumGoroutine() // other tests' goroutines may end meanwhile: only ever fewer
	w.Close()
	w.Close() // idempotent
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > with-20 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > with-20 {
		t.Fatalf("%d goroutines after Close, %d with the 20 processes running", n, with)
	}
	if w.Step() || !errors.Is(w.Err(), ErrClosed) || !errors.Is(w.Kill("h1", false), ErrClosed) || !errors.Is(w.Spawn("new", &sink{}), ErrClosed) {
		t.Fatalf("a closed world still steps or changes (err %v)", w.Err())
	}
	if st, ok := w.State("h1"); !ok || st != ProcRunning {
		t.Fatalf("the state of a closed world is not readable: %v %v", st, ok)
	}
}

// A stopped timer stays in the queue until its time but the queue lets go
// of it at once, so what the timer's task holds can be collected; it never
// fires, and a timer that fires is let go of too.
func TestStoppedTimerIsLetGoOf(t *testing.T) {
	w := NewWorld(1)
	defer w.Close()
	var stopped, kept *Timer
	fired := map[string]bool{}
	_ = w.Spawn("a", &funcProc{start: func(env *Env) {
		stopped = env.After(30*time.Second, "timeout", func(*Env) { fired["timeout"] = true })
		kept = env.After(time.Second, "tick", func(*Env) { fired["tick"] = true })
		env.After(time.Millisecond, "answer", func(*Env) { stopped.Stop() })
	}})
	holds := func(tm *Timer) bool {
		found := false
		w.queue.each(func(e *event) { found = found || e.timer == tm })
		return found
	}
	if err := w.RunFor(10 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if holds(stopped) || !holds(kept) || w.Pending() != 2 {
		t.Fatalf("after Stop: the queue holds the stopped timer %v, the pending one %v; %d events queued (want 2: the stopped one's stays until its time)", holds(stopped), holds(kept), w.Pending())
	}
	if err := w.RunFor(time.Minute); err != nil {
		t.Fatal(err)
	}
	if fired["timeout"] || !fired["tick"] || kept.ev != nil || w.Pending() != 0 {
		t.Fatalf("fired %v; the fired timer still names its event: %v; %d events queued", fired, kept.ev != nil, w.Pending())
	}
}

// Stopped timers leave the queue as it grows: a request loop whose every
// call arms a 30 s timeout and stops it when answered keeps the queue at a
// few times its live events instead of a timeout per request of the last
// 30 s, and the live timers still fire in order.
func TestStoppedTimersLeaveTheQueue(t *testing.T) {
	w := NewWorld(1)
	defer w.Close()
	var fired []int
	var request func(env *Env, n int)
	request = func(env *Env, n int) {
		timeout := env.After(30*time.Second, "request-timeout", func(*Env) { t.Error("a stopped timeout fired") })
		env.After(10*time.Millisecond, "answer", func(env *Env) {
			timeout.Stop()
			fired = append(fired, n)
			if n < 5000 {
				request(env, n+1)
			}
		})
	}
	_ = w.Spawn("a", &funcProc{start: func(env *Env) { request(env, 1) }})
	most := 0
	for range 50 {
		if err := w.RunFor(time.Second); err != nil {
			t.Fatal(err)
		}
		most = max(most, w.Pending())
	}
	if most > 2*minCompact {
		t.Fatalf("%d events queued at most, for 2 live ones (each second stops 100 timeouts of 30 s)", most)
	}
	if len(fired) != 5000 || !slices.IsSorted(fired) || fired[4999] != 5000 {
		t.Fatalf("%d answers fired, in order %v", len(fired), slices.IsSorted(fired))
	}
}
