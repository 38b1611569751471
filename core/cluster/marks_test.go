package cluster_test

import (
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/release"
	"kafkascope/core/scenario"
	"kafkascope/core/sim"
	"kafkascope/core/simulate"
)

// markedShell runs a session's commands and, after each, requires the loss
// check's replica marks (kept from the notes alone) to match the replicas.
type markedShell struct {
	t *testing.T
	s *console.Session
}

func (m markedShell) Exec(cmd string, stdin []string) []string {
	out := m.s.Exec(cmd, stdin)
	if c := m.s.Cluster(); c != nil {
		if err := c.CheckReplicaMarks(); err != nil {
			m.t.Fatalf("after %q:\n%v", cmd, err)
		}
	}
	return out
}

// The loss check decides from the notes, not from other brokers' memory:
// through every scenario that loses data or moves leaders (crashes, power
// losses, unclean elections, restarts, reassignment), the epochs and HWs
// the notes gave it are the replicas' own, dead brokers included.
func TestReplicaMarksFollowTheReplicas(t *testing.T) {
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		t.Run(sc.ID, func(t *testing.T) {
			if _, bad, _ := sc.Transcript.Run(markedShell{t, console.NewSession()}, nil); len(bad) > 0 {
				t.Fatalf("the transcript's output changed: %v", bad[0])
			}
		})
	}
}

// The same through the fault simulator's runs: crashes and power losses
// of brokers and controllers, partitions of the network, restarts, and
// unclean elections when the override allows them; checked every virtual
// second.
func TestReplicaMarksThroughFaults(t *testing.T) {
	for _, c := range []struct {
		seeds     int
		overrides map[string]string
	}{
		{12, nil},
		{8, map[string]string{"unclean.leader.election.enable": "true"}},
	} {
		for seed := uint64(1); seed <= uint64(c.seeds); seed++ {
			st := simulate.NewStepper(seed, simulate.Options{Overrides: c.overrides, Version: release.Version{Major: 3, Minor: 8}})
			for at := sim.Time(time.Second); !st.StepTo(at, 0); at = at.Add(time.Second) {
				if cl := st.Run().C; cl != nil {
					if err := cl.CheckReplicaMarks(); err != nil {
						st.Close()
						t.Fatalf("seed %d %v at %s:\n%v", seed, c.overrides, at, err)
					}
				}
			}
			if err := st.Err(); err != nil {
				t.Fatal(err)
			}
			st.Close()
		}
	}
}
