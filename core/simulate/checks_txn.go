package simulate

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/event"
	"kafkascope/core/hashing"
	"kafkascope/core/metadata"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The transactional checks after the liveness phase (txnFinal), on the
// leaders' logs below the HW once no transaction is open, each record
// resolved by its producer's next marker as a read_committed reader
// resolves it:
//
//   - txn-atomic: a transaction is all or nothing, in every partition and
//     for every reader. If the application's commitTransaction returned,
//     or any of its records is committed anywhere, every record of it is
//     committed in its partition and every read_committed consumer was
//     given it; if its abortTransaction returned, none is committed
//     (KIP-98: the coordinator writes PrepareCommit or PrepareAbort to
//     __transaction_state before answering EndTxn, then has every
//     partition's leader write the same marker,
//     TransactionCoordinator.endTransaction and
//     TransactionMarkerChannelManager; an EndTxn whose answer was lost,
//     retried or not, can only complete the transaction one way). A
//     transaction whose outcome the application never learned (a crash,
//     a fencing) is held to all or nothing too.
//   - read-committed-isolation (the final half): every transactional
//     record a read_committed consumer was given is committed in the end.
//   - read-uncommitted-visible: the read_uncommitted consumer was given
//     every transactional record below the HW, aborted ones included
//     (FetchIsolation.HIGH_WATERMARK: no filtering but control batches).
//   - txn-duplicate: no committed record is in its log twice: retries
//     within a transaction are deduplicated by producer id, epoch and
//     sequence (ProducerStateManager, ProducerAppendInfo.checkSequence),
//     and a transactional producer never writes a record again under a
//     new epoch, since it aborts instead.
//   - txn-order: one producer's (id and epoch) committed records are in
//     its log in the order it sent them (idempotence keeps the order with
//     up to 5 requests in flight: max.in.flight.requests.per.connection).
//   - txn-open-forever: once the cluster has converged, no transaction
//     stays open: the coordinator aborts one its producer left open
//     longer than transaction.timeout.ms
//     (TransactionCoordinator.abortTimedOutTransactions), and completes a
//     prepared one by sending its markers again after a coordinator
//     failover (TransactionStateManager.loadTransactionsForTxnTopicPartition,
//     then TransactionMarkerChannelManager.addTxnMarkersToSend). Every
//     leader's LSO reaches its HW, and every coordinator shows each
//     transactional id Empty, CompleteCommit or CompleteAbort.
//
// Exempt, as acked-write-lost and committed-data-lost are, because Kafka
// does not fsync on acknowledging (checks_writes.go):
//   - a record that brokers lost from their page cache in power losses
//     (the same rule as acked-write-lost: powerLossExempt);
//   - in a partition a power loss took records from at or after a
//     record's offset, that record not being committed (its marker may be
//     what was lost: the coordinator has completed the transaction and
//     sends no marker again, so it hangs open in that partition as
//     Kafka's "hanging transactions" do; only kafka-transactions.sh
//     abort, KIP-664, ends one);
//   - a transaction whose __transaction_state partition lost records in
//     a power loss: the coordinator may load an older state (PrepareCommit
//     lost: the transaction is Ongoing again, and its timeout aborts what
//     the application was told was committed).
func (run *Run) txnFinal() {
	if len(run.txn.apps) == 0 {
		return
	}
	run.txn.stats.Exempt = 0
	logs := map[storage.TopicPartition]*resolvedLog{}
	for _, tp := range run.partitions() {
		if l := run.leaderLog(tp); l != nil {
			if rl, err := resolveLog(l); err == nil {
				logs[tp] = rl
			} else {
				run.violate("liveness", "%s: reading the leader's log: %v", tp, err)
			}
		}
	}
	run.checkOpenForever(logs)
	run.checkAtomic(logs)
	run.checkTxnReaders(logs)
	for _, tp := range run.partitions() {
		if rl := logs[tp]; rl != nil {
			run.checkTxnDuplicatesAndOrder(tp, rl)
		}
	}
	run.checkCopy()
}

// resolvedLog is a leader's log below its HW, each transactional record
// resolved by its producer's next marker.
type resolvedLog struct {
	hw, lso int64
	recs    []logRecord
	byValue map[string][]int // value -> indexes in recs
}

