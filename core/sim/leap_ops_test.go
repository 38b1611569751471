package sim

import (
	"fmt"
	"slices"
	"testing"
)

// opsRun is a test run of ops at given instants on one machine ("" for
// every machine), each logging its name and the clock when it runs. With
// stretch set it runs stretches (LeapStretch), the even-numbered ops of a
// stretch one by one with the clock set, the others in closed form
// (logging the instant they are due at, as closed form does not read the
// clock).
type opsRun struct {
	name    string
	machine string
	at      []Time
	stretch bool
	w       *World
	log     map[string][]string // by machine
	befores []Time              // the limits Stretch was given
}

func (r *opsRun) Len() int { return len(r.at) }

func (r *opsRun) Op(j int) LeapOp {
	return LeapOp{At: r.at[j], Arg: j, Do: func(j int) { r.record(j, r.w.now) },
		Path: func(j int) PushPath { return BasePath{Pushed: r.at[j] - 1, SeqNo: uint64(j)} }}
}

func (r *opsRun) record(j int, clock Time) {
	r.log[r.machine] = append(r.log[r.machine], fmt.Sprintf("%s%d@%d", r.name, j, clock))
}

type stretchRun struct{ *opsRun }

func (r stretchRun) Machine() string { return r.machine }

func (r stretchRun) Stretch(j int, before Time, at func(Time)) int {
	r.befores = append(r.befores, before)
	k := j
	for k == j || k < len(r.at) && r.at[k] < before {
		if k%2 == 0 {
			at(r.at[k])
			r.record(k, r.w.now)
		} else {
			r.record(k, r.at[k])
		}
		k++
	}
	return k - j
}

type machineRun struct{ *opsRun }

func (r machineRun) Machine() string { return r.machine }

// A run's stretch must not pass another op of its machine (or of a run on
// every machine): each machine sees its ops in the order, and with the
// clock, of a run without stretches.
func TestRunLeapOpsStretches(t *testing.T) {
	make := func(stretch bool) (map[string][]string, *opsRun) {
		w := NewWorld(1)
		log := map[string][]string{}
		noops := &opsRun{name: "n", machine: "a", w: w, log: log}
		for i := range 40 {
			noops.at = append(noops.at, Time(100+i*10))
		}
		other := &opsRun{name: "o", machine: "b", w: w, log: log} // another machine's, at the same instants
		other.at = slices.Clone(noops.at)
		checkpoints := &opsRun{name: "c", machine: "a", w: w, log: log, at: []Time{155, 230, 231, 400}}
		everywhere := &opsRun{name: "e", w: w, log: log, at: []Time{300}}
		var runs []LeapRun
		if stretch {
			runs = []LeapRun{stretchRun{noops}, machineRun{other}, machineRun{checkpoints}, everywhere}
		} else {
			runs = []LeapRun{noops, other, checkpoints, everywhere}
		}
		w.RunLeapOps(runs)
		return log, noops
	}
	plain, _ := make(false)
	stretched, noops := make(true)
	for _, m := range []string{"a", "b", ""} {
		if !slices.Equal(plain[m], stretched[m]) {
			t.Errorf("machine %q:\nstepped   %v\nstretched %v", m, plain[m], stretched[m])
		}
	}
	// The stretches end at machine a's checkpoints and the op on every
	// machine; the NoOp due with a checkpoint (230) is not stretched but
	// ordered with it by their paths.
	if want := []Time{155, 230, 300, 400, 1<<63 - 1}; !slices.Equal(noops.befores, want) {
		t.Errorf("stretches before %v, want %v", noops.befores, want)
	}
}
