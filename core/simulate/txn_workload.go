package simulate

import (
	"fmt"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
)

// The transactional producers of a run (TxnPlan): each application runs
// one producer process at a time under its transactional.id, which
// initializes, then loops: beginTransaction, sends 1..Records records to
// drawn partitions (Gap apart), then commits, or aborts one transaction in
// AbortOneIn. A commit that fails with an abortable error is aborted and
// the loop goes on; a fatal error (ProducerFencedException: a successor
// or the coordinator's timeout bumped the epoch) ends the process, as it
// ends a KafkaProducer, and its supervisor starts a successor at the next
// step (txn_faults.go).

// txnOutcome is what the application learned of a transaction.
type txnOutcome uint8

const (
	txnPending   txnOutcome = iota // not ended yet
	txnCommitted                   // commitTransaction returned
	txnAborted                     // abortTransaction returned
	// txnUnknown: the process crashed or was fenced before it learned
	// the outcome. The coordinator may have committed it (an EndTxn whose
	// answer was lost, then a fencing successor finds it PrepareCommit and
	// completes it) or aborted it; either way all or nothing.
	txnUnknown
)

func (o txnOutcome) String() string {
	return [...]string{"pending", "committed", "aborted", "unknown"}[o]
}

// txn is one transaction of the workload.
type txn struct {
	id      int // its number in the run (values carry it)
	proc    *txnProc
	records []*txnRecord
	outcome txnOutcome
	why     string // how it ended, for reports
	began   sim.Time
}

// txnRecord is one record sent in a transaction; every value is unique
// in the run.
type txnRecord struct {
	txn       *txn
	topic     string
	partition int32
	value     string
	seq       int // its place among its application's sends (txn-order)
	acked     bool
	offset    int64
	failed    string
}

// txnApp is one transactional application (one transactional.id).
type txnApp struct {
	run      *Run
	index    int
	plan     TxnProducerPlan
	procs    []*txnProc // every process it ran, in order; the last is current
	sends    int        // records sent by all its processes
	stopping bool       // the liveness phase: end the transaction, then close
}

// txnProc is one producer process of an application.
type txnProc struct {
	app  *txnApp
	n    int // 1 for the first process, 2 for its successor, ...
	host string
	p    *client.Producer
	pick *sim.Rand
	cur  *txn // the transaction in progress (nil between two)

	dead    string // the fatal error that ended it ("" while it runs)
	crashed bool   // its process was killed
	zombie  bool   // cut off from the cluster, a successor took over
	closed  bool   // Close finished
	// supervised: its supervisor has started a successor after its fatal
	// error (or a fault did: crashed, zombie).
	replaced bool
	// blocked is what the application does once its send returns, while
	// the send is blocked (waiting for the topic's metadata or for
	// buffer.memory): its one thread waits there, as KafkaProducer.send
	// blocks, before it sends again or ends the transaction.
	blocked func(env *sim.Env)
}

// startTxnProc spawns a new producer process for app.
func (run *Run) startTxnProc(app *txnApp) (*txnProc, error) {
	cfg := client.DefaultProducerConfig(run.C.Release().Version)
	cfg.ClientID = app.plan.Name
	cfg.TransactionalID = app.plan.TransactionalID
	cfg.TransactionTimeout = app.plan.Timeout
	// A transactional.id implies idempotence and acks=all
	// (ProducerConfig.postProcessAndValidateIdempotenceConfigs), also on
	// 2.8, whose defaults are acks=1 without idempotence.
	cfg.Acks, cfg.EnableIdempotence = -1, true
	pr := &txnProc{app: app, n: len(app.procs) + 1}
	pr.pick = sim.NewRand(run.Plan.Seed, fmt.Sprintf("simulate/workload/%s/%d", app.plan.Name, pr.n))
	host, err := run.C.SpawnClient(app.plan.Name, func(host string) sim.Process {
		pr.p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.C.World.Rand("simulate/"+app.plan.Name), run.clientLog(app.plan.Name))
		pr.p.OnUnblock(func(env *sim.Env) {
			if f := pr.blocked; f != nil {
				pr.blocked = nil
				f(env)
			}
		})
		return &client.Process{Handlers: []client.Handler{pr.p}, OnStart: pr.start}
	})
	pr.host = host
	app.procs = append(app.procs, pr)
	return pr, err
}

func (pr *txnProc) start(env *sim.Env) {
	pr.p.InitTransactions(env, func(env *sim.Env, err *client.Error) {
		if err != nil {
			pr.fail(env, "initTransactions", err)
			return
		}
		pr.begin(env)
	})
}

