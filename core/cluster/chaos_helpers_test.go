package cluster

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The machinery of the randomized fault tests (chaos_test.go): a plan drawn
// from a seed, a run that applies it to a real cluster under an acks=all
// producer, and the checkers. A run never calls t.Fatal for what it finds:
// it returns violations, so a test can also assert that a planted bug IS
// found.

// chaosOptions shape a run. The zero value is the safe configuration the
// guarantees are stated for.
type chaosOptions struct {
	// unclean sets unclean.leader.election.enable=true on every topic, and
	// minISR (when not 0) min.insync.replicas: planted bugs against the
	// guarantees, which must make the checkers fire.
	unclean bool
	minISR  int
	// steps overrides the number of faults (0: drawn from the seed).
	steps int
	// noPowerLoss keeps every kill a process crash.
	noPowerLoss bool
	// traceContent makes the trace hash cover message contents.
	traceContent bool
	// notes, if set, receives every engine note of the run (debugging).
	notes func(e sim.TraceEvent)
}

// chaosTopic is one topic of a run, with its manual assignment.
type chaosTopic struct {
	name         string
	assignment   [][]int32
	segmentBytes int // 0: the default (1 GiB, one segment)
}

// chaosSend is one record the producer sent.
type chaosSend struct {
	topic     string
	partition int32
	value     string
	acked     bool
	offset    int64 // with acked
	ackedAt   sim.Time
	failed    string
}

// chaosRun is one seed's run: its plan, what happened, and what the checkers
// found.
type chaosRun struct {
	seed    uint64
	opts    chaosOptions
	brokers int
	topics  []chaosTopic
	minISR  int
	steps   int
	sendGap time.Duration

	c        *Cluster
	schedule []string // what was done, with virtual times: the replay record
	sends    []*chaosSend
	closed   bool

	// lostToPowerLoss maps a record (partition, offset, value) to the broker
	// that lost it from its page cache in a power loss. Kafka does not fsync
	// by default: a record that was only in page caches may be gone for
	// good once replicas holding it lose power, so an acknowledged record is
	// only guaranteed to survive when no replica lost it that way.
	lostToPowerLoss map[lostRecord]int32
	powerLosses     int
	tainted         map[int32]bool // brokers that lost records in a power loss

	// Per-replica observations for the monotonicity checks.
	epochSeen map[*broker.Partition]int32
	maxEpoch  map[replicaKey]int32 // the highest leader epoch any incarnation of a replica applied
	hwSeen    map[*broker.Partition]hwMark

	violations []string
	stats      chaosStats
}

type replicaKey struct {
	broker int32
	tp     storage.TopicPartition
}

type lostRecord struct {
	tp     storage.TopicPartition
	offset int64
	value  string
}

type hwMark struct {
	epoch int32
	hw    int64
}

type chaosStats struct {
	acked, failed, unknown, exempt int
	checks                         int
	converged                      time.Duration // virtual time the final convergence took
}

const (
	chaosMaxViolations = 20
	chaosSettleLimit   = 3 * time.Minute // bound on each phase of the final wait
	chaosCheckEvery    = time.Second     // invariant sampling period during the run
)

// planChaos draws a run's shape from the seed.
func planChaos(seed uint64, opts chaosOptions) *chaosRun {
	r := sim.NewRand(seed, "chaos/plan")
	run := &chaosRun{
		seed: seed, opts: opts, minISR: 2,
		brokers:         3 + r.Intn(3), // 3..5
		steps:           10 + r.Intn(11),
		sendGap:         time.Duration(50+r.Intn(350)) * time.Millisecond,
		lostToPowerLoss: map[lostRecord]int32{},
		tainted:         map[int32]bool{},
		epochSeen:       map[*broker.Partition]int32{},
		maxEpoch:        map[replicaKey]int32{},
		hwSeen:          map[*broker.Partition]hwMark{},
	}
	if opts.steps > 0 {
		run.steps = opts.steps
	}
	if opts.minISR > 0 {
		run.minISR = opts.minISR
	}
	nTopics := 1 + r.Intn(2)
	for i := 0; i < nTopics; i++ {
		rf := 2 + r.Intn(2) // 2 or 3; min.insync.replicas is 2 either way
		parts := 1 + r.Intn(3)
		tpc := chaosTopic{name: fmt.Sprintf("chaos%d", i)}
		if r.Intn(2) == 0 {
			// Small segments: rolls, and truncation and recovery across
			// segment files.
			tpc.segmentBytes = 512 + r.Intn(4096)
		}
		for p := 0; p < parts; p++ {
			ids := make([]int32, run.brokers)
			for j := range ids {
				ids[j] = int32(j + 1)
			}
			r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
			tpc.assignment = append(tpc.assignment, ids[:rf])
		}
		run.topics = append(run.topics, tpc)
	}
	return run
}

