package simulate

import (
	"testing"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Each transactional checker is shown to catch a planted bug, as in
// checks_test.go: after a clean run with transactions, a log is altered
// behind the engine's back or a forged observation is fed to the checker.

// txnPlantSeed, with 4 faults and no power loss on 3.8, commits dozens of
// transactions across partitions and aborts some, with no violation.
const txnPlantSeed = 9

func cleanTxnRun(t *testing.T) *Run {
	t.Helper()
	run := mustSimulate(t, txnPlantSeed, Options{Faults: 4, NoPowerLoss: true, Version: kafka38})
	if len(run.Violations) > 0 {
		t.Fatalf("clean run failed:\n%s", run.Report())
	}
	s := run.txn.stats
	if s.Committed < 10 || s.Aborted < 3 || s.ReadCommitted == 0 || s.AbortedSeen == 0 {
		t.Fatalf("weak transactional workload: %s", s)
	}
	return run
}

// finalLogs resolves every partition's leader log as txnFinal does.
func finalLogs(t *testing.T, run *Run) map[storage.TopicPartition]*resolvedLog {
	t.Helper()
	logs := map[storage.TopicPartition]*resolvedLog{}
	for _, tp := range run.partitions() {
		rl, err := resolveLog(run.leaderLog(tp))
		if err != nil {
			t.Fatal(err)
		}
		logs[tp] = rl
	}
	return logs
}

// findRecord is the first transactional record of the workload resolved
// as want in the final logs.
func findRecord(t *testing.T, run *Run, want logOutcome) (storage.TopicPartition, logRecord) {
	t.Helper()
	logs := finalLogs(t, run)
	for _, tp := range run.partitions() {
		for _, r := range logs[tp].recs {
			if !r.Control && r.Txn == want && run.txn.byValue[string(r.Value)] != nil {
				return tp, r
			}
		}
	}
	t.Fatalf("no %s transactional record", want)
	return storage.TopicPartition{}, logRecord{}
}

func txnReaderOf(run *Run, committed bool) *txnReader {
	for _, rd := range run.txn.readers {
		if rd.committed == committed {
			return rd
		}
	}
	return nil
}

func TestTxnCheckersCatchPlantedBugs(t *testing.T) {
	t.Run("read-committed-isolation: an aborted record given", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, r := findRecord(t, run, logAborted)
		run.Violations = nil
		run.txnReceived(txnReaderOf(run, true), []client.ConsumerRecord{{Topic: tp.Topic, Partition: tp.Partition, Offset: r.Offset, Value: r.Value}})
		wantViolation(t, run, "read-committed-isolation", "a record of an aborted transaction")
		// The same record given read_uncommitted is what that level promises.
		run.Violations = nil
		run.txnReceived(txnReaderOf(run, false), []client.ConsumerRecord{{Topic: tp.Topic, Partition: tp.Partition, Offset: r.Offset, Value: r.Value}})
		if len(run.Violations) > 0 {
			t.Fatalf("read_uncommitted reported: %v", run.Violations)
		}
		// And at the end: a read_committed consumer that was given it.
		txnReaderOf(run, true).got[string(r.Value)] = r.Offset
		recheck(t, run)
		wantViolation(t, run, "read-committed-isolation", "which is aborted in "+tp.String()+" in the end")
	})
	t.Run("read-committed-isolation: a record at the LSO", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, r := findRecord(t, run, logCommitted)
		run.Violations = nil
		lso := run.highestLSO(tp)
		run.txnReceived(txnReaderOf(run, true), []client.ConsumerRecord{{Topic: tp.Topic, Partition: tp.Partition, Offset: lso, Value: r.Value}})
		wantViolation(t, run, "read-committed-isolation", "at or above every LSO any replica has had")
	})
	t.Run("read-committed-isolation: an open transaction's record", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, value, _ := plantOpenTxn(t, run)
		run.Violations = nil
		run.txn.maxLSO[tp] = 1 << 40 // judge by the marker alone
		run.txnReceived(txnReaderOf(run, true), []client.ConsumerRecord{{Topic: tp.Topic, Partition: tp.Partition, Offset: run.leaderLog(tp).LogEndOffset() - 1, Value: []byte(value)}})
		wantViolation(t, run, "read-committed-isolation", "a record of a transaction not committed")
	})
	t.Run("txn-atomic: a committed transaction aborted in one partition", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, value := plantAbortMarker(t, run)
		recheck(t, run)
		wantViolation(t, run, "txn-atomic", "record "+value+" ("+tp.String())
	})
	t.Run("txn-atomic: an aborted transaction with a committed record", func(t *testing.T) {
		run := cleanTxnRun(t)
		_, r := findRecord(t, run, logCommitted)
		tx := run.txn.byValue[string(r.Value)].txn
		tx.outcome = txnAborted // as if abortTransaction had returned
		recheck(t, run)
		wantViolation(t, run, "txn-atomic", "has a record committed in")
	})
	t.Run("txn-atomic: a committed record never given to a read_committed consumer", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, r := findRecord(t, run, logCommitted)
		delete(txnReaderOf(run, true).got, string(r.Value))
		recheck(t, run)
		wantViolation(t, run, "txn-atomic", "was never given "+tp.String())
	})
	t.Run("read-uncommitted-visible", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, r := findRecord(t, run, logAborted)
		delete(txnReaderOf(run, false).got, string(r.Value))
		recheck(t, run)
		wantViolation(t, run, "read-uncommitted-visible", "was never given "+tp.String())
	})
	t.Run("txn-open-forever", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, value, _ := plantOpenTxn(t, run)
		recheck(t, run)
		wantViolation(t, run, "txn-open-forever", tp.String()+": LSO ")
		wantViolation(t, run, "txn-open-forever", value)
	})
	t.Run("marker-delivered", func(t *testing.T) {
		run := cleanTxnRun(t)
		tp, marker := findMarker(t, run)
		run.Violations = nil
		rec := client.ConsumerRecord{Topic: tp.Topic, Partition: tp.Partition, Offset: marker.Offset, Value: marker.Value}
		run.txnReceived(txnReaderOf(run, false), []client.ConsumerRecord{rec})
		wantViolation(t, run, "marker-delivered", "a control record (a transaction marker)")
		// A group member given it is caught the same way.
		run.Violations = nil
		run.consumed(&member{name: "group-1-consumer-1"}, []client.ConsumerRecord{rec})
		wantViolation(t, run, "marker-delivered", "group-1-consumer-1 was given a control record")
	})
	t.Run("lso-above-hw", func(t *testing.T) {
		if d := lsoOutOfOrder(0, 5, 5); d != "" {
			t.Fatalf("a legal LSO reported: %s", d)
		}
		if d := lsoOutOfOrder(0, 6, 5); d == "" {
			t.Fatal("an LSO above the HW passed")
		}
		if d := lsoOutOfOrder(3, 2, 5); d == "" {
			t.Fatal("an LSO below the log start passed")
		}
		tp := storage.TopicPartition{Topic: "t"}
		if d := answerLSOAboveHW(pendingRead{tp: tp, broker: 1, res: &fetchResult{done: true, hw: 5, lso: 4}}); d != "" {
			t.Fatalf("a legal answer reported: %s", d)
		}
		if d := answerLSOAboveHW(pendingRead{tp: tp, broker: 1, res: &fetchResult{done: true, hw: 5, lso: 6}}); d == "" {
			t.Fatal("an answer with its LSO above its HW passed")
		}
	})
	t.Run("txn-duplicate and txn-order", func(t *testing.T) {
		run := &Run{txn: txnRun{byValue: map[string]*txnRecord{}}}
		app := &txnApp{}
		tx := &txn{proc: &txnProc{app: app}}
		for i, v := range []string{"a", "b"} {
			run.txn.byValue[v] = &txnRecord{txn: tx, value: v, seq: i}
		}
		tp := storage.TopicPartition{Topic: "t"}
		build := func(values ...string) *resolvedLog {
			var bs []record.Batch
			off := int64(0)
			for _, v := range values {
				bs = append(bs, decoded(t, record.Build(off, 0, record.ProducerInfo{ID: 7, Epoch: 0, BaseSequence: int32(off), Transactional: true}, []record.Record{{Value: []byte(v)}})))
				off++
			}
			bs = append(bs, decoded(t, record.BuildEndTxnMarker(off, 0, 7, 0, 0, record.EndTxnMarker{Type: record.ControlCommit})))
			rl := &resolvedLog{hw: off + 1, lso: off + 1, byValue: map[string][]int{}}
			rl.recs = resolveBatches(bs)
			for i, r := range rl.recs {
				if !r.Control {
					rl.byValue[string(r.Value)] = append(rl.byValue[string(r.Value)], i)
				}
			}
			return rl
		}
		run.C = &cluster.Cluster{World: sim.NewWorld(1)}
		run.checkTxnDuplicatesAndOrder(tp, build("a", "b"))
		if len(run.Violations) > 0 {
			t.Fatalf("a legal log reported: %v", run.Violations)
		}
		run.checkTxnDuplicatesAndOrder(tp, build("a", "b", "a"))
		wantViolation(t, run, "txn-duplicate", `committed record "a" is at offsets 0`)
		run.Violations = nil
		run.checkTxnDuplicatesAndOrder(tp, build("b", "a"))
		wantViolation(t, run, "txn-order", `committed "a" (sent as its application's record 0) is after "b"`)
	})
}