// begin starts the next transaction, or closes the producer once the
// application stops.
func (pr *txnProc) begin(env *sim.Env) {
	if pr.dead != "" {
		return
	}
	if pr.app.stopping {
		pr.p.Close(env, func(*sim.Env) { pr.closed = true })
		return
	}
	if err := pr.p.BeginTransaction(); err != nil {
		pr.fail(env, "beginTransaction", err)
		return
	}
	run := pr.app.run
	t := &txn{id: len(run.txn.txns), proc: pr, began: env.Now()}
	run.txn.txns = append(run.txn.txns, t)
	pr.cur = t
	pr.send(env, t, 1+pr.pick.Intn(pr.app.plan.Records))
}

// send sends one record of t, then the next left-1 Gap apart, then ends t.
func (pr *txnProc) send(env *sim.Env, t *txn, left int) {
	if pr.dead != "" || pr.cur != t {
		return
	}
	run := pr.app.run
	topic := run.Plan.Topics[pr.pick.Intn(len(run.Plan.Topics))]
	rec := &txnRecord{txn: t, topic: topic.Name, partition: int32(pr.pick.Intn(len(topic.Assignment))), seq: pr.app.sends, offset: -1}
	rec.value = fmt.Sprintf("s%d-%s-x%d-r%d", run.Plan.Seed, pr.app.plan.Name, t.id, len(t.records))
	pr.app.sends++
	t.records = append(t.records, rec)
	run.txn.byValue[rec.value] = rec
	pr.p.Send(env, client.ProducerRecord{Topic: rec.topic, Partition: rec.partition, Value: []byte(rec.value)}, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
		if err != nil {
			rec.failed = err.Error()
			return
		}
		rec.acked, rec.offset = true, md.Offset
	})
	next := func(env *sim.Env) { pr.send(env, t, left-1) }
	if left <= 1 {
		next = func(env *sim.Env) { pr.end(env, t) }
	}
	returned := func(env *sim.Env) { env.After(pr.app.plan.Gap, "sim-txn-send", next) }
	if pr.p.Blocked() {
		pr.blocked = returned
		return
	}
	returned(env)
}

// end commits t, or aborts it one time in AbortOneIn. A commit that fails
// with an abortable error (a send failed: TransactionManager's
// ABORTABLE_ERROR) is aborted; a fatal one ends the process.
func (pr *txnProc) end(env *sim.Env, t *txn) {
	if pr.dead != "" || pr.cur != t {
		return
	}
	if pr.pick.Intn(pr.app.plan.AbortOneIn) == 0 {
		pr.abort(env, t, "aborted by the application")
		return
	}
	pr.p.CommitTransaction(env, func(env *sim.Env, err *client.Error) {
		if err == nil {
			pr.resolve(t, txnCommitted, "committed")
			pr.next(env)
			return
		}
		if !pr.abortable() {
			pr.fail(env, "commitTransaction", err)
			return
		}
		pr.abort(env, t, "commitTransaction failed ("+err.Error()+"), then aborted")
	})
}

func (pr *txnProc) abort(env *sim.Env, t *txn, why string) {
	pr.p.AbortTransaction(env, func(env *sim.Env, err *client.Error) {
		if err != nil {
			pr.fail(env, "abortTransaction", err)
			return
		}
		pr.resolve(t, txnAborted, why)
		pr.next(env)
	})
}

// abortable reports whether the producer's transaction can still be
// aborted (TransactionManager in ABORTABLE_ERROR), rather than fatal.
func (pr *txnProc) abortable() bool {
	v, _ := pr.p.Transaction()
	return v.State == "ABORTABLE_ERROR"
}

func (pr *txnProc) next(env *sim.Env) {
	env.After(pr.app.plan.Pause, "sim-txn-begin", pr.begin)
}

// resolve records what the application learned of t.
func (pr *txnProc) resolve(t *txn, o txnOutcome, why string) {
	if t.outcome == txnPending {
		t.outcome, t.why = o, why
	}
	if pr.cur == t {
		pr.cur = nil
	}
}

// fail ends the process on a fatal error: its transaction's outcome stays
// unknown to the application, and it closes the producer (its supervisor
// starts a successor, txnSupervise).
func (pr *txnProc) fail(env *sim.Env, call string, err *client.Error) {
	pr.dead = call + ": " + err.Error()
	if t := pr.cur; t != nil {
		pr.resolve(t, txnUnknown, "its producer failed in "+pr.dead)
	}
	pr.p.Close(env, func(*sim.Env) { pr.closed = true })
}

// live reports whether the process runs the application's loop.
func (pr *txnProc) live() bool { return pr.dead == "" && !pr.crashed && !pr.zombie }

// current is the application's process now.
func (app *txnApp) current() *txnProc { return app.procs[len(app.procs)-1] }
