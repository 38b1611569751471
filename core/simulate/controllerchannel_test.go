package simulate

import "testing"

// TestLateControllerAnswerAfterARestart: seed 3183 (Kafka 4.1) restarts a
// broker while the controller still owes its previous incarnation the
// answer to a BrokerRegistration; the answer arrives at the new
// incarnation under a correlation id its heartbeat now carries. The
// broker's controller channel drops an answer of another kind than its
// request (Kafka would have sent it down the old process's connection)
// instead of taking it for the heartbeat's and stopping on a nil answer.
func TestLateControllerAnswerAfterARestart(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	if run := mustSimulate(t, 3183, Options{}); len(run.Violations) > 0 {
		t.Fatalf("seed 3183:\n%s", run.Report())
	}
}