// plantOpenTxn appends, on the leader of a partition, a transactional
// batch of a producer id no one has, with no marker after it, and moves
// the HW past it: a transaction left open.
func plantOpenTxn(t *testing.T, run *Run) (storage.TopicPartition, string, int32) {
	t.Helper()
	tp := run.partitions()[0]
	img := run.C.ControllerImage()
	leader := img.Partition(tp.Topic, tp.Partition).Leader
	p := run.C.Node(leader).Broker.Partition(tp)
	value := "s9-txn-producer-1-planted"
	run.txn.byValue[value] = &txnRecord{txn: run.txn.txns[0], topic: tp.Topic, partition: tp.Partition, value: value, seq: 1 << 30}
	plant(t, run, leader, func(env *sim.Env) {
		l := p.Log()
		data := record.Build(0, record.NoPartitionLeaderEpoch, record.ProducerInfo{ID: 424242, Epoch: 0, BaseSequence: 0, Transactional: true}, []record.Record{{Timestamp: env.Now().UnixMilli(), Value: []byte(value)}})
		if _, err := l.AppendAsLeader(data, p.LeaderEpoch()); err != nil {
			t.Fatal(err)
		}
		l.UpdateHighWatermark(l.LogEndOffset())
	})
	return tp, value, leader
}