func resolveLog(l *storage.Log) (*resolvedLog, error) {
	lso, err := l.LastStableOffset()
	if err != nil {
		return nil, err
	}
	bs, err := l.Batches(l.LogStartOffset(), l.HighWatermark())
	if err != nil {
		return nil, err
	}
	rl := &resolvedLog{hw: l.HighWatermark(), lso: lso, byValue: map[string][]int{}}
	rl.recs = resolveBatches(bs)
	for i, r := range rl.recs {
		if !r.Control && r.Offset < rl.hw {
			rl.byValue[string(r.Value)] = append(rl.byValue[string(r.Value)], i)
		}
	}
	return rl, nil
}

// committedCopy reports whether value is in rl committed, and the
// outcome of its first copy (NotTransactional when it is not in rl).
func (rl *resolvedLog) committedCopy(value string) (bool, logOutcome) {
	first := notTxn
	for k, i := range rl.byValue[value] {
		if rl.recs[i].Txn == logCommitted {
			return true, logCommitted
		}
		if k == 0 {
			first = rl.recs[i].Txn
		}
	}
	return false, first
}

// producerOf is the producer id of value's first copy in the log.
func (rl *resolvedLog) producerOf(value string) int64 {
	if is := rl.byValue[value]; len(is) > 0 {
		return rl.recs[is[0]].ProducerID
	}
	return -1
}

// checkOpenForever (txn-open-forever).
func (run *Run) checkOpenForever(logs map[storage.TopicPartition]*resolvedLog) {
	for _, tp := range sortedTPs(logs) {
		rl := logs[tp]
		if rl.lso >= rl.hw {
			continue
		}
		var first *logRecord
		for i := range rl.recs {
			if r := &rl.recs[i]; r.Txn == logOpen && r.Offset >= rl.lso {
				first = r
				break
			}
		}
		var app *txnApp
		if first != nil {
			if rec := run.txn.byValue[string(first.Value)]; rec != nil {
				app = rec.txn.proc.app
			}
		}
		if run.exempt(exemptPowerLoss) && run.powerLossAtOrAfter(tp, rl.lso) || app != nil && run.txnStateLost(app) ||
			first != nil && run.markerSkipped(first.ProducerID, tp) {
			run.txn.stats.Exempt++
			continue
		}
		what := "no open record found"
		if first != nil {
			what = fmt.Sprintf("producer id %d's transaction open from offset %d (%q)", first.ProducerID, first.Offset, first.Value) + run.txnHistory(tp, first)
		}
		run.violate("txn-open-forever", "%s: LSO %d is below HW %d after the liveness phase: %s", tp, rl.lso, rl.hw, what)
	}
	for _, app := range run.txn.apps {
		if st, broker, open := run.txnOpenAtCoordinator(app); open {
			run.violate("txn-open-forever", "transactional id %s is %s at its coordinator (broker %d) after the liveness phase", app.plan.TransactionalID, st, broker)
		}
	}
}

// txnOpenAtCoordinator tells whether app's transactional id has a
// transaction its coordinator has not ended (a state other than Empty,
// CompleteCommit, CompleteAbort or Dead), with that state and the
// coordinator; an id whose state a power loss took is never open here
// (exemptTxnStateLost).
func (run *Run) txnOpenAtCoordinator(app *txnApp) (string, int32, bool) {
	st, broker, ok := run.txnCoordinatorState(app.plan.TransactionalID)
	switch {
	case !ok, st == "", st == "Empty", st == "CompleteCommit", st == "CompleteAbort", st == "Dead":
		return st, broker, false
	}
	return st, broker, !run.txnStateLost(app)
}

