package simulate

import "testing"

// TestLSOTrackedAsTheHWMoves: seed 2216 (Kafka 4.1) has a leader whose
// HW passes a COMMIT marker, and which answers a read_committed fetch up
// to it, a millisecond before a power loss takes the marker from it
// (a follower has it and leads next). read-committed-isolation holds the
// consumer to the highest LSO any replica had, noted as each HW moves
// (noteLSO), not only at the once-a-second samples.
func TestLSOTrackedAsTheHWMoves(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	if run := mustSimulate(t, 2216, Options{}); len(run.Violations) > 0 {
		t.Fatalf("seed 2216:\n%s", run.Report())
	}
}
