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
// supervisor starts it again (restartFatal), and the group settles
// with both members (group-liveness).
func TestClassicStaticMemberFencedIsRestarted(t *testing.T) {
	wantSupervisorRestart(t, 2827, "group-1-consumer")
}

// TestDowngradedGroupsMemberIsRestarted: seed 5714 (Kafka 4.1) expires the
// session of a mixed group's consumer-protocol member while its classic
// member stays; the coordinator downgrades group-1 to classic, and the
// member's next heartbeat, at epoch 2, is answered GROUP_ID_NOT_FOUND
// ("Group group-1 is not a consumer group."), fatal in the consumer. Its
// supervisor starts it again, it joins at epoch 0, and the group settles.
func TestDowngradedGroupsMemberIsRestarted(t *testing.T) {
	wantSupervisorRestart(t, 5714, "group-1-consumer-2")
}

// wantSupervisorRestart runs seed and wants member restarted by its
// supervisor after a fatal error, and the run clean.
func wantSupervisorRestart(t *testing.T, seed uint64, member string) {
	t.Helper()
	if raceEnabled {
		t.Skip("not under -race")
	}
	run := mustSimulate(t, seed, Options{})
	restarted := false
	for _, line := range run.Schedule {
		restarted = restarted || strings.Contains(line, member) && strings.Contains(line, "stopped on a fatal error; its supervisor starts it again")
	}
	if !restarted {
		t.Fatalf("seed %d no longer stops %s on a fatal error: find another seed that does", seed, member)
	}
	if len(run.Violations) > 0 {
		t.Fatalf("seed %d:\n%s", seed, run.Report())
	}
}