// txnHistory tells what the notes say of an open transaction's end: the
// coordinator's last Complete transition of its producer id, and whether
// any leader of tp wrote a marker of that producer after the record.
func (run *Run) txnHistory(tp storage.TopicPartition, open *logRecord) string {
	var complete *event.TxnStateChanged
	var at sim.Time
	markers := 0
	for _, e := range run.txn.notes {
		switch n := e.Note.(type) {
		case event.TxnStateChanged:
			if n.ProducerID == open.ProducerID && (n.State == "CompleteCommit" || n.State == "CompleteAbort") {
				complete, at = &n, e.At
			}
		case event.TxnMarkerWritten:
			if n.TP == tp && n.ProducerID == open.ProducerID && n.Offset > open.Offset {
				markers++
			}
		}
	}
	if complete == nil {
		return fmt.Sprintf("; no coordinator completed a transaction of producer id %d since", open.ProducerID)
	}
	return fmt.Sprintf("; the coordinator (broker %d) last completed producer id %d's transaction at %s (%s, epoch %d) and %d marker(s) of it were written to %s after offset %d",
		complete.Broker, open.ProducerID, at, complete.State, complete.Epoch, markers, tp, open.Offset)
}

// txnCoordinatorState is transactional id's state at its coordinator: the
// broker the active controller names leader of its __transaction_state
// partition ("" when that broker has not loaded it).
func (run *Run) txnCoordinatorState(id string) (string, int32, bool) {
	img := run.C.ControllerImage()
	if img == nil {
		return "", 0, false
	}
	tp := run.txnStatePartition(id)
	st := img.Partition(tp.Topic, tp.Partition)
	if st == nil || st.Leader < 0 {
		return "", 0, false
	}
	n := run.C.Node(st.Leader)
	if n == nil || n.Broker == nil || n.Broker.TxnCoordinator() == nil {
		return "", st.Leader, false
	}
	s, ok := n.Broker.TxnCoordinator().Transactions()[id]
	if !ok {
		return "", st.Leader, true
	}
	return s.String(), st.Leader, true
}

// txnStatePartition is transactional id's __transaction_state partition
// (TransactionStateManager.partitionFor).
func (run *Run) txnStatePartition(id string) storage.TopicPartition {
	n := int32(run.C.Config().Static.BrokerInt("transaction.state.log.num.partitions"))
	return storage.TopicPartition{Topic: metadata.TransactionStateTopic, Partition: hashing.CoordinatorPartition(id, n)}
}

// checkAtomic (txn-atomic): each transaction all or nothing.
func (run *Run) checkAtomic(logs map[storage.TopicPartition]*resolvedLog) {
	for _, t := range run.txns() {
		anyCommitted, where, lostMarker := false, "", true
		for _, rec := range t.records {
			if rl := logs[rec.tp()]; rl != nil {
				if ok, _ := rl.committedCopy(rec.value); ok {
					if !anyCommitted {
						where = rec.tp().String()
					}
					anyCommitted = true
					lostMarker = lostMarker && run.markerMayBeLost(rec, rl.producerOf(rec.value))
				}
			}
		}
		if t.outcome != txnCommitted && anyCommitted && lostMarker {
			// Committed only where a power loss may have taken its ABORT
			// marker: the producer's next COMMIT there closes it.
			run.txn.stats.Exempt++
			continue
		}
		if t.outcome == txnAborted && anyCommitted {
			if run.txnStateLost(t.proc.app) {
				continue
			}
			run.violate("txn-atomic", "transaction %d of %s (%s) has a record committed in %s", t.id, t.proc.app.plan.Name, t.why, where)
			continue
		}
		if t.outcome != txnCommitted && !anyCommitted {
			continue
		}
		for _, rec := range t.records {
			tp := rec.tp()
			rl := logs[tp]
			if rl == nil {
				continue // no leader: liveness reports it
			}
			ok, first := rl.committedCopy(rec.value)
			if ok {
				continue
			}
			if run.txnRecordExempt(rec, first) {
				run.txn.stats.Exempt++
				continue
			}
			why := t.why
			if t.outcome != txnCommitted {
				why = fmt.Sprintf("%s, and a record of it is committed in %s", t.why, where)
			}
			state := "missing"
			if first != notTxn {
				state = first.String()
			}
			sent := fmt.Sprintf("acked at offset %d", rec.offset)
			if !rec.acked {
				sent = "never acknowledged"
				if rec.failed != "" {
					sent = "its send failed: " + rec.failed
				}
			}
			run.violate("txn-atomic", "transaction %d of %s (%s): record %q (%s, %s) is %s there", t.id, t.proc.app.plan.Name, why, rec.value, tp, sent, state)
		}
	}
}

