package simulate

import (
	"fmt"

	"kafkascope/core/cluster"
)

// txnFaultOneIn: at each step of the safety phase, when the workload has
// transactional producers, one of them is crashed or made a zombie with
// probability 1/txnFaultOneIn, on top of the other faults.
const txnFaultOneIn = 4

// txnFault (drawn from "simulate/faults/txn") replaces a transactional
// application's producer process by a successor with the same
// transactional.id, one of two ways:
//   - a crash: the process dies at once (kill -9), with its transaction
//     wherever it was;
//   - a zombie: the process is cut off from every broker but lives on
//     (a GC pause, a network partition), while its supervisor, believing
//     it dead, starts the successor. When a heal lets the zombie through
//     again, its requests carry the old epoch and are refused.
//
// The successor's initTransactions (InitProducerId with the
// transactional.id) bumps the epoch: the coordinator aborts the old
// process's open transaction, or completes one it had prepared, before
// answering (TransactionCoordinator.handleInitProducerId:
// prepareFenceProducerEpoch, then CONCURRENT_TRANSACTIONS until the
// transaction is complete), and the leaders then refuse the old epoch's
// writes (ProducerStateManager: InvalidProducerEpochException). Before
// drawing, the supervisor of every application whose process stopped on
// a fatal error starts its successor (txnSupervise).
func (run *Run) txnFault() error {
	if len(run.txn.apps) == 0 {
		return nil
	}
	if err := run.txnSupervise(); err != nil {
		return err
	}
	if err := run.copyFault(); err != nil {
		return err
	}
	r := run.stream(&run.txn.faults, "simulate/faults/txn")
	if r.Intn(txnFaultOneIn) != 0 {
		return nil
	}
	var live []*txnApp
	for _, app := range run.txn.apps {
		if app.current().live() {
			live = append(live, app)
		}
	}
	if len(live) == 0 {
		return nil
	}
	app := pick(r, live)
	pr := app.current()
	if r.Intn(2) == 0 {
		run.note("transactional producer %s (%s) crashes; a successor starts with the same transactional.id", app.plan.Name, app.plan.TransactionalID)
		if err := run.C.World.Kill(pr.host, false); err != nil {
			return fmt.Errorf("crashing %s: %w", pr.host, err)
		}
		pr.crashed = true
		if t := pr.cur; t != nil {
			pr.resolve(t, txnUnknown, "its producer crashed")
		}
	} else {
		run.note("transactional producer %s (%s) is cut off from the cluster and lives on as a zombie; a successor starts with the same transactional.id", app.plan.Name, app.plan.TransactionalID)
		run.cutOffClient(pr.host)
		pr.zombie = true
	}
	pr.replaced = true
	_, err := run.startTxnProc(app)
	return err
}

// cutOffClient cuts a client process from every broker, both ways: it
// lives on as a zombie.
func (run *Run) cutOffClient(host string) {
	net := run.C.World.Net()
	for _, id := range run.C.NodeIDs() {
		net.Cut(host, cluster.Host(id))
		net.Cut(cluster.Host(id), host)
	}
}

// txnSupervise starts a successor for every application whose current
// process stopped on a fatal error (fenced by the coordinator's timeout,
// say), as a deployment's supervisor restarts a failed application.
func (run *Run) txnSupervise() error {
	for _, app := range run.txn.apps {
		pr := app.current()
		if pr.dead == "" || pr.replaced || app.stopping {
			continue
		}
		run.note("  (%s stopped on a fatal error, %s; its supervisor starts it again)", app.plan.Name, pr.dead)
		run.txn.stats.Fenced++
		pr.replaced = true
		run.C.StopClient(pr.host)
		if _, err := run.startTxnProc(app); err != nil {
			return err
		}
	}
	return nil
}