func (run *chaosRun) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: %d brokers, send every %s, %d faults; topics", run.seed, run.brokers, run.sendGap, run.steps)
	for _, t := range run.topics {
		fmt.Fprintf(&b, " %s%v", t.name, t.assignment)
		if t.segmentBytes > 0 {
			fmt.Fprintf(&b, "(segment.bytes=%d)", t.segmentBytes)
		}
	}
	fmt.Fprintf(&b, " (min.insync.replicas=%d, unclean.leader.election.enable=%v)", run.minISR, run.opts.unclean)
	return b.String()
}

// report is the failure text: the seed, how to replay it, the schedule and
// the violations.
func (run *chaosRun) report() string {
	var b strings.Builder
	steps := ""
	if run.opts.steps > 0 {
		steps = fmt.Sprintf(" -chaos.steps=%d", run.opts.steps)
	}
	fmt.Fprintf(&b, "%s\nreplay: go test ./core/cluster -run 'TestChaos$' -chaos.seed=%d%s -v\n", run.describe(), run.seed, steps)
	b.WriteString("schedule:\n")
	for _, line := range run.schedule {
		b.WriteString("  " + line + "\n")
	}
	fmt.Fprintf(&b, "sent %d: acked %d, failed %d, unresolved %d; %d power losses, %d acked records exempt as lost to them\n",
		len(run.sends), run.stats.acked, run.stats.failed, run.stats.unknown, run.powerLosses, run.stats.exempt)
	b.WriteString("violations:\n")
	for _, v := range run.violations {
		b.WriteString("  " + v + "\n")
	}
	return b.String()
}

func (run *chaosRun) violate(format string, args ...any) {
	if len(run.violations) < chaosMaxViolations {
		run.violations = append(run.violations, fmt.Sprintf("t=%s ", run.c.World.Now())+fmt.Sprintf(format, args...))
	}
}

func (run *chaosRun) note(format string, args ...any) {
	run.schedule = append(run.schedule, fmt.Sprintf("t=%s ", run.c.World.Now())+fmt.Sprintf(format, args...))
}

// runChaos executes one seed and returns the run with its violations.
// Infrastructure failures (the world erroring, a topic not created) are
// fatal; what the checkers find is not.
func runChaos(t testing.TB, seed uint64, opts chaosOptions) *chaosRun {
	t.Helper()
	run := planChaos(seed, opts)
	c, err := New(Config{Brokers: run.brokers, Controllers: 1, Seed: seed, TraceContent: opts.traceContent, Static: config.Static{
		// Faster follower retries after a cut (the default 30 s would only
		// slow the run; the rules under test do not depend on it).
		"replica.socket.timeout.ms": "5000",
	}})
	if err != nil {
		t.Fatalf("%s: %v", run.describe(), err)
	}
	run.c = c
	if opts.notes != nil {
		c.World.SetNoteHook(func(e sim.TraceEvent) {
			c.observe(e)
			opts.notes(e)
		})
	}
	unclean := "false"
	if opts.unclean {
		unclean = "true"
	}
	for _, tpc := range run.topics {
		configs := map[string]string{
			"min.insync.replicas":            fmt.Sprint(run.minISR),
			"unclean.leader.election.enable": unclean,
		}
		if tpc.segmentBytes > 0 {
			configs["segment.bytes"] = fmt.Sprint(tpc.segmentBytes)
		}
		createAssigned(t, c, tpc.name, tpc.assignment, configs)
	}
	prod := run.startProducer(t)

	faults := sim.NewRand(seed, "chaos/faults")
	for i := 0; i < run.steps; i++ {
		run.fault(faults)
		run.advance(t, chaosGap(faults))
	}

	// Safety phase over: heal, bring everyone back, let the producer drain.
	run.stopSending(prod)
	run.note("network heal (all)")
	_ = c.Heal(0, 0, true)
	run.restartAll(t)
	run.closeProducer(t, prod)
	run.sample()
	start := c.World.Now()
	if err := c.RunUntil(run.converged, chaosSettleLimit); err != nil {
		t.Fatalf("%s\n%v", run.report(), err)
	}
	run.stats.converged = c.World.Now().Sub(start)
	if !run.converged() {
		run.violate("the cluster did not converge within %s after healing and restarting everything:\n%s", chaosSettleLimit, run.stateDump())
	}
	run.sample()
	run.finalChecks(t)
	return run
}