// txnRecordExempt tells whether rec not being committed in the end is
// exempt (see txnFinal): lost to power losses, or its marker may be.
func (run *Run) txnRecordExempt(rec *txnRecord, got logOutcome) bool {
	if !run.exempt(exemptPowerLoss) {
		return false
	}
	if run.txnStateLost(rec.txn.proc.app) {
		return true
	}
	tp := rec.tp()
	if got == notTxn {
		t := run.topic(tp.Topic)
		inForce := t.MinISR
		if v, ok := run.Opts.Overrides["min.insync.replicas"]; ok {
			inForce, _ = strconv.Atoi(v)
		}
		return rec.acked && powerLossExempt(len(run.lostToPowerLoss[lostRecord{tp, rec.offset, rec.value}]), t.MinISR, inForce)
	}
	return run.powerLossAtOrAfter(tp, rec.offset)
}

// markerMayBeLost tells whether a power loss took records of rec's
// partition at or after rec (exemptPowerLoss): the marker that ended its
// transaction there may be among them. With its ABORT marker lost, the
// record belongs to the producer's next transaction in that partition,
// and that one's COMMIT commits it (seed 494: broker 3 lost the marker,
// stayed in the ISR while no controller ran, and led next).
func (run *Run) markerMayBeLost(rec *txnRecord, pid int64) bool {
	if run.markerSkipped(pid, rec.tp()) {
		return true
	}
	if !run.exempt(exemptPowerLoss) {
		return false
	}
	from := int64(0)
	if rec.acked {
		from = rec.offset
	}
	return run.powerLossAtOrAfter(rec.tp(), from)
}

// markerSkipped (exemptMarkerSkipped): a coordinator completed a
// transaction of producer id pid without tp's marker.
func (run *Run) markerSkipped(pid int64, tp storage.TopicPartition) bool {
	return run.exempt(exemptMarkerSkipped) && slices.Contains(run.x.markersSkipped[pid], tp)
}

// txnStateLost (exemptTxnStateLost): app's __transaction_state partition
// lost records in a power loss; or (exemptTxnStateTruncated) a replica of
// it, with no power loss, truncated records its coordinator may have
// acted on.
func (run *Run) txnStateLost(app *txnApp) bool {
	tp := run.txnStatePartition(app.plan.TransactionalID)
	return run.exempt(exemptTxnStateLost) && run.powerLossAtOrAfter(tp, 0) ||
		run.exempt(exemptTxnStateTruncated) && run.x.txnStateTruncated[tp] && !run.powerLossAtOrAfter(tp, 0)
}

// powerLossAtOrAfter tells whether a power loss took records of tp at or
// after offset from some broker.
func (run *Run) powerLossAtOrAfter(tp storage.TopicPartition, offset int64) bool {
	for k := range run.lostToPowerLoss {
		if k.tp == tp && k.offset >= offset {
			return true
		}
	}
	return false
}

// checkTxnReaders: every read_committed consumer was given every
// committed record below its leader's LSO, and nothing else of the
// transactional workload that is not committed (txn-atomic,
// read-committed-isolation); the read_uncommitted consumer was given
// every transactional record below the HW (read-uncommitted-visible).
// A partition a power loss took records from is skipped: a consumer
// does not re-read offsets it has passed when a leader is elected with a
// shorter log (its fetches carry no last fetched epoch).
func (run *Run) checkTxnReaders(logs map[storage.TopicPartition]*resolvedLog) {
	run.txn.stats.AbortedSeen = 0
	for _, rd := range run.txn.readers {
		for _, tp := range sortedTPs(logs) {
			rl := logs[tp]
			if run.exempt(exemptPowerLoss) && run.powerLossAtOrAfter(tp, 0) {
				continue
			}
			end := rl.hw
			if rd.committed {
				end = rl.lso
			}
			if rd.position(tp) < end {
				continue // it never caught up: a liveness violation (settleTxn)
			}
			for _, r := range rl.recs {
				v := string(r.Value)
				if r.Control || run.txn.byValue[v] == nil {
					continue
				}
				_, got := rd.got[v]
				switch {
				case rd.committed && r.Txn == logCommitted && r.Offset < rl.lso && !got:
					run.violate("txn-atomic", "%s was never given %s offset %d (%q), committed below the LSO %d", rd.name, tp, r.Offset, v, rl.lso)
				case rd.committed && r.Txn != logCommitted && got:
					if ok, _ := rl.committedCopy(v); !ok {
						run.violate("read-committed-isolation", "%s was given %q, which is %s in %s in the end", rd.name, v, r.Txn, tp)
					}
				case !rd.committed && !got:
					run.violate("read-uncommitted-visible", "%s was never given %s offset %d (%q, %s), below the HW %d", rd.name, tp, r.Offset, v, r.Txn, rl.hw)
				case !rd.committed && r.Txn == logAborted:
					run.txn.stats.AbortedSeen++
				}
			}
		}
	}
}

