package simulate

import (
	"kafkascope/core/metadata"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// copy-exactly-once (issue 20): after the settle wait, the records a
// read_committed consumer sees in copy-out (below the LSO, not aborted)
// are the records of copy-in below its HW, each once, in the same order.
// Kafka's promise (KIP-98, KIP-447): the copier's output and its input
// position are committed in one transaction (sendOffsetsToTransaction);
// a failed or fenced copier's transaction is aborted, its successor
// starts from the committed position, which a pending transactional
// offset commit holds back until that transaction ends
// (UNSTABLE_OFFSET_COMMIT), and the leaders refuse a fenced producer's
// writes.
//
// Exempt: a copy of a record the input producer sent that copy-in no
// longer holds (a power loss or an unclean election took it from the
// input after it was copied: not the pipeline's doing); the whole
// check when a power loss took records of the pipeline's own state
// (copyStateLost); and copies made again, or out of order, once a copier
// took its committed offsets from a deposed coordinator
// (exemptDeposedCoordinator, copyOffsetsFetched): Kafka's OffsetFetch is
// answered from the cache of whichever broker the consumer knows as
// coordinator, and one cut off from the controller still believes it
// leads; and the same once a copier read its position before its
// initTransactions while an unfenced zombie copier was back
// (exemptZombieCopierBack, copyOverlap). Records missing from copy-out, or
// not from copy-in, are still violations.

// copyInput is copy-in's data records below the HW, in offset order.
func copyInput(l *storage.Log) ([]record.Record, error) {
	bs, err := l.Batches(l.LogStartOffset(), l.HighWatermark())
	if err != nil {
		return nil, err
	}
	var out []record.Record
	for _, b := range bs {
		if b.IsControl() {
			continue
		}
		for _, r := range b.Records {
			if r.Offset < l.HighWatermark() {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// copyVisible is what a read_committed consumer reads of copy-out: data
// records below the LSO that are not transactional or whose transaction
// committed.
func copyVisible(l *storage.Log) ([]logRecord, error) {
	rl, err := resolveLog(l)
	if err != nil {
		return nil, err
	}
	var out []logRecord
	for _, r := range rl.recs {
		if !r.Control && r.Offset < rl.lso && (r.Txn == notTxn || r.Txn == logCommitted) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (run *Run) checkCopy() {
	cr := run.txn.copy
	if cr == nil {
		return
	}
	in, out := run.leaderLog(copyTP(copyIn)), run.leaderLog(copyTP(copyOut))
	if in == nil || out == nil {
		run.violate("liveness", "the copy pipeline's topics have no leader after convergence")
		return
	}
	inRecs, err := copyInput(in)
	if err != nil {
		run.violate("liveness", "%s: reading the leader's log: %v", copyIn, err)
		return
	}
	visible, err := copyVisible(out)
	if err != nil {
		run.violate("liveness", "%s: reading the leader's log: %v", copyOut, err)
		return
	}
	run.txn.stats.CopyExempt, run.txn.stats.CopyAgain = 0, 0
	cr.stats(run, len(inRecs), len(visible))
	if run.copyStateLost() {
		run.txn.stats.CopyExempt = len(visible)
		return
	}
	inOffset := map[string]int64{}
	for _, r := range inRecs {
		inOffset[string(r.Value)] = r.Offset
	}
	at := map[string]int64{}
	last, lastValue := int64(-1), ""
	rewoundStale := cr.deposedReads > 0 && run.exempt(exemptDeposedCoordinator) ||
		cr.overlapReads > 0 && run.exempt(exemptZombieCopierBack)
	for _, r := range visible {
		v := string(r.Value)
		if prev, dup := at[v]; dup {
			if rewoundStale {
				run.txn.stats.CopyAgain++
				continue
			}
			run.violate("copy-exactly-once", "%q is in %s twice, at offsets %d and %d", v, copyOut, prev, r.Offset)
			continue
		}
		at[v] = r.Offset
		o, ok := inOffset[v]
		switch {
		case !ok && cr.sent[v]:
			run.txn.stats.CopyExempt++ // copy-in lost it after it was copied
		case !ok:
			run.violate("copy-exactly-once", "%q at offset %d of %s is no record of %s", v, r.Offset, copyOut, copyIn)
		case o < last && rewoundStale:
			run.txn.stats.CopyAgain++
		case o < last:
			run.violate("copy-exactly-once", "%q (%s offset %d) comes after %q (offset %d) in %s", v, copyIn, o, lastValue, last, copyOut)
		default:
			last, lastValue = o, v
		}
	}
	if !cr.caughtUp {
		return // a liveness violation already (settleTxn)
	}
	for _, r := range inRecs {
		if _, ok := at[string(r.Value)]; !ok {
			run.violate("copy-exactly-once", "%q (%s offset %d) is not in %s", r.Value, copyIn, r.Offset, copyOut)
		}
	}
}

// copyStateLost (exemptCopyStateLost): a power loss took records of the
// group's __consumer_offsets partition, the copier's __transaction_state
// partition, or copy-out.
func (run *Run) copyStateLost() bool {
	if !run.exempt(exemptCopyStateLost) {
		return false
	}
	offsets := storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: run.groupPartition(copyGroup)}
	if run.powerLossAtOrAfter(offsets, 0) || run.powerLossAtOrAfter(run.txnStatePartition(copyTxnID), 0) || run.powerLossAtOrAfter(copyTP(copyOut), 0) {
		return true
	}
	// A marker a coordinator skipped (exemptMarkerSkipped) leaves the
	// copier's transaction open in copy-out or the group's offsets.
	for _, tps := range run.x.markersSkipped {
		for _, tp := range tps {
			if run.exempt(exemptMarkerSkipped) && (tp == offsets || tp == copyTP(copyOut)) {
				return true
			}
		}
	}
	return false
}

// stats counts the pipeline's figures for the report.
func (cr *copyRun) stats(run *Run, in, out int) {
	s := &run.txn.stats
	s.CopyInput, s.CopyOutput, s.CopyProcesses = in, out, len(cr.procs)
}
