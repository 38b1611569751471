package simulate

import (
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"time"

	"kafkascope/core/sim"
)

// A Stepper runs one seed a slice at a time, for a caller that draws frames
// (the browser's player): StepTo(t, budget) runs the simulation until
// virtual time t or until budget engine events have run, then returns with
// the cluster between two events, safe to read.
//
// Why a coroutine: the simulator is sequential code (draw a fault, advance,
// sample, ...) and stays so; the CLI runs it straight through. Under a
// Stepper the same code runs inside iter.Pull, and the places where it moves
// virtual time (advanceWorld, runWorldUntil) ask the pacer how far they may
// go, yielding to the caller when it says "no further". Splitting a run of
// the world into slices does not change it: the world processes the same
// events in the same order whether it is asked for one minute or sixty
// seconds, and nothing else acts on the cluster while the caller holds
// control (it only reads). So a stepped run is the CLI's run, event for
// event; stepper_test.go holds it to that.
type Stepper struct {
	run  *Run
	pace *pacer
	next func() (struct{}, bool)
	stop func()
	done bool
	err  error
}

// pacer is the Run's side of a Stepper: how far the caller lets it run.
type pacer struct {
	limit sim.Time // run up to here
	steps uint64   // ... and at most this many more engine events
	yield func(struct{}) bool
}

// errStopped unwinds a run whose Stepper was closed early.
var errStopped = errors.New("simulate: stepper closed")

// NewStepper prepares seed's run under opts; nothing runs until StepTo.
func NewStepper(seed uint64, opts Options) *Stepper {
	s := &Stepper{run: newRun(seed, opts), pace: &pacer{}}
	s.run.pace = s.pace
	s.next, s.stop = iter.Pull(func(yield func(struct{}) bool) {
		s.pace.yield = yield
		defer func() {
			if r := recover(); r != nil {
				if r == errStopped {
					s.err = errStopped
				} else {
					s.err = fmt.Errorf("%s: panic: %v\n%s", s.run.Plan.Describe(opts), r, debug.Stack())
				}
			}
		}()
		if err := s.run.simulate(); err != nil {
			s.err = fmt.Errorf("%s: %w", s.run.Plan.Describe(opts), err)
		}
	})
	return s
}

// Run is the run so far (its cluster is nil before the first StepTo).
func (s *Stepper) Run() *Run { return s.run }

// Done reports whether the run has ended (its violations are final).
func (s *Stepper) Done() bool { return s.done }

// Err is the infrastructure failure that ended the run, if any (what
// Simulate would have returned).
func (s *Stepper) Err() error { return s.err }

// StepTo runs until virtual time t, or until maxSteps more engine events
// have run (0: no bound), or until the run ends, whichever comes first.
// It reports whether the run has ended.
func (s *Stepper) StepTo(t sim.Time, maxSteps int) bool {
	if s.done {
		return true
	}
	s.pace.limit = t
	s.pace.steps = ^uint64(0)
	if maxSteps > 0 {
		s.pace.steps = uint64(maxSteps)
		if c := s.run.C; c != nil {
			s.pace.steps += c.World.Steps()
		}
	}
	if _, ok := s.next(); !ok {
		s.done = true
	}
	return s.done
}

// Finish runs to the end.
func (s *Stepper) Finish() (*Run, error) {
	for !s.StepTo(sim.Time(1<<62), 0) {
	}
	return s.run, s.err
}

// Close abandons the run (it unwinds) and closes its cluster: what the
// cluster shows stays readable, but it runs no more.
func (s *Stepper) Close() {
	if !s.done {
		s.stop()
		s.done = true
	}
	if s.run != nil && s.run.C != nil {
		s.run.C.Close() // its goroutines would keep it in memory
	}
}

// allow is how far the run may go now, toward end: it yields to the
// caller until the caller's limit lies beyond now and events remain in
// its budget.
func (pc *pacer) allow(w *sim.World, end sim.Time) (sim.Time, int) {
	for w.Now() >= pc.limit && end > w.Now() || w.Steps() >= pc.steps {
		if !pc.yield(struct{}{}) {
			panic(errStopped)
		}
	}
	return min(end, max(pc.limit, w.Now())), int(min(pc.steps-w.Steps(), 1<<30))
}

// advanceWorld is C.Advance(d), in the caller's slices under a Stepper.
func (run *Run) advanceWorld(d time.Duration) error {
	if run.pace == nil {
		return run.C.Advance(d)
	}
	w := run.C.World
	end := w.Now().Add(d)
	for w.Now() < end {
		t, budget := run.pace.allow(w, end)
		reached, err := w.RunUntilBudget(t, budget)
		if err != nil {
			return err
		}
		if reached && t == end {
			break
		}
	}
	// Nothing is left to run up to end: this only reaps stopped nodes, as
	// the one call of the straight run does.
	return run.C.AdvanceTo(end)
}

// runWorldUntil is C.RunUntil(cond, d), in the caller's slices under a
// Stepper. cond is called between events, as the straight run calls it,
// and a few more times at slice edges (the conditions only read).
func (run *Run) runWorldUntil(cond func() bool, d time.Duration) error {
	if run.pace == nil {
		return run.C.RunUntil(cond, d)
	}
	w := run.C.World
	end := w.Now().Add(d)
	for !cond() && w.Now() < end {
		t, budget := run.pace.allow(w, end)
		first := w.Steps()
		running := func() bool { return !cond() && w.Steps()-first < uint64(budget) }
		if _, err := w.RunWhile(running, t); err != nil {
			return err
		}
	}
	return run.C.RunUntil(cond, end.Sub(w.Now()))
}