// chaosGap draws the virtual time between two faults: mostly short, at
// times long enough for ISR shrinks (30 s) and session expiry (9 s).
func chaosGap(r *sim.Rand) time.Duration {
	switch x := r.Intn(10); {
	case x < 6:
		return time.Duration(50+r.Intn(2950)) * time.Millisecond
	case x < 9:
		return time.Duration(3000+r.Intn(12000)) * time.Millisecond
	default:
		return time.Duration(15000+r.Intn(30000)) * time.Millisecond
	}
}

// advance runs the world for d, sampling the invariants every second.
func (run *chaosRun) advance(t testing.TB, d time.Duration) {
	t.Helper()
	end := run.c.World.Now().Add(d)
	for run.c.World.Now() < end {
		step := min(chaosCheckEvery, end.Sub(run.c.World.Now()))
		if err := run.c.Advance(step); err != nil {
			t.Fatalf("%s\n%v", run.report(), err)
		}
		run.sample()
	}
}

// ids of the brokers other than node 1, which hosts the only controller and
// is never killed or stopped.
func (run *chaosRun) others() []int32 {
	var out []int32
	for id := int32(2); id <= int32(run.brokers); id++ {
		out = append(out, id)
	}
	return out
}

func pick[T any](r *sim.Rand, xs []T) T { return xs[r.Intn(len(xs))] }

