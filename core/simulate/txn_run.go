package simulate

import (
	"fmt"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// txnRun is a run's transactional workload and what its checkers
// observed (checks_txn*.go). Empty when the plan has no transactional
// producers: nothing of it then touches the run.
type txnRun struct {
	apps    []*txnApp
	txns    []*txn
	byValue map[string]*txnRecord
	readers []*txnReader
	// faults is the "simulate/faults/txn" stream (txn_faults.go).
	faults *sim.Rand
	// maxLSO is the highest last stable offset any replica of a
	// partition had at a sample (read-committed-isolation's bound).
	maxLSO map[storage.TopicPartition]int64
	// settled: the liveness phase's wait for open transactions ended.
	settled bool
	// notes are the coordinators' completed transitions and the leaders'
	// markers (event.TxnStateChanged, event.TxnMarkerWritten), in order:
	// what txn-open-forever tells of an open transaction.
	notes []sim.TraceEvent
	// copy is the copy pipeline (copy_run.go), nil without one.
	copy *copyRun

	stats TxnStats
}

// TxnStats are a run's transactional measurements.
type TxnStats struct {
	Committed, Aborted, Unknown, Pending int // transactions, by what the application learned
	Fenced                               int // processes ended by a fatal error
	ReadCommitted                        int // transactional records read_committed consumers received
	AbortedSeen                          int // aborted transactions' records the read_uncommitted consumer received
	Exempt                               int // records exempt as lost to a power loss
	// The copy pipeline: copy-in's records, copy-out's visible ones, the
	// copier processes run, copies exempt (copy-in lost the original, or
	// a power loss the pipeline's state), and copies made again after a
	// copier took a deposed coordinator's offsets.
	CopyInput, CopyOutput, CopyProcesses, CopyExempt, CopyAgain int
}

func (s TxnStats) String() string {
	out := fmt.Sprintf("transactions: %d committed, %d aborted, %d of unknown outcome, %d unfinished; %d producer processes restarted after a fatal error; read_committed consumers were given %d transactional records, the read_uncommitted one %d of aborted transactions; %d exempt as lost to power losses",
		s.Committed, s.Aborted, s.Unknown, s.Pending, s.Fenced, s.ReadCommitted, s.AbortedSeen, s.Exempt)
	if s.CopyProcesses > 0 {
		out += fmt.Sprintf("; copy pipeline: %d records in %s, %d visible in %s, %d copier processes, %d copies exempt (%s lost the original)",
			s.CopyInput, copyIn, s.CopyOutput, copyOut, s.CopyProcesses, s.CopyExempt, copyIn)
		if s.CopyAgain > 0 {
			out += fmt.Sprintf(", %d copied again from a deposed coordinator's offsets", s.CopyAgain)
		}
	}
	return out
}

// startTxn starts the transactional producers and their consumers.
func (run *Run) startTxn() error {
	p := run.Plan.Txn
	if len(p.Producers) == 0 {
		return nil
	}
	run.txn.byValue = map[string]*txnRecord{}
	run.txn.maxLSO = map[storage.TopicPartition]int64{}
	for i, pp := range p.Producers {
		app := &txnApp{run: run, index: i, plan: pp}
		run.txn.apps = append(run.txn.apps, app)
		if _, err := run.startTxnProc(app); err != nil {
			return err
		}
	}
	for i := 0; i < p.ReadCommitted; i++ {
		if err := run.startTxnReader(i+1, true); err != nil {
			return err
		}
	}
	if err := run.startTxnReader(1, false); err != nil {
		return err
	}
	return run.startCopy()
}

// stopTxn has every application end its transaction in progress and
// close (the liveness phase, as producers stop sending).
func (run *Run) stopTxn() {
	for _, app := range run.txn.apps {
		for _, pr := range app.procs {
			if pr.crashed {
				continue
			}
			_ = run.C.World.Call(pr.host, "stop", func(*sim.Env) { app.stopping = true })
		}
		run.note("%s stops its transactions", app.plan.Name)
	}
	run.stopCopyInput()
}

// closeTxn waits (bounded) until every application's process has ended
// its transaction and closed, or failed, then ends the processes. A
// process still in a transaction then is a liveness violation: healed, the
// cluster must let a commit or an abort finish (or fence it).
func (run *Run) closeTxn() error {
	if len(run.txn.apps) == 0 {
		return nil
	}
	done := func() bool {
		for _, app := range run.txn.apps {
			for _, pr := range app.procs {
				if !pr.crashed && pr.dead == "" && !pr.closed {
					return false
				}
			}
		}
		return true
	}
	if err := run.advanceUntil(done, settleLimit); err != nil {
		return err
	}
	for _, app := range run.txn.apps {
		for _, pr := range app.procs {
			if !pr.crashed && pr.dead == "" && !pr.closed && !run.txnStateLost(app) {
				// (A coordinator that loaded an older state after a power
				// loss may answer CONCURRENT_TRANSACTIONS for ever:
				// exemptTxnStateLost.)
				v, _ := pr.p.Transaction()
				run.violate("liveness", "%s (process %d) did not end its transaction within %s after healing: %s, %d records pending", app.plan.Name, pr.n, settleLimit, v.State, pr.p.Pending())
			}
			if !pr.crashed {
				run.C.StopClient(pr.host)
			}
		}
	}
	for _, t := range run.txn.txns {
		switch t.outcome {
		case txnCommitted:
			run.txn.stats.Committed++
		case txnAborted:
			run.txn.stats.Aborted++
		case txnUnknown:
			run.txn.stats.Unknown++
		default:
			run.txn.stats.Pending++
		}
	}
	return nil
}

// txnSettleLimit bounds the wait for open transactions after the
// cluster converged: the longest transaction.timeout.ms drawn, the
// coordinator's abort task period
// (transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s), and
// settleLimit for the markers and the consumers.
func (run *Run) txnSettleLimit() time.Duration {
	limit := settleLimit + 10*time.Second
	var longest time.Duration
	for _, pp := range run.Plan.Txn.Producers {
		longest = max(longest, pp.Timeout)
	}
	return limit + longest
}

// settleTxn waits (bounded) until no partition or coordinator has a
// transaction open and every transactional consumer has read up to the end: its position
// is the leader's LSO (read_committed) or HW (read_uncommitted). Polled
// every half second of virtual time, not after every event: the leaders
// are found through the controller's image, costly to build (on 2.8 the
// ZooKeeper controller builds it afresh).
func (run *Run) settleTxn() error {
	if len(run.txn.apps) == 0 {
		return nil
	}
	limit := run.txnSettleLimit() + run.copySettleLimit()
	done := func() bool {
		logs := run.leaderLogs()
		return len(openTxnPartitions(logs)) == 0 && run.txnReadersCaughtUp(logs) && (run.txn.copy == nil || run.copyCaughtUp()) &&
			!run.anyTxnOpenAtCoordinator()
	}
	end := run.C.World.Now().Add(limit)
	for !done() && run.C.World.Now() < end {
		if err := run.copySupervise(); err != nil {
			return err
		}
		if err := run.advance(500 * time.Millisecond); err != nil {
			return err
		}
	}
	run.txn.settled = true
	if cr := run.txn.copy; cr != nil {
		cr.caughtUp = run.copyCaughtUp()
		// A pipeline whose state a power loss took may hang for good (its
		// transaction forgotten by the coordinator holds copy-out's LSO
		// and the group's offsets: Kafka's hanging transactions, KIP-664).
		if !cr.caughtUp && !run.copyStateLost() && !run.copyInputRewritten() {
			pr := cr.current()
			run.violate("liveness", "the copier did not copy all of %s within %s of convergence (process %d: exited %v %s)", copyIn, limit, pr.n, pr.exited, pr.err)
		}
		run.closeCopy()
	}
	if logs := run.leaderLogs(); !run.txnReadersCaughtUp(logs) && len(openTxnPartitions(logs)) == 0 {
		// Open transactions are txn-open-forever's (txnFinal); consumers
		// that never reach the end of a settled log are stuck.
		for _, rd := range run.txn.readers {
			run.violate("liveness", "%s did not read up to the end within %s of convergence: positions %v", rd.name, limit, rd.c.Positions())
		}
	}
	return nil
}

// anyTxnOpenAtCoordinator: some transactional id's coordinator still has
// a transaction open. One whose producer stopped before writing to any
// partition holds no LSO back, and its coordinator aborts it only once
// transaction.timeout.ms has passed since it began (seed 4904 on 3.8: a
// transaction begun at T+1m17s, its coordinator moved at T+1m39s, the
// partitions settled at T+1m53s), so the wait goes on until it does.
func (run *Run) anyTxnOpenAtCoordinator() bool {
	for _, app := range run.txn.apps {
		if _, _, open := run.txnOpenAtCoordinator(app); open {
			return true
		}
	}
	return false
}

// openTxnPartitions lists the partitions whose leader's LSO is below its
// HW: a transaction is open there.
func openTxnPartitions(logs map[storage.TopicPartition]*storage.Log) []storage.TopicPartition {
	var out []storage.TopicPartition
	for _, tp := range sortedTPs(logs) {
		l := logs[tp]
		if lso, err := l.LastStableOffset(); err == nil && lso < l.HighWatermark() {
			out = append(out, tp)
		}
	}
	return out
}

// leaderLogs maps each partition of the run to its leader's log (see
// leaderLog); a partition without one is left out.
func (run *Run) leaderLogs() map[storage.TopicPartition]*storage.Log {
	out := map[storage.TopicPartition]*storage.Log{}
	img := run.C.ControllerImage()
	if img == nil {
		return out
	}
	for _, tp := range run.partitions() {
		if l := run.leaderLogIn(img, tp); l != nil {
			out[tp] = l
		}
	}
	return out
}

// leaderLog is the log of tp's leader as the active controller names
// it, if that broker runs and leads it (nil otherwise).
func (run *Run) leaderLog(tp storage.TopicPartition) *storage.Log {
	img := run.C.ControllerImage()
	if img == nil {
		return nil
	}
	return run.leaderLogIn(img, tp)
}

// leaderLogIn is leaderLog with the controller's image already built.
func (run *Run) leaderLogIn(img *metadata.Image, tp storage.TopicPartition) *storage.Log {
	st := img.Partition(tp.Topic, tp.Partition)
	if st == nil || st.Leader < 0 || run.C.State(st.Leader) != cluster.NodeRunning {
		return nil
	}
	p := run.C.Node(st.Leader).Broker.Partition(tp)
	if p == nil || !p.IsLeader() {
		return nil
	}
	return p.Log()
}
