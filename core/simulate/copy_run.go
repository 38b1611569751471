package simulate

import (
	"fmt"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/copier"
	"kafkascope/core/metadata"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// copyRun is a run's copy pipeline: the input producer, the copier
// processes in turn (a successor after a crash, a zombie, or an exit: a
// deployment's supervisor runs the copier again), and what
// copy-exactly-once needs.
type copyRun struct {
	plan      *CopyPlan
	input     *client.Producer
	inputHost string
	sent      map[string]bool // every value the input producer sent
	sentOrder []string
	inStopped bool
	procs     []*copyProc
	stopping  bool
	faults    *sim.Rand // "simulate/faults/copy"
	// caughtUp: the settle wait saw the output hold every input record.
	caughtUp bool
	// zombieDue: a zombie was drawn while the copier was still starting;
	// the first fault step that finds it copying makes it one.
	zombieDue bool
	// deposedReads counts the copier's committed-offset reads answered by
	// a broker that no longer led the group's __consumer_offsets
	// partition (exemptDeposedCoordinator); overlapReads those a copier
	// made before its initTransactions while a zombie copier could reach
	// the cluster again (exemptZombieCopierBack).
	deposedReads, overlapReads int
}

// copyProc is one copier process.
type copyProc struct {
	n      int
	host   string
	cp     *copier.Copier
	exited bool
	code   int
	err    string
	// crashed: killed; zombie: cut off from the cluster, living on;
	// replaced: a successor runs.
	crashed, zombie, replaced bool
	// posRead: it has read its committed position (copyOffsetsFetched).
	posRead bool
}

func (pr *copyProc) live() bool { return !pr.crashed && !pr.zombie && !pr.exited }

func copyTP(topic string) storage.TopicPartition {
	return storage.TopicPartition{Topic: topic, Partition: 0}
}

// startCopy creates the two topics and starts the input producer and the
// first copier.
func (run *Run) startCopy() error {
	p := run.Plan.Txn.Copy
	if p == nil {
		return nil
	}
	cr := &copyRun{plan: p, sent: map[string]bool{}}
	run.txn.copy = cr
	configs := map[string]string{"min.insync.replicas": fmt.Sprint(p.minISR())}
	for _, name := range []string{copyIn, copyOut} {
		if err := createTopic(run.C, name, [][]int32{p.Assignment}, configs); err != nil {
			return err
		}
	}
	cfg := client.DefaultProducerConfig(run.C.Release().Version)
	cfg.ClientID, cfg.Acks, cfg.EnableIdempotence = "copy-input", -1, true
	var err error
	cr.inputHost, err = run.C.SpawnClient("copy-input", func(host string) sim.Process {
		cr.input = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.C.World.Rand("simulate/copy-input"), run.clientLog("copy-input"))
		return &client.Process{Handlers: []client.Handler{cr.input}, OnStart: func(env *sim.Env) { run.copyInputTick(env, 0) }}
	})
	if err != nil {
		return err
	}
	return run.startCopier()
}

// copyInputTick sends input record i, then the next a Gap later.
func (run *Run) copyInputTick(env *sim.Env, i int) {
	cr := run.txn.copy
	if cr.inStopped || i >= cr.plan.Records {
		return
	}
	v := fmt.Sprintf("s%d-copy-r%d", run.Plan.Seed, i)
	cr.sent[v] = true
	cr.sentOrder = append(cr.sentOrder, v)
	cr.input.Send(env, client.ProducerRecord{Topic: copyIn, Partition: 0, Key: []byte(fmt.Sprintf("k%d", i%7)), Value: []byte(v)}, nil)
	env.After(cr.plan.Gap, "sim-copy-input", func(env *sim.Env) { run.copyInputTick(env, i+1) })
}