// fault applies one fault drawn from r, chosen among those that apply to
// the cluster's current state (so the same seed makes the same choices).
func (run *chaosRun) fault(r *sim.Rand) {
	c := run.c
	var running, down, notPowerOff []int32
	for _, id := range run.others() {
		switch st := c.State(id); {
		case st == NodeRunning && !run.stopping(id):
			running = append(running, id)
		case st != NodeRunning:
			down = append(down, id)
		}
		if st := c.State(id); st != NodePowerOff {
			notPowerOff = append(notPowerOff, id)
		}
	}
	type choice struct {
		weight int
		do     func()
	}
	var choices []choice
	add := func(w int, ok bool, do func()) {
		if ok {
			choices = append(choices, choice{w, do})
		}
	}
	add(14, len(running) > 0, func() {
		id := pick(r, running)
		run.note("broker kill %d", id)
		must(c.Kill(id, false))
	})
	add(4, !run.opts.noPowerLoss && len(notPowerOff) > 0, func() {
		id := pick(r, notPowerOff)
		run.note("broker kill %d --power-loss", id)
		run.powerLoss(id)
	})
	add(8, len(running) > 0, func() {
		id := pick(r, running)
		run.note("broker stop %d", id)
		must(c.Stop(id))
	})
	add(16, len(down) > 0, func() {
		id := pick(r, down)
		run.note("broker start %d", id)
		must(c.Start(id))
	})
	a, b := int32(1+r.Intn(run.brokers)), int32(1+r.Intn(run.brokers))
	pairOK := a != b
	add(10, pairOK && run.cutAllowed(a, b, false), func() {
		run.note("network cut %d %d", a, b)
		must(c.Cut(a, b, false))
	})
	add(8, pairOK && run.cutAllowed(a, b, true), func() {
		run.note("network cut %d->%d", a, b)
		must(c.Cut(a, b, true))
	})
	cuts := c.World.Net().Cuts()
	add(8, len(cuts) > 0, func() {
		l := pick(r, cuts)
		x, y := hostID(l[0]), hostID(l[1])
		run.note("network heal %d %d", x, y)
		must(c.Heal(x, y, false))
	})
	add(3, len(cuts) > 0, func() {
		run.note("network heal (all)")
		must(c.Heal(0, 0, true))
	})
	add(5, true, func() { run.note("(no fault)") })
	total := 0
	for _, ch := range choices {
		total += ch.weight
	}
	x := r.Intn(total)
	for _, ch := range choices {
		if x < ch.weight {
			ch.do()
			return
		}
		x -= ch.weight
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func hostID(host string) int32 {
	var id int32
	if _, err := fmt.Sscanf(host, "kafka-%d", &id); err != nil {
		panic(err)
	}
	return id
}

// stopping reports whether a running node is in a controlled shutdown.
func (run *chaosRun) stopping(id int32) bool {
	st := run.c.Node(id).Broker.State()
	return st == broker.StatePendingControlledShutdown || st == broker.StateShuttingDown || st == broker.StateStopped
}

// cutAllowed keeps node 1 (the controller) connected both ways to at least
// one other broker.
func (run *chaosRun) cutAllowed(a, b int32, oneWay bool) bool {
	net := run.c.World.Net()
	if net.IsCut(Host(a), Host(b)) && (oneWay || net.IsCut(Host(b), Host(a))) {
		return false // nothing new
	}
	if a != 1 && b != 1 {
		return true
	}
	other := a + b - 1
	for _, id := range run.others() {
		if id == other {
			continue
		}
		if !net.IsCut(Host(1), Host(id)) && !net.IsCut(Host(id), Host(1)) {
			return true
		}
	}
	return false
}

// powerLoss kills broker id with a power loss (it may already be down),
// first noting which values its replicas lose: those in the page cache but
// not flushed.
func (run *chaosRun) powerLoss(id int32) {
	c := run.c
	before := map[storage.TopicPartition][]record.Record{}
	dirs := map[storage.TopicPartition]string{}
	for _, p := range c.Node(id).Broker.Partitions() {
		before[p.TopicPartition()] = logRecords(p.Log())
		dirs[p.TopicPartition()] = p.Log().Dir()
	}
	must(c.Kill(id, true))
	run.powerLosses++
	lost := 0
	for _, tp := range sortedTPs(before) {
		kept := map[lostRecord]bool{}
		for _, r := range diskRecords(c.Disk(id), dirs[tp]) {
			kept[lostRecord{tp, r.Offset, string(r.Value)}] = true
		}
		for _, r := range before[tp] {
			if k := (lostRecord{tp, r.Offset, string(r.Value)}); !kept[k] {
				if _, ok := run.lostToPowerLoss[k]; !ok {
					run.lostToPowerLoss[k] = id
				}
				lost++
			}
		}
	}
	if lost > 0 {
		run.tainted[id] = true
	}
	run.note("  (broker %d lost %d unflushed records)", id, lost)
}

func sortedTPs[V any](m map[storage.TopicPartition]V) []storage.TopicPartition {
	out := make([]storage.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, func(a, b storage.TopicPartition) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return int(a.Partition - b.Partition)
	})
	return out
}

// logRecords lists a log's records in offset order.
func logRecords(l *storage.Log) []record.Record {
	bs, err := l.Batches(l.LogStartOffset(), l.LogEndOffset())
	if err != nil {
		return nil
	}
	var out []record.Record
	for _, b := range bs {
		out = append(out, b.Records...)
	}
	return out
}

// diskRecords decodes the records in a partition directory's segment files
// as they are now on disk, stopping at the first damaged batch (as recovery
// does).
func diskRecords(d *storage.Disk, dir string) []record.Record {
	var out []record.Record
	for _, e := range d.List(dir) {
		if e.IsDir || !strings.HasSuffix(e.Name, ".log") {
			continue
		}
		data, err := d.ReadFile(path.Join(dir, e.Name))
		if err != nil {
			continue
		}
		for len(data) > 0 {
			b, n, err := record.Decode(data)
			if err != nil {
				break
			}
			out = append(out, b.Records...)
			data = data[n:]
		}
	}
	return out
}

// startProducer spawns the workload: one acks=all producer sending a
// uniquely numbered value every sendGap to a random partition.
func (run *chaosRun) startProducer(t testing.TB) *chaosProducer {
	t.Helper()
	cfg := client.DefaultProducerConfig()
	cfg.ClientID = "chaos"
	cfg.Acks = -1
	cp := &chaosProducer{run: run, pick: sim.NewRand(run.seed, "chaos/workload")}
	host, err := run.c.SpawnClient("chaos-producer", func(host string) sim.Process {
		cp.p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, run.c.World.Rand("chaos/producer"), func(client.Level, string, string) {})
		return &client.Process{Handlers: []client.Handler{cp.p}, OnStart: cp.tick}
	})
	if err != nil {
		t.Fatal(err)
	}
	cp.host = host
	return cp
}

type chaosProducer struct {
	run     *chaosRun
	p       *client.Producer
	pick    *sim.Rand
	host    string
	stopped bool
	timer   *sim.Timer
}

func (cp *chaosProducer) tick(env *sim.Env) {
	if cp.stopped {
		return
	}
	run := cp.run
	tpc := run.topics[cp.pick.Intn(len(run.topics))]
	s := &chaosSend{topic: tpc.name, partition: int32(cp.pick.Intn(len(tpc.assignment))), value: fmt.Sprintf("s%d-r%d", run.seed, len(run.sends))}
	run.sends = append(run.sends, s)
	cp.p.Send(env, client.ProducerRecord{Topic: s.topic, Partition: s.partition, Value: []byte(s.value)}, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
		if err != nil {
			s.failed = err.Error()
			return
		}
		s.acked, s.offset, s.ackedAt = true, md.Offset, env.Now()
	})
	cp.timer = env.After(run.sendGap, "chaos-send", cp.tick)
}

