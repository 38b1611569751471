package sim

import (
	"testing"
	"time"
)

// BenchmarkHandoff measures the scheduler alone: two processes that keep a
// timer firing and a message in flight, with trivial handlers. Every event is
// one resume of a process's coroutine, and its yield back.
func BenchmarkHandoff(b *testing.B) {
	w := NewWorld(1)
	a := &funcProc{}
	a.start = func(env *Env) {
		var tick func(env *Env)
		tick = func(env *Env) {
			env.Send("a:1", "b:1", &ping{})
			env.After(time.Millisecond, "tick", tick)
		}
		tick(env)
	}
	w.Spawn("a", a)
	w.Spawn("b", &funcProc{})
	w.RunFor(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Step()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