// startCopier starts a copier process: TransactionalMessageCopier with
// the pipeline's transactional.id and group, copying everything (-1).
func (run *Run) startCopier() error {
	cr := run.txn.copy
	pr := &copyProc{n: len(cr.procs) + 1}
	v := run.C.Release().Version
	pcfg := client.DefaultProducerConfig(v)
	pcfg.ClientID, pcfg.TransactionalID, pcfg.TransactionTimeout = "copier", copyTxnID, cr.plan.Timeout
	pcfg.Acks, pcfg.EnableIdempotence = -1, true
	ccfg := client.DefaultConsumerConfigFor(v)
	ccfg.ClientID, ccfg.GroupID, ccfg.IsolationLevel = "copier-consumer", copyGroup, "read_committed"
	ccfg.MaxPollRecords, ccfg.EnableAutoCommit, ccfg.AutoOffsetReset = int(cr.plan.TransactionSize), false, "earliest"
	cfg := copier.Config{TransactionalID: copyTxnID, InputTopic: copyIn, OutputTopic: copyOut, Group: copyGroup,
		TransactionSize: cr.plan.TransactionSize, MaxMessages: -1, RandomAborts: cr.plan.RandomAborts}
	host, err := run.C.SpawnClient("copier", func(host string) sim.Process {
		c := client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, ccfg, run.clientLog("copier"))
		c.OnOffsetsFetched(func(env *sim.Env, from sim.Addr) { run.copyOffsetsFetched(pr, from) })
		p := client.NewProducer(sim.Addr(host+":2"), []sim.Addr{cluster.BrokerAddr(1)}, pcfg, run.C.World.Rand("simulate/copier"), run.clientLog("copier"))
		pr.cp = copier.New(cfg, c, sim.Addr(host+":3"), p, sim.NewRand(run.Plan.Seed, fmt.Sprintf("simulate/copier/%d", pr.n)))
		pr.cp.OnExit = func(env *sim.Env, code int, err *client.Error, _ copier.Status) {
			pr.exited, pr.code = true, code
			if err != nil {
				pr.err = err.Error()
			}
		}
		return &client.Process{Handlers: []client.Handler{c, p}, OnStart: pr.cp.Start}
	})
	pr.host = host
	cr.procs = append(cr.procs, pr)
	return err
}

func (cr *copyRun) current() *copyProc { return cr.procs[len(cr.procs)-1] }

// copyOffsetsFetched counts the copier's committed-offset reads that
// exemptions rest on (copyOverlap), and one the copier took from a
// deposed coordinator: a broker cut off from the controller keeps leading
// the group's __consumer_offsets partition in its own view and answers
// OffsetFetch from the cache it had, while the transactions' offsets go
// to the leader the controller named (seed 3746 on 4.1). The copier then
// starts from an older offset and copies again what copy-out holds.
func (run *Run) copyOffsetsFetched(pr *copyProc, from sim.Addr) {
	cr := run.txn.copy
	pr.posRead = true
	run.copyOverlap(pr)
	part := run.groupPartition(copyGroup)
	leader, known := run.coordinators()[part]
	id, ok := run.brokerAt(from)
	if !known || !ok || id == leader {
		return
	}
	if cr.deposedReads == 0 {
		run.note("  (copier process %d took its committed offsets from broker %d, which no longer leads %s-%d: the controller names broker %d)",
			pr.n, id, metadata.ConsumerOffsetsTopic, part, leader)
	}
	cr.deposedReads++
}

// copySupervise starts a successor once the copier exited: it copied what
// the input held at its launch (exit 0: more may have come since), or it
// failed (fenced, a position it could not learn within 60 s). Once the
// input is copied whole it is left ended.
func (run *Run) copySupervise() error {
	cr := run.txn.copy
	if cr == nil || cr.stopping {
		return nil
	}
	pr := cr.current()
	if !pr.exited || pr.replaced {
		return nil
	}
	if pr.code == 0 && cr.inStopped && run.copyCaughtUp() {
		return nil
	}
	if pr.code != 0 {
		run.note("  (copier process %d exited: %s; its supervisor starts it again)", pr.n, pr.err)
	}
	pr.replaced = true
	run.C.StopClient(pr.host)
	return run.startCopier()
}