func (run *chaosRun) stopSending(cp *chaosProducer) {
	must(run.c.World.Call(cp.host, "stop", func(env *sim.Env) {
		cp.stopped = true
		cp.timer.Stop()
	}))
	run.note("producer stops sending")
}

// closeProducer waits (bounded by delivery.timeout.ms and then some) until
// every send has an outcome.
func (run *chaosRun) closeProducer(t testing.TB, cp *chaosProducer) {
	t.Helper()
	must(run.c.World.Call(cp.host, "close", func(env *sim.Env) {
		cp.p.Close(env, func(*sim.Env) { run.closed = true })
	}))
	run.advanceUntil(t, func() bool { return run.closed }, chaosSettleLimit)
	run.c.StopClient(cp.host)
	for _, s := range run.sends {
		switch {
		case s.acked:
			run.stats.acked++
		case s.failed != "":
			run.stats.failed++
		default:
			run.stats.unknown++
		}
	}
	if !run.closed {
		run.violate("the producer still had %d records pending %s after the faults ended", cp.p.Pending(), chaosSettleLimit)
	}
}

// advanceUntil runs until cond (at most limit), sampling invariants.
func (run *chaosRun) advanceUntil(t testing.TB, cond func() bool, limit time.Duration) {
	t.Helper()
	end := run.c.World.Now().Add(limit)
	for !cond() && run.c.World.Now() < end {
		step := min(chaosCheckEvery, end.Sub(run.c.World.Now()))
		if err := run.c.RunUntil(cond, step); err != nil {
			t.Fatalf("%s\n%v", run.report(), err)
		}
		run.sample()
	}
}

// restartAll waits for controlled shutdowns in progress to end, then starts
// every broker that is down.
func (run *chaosRun) restartAll(t testing.TB) {
	t.Helper()
	c := run.c
	run.advanceUntil(t, func() bool {
		for _, id := range run.others() {
			if c.State(id) == NodeRunning && run.stopping(id) {
				return false
			}
		}
		return true
	}, chaosSettleLimit)
	for _, id := range run.others() {
		if c.State(id) != NodeRunning {
			run.note("broker start %d", id)
			must(c.Start(id))
		}
	}
}

// converged: every broker is up and unfenced; every partition has a leader
// whose ISR holds every replica, and every replica has the leader's log end
// offset as its LEO and HW.
func (run *chaosRun) converged() bool {
	c := run.c
	if !c.AllUnfenced() {
		return false
	}
	for _, id := range c.NodeIDs() {
		if c.State(id) != NodeRunning || run.stopping(id) {
			return false
		}
	}
	ctl := c.Controller()
	for _, tpc := range run.topics {
		for i := range tpc.assignment {
			st := ctl.Image().Partition(tpc.name, int32(i))
			if st == nil || st.Leader < 0 || !sameSet(st.ISR, st.Replicas) {
				return false
			}
			lp := c.Node(st.Leader).Broker.Partition(tpOf(tpc.name, int32(i)))
			if lp == nil || !lp.IsLeader() || lp.LeaderEpoch() != st.LeaderEpoch || !sameSet(lp.ISR(), st.Replicas) {
				return false
			}
			leo := lp.Log().LogEndOffset()
			for _, r := range st.Replicas {
				p := c.Node(r).Broker.Partition(tpOf(tpc.name, int32(i)))
				if p == nil || p.LeaderEpoch() != st.LeaderEpoch || p.Log().LogEndOffset() != leo || p.Log().HighWatermark() != leo {
					return false
				}
			}
		}
	}
	return true
}

func sameSet(a, b []int32) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func (run *chaosRun) stateDump() string {
	c := run.c
	var b strings.Builder
	for _, id := range c.NodeIDs() {
		fmt.Fprintf(&b, "    broker %d: %s (%s)", id, c.State(id), c.Node(id).Broker.State())
		if ctl := c.Controller(); ctl != nil {
			if reg := ctl.Image().Brokers[id]; reg != nil {
				fmt.Fprintf(&b, " fenced=%v shutdown=%v epoch=%d", reg.Fenced, reg.InControlledShutdown, reg.Epoch)
			}
		}
		b.WriteString("\n")
	}
	for _, tpc := range run.topics {
		for i := range tpc.assignment {
			tp := tpOf(tpc.name, int32(i))
			if ctl := c.Controller(); ctl != nil {
				if st := ctl.Image().Partition(tpc.name, int32(i)); st != nil {
					fmt.Fprintf(&b, "    %s controller: leader %d epoch %d ISR %v replicas %v\n", tp, st.Leader, st.LeaderEpoch, st.ISR, st.Replicas)
				}
			}
			for _, r := range tpc.assignment[i] {
				if p := c.Node(r).Broker.Partition(tp); p != nil {
					fmt.Fprintf(&b, "      broker %d: %s leader=%d pendingISR=%v epochs=%v\n", r, p, p.Leader(), p.PendingISR(), p.Log().Epochs().Entries())
				}
			}
		}
	}
	return b.String()
}

