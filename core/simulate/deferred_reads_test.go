package simulate

import "testing"

// A KIP-848 heartbeat that writes nothing is answered only once the
// coordinator's earlier writes on the partition have committed (Kafka's
// CoordinatorRuntime defers it behind the highest pending offset), also
// after a write timed out or a new leader loaded records above its HW.
// Seeds 704 and 959 (drawn releases) found it: a member was told epoch 2
// from state that never committed, the next coordinator had no group, and
// the member stopped on GROUP_ID_NOT_FOUND (group-liveness).
func TestHeartbeatsDoNotExposeUncommittedGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("two full runs")
	}
	for _, seed := range []uint64{704, 959} {
		if run := mustSimulate(t, seed, Options{}); len(run.Violations) > 0 {
			t.Errorf("seed %d:\n%s", seed, run.Report())
		}
	}
}
