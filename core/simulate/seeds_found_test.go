package simulate

import (
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
)

// Seeds of long sweeps (make simlong) that found faults, kept clean.

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

// TestHWTrackedAsItMoves: seed 3281 (Kafka 4.1) has the leader of sim1-0
// raise its HW to 564 just before it hands leadership to a replica that,
// under min.insync.replicas=2, cannot raise its own past 563
// (Partition.maybeIncrementLeaderHW returns early), and the followers take
// 563. A fetch the old leader answered read offset 563, below its HW then;
// read-above-hw holds reads to the highest HW noted as each HW moves, not
// only at the once-a-second samples, which missed 564. Seed 1722, whose
// only replica answered, appended and stopped between two samples, was
// an exemption before and is the same rule now.
func TestHWTrackedAsItMoves(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	for _, seed := range []uint64{3281, 1722} {
		if run := mustSimulate(t, seed, Options{}); len(run.Violations) > 0 {
			t.Errorf("seed %d:\n%s", seed, run.Report())
		}
	}
}

// TestSettleWaitsForTheCoordinatorsTimeout: seed 4904 (Kafka 3.8) leaves
// txn-app-1 Ongoing with a partition added and nothing written in it
// (T+1m17s, its coordinator killed two seconds later), so no LSO is held
// back; the new coordinator loads it Ongoing and aborts it only once
// transaction.timeout.ms (60 s) has passed. The settle wait ended with the
// partitions and txn-open-forever reported the transaction still open; it
// now waits for every coordinator too, and sees the timeout's abort.
func TestSettleWaitsForTheCoordinatorsTimeout(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	run := mustSimulate(t, 4904, Options{Version: kafka38})
	if len(run.Violations) > 0 {
		t.Fatalf("seed 4904:\n%s", run.Report())
	}
	for _, e := range run.txn.notes {
		if n, ok := e.Note.(event.TxnStateChanged); ok && n.TransactionalID == "txn-app-1" && n.State == "CompleteAbort" &&
			n.Broker == 4 && e.At >= sim.Time(0).Add(2*time.Minute+17*time.Second) {
			return
		}
	}
	t.Errorf("seed 4904: no abort of txn-app-1 by broker 4 after its timeout (T+2m17s); the run drifted:\n%s", run.Report())
}

// TestConvergenceWaitsForEveryVoter: seed 7047 (Kafka 4.1) heals a one-way
// cut that kept the quorum leader from reaching voter 3, whose heartbeats
// still went through: every broker was unfenced at the heal, the run took
// the cluster for converged, and metadata-committed-lost read voter 3's
// log before its first fetch. Convergence now includes every voter holding
// what the leader committed.
func TestConvergenceWaitsForEveryVoter(t *testing.T) {
	if run := mustSimulate(t, 7047, Options{}); len(run.Violations) > 0 {
		t.Fatalf("seed 7047:\n%s", run.Report())
	}
}