// sample checks what must hold at every moment, on every running broker:
//   - logStartOffset <= HW <= LEO on every replica;
//   - a replica's leader epoch never decreases (within an incarnation, and
//     across restarts once the new incarnation has applied metadata);
//   - a leader's HW never decreases within its epoch;
//   - a leader's HW is at most the LEO of every member of its ISR (members
//     that lost data in a power loss excepted: Kafka does not promise it
//     for them).
func (run *chaosRun) sample() {
	c := run.c
	run.stats.checks++
	for _, id := range c.NodeIDs() {
		if c.State(id) != NodeRunning {
			continue
		}
		for _, p := range c.Node(id).Broker.Partitions() {
			l := p.Log()
			key := replicaKey{id, p.TopicPartition()}
			if !(l.LogStartOffset() <= l.HighWatermark() && l.HighWatermark() <= l.LogEndOffset()) {
				run.violate("broker %d %s: logStart %d HW %d LEO %d out of order", id, p.TopicPartition(), l.LogStartOffset(), l.HighWatermark(), l.LogEndOffset())
			}
			e := p.LeaderEpoch()
			if prev, ok := run.epochSeen[p]; ok && e < prev {
				run.violate("broker %d %s: leader epoch went back from %d to %d", id, p.TopicPartition(), prev, e)
			}
			run.epochSeen[p] = e
			if p.Leader() >= 0 || e > 0 {
				if m, ok := run.maxEpoch[key]; ok && e < m {
					run.violate("broker %d %s: applied leader epoch %d after an earlier incarnation had %d", id, p.TopicPartition(), e, m)
				}
				run.maxEpoch[key] = max(run.maxEpoch[key], e)
			}
			if !p.IsLeader() {
				delete(run.hwSeen, p)
				continue
			}
			hw := l.HighWatermark()
			if prev, ok := run.hwSeen[p]; ok && prev.epoch == e && hw < prev.hw {
				run.violate("broker %d %s: leader HW went back from %d to %d in epoch %d", id, p.TopicPartition(), prev.hw, hw, e)
			}
			run.hwSeen[p] = hwMark{e, hw}
			for _, m := range p.ISR() {
				if m == id || c.State(m) != NodeRunning || run.taintedBroker(m) {
					continue
				}
				mp := c.Node(m).Broker.Partition(p.TopicPartition())
				if mp == nil {
					continue
				}
				if leo := mp.Log().LogEndOffset(); leo < hw {
					run.violate("broker %d leads %s (epoch %d) with HW %d, but ISR member %d has LEO %d", id, p.TopicPartition(), e, hw, m, leo)
				}
			}
		}
	}
}

// taintedBroker: the broker lost data in a power loss during this run.
func (run *chaosRun) taintedBroker(id int32) bool {
	return run.tainted[id]
}

