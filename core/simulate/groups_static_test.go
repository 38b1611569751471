package simulate

import (
	"strings"
	"testing"
)

// TestClassicStaticMemberFencedIsRestarted: seed 2827 (Kafka 4.3) moves
// a classic static group's coordinator to a broker that loaded the group
// as last written, generations behind the one the old coordinator had
// reached in memory; the restarted static member's JoinGroup, with its
// newer member id, is answered FENCED_INSTANCE_ID, which is fatal in the
// consumer (AbstractCoordinator's JoinGroupResponseHandler). Its
// supervisor starts it again (restartFatalStatic), and the group settles
// with both members (group-liveness).
func TestClassicStaticMemberFencedIsRestarted(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	run := mustSimulate(t, 2827, Options{})
	restarted := false
	for _, line := range run.Schedule {
		restarted = restarted || strings.Contains(line, "stopped on a fatal error; its supervisor starts it again")
	}
	if !restarted {
		t.Fatal("seed 2827 no longer fences its static member: find another seed that does")
	}
	if len(run.Violations) > 0 {
		t.Fatalf("seed 2827:\n%s", run.Report())
	}
}