// plantAbortMarker finds a partition whose log ends with the COMMIT
// marker of a transaction the application committed, and replaces it, on
// the leader, with an ABORT marker: that transaction is then aborted in
// one partition.
func plantAbortMarker(t *testing.T, run *Run) (storage.TopicPartition, string) {
	t.Helper()
	logs := finalLogs(t, run)
	for _, tp := range run.partitions() {
		rl := logs[tp]
		n := len(rl.recs)
		if n < 2 || !rl.recs[n-1].Control {
			continue
		}
		marker := rl.recs[n-1]
		var value string
		for i := n - 2; i >= 0; i-- {
			if r := rl.recs[i]; !r.Control && r.ProducerID == marker.ProducerID {
				// The marker ends this record's transaction: a COMMIT if it
				// is committed.
				if rec := run.txn.byValue[string(r.Value)]; rec != nil && r.Txn == logCommitted && rec.txn.outcome == txnCommitted {
					value = string(r.Value)
				}
				break
			}
		}
		if value == "" {
			continue
		}
		leader := run.C.ControllerImage().Partition(tp.Topic, tp.Partition).Leader
		p := run.C.Node(leader).Broker.Partition(tp)
		plant(t, run, leader, func(env *sim.Env) {
			l := p.Log()
			hw := l.HighWatermark()
			if err := l.TruncateTo(marker.Offset); err != nil {
				t.Fatal(err)
			}
			if _, err := l.AppendMarkerAsLeader(marker.ProducerID, marker.ProducerEpoch, record.EndTxnMarker{Type: record.ControlAbort}, env.Now().UnixMilli(), p.LeaderEpoch()); err != nil {
				t.Fatal(err)
			}
			l.UpdateHighWatermark(hw)
		})
		return tp, "\"" + value + "\""
	}
	t.Fatal("no partition ends with the COMMIT marker of a committed transaction")
	return storage.TopicPartition{}, ""
}

// findMarker is a marker in some partition's leader log.
func findMarker(t *testing.T, run *Run) (storage.TopicPartition, logRecord) {
	t.Helper()
	logs := finalLogs(t, run)
	for _, tp := range run.partitions() {
		for _, r := range logs[tp].recs {
			if r.Control {
				return tp, r
			}
		}
	}
	t.Fatal("no marker")
	return storage.TopicPartition{}, logRecord{}
}
