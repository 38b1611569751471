package simulate

import "testing"

// TestCommitAcknowledgedAfterAReset: seed 880 (Kafka 3.8) has a member
// whose position is reset after OFFSET_OUT_OF_RANGE (from 52) while its
// commit of 52 is in flight; the commit is acknowledged after the reset,
// and the member then commits its new position, 41. The coordinator
// keeps what it is given (GroupMetadataManager.storeOffsets), so the
// group's offset goes back by the reset, which the guarantee allows; the
// checker holds the group only to commits at or below the member's
// position (checks_commits.go).
func TestCommitAcknowledgedAfterAReset(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	run := mustSimulate(t, 880, Options{})
	if run.Stats.OffsetResets == 0 {
		t.Fatal("seed 880 no longer resets an offset: find another seed that does")
	}
	if len(run.Violations) > 0 {
		t.Fatalf("seed 880:\n%s", run.Report())
	}
}
