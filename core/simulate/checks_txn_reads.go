package simulate

import (
	"fmt"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/event"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// The transactional checks made as things happen: on every record a
// consumer is given, and at every sample.
//
//   - read-committed-isolation: a read_committed consumer is given a
//     transactional record only once its transaction is committed: the
//     broker answers a read_committed fetch up to the last stable offset
//     only (ReplicaManager.readFromLocalLog with
//     FetchIsolation.TXN_COMMITTED, UnifiedLog.read's maxOffsetMetadata =
//     lastStableOffsetMetadata), and the consumer drops the records of
//     the aborted transactions the answer lists (CompletedFetch.nextFetchedRecord,
//     abortedProducerIds). So the record's offset is below some
//     replica's LSO, and its producer's next marker in the log is a
//     COMMIT, not an ABORT, nor missing;
//   - marker-delivered: no consumer, at either isolation level, is ever
//     given a control record (CompletedFetch skips control batches:
//     "if (currentBatch.isControlBatch()) ... continue"), nor any record
//     the workload did not write;
//   - lso-above-hw: on every leader, log start <= LSO <= HW
//     (UnifiedLog.lastStableOffset is the first unstable offset capped by
//     the HW, ProducerStateManager.firstUnstableOffset), and every fetch
//     answer's LSO is at most its HW.

// txnReceived checks the records a transactional consumer was given.
func (run *Run) txnReceived(rd *txnReader, recs []client.ConsumerRecord) {
	for _, r := range recs {
		tp := storage.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		v := string(r.Value)
		if d := run.markerDelivered(tp, r); d != "" {
			run.violate("marker-delivered", "%s was given %s", rd.name, d)
			continue
		}
		rd.got[v] = r.Offset
		if run.txn.byValue[v] == nil || !rd.committed {
			continue
		}
		run.txn.stats.ReadCommitted++
		if d := run.readCommittedViolation(tp, r.Offset, v); d != "" {
			run.violate("read-committed-isolation", "%s was given %s offset %d (%q), %s", rd.name, tp, r.Offset, v, d)
		}
	}
}

// readCommittedViolation judges one transactional record given to a
// read_committed consumer now; "" when it may be given.
func (run *Run) readCommittedViolation(tp storage.TopicPartition, offset int64, value string) string {
	if lso := run.highestLSO(tp); offset >= lso {
		return fmt.Sprintf("at or above every LSO any replica has had (%d)", lso)
	}
	switch m, pid := run.markerAfter(tp, offset, value); m {
	case record.ControlAbort:
		return "a record of an aborted transaction (its producer's next marker is an ABORT)"
	case noMarker:
		// The replicas that hold the marker may be gone from memory (a
		// leader killed since it answered, with no follower caught up):
		// a COMMIT a leader wrote after the record counts too.
		if !run.commitNoted(tp, pid, offset) {
			return "a record of a transaction not committed (no replica has a marker of its producer after it)"
		}
	}
	return ""
}

// commitNoted tells whether a leader of tp wrote a COMMIT marker of
// producer pid after offset (event.TxnMarkerWritten).
func (run *Run) commitNoted(tp storage.TopicPartition, pid, offset int64) bool {
	for _, e := range run.txn.notes {
		if n, ok := e.Note.(event.TxnMarkerWritten); ok && n.TP == tp && n.ProducerID == pid && n.Offset > offset && n.Commit {
			return true
		}
	}
	return false
}

// noMarker / notFound: markerAfter's answers when no replica has a
// marker after the record, or none has the record.
const (
	noMarker record.ControlType = -1
	notFound record.ControlType = -2
)

// markerAfter finds, on every replica of tp that holds value at offset,
// its producer's next control record: ControlCommit if some replica has a
// COMMIT there, else ControlAbort if some has an ABORT, noMarker if
// replicas hold the record with no marker after it, notFound if none
// holds it (truncated away since: nothing to judge). A producer has at
// most one transaction open, whose marker follows its records.
func (run *Run) markerAfter(tp storage.TopicPartition, offset int64, value string) (record.ControlType, int64) {
	out, pid := notFound, int64(-1)
	for _, id := range run.C.NodeIDs() {
		n := run.C.Node(id)
		if n == nil || n.Broker == nil {
			continue
		}
		p := n.Broker.Partition(tp)
		if p == nil {
			continue
		}
		m, id := nextMarker(p.Log(), offset, value)
		if m != notFound {
			pid = id
		}
		switch {
		case m == record.ControlCommit:
			return m, pid
		case m == record.ControlAbort || m == noMarker && out == notFound:
			out = m
		}
	}
	return out, pid
}

// nextMarker is markerAfter for one log, read in chunks from offset,
// with the record's producer id.
func nextMarker(l *storage.Log, offset int64, value string) (record.ControlType, int64) {
	if offset < l.LogStartOffset() || offset >= l.LogEndOffset() {
		return notFound, -1
	}
	bs, err := l.Batches(offset, offset+1)
	if err != nil || len(bs) == 0 {
		return notFound, -1
	}
	pid := int64(-2)
	for _, r := range bs[0].Records {
		if r.Offset == offset && string(r.Value) == value {
			pid = bs[0].ProducerID
		}
	}
	if pid == -2 || !bs[0].IsTransactional() {
		return notFound, -1
	}
	const chunk = 256
	for from, leo := bs[0].NextOffset(), l.LogEndOffset(); from < leo; {
		to := min(from+chunk, leo)
		next, err := l.Batches(from, to)
		if err != nil {
			return noMarker, pid
		}
		for _, b := range next {
			if b.IsControl() && b.ProducerID == pid && len(b.Records) > 0 {
				if t, err := record.ParseControlKey(b.Records[0].Key); err == nil {
					return t, pid
				}
			}
		}
		from = to
		if len(next) > 0 {
			from = max(to, next[len(next)-1].NextOffset())
		}
	}
	return noMarker, pid
}

// markerDelivered judges a record a consumer was given: "" if the
// workload wrote it, else what it is (a control record if some replica
// has a control batch at its offset).
func (run *Run) markerDelivered(tp storage.TopicPartition, r client.ConsumerRecord) string {
	v := string(r.Value)
	if run.txn.byValue[v] != nil || strings.HasPrefix(v, fmt.Sprintf("s%d-p", run.Plan.Seed)) {
		return ""
	}
	what := "a record the workload never wrote"
	for _, id := range run.C.NodeIDs() {
		n := run.C.Node(id)
		if n == nil || n.Broker == nil {
			continue
		}
		if p := n.Broker.Partition(tp); p != nil && r.Offset >= p.Log().LogStartOffset() && r.Offset < p.Log().LogEndOffset() {
			if bs, err := p.Log().Batches(r.Offset, r.Offset+1); err == nil && len(bs) > 0 && bs[0].IsControl() {
				what = "a control record (a transaction marker)"
			}
		}
	}
	return fmt.Sprintf("%s at %s offset %d (key %x, value %x)", what, tp, r.Offset, r.Key, r.Value)
}

// highestLSO is the highest LSO any running replica of tp has now or
// had at a sample or a move of its HW (noteLSO).
func (run *Run) highestLSO(tp storage.TopicPartition) int64 {
	lso := run.txn.maxLSO[tp]
	for _, id := range run.C.NodeIDs() {
		if run.C.State(id) != cluster.NodeRunning {
			continue
		}
		if p := run.C.Node(id).Broker.Partition(tp); p != nil {
			if x, err := p.Log().LastStableOffset(); err == nil {
				lso = max(lso, x)
			}
		}
	}
	return lso
}

// noteLSO records a replica's LSO as its HW moves (the LSO rises only
// with the HW: a marker counts once the HW passes it). Sampling once a
// second would miss an LSO that rose and was lost again within the
// second: seed 2216 (4.1), whose leader's HW passed a COMMIT marker and
// answered a read_committed fetch up to it a millisecond before a power
// loss took the marker from it.
func (run *Run) noteLSO(id int32, tp storage.TopicPartition) {
	if len(run.txn.apps) == 0 || run.C == nil {
		return
	}
	n := run.C.Node(id)
	if n == nil || n.Broker == nil {
		return
	}
	if p := n.Broker.Partition(tp); p != nil {
		if lso, err := p.Log().LastStableOffset(); err == nil {
			run.txn.maxLSO[tp] = max(run.txn.maxLSO[tp], lso)
		}
	}
}

// sampleLSO (lso-above-hw) checks every running leader's LSO against its
// log start and HW, and records every replica's LSO in maxLSO. Only runs
// with a transactional workload: without transactions the LSO is the HW.
func (run *Run) sampleLSO() {
	if len(run.txn.apps) == 0 {
		return
	}
	for _, id := range run.C.NodeIDs() {
		if run.C.State(id) != cluster.NodeRunning {
			continue
		}
		for _, tp := range run.partitions() {
			p := run.C.Node(id).Broker.Partition(tp)
			if p == nil {
				continue
			}
			l := p.Log()
			lso, err := l.LastStableOffset()
			if err != nil {
				continue
			}
			run.txn.maxLSO[tp] = max(run.txn.maxLSO[tp], lso)
			if p.IsLeader() {
				if d := lsoOutOfOrder(l.LogStartOffset(), lso, l.HighWatermark()); d != "" {
					run.violate("lso-above-hw", "leader %d of %s (epoch %d): %s", id, tp, p.LeaderEpoch(), d)
				}
			}
		}
	}
}

// lsoOutOfOrder judges a leader's offsets: "" when log start <= LSO <= HW.
func lsoOutOfOrder(logStart, lso, hw int64) string {
	if logStart <= lso && lso <= hw {
		return ""
	}
	return fmt.Sprintf("log start %d, LSO %d, HW %d out of order", logStart, lso, hw)
}
