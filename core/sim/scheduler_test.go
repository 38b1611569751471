package sim

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// ticker counts its own timer firings, one a millisecond: a run of
// consecutive events that all belong to one process, which the scheduler
// runs on that process's goroutine without yielding to the driver.
func ticker(n *int) *funcProc {
	return &funcProc{start: func(env *Env) {
		var tick func(env *Env)
		tick = func(env *Env) {
			*n++
			env.After(time.Millisecond, "tick", tick)
		}
		tick(env)
	}}
}

// The stop condition is checked before every event, also between events
// that one process runs back to back, so a run stops at the exact event
// that made it false.
func TestRunWhileChecksBetweenEventsOfOneProcess(t *testing.T) {
	w := NewWorld(1)
	n := 0
	w.Spawn("a", ticker(&n))
	done, err := w.RunWhile(func() bool { return n < 5 }, Time(time.Second))
	if err != nil || !done || n != 5 || w.Now() != Time(4*time.Millisecond) {
		t.Fatalf("RunWhile = %v, %v with n=%d at %s; want true, nil, 5 at T+4ms", done, err, n, w.Now())
	}
	// A budget is exact too.
	before := w.Steps()
	if reached, err := w.RunUntilBudget(Time(time.Second), 3); reached || err != nil || w.Steps()-before != 3 || n != 8 {
		t.Fatalf("RunUntilBudget = %v, %v after %d steps (n=%d); want false, nil after 3 (n=8)", reached, err, w.Steps()-before, n)
	}
}

// A stop condition that panics, wherever it was evaluated (on a process
// goroutine, mid-run), panics on the driver's goroutine, where the caller
// can see it.
func TestConditionPanicReachesTheDriver(t *testing.T) {
	w := NewWorld(1)
	n := 0
	w.Spawn("a", ticker(&n))
	w.RunFor(2 * time.Millisecond)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "cond broke at 6") {
			t.Fatalf("recovered %v, want the condition's panic", r)
		}
	}()
	w.RunWhile(func() bool {
		if n == 6 {
			panic(fmt.Sprintf("cond broke at %d", n))
		}
		return true
	}, Time(time.Second))
	t.Fatal("RunWhile returned after its condition panicked")
}

// exiter ends itself in its third handler.
type exiter struct {
	funcProc
	n int
}

func (e *exiter) Exited() bool { e.n++; return e.n >= 3 }

// A process that ends itself in its own handler stops at that event (its
// timers never fire again) and its goroutine ends, although it was the
// one running when it ended.
func TestProcessThatExitsEndsItsGoroutine(t *testing.T) {
	w := NewWorld(1)
	fired := 0
	x := &exiter{}
	x.start = func(env *Env) {
		var tick func(env *Env)
		tick = func(env *Env) {
			fired++
			env.After(time.Millisecond, "tick", tick)
		}
		tick(env)
	}
	w.Spawn("x", x)
	n := 0
	w.Spawn("other", ticker(&n))
	before := runtime.NumGoroutine()
	if err := w.RunFor(10 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if st, _ := w.State("x"); st != ProcDead || fired != 3 {
		t.Fatalf("x is %v after %d firings; want dead after 3", st, fired)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before-1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if runtime.NumGoroutine() > before-1 {
		t.Fatalf("the exited process's goroutine is still there (%d goroutines, %d before)", runtime.NumGoroutine(), before)
	}
	if n != 11 {
		t.Fatalf("the other process ran %d times, want 11", n)
	}
}

// A process's consecutive events run on its goroutine without a switch:
// a lone ticker is resumed once for a whole run; two processes whose
// events alternate are resumed once an event.
func TestConsecutiveEventsOfOneProcessNeedNoSwitch(t *testing.T) {
	w := NewWorld(1)
	n := 0
	w.Spawn("a", ticker(&n))
	if err := w.RunFor(99 * time.Millisecond); err != nil || n != 100 {
		t.Fatalf("ran %d ticks (%v), want 100", n, err)
	}
	if h := w.Handoffs(); h != 1 {
		t.Fatalf("%d handoffs for 100 events of one process, want 1", h)
	}
	w2 := NewWorld(1)
	m := 0
	w2.Spawn("a", ticker(&n))
	w2.Spawn("b", ticker(&m))
	w2.RunFor(99 * time.Millisecond)
	if h, s := w2.Handoffs(), w2.Steps(); h != s {
		t.Fatalf("%d handoffs for %d alternating events, want one each", h, s)
	}
}

// armedTask is a Task that holds its own Timer, as a request's state does.
type armedTask struct {
	timer Timer
	fired []Time
}

func (a *armedTask) Fire(env *Env) { a.fired = append(a.fired, env.Now()) }

// An armed Timer fires its task once, in its process and its turn, is
// named in the trace like After's, stops like After's, and cannot be armed
// twice.
func TestArmFiresTheTaskItsTimerBelongsTo(t *testing.T) {
	w := NewWorld(1)
	fires, stopped := &armedTask{}, &armedTask{}
	var twice any
	w.Spawn("a", &funcProc{start: func(env *Env) {
		env.Arm(&fires.timer, 3*time.Millisecond, "armed", fires)
		env.Arm(&stopped.timer, time.Millisecond, "stopped", stopped)
		stopped.timer.Stop()
		func() {
			defer func() { twice = recover() }()
			env.Arm(&fires.timer, time.Millisecond, "again", fires)
		}()
	}})
	if err := w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	if len(fires.fired) != 1 || fires.fired[0] != Time(3*time.Millisecond) || fires.timer.Pending() || fires.timer.At() != Time(3*time.Millisecond) {
		t.Fatalf("armed task fired at %v (pending %v); want once at T+3ms", fires.fired, fires.timer.Pending())
	}
	if len(stopped.fired) != 0 {
		t.Fatalf("stopped task fired at %v", stopped.fired)
	}
	if twice == nil {
		t.Fatal("arming a Timer twice did not panic")
	}
	named := 0
	for _, e := range w.Trace().Recent(0) {
		if e.Kind == TraceTimer {
			if e.Detail != "armed" {
				t.Fatalf("timer event %q; want only \"armed\"", e.Detail)
			}
			named++
		}
	}
	if named != 1 {
		t.Fatalf("%d timer events in the trace; want 1", named)
	}
}
