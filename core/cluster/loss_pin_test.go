package cluster_test

import (
	"testing"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/simulate"
)

// lossesOfSeed runs a fault simulator seed to its end and returns the
// losses its cluster recorded, with the loss check's rule for superseded
// leaderships on or off.
func lossesOfSeed(t *testing.T, seed uint64, checkSuperseded bool) []cluster.LostRange {
	st := simulate.NewStepper(seed, simulate.Options{Version: release.Version{Major: 3, Minor: 8}})
	defer st.Close()
	st.StepTo(sim.Time(time.Millisecond), 0) // the cluster exists from the first step
	if checkSuperseded {
		st.Run().C.CheckSupersededLeaderships()
	}
	run, err := st.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return run.C.Losses()
}

// The loss check's rule for superseded leaderships (loss.go), pinned on the
// seeds that found it: a broker replaying committed metadata leads an epoch
// that a newer one already replaced, while a replica that led alone in the
// newer epoch has its HW at its LEO. Without the rule that instant reads as
// committed data lost; with it, nothing is lost (the newer leader's own
// start is checked).
func TestSupersededLeadershipLosesNothing(t *testing.T) {
	for _, seed := range []uint64{278, 459} {
		if got := lossesOfSeed(t, seed, false); len(got) != 0 {
			t.Errorf("seed %d: losses %v with the rule", seed, got)
		}
		if got := lossesOfSeed(t, seed, true); len(got) == 0 {
			t.Errorf("seed %d: no loss without the rule: it no longer pins it", seed)
		}
	}
}