// checkTxnDuplicatesAndOrder (txn-duplicate, txn-order) on one log.
func (run *Run) checkTxnDuplicatesAndOrder(tp storage.TopicPartition, rl *resolvedLog) {
	type producer struct {
		id    int64
		epoch int16
	}
	last := map[producer]*txnRecord{}
	for _, r := range rl.recs {
		v := string(r.Value)
		rec := run.txn.byValue[v]
		if r.Control || rec == nil || r.Txn != logCommitted {
			continue
		}
		if idx := rl.byValue[v]; len(idx) > 1 && rl.recs[idx[0]].Offset != r.Offset {
			first := rl.recs[idx[0]]
			run.violate("txn-duplicate", "%s: committed record %q is at offsets %d (producer id %d, epoch %d, %s) and %d (producer id %d, epoch %d)",
				tp, v, first.Offset, first.ProducerID, first.ProducerEpoch, first.Txn, r.Offset, r.ProducerID, r.ProducerEpoch)
			return
		}
		key := producer{r.ProducerID, r.ProducerEpoch}
		if prev := last[key]; prev != nil && prev.txn.proc.app == rec.txn.proc.app && prev.seq > rec.seq {
			run.violate("txn-order", "%s: producer id %d epoch %d's committed %q (sent as its application's record %d) is after %q (record %d)",
				tp, r.ProducerID, r.ProducerEpoch, v, rec.seq, prev.value, prev.seq)
			return
		}
		last[key] = rec
	}
}

// txns lists the run's transactions in order.
func (run *Run) txns() []*txn { return run.txn.txns }

func (rec *txnRecord) tp() storage.TopicPartition {
	return storage.TopicPartition{Topic: rec.topic, Partition: rec.partition}
}

// logRecord is one record of a log, a transactional one resolved.
type logRecord struct {
	Offset        int64
	Value         []byte
	Control       bool
	ProducerID    int64
	ProducerEpoch int16
	Txn           logOutcome
}

// logOutcome is what a log says of a record: not transactional, or its
// transaction committed, aborted or still open there.
type logOutcome uint8

const (
	notTxn logOutcome = iota
	logOpen
	logCommitted
	logAborted
)

func (o logOutcome) String() string {
	return [...]string{"not transactional", "open", "committed", "aborted"}[o]
}

// resolveBatches lists the records of a log's batches and resolves each
// transactional one by its producer's next control record in the log: a
// producer has at most one transaction open in a partition, and its
// marker follows the transaction's records there (what a read_committed
// consumer's filter relies on too).
func resolveBatches(bs []record.Batch) []logRecord {
	var out []logRecord
	open := map[int64][]int{} // producer id -> its undecided records
	for _, b := range bs {
		if b.IsControl() {
			outcome := logAborted
			for _, r := range b.Records {
				if t, err := record.ParseControlKey(r.Key); err == nil && t == record.ControlCommit {
					outcome = logCommitted
				}
				out = append(out, logRecord{Offset: r.Offset, Value: r.Value, Control: true, ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch})
			}
			for _, i := range open[b.ProducerID] {
				out[i].Txn = outcome
			}
			delete(open, b.ProducerID)
			continue
		}
		for _, r := range b.Records {
			lr := logRecord{Offset: r.Offset, Value: r.Value, ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch}
			if b.IsTransactional() {
				lr.Txn = logOpen
				open[b.ProducerID] = append(open[b.ProducerID], len(out))
			}
			out = append(out, lr)
		}
	}
	return out
}