// copyFault crashes the copier or makes it a zombie, one step in
// txnFaultOneIn, and starts its successor (as txnFault does for the
// transactional producers).
func (run *Run) copyFault() error {
	cr := run.txn.copy
	if cr == nil {
		return nil
	}
	if err := run.copySupervise(); err != nil {
		return err
	}
	r := run.stream(&cr.faults, "simulate/faults/copy")
	if cr.zombieDue && cr.current().live() && cr.current().cp.Initialized() {
		cr.zombieDue = false
		if err := run.copyZombie(cr.current()); err != nil {
			return err
		}
	}
	if r.Intn(txnFaultOneIn) != 0 {
		return nil
	}
	pr := cr.current()
	if !pr.live() {
		return nil
	}
	if r.Intn(2) == 0 {
		run.note("copier process %d crashes; a successor starts with the same transactional.id and group", pr.n)
		if err := run.C.World.Kill(pr.host, false); err != nil {
			return fmt.Errorf("crashing %s: %w", pr.host, err)
		}
		pr.crashed = true
		pr.replaced = true
		return run.startCopier()
	}
	// A zombie is a copier that was copying: one still starting would,
	// once healed, take its position and then initTransactions, fencing
	// the successor after reading an offset the successor has since moved
	// on (Kafka's copier reads its position before initTransactions:
	// two instances started together may both copy the same records).
	// Such a draw waits for the copier to be copying, and makes it a
	// zombie at the first fault step that finds it so.
	if !pr.cp.Initialized() {
		cr.zombieDue = true
		return nil
	}
	return run.copyZombie(pr)
}

// copyZombie cuts copier process pr off from the cluster, living on, and
// starts its successor.
func (run *Run) copyZombie(pr *copyProc) error {
	run.note("copier process %d is cut off from the cluster and lives on as a zombie; a successor starts with the same transactional.id and group", pr.n)
	run.cutOffClient(pr.host)
	pr.zombie = true
	pr.replaced = true
	return run.startCopier()
}

// stopCopyInput ends the input (the liveness phase).
func (run *Run) stopCopyInput() {
	cr := run.txn.copy
	if cr == nil {
		return
	}
	_ = run.C.World.Call(cr.inputHost, "stop", func(*sim.Env) { cr.inStopped = true })
	run.note("copy-input stops sending")
}

// copyCaughtUp reports whether copy-out's visible records (below the LSO,
// not aborted) include every record of copy-in below its HW.
func (run *Run) copyCaughtUp() bool {
	missing, ok := run.copyMissing()
	return ok && len(missing) == 0
}

// copyMissing is copy-in's records below its HW that a read_committed
// consumer does not see in copy-out; ok is false while either topic has
// no leader or a log cannot be read.
func (run *Run) copyMissing() (missing []record.Record, ok bool) {
	in, out := run.leaderLog(copyTP(copyIn)), run.leaderLog(copyTP(copyOut))
	if in == nil || out == nil {
		return nil, false
	}
	inRecs, err := copyInput(in)
	if err != nil {
		return nil, false
	}
	visible, err := copyVisible(out)
	if err != nil {
		return nil, false
	}
	seen := map[string]bool{}
	for _, r := range visible {
		seen[string(r.Value)] = true
	}
	for _, r := range inRecs {
		if !seen[string(r.Value)] {
			missing = append(missing, r)
		}
	}
	return missing, true
}