// finalChecks runs after convergence:
//  1. every ISR replica holds byte-identical batches (offsets, values,
//     leader epochs) from the log start up to the leader's HW;
//  2. every acknowledged record is in the leader's log below the HW at the
//     offset it was acknowledged with, and a consumer reads it there;
//  3. the HW is at most every ISR member's LEO; each replica's epoch cache
//     is strictly increasing and names the epoch of every batch.
func (run *chaosRun) finalChecks(t testing.TB) {
	t.Helper()
	c := run.c
	ctl := c.Controller()
	rc := newRawClient(t, c, 1)
	defer c.StopClient(rc.host)
	acked := map[storage.TopicPartition][]*chaosSend{}
	for _, s := range run.sends {
		if s.acked {
			tp := tpOf(s.topic, s.partition)
			acked[tp] = append(acked[tp], s)
		}
	}
	// The cluster's own record of lost committed data (loss.go) must agree:
	// nothing is lost without a power loss.
	if run.powerLosses == 0 {
		for _, lr := range c.Losses() {
			run.violate("the cluster recorded committed data lost: %s [%d, %d) when broker %d started leading epoch %d at %s", lr.Partition, lr.From, lr.To, lr.Leader, lr.Epoch, lr.At)
		}
	}
	for _, tpc := range run.topics {
		for i := range tpc.assignment {
			tp := tpOf(tpc.name, int32(i))
			st := ctl.Image().Partition(tpc.name, int32(i))
			if st == nil || st.Leader < 0 {
				run.violate("%s has no leader at the end", tp)
				continue
			}
			leader := c.Node(st.Leader).Broker.Partition(tp)
			if leader == nil || !leader.IsLeader() {
				run.violate("%s: broker %d is the leader in the metadata but does not lead", tp, st.Leader)
				continue
			}
			hw := leader.Log().HighWatermark()
			lb, lerr := leader.Log().Batches(leader.Log().LogStartOffset(), hw)
			if lerr != nil {
				run.violate("%s: reading the leader's log: %v", tp, lerr)
				continue
			}
			run.checkEpochs(st.Leader, leader)

			// 1 and 3: ISR replicas agree with the leader below the HW.
			for _, m := range leader.ISR() {
				if m == st.Leader {
					continue
				}
				p := c.Node(m).Broker.Partition(tp)
				if p == nil {
					run.violate("%s: ISR member %d has no replica", tp, m)
					continue
				}
				run.checkEpochs(m, p)
				if p.Log().LogEndOffset() < hw {
					run.violate("%s: leader %d HW %d is beyond ISR member %d's LEO %d", tp, st.Leader, hw, m, p.Log().LogEndOffset())
				}
				if p.Log().LogStartOffset() != leader.Log().LogStartOffset() {
					run.violate("%s: ISR member %d starts at %d, the leader at %d", tp, m, p.Log().LogStartOffset(), leader.Log().LogStartOffset())
				}
				fb, err := p.Log().Batches(leader.Log().LogStartOffset(), hw)
				if err != nil {
					run.violate("%s: reading broker %d's log: %v", tp, m, err)
					continue
				}
				if d := diffBatches(lb, fb); d != "" {
					run.violate("%s: ISR member %d differs from leader %d below HW %d: %s", tp, m, st.Leader, hw, d)
					continue
				}
				lraw, _ := leader.Log().Read(leader.Log().LogStartOffset(), 1<<30, hw, true)
				fraw, _ := p.Log().Read(leader.Log().LogStartOffset(), 1<<30, hw, true)
				if !bytes.Equal(lraw, fraw) {
					run.violate("%s: ISR member %d's bytes below HW %d differ from leader %d's", tp, m, hw, st.Leader)
				}
			}

			// 2: acknowledged records, at their offsets, as a consumer reads them.
			byOffset := map[int64]string{}
			for _, b := range lb {
				for _, r := range b.Records {
					byOffset[r.Offset] = string(r.Value)
				}
			}
			read := run.consume(t, rc, st.Leader, tp, hw)
			if d := diffOffsetValues(lb, read); d != "" {
				run.violate("%s: a consumer of leader %d reads something else than its log below HW %d: %s", tp, st.Leader, hw, d)
			}
			for _, s := range acked[tp] {
				got, ok := byOffset[s.offset]
				if ok && got == s.value && s.offset < hw {
					continue
				}
				if _, lost := run.lostToPowerLoss[lostRecord{tp, s.offset, s.value}]; lost {
					run.stats.exempt++
					continue
				}
				switch {
				case !ok:
					run.violate("%s: acknowledged %q (offset %d, acked at %s) is missing: leader %d log ends at %d, HW %d", tp, s.value, s.offset, s.ackedAt, st.Leader, leader.Log().LogEndOffset(), hw)
				default:
					run.violate("%s: acknowledged %q (offset %d, acked at %s) was replaced by %q on leader %d", tp, s.value, s.offset, s.ackedAt, got, st.Leader)
				}
			}
		}
	}
}

// checkEpochs: batch epochs never decrease along the log, the epoch cache is
// strictly increasing in both fields, and the cache entry covering each
// batch names that batch's epoch.
func (run *chaosRun) checkEpochs(id int32, p *broker.Partition) {
	l := p.Log()
	entries := l.Epochs().Entries()
	for i := 1; i < len(entries); i++ {
		if entries[i].Epoch <= entries[i-1].Epoch || entries[i].StartOffset <= entries[i-1].StartOffset {
			run.violate("broker %d %s: epoch cache %v is not strictly increasing", id, p.TopicPartition(), entries)
			return
		}
	}
	bs, err := l.Batches(l.LogStartOffset(), l.LogEndOffset())
	if err != nil {
		run.violate("broker %d %s: %v", id, p.TopicPartition(), err)
		return
	}
	prev := int32(-1)
	for _, b := range bs {
		if b.PartitionLeaderEpoch < prev {
			run.violate("broker %d %s: batch at %d has epoch %d after a batch of epoch %d", id, p.TopicPartition(), b.BaseOffset, b.PartitionLeaderEpoch, prev)
			return
		}
		prev = b.PartitionLeaderEpoch
		// A broker that lost records in a power loss may have led its old
		// epoch again from a shorter log before it was fenced (Kafka does
		// the same); the cache then keeps a wrong start for some epoch
		// until it is truncated. Its batches are still checked against the
		// leader's below.
		if run.tainted[id] {
			continue
		}
		if e := l.Epochs().EpochForOffset(b.BaseOffset); e != b.PartitionLeaderEpoch {
			run.violate("broker %d %s: batch at %d has epoch %d, the epoch cache %v says %d", id, p.TopicPartition(), b.BaseOffset, b.PartitionLeaderEpoch, entries, e)
			return
		}
	}
}

