package simulate

import (
	"errors"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// A run stepped in small slices of time and events is the straight run,
// event for event: the same trace hash, schedule, stats and violations —
// for passing seeds and for a failing one.
func TestStepperMatchesTheStraightRun(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		opts Options
		fail bool
	}{
		{2, Options{Faults: 8, TraceContent: true}, false},
		{5, Options{TraceContent: true}, false},
		{27, Options{TraceContent: true, Overrides: map[string]string{"min.insync.replicas": "1"}, Version: kafka38}, true},
	} {
		want := mustSimulate(t, c.seed, c.opts)
		if got := len(want.Violations) > 0; got != c.fail {
			t.Fatalf("seed %d: straight run violations %v, want failing=%v", c.seed, want.Violations, c.fail)
		}
		s := NewStepper(c.seed, c.opts)
		frames := 0
		var setup sim.Time // cluster creation and topics run before the first pause
		for at := sim.Time(0); !s.StepTo(at, 700); at = at.Add(137 * time.Millisecond) {
			frames++
			if frames == 1 {
				setup = s.Run().C.World.Now()
			}
			if r := s.Run(); r.C.World.Now() > max(at, setup) {
				t.Fatalf("seed %d: stepped to %s, the world stands at %s", c.seed, at, r.C.World.Now())
			}
		}
		got := s.Run()
		if s.Err() != nil {
			t.Fatalf("seed %d: %v", c.seed, s.Err())
		}
		if frames < 100 {
			t.Fatalf("seed %d: only %d frames: the run did not yield", c.seed, frames)
		}
		if hw, hg := want.C.World.Trace().Hash(), got.C.World.Trace().Hash(); hw != hg {
			t.Fatalf("seed %d: trace hashes differ: straight %x, stepped %x", c.seed, hw, hg)
		}
		if rw, rg := want.Report(), got.Report(); rw != rg {
			t.Fatalf("seed %d: reports differ:\nstraight:\n%s\nstepped:\n%s", c.seed, rw, rg)
		}
		if want.Stats != got.Stats {
			t.Fatalf("seed %d: stats %+v, stepped %+v", c.seed, want.Stats, got.Stats)
		}
	}
}

// A stepper closed midway unwinds without running further; Finish runs
// the rest at once.
func TestStepperCloseAndFinish(t *testing.T) {
	s := NewStepper(3, Options{Faults: 4})
	if s.StepTo(sim.Time(10*time.Second), 0) {
		t.Fatal("the run ended within 10 s")
	}
	now := s.Run().C.World.Now()
	if now != sim.Time(10*time.Second) {
		t.Fatalf("stands at %s, want 10s", now)
	}
	s.Close()
	if !s.Done() || !errors.Is(s.Err(), errStopped) || s.Run().C.World.Now() != now {
		t.Fatalf("after Close: done %v, err %v, at %s", s.Done(), s.Err(), s.Run().C.World.Now())
	}
	run, err := NewStepper(3, Options{Faults: 4}).Finish()
	want := mustSimulate(t, 3, Options{Faults: 4})
	if err != nil || run.Report() != want.Report() {
		t.Fatalf("Finish: %v\n%s\nwant\n%s", err, run.Report(), want.Report())
	}
}