// copyInputRewritten (exemptPowerLoss): a power loss took records of
// copy-in, and every record copy-in holds that copy-out lacks sits below
// the group's committed offset. The copier committed those offsets as
// consumed while the log held other records there; once the replicas
// that lost them lead, the input producer's later records take those
// offsets, and no copier reads below its committed position again (seed
// 5786 on 4.1: every replica of copy-in lost power, and a copier started
// every second found nothing left to copy). Not the pipeline's doing, as
// copy-exactly-once's "copy-in lost the original" is not.
func (run *Run) copyInputRewritten() bool {
	tp := copyTP(copyIn)
	if !run.exempt(exemptPowerLoss) || !run.powerLossAtOrAfter(tp, 0) {
		return false
	}
	view, ok := run.coordinatorView(copyGroup)
	if !ok {
		return false
	}
	committed := int64(-1)
	for _, o := range view.Offsets {
		if o.Topic == copyIn && o.Partition == 0 {
			committed = o.Offset
		}
	}
	missing, ok := run.copyMissing()
	if !ok {
		return false
	}
	for _, r := range missing {
		if r.Offset >= committed {
			return false // a record the copier has yet to read
		}
	}
	return true
}

// closeCopy ends every copier process still running (after the settle
// wait) and the input producer.
func (run *Run) closeCopy() {
	cr := run.txn.copy
	if cr == nil {
		return
	}
	cr.stopping = true
	for _, pr := range cr.procs {
		if !pr.crashed {
			run.C.StopClient(pr.host)
		}
	}
	run.C.StopClient(cr.inputHost)
}

// copySettleLimit is the longest the settle wait may take for the
// pipeline: a successor fences the old transaction at once, but an
// open one may hold the group's offsets (UNSTABLE_OFFSET_COMMIT) until
// transaction.timeout.ms aborts it.
func (run *Run) copySettleLimit() time.Duration {
	if p := run.Plan.Txn.Copy; p != nil {
		return p.Timeout
	}
	return 0
}

// copyOverlap counts copier pr's committed-offset read, made before its
// initTransactions, when a zombie copier, initialized and not exited, can
// reach a broker again (a heal let it through) before pr's
// initTransactions is done. Kafka's
// TransactionalMessageCopier reads its position before initTransactions
// (main: messagesRemaining, then producer.initTransactions()), so until
// pr's InitProducerId fences the zombie, the zombie may commit copies
// past the offset pr read, and pr copies them again from there (seed 8013
// on 4.3: a zombie cut off while its successors never completed an
// InitProducerId came back at the heal, as its fourth successor was
// starting).
func (run *Run) copyOverlap(pr *copyProc) {
	cr := run.txn.copy
	if pr.cp.Initialized() {
		return
	}
	for _, z := range cr.procs {
		if z == pr || !z.zombie || z.exited || !z.cp.Initialized() || !run.reachesABroker(z.host) {
			continue
		}
		if cr.overlapReads == 0 {
			run.note("  (copier process %d read its position before its initTransactions while zombie copier process %d could reach the cluster again)", pr.n, z.n)
		}
		cr.overlapReads++
		return
	}
}

// healAll heals every cut, clients' included, and tells the copy
// pipeline (a zombie copier may be back).
func (run *Run) healAll() error {
	run.note("network heal (all)")
	if err := run.C.Heal(0, 0, true); err != nil {
		return err
	}
	run.copyHealed()
	return nil
}

// copyHealed is copyOverlap for every copier that read its position and
// has not finished initTransactions when a heal lets a zombie copier
// through: the position it read may be one the zombie then commits past
// (seed 5012 on 4.1: the position read at the zombie's cut, the heal
// eight seconds later, the successor's InitProducerId after it).
func (run *Run) copyHealed() {
	cr := run.txn.copy
	if cr == nil {
		return
	}
	for _, pr := range cr.procs {
		if pr.posRead && pr.live() {
			run.copyOverlap(pr)
		}
	}
}

// reachesABroker: host can send to some broker (no cut both ways).
func (run *Run) reachesABroker(host string) bool {
	net := run.C.World.Net()
	for _, id := range run.C.NodeIDs() {
		if !net.IsCut(host, cluster.Host(id)) && !net.IsCut(cluster.Host(id), host) {
			return true
		}
	}
	return false
}