// consume reads tp from leader as a consumer does (Fetch with replica id
// -1), from offset 0 up to hw.
func (run *chaosRun) consume(t testing.TB, rc *rawClient, leader int32, tp storage.TopicPartition, hw int64) []record.Record {
	t.Helper()
	var out []record.Record
	offset := int64(0)
	for rounds := 0; offset < hw && rounds < 10000; rounds++ {
		cl := &call{}
		fetchFrom := offset
		rc.sendAll(t, outgoing{to: leader, c: cl, build: func(*sim.Env) protocol.Request {
			req := &protocol.FetchRequest{ReplicaID: protocol.ConsumerReplicaID, ReplicaEpoch: -1, MaxWaitMs: 0, MinBytes: 1, MaxBytes: 1 << 20}
			req.Add(tp.Topic, protocol.FetchPartition{Index: tp.Partition, CurrentLeaderEpoch: -1, FetchOffset: fetchFrom, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20})
			return req
		}})
		rc.wait(t, cl, time.Minute)
		resp, ok := cl.resp.(*protocol.FetchResponse)
		if !ok || len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
			run.violate("%s: consumer fetch answered %#v", tp, cl.resp)
			return out
		}
		pr := resp.Topics[0].Partitions[0]
		if pr.ErrorCode != protocol.NONE {
			run.violate("%s: consumer fetch at %d: %s", tp, offset, pr.ErrorCode)
			return out
		}
		data := pr.Records
		if len(data) == 0 {
			run.violate("%s: consumer fetch at %d below HW %d returned nothing", tp, offset, hw)
			return out
		}
		for len(data) > 0 {
			b, n, err := record.Decode(data)
			if err != nil {
				run.violate("%s: consumer fetch at %d: %v", tp, offset, err)
				return out
			}
			for _, r := range b.Records {
				if r.Offset >= offset {
					out = append(out, r)
				}
			}
			offset = b.BaseOffset + int64(b.LastOffsetDelta) + 1
			data = data[n:]
		}
	}
	return out
}

// diffBatches describes the first difference between two batch lists.
func diffBatches(a, b []record.Batch) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("extra batch at %d", b[i].BaseOffset)
		case i >= len(b):
			return fmt.Sprintf("missing batch at %d (%s)", a[i].BaseOffset, batchText(a[i]))
		}
		x, y := a[i], b[i]
		if x.BaseOffset != y.BaseOffset || x.PartitionLeaderEpoch != y.PartitionLeaderEpoch || batchText(x) != batchText(y) {
			return fmt.Sprintf("batch %d: leader %s epoch %d, replica %s epoch %d", i, batchText(x), x.PartitionLeaderEpoch, batchText(y), y.PartitionLeaderEpoch)
		}
	}
	return ""
}

func batchText(b record.Batch) string {
	var vs []string
	for _, r := range b.Records {
		vs = append(vs, fmt.Sprintf("%d:%s", r.Offset, r.Value))
	}
	return "[" + strings.Join(vs, " ") + "]"
}

func diffOffsetValues(want []record.Batch, got []record.Record) string {
	var w []record.Record
	for _, b := range want {
		w = append(w, b.Records...)
	}
	for i := 0; i < max(len(w), len(got)); i++ {
		switch {
		case i >= len(w):
			return fmt.Sprintf("extra record %d:%s", got[i].Offset, got[i].Value)
		case i >= len(got):
			return fmt.Sprintf("record %d:%s not read", w[i].Offset, w[i].Value)
		case w[i].Offset != got[i].Offset || string(w[i].Value) != string(got[i].Value):
			return fmt.Sprintf("at #%d log %d:%s, read %d:%s", i, w[i].Offset, w[i].Value, got[i].Offset, got[i].Value)
		}
	}
	return ""
}
