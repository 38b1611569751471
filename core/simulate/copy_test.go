package simulate

import (
	"testing"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// copySeed draws a copy pipeline (seed 14, Kafka 4.1, with 4 faults).
const copySeed = 14

// The copy pipeline runs and copy-exactly-once holds; planted in the
// output leader's log, a second copy of an input record and a record
// that is no input are each caught.
func TestCopyExactlyOnceCatchesPlantedBugs(t *testing.T) {
	run := mustSimulate(t, copySeed, Options{Faults: 4})
	if run.Plan.Txn.Copy == nil {
		t.Fatalf("seed %d draws no copy pipeline", copySeed)
	}
	if len(run.Violations) > 0 {
		t.Fatalf("clean run failed:\n%s", run.Report())
	}
	if s := run.txn.stats; s.CopyInput == 0 || s.CopyOutput != s.CopyInput {
		t.Fatalf("copied %d of %d input records:\n%s", s.CopyOutput, s.CopyInput, run.Report())
	}
	in := run.leaderLog(copyTP(copyIn))
	recs, err := copyInput(in)
	if err != nil || len(recs) == 0 {
		t.Fatalf("input: %v %v", recs, err)
	}
	plantOut := func(value string) {
		t.Helper()
		st := run.C.ControllerImage().Partition(copyOut, 0)
		p := run.C.Node(st.Leader).Broker.Partition(copyTP(copyOut))
		plant(t, run, st.Leader, func(env *sim.Env) {
			l := p.Log()
			rec := []record.Record{{Timestamp: env.Now().UnixMilli(), Value: []byte(value)}}
			if _, err := l.AppendAsLeader(record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), rec), p.LeaderEpoch()); err != nil {
				t.Fatal(err)
			}
			l.UpdateHighWatermark(l.LogEndOffset())
		})
	}
	plantOut(string(recs[0].Value))
	recheck(t, run)
	wantViolation(t, run, "copy-exactly-once", "is in copy-out twice")
	plantOut("forged")
	recheck(t, run)
	wantViolation(t, run, "copy-exactly-once", `"forged" at offset`)
}
