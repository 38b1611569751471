package simulate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/cluster"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

const (
	maxViolations = 20
	settleLimit   = 3 * time.Minute // bound on each step of the liveness phase
	checkEvery    = time.Second     // invariant sampling period
)

// Violation is one broken invariant: its name (see checks_*.go), the
// virtual time it was seen and what was seen.
type Violation struct {
	Invariant string
	At        sim.Time
	Detail    string
}

func (v Violation) String() string { return fmt.Sprintf("t=%s %s: %s", v.At, v.Invariant, v.Detail) }

// Run is one seed's run: its plan, what happened, and what the checkers
// found.
type Run struct {
	Plan Plan
	Opts Options
	C    *cluster.Cluster

	Schedule   []string // what was done, with virtual times: the replay record
	Violations []Violation
	Stats      Stats

	sends     []*send
	producers []*producer
	members   []*member
	acked     map[commitKey]commitMark // the highest offset commit acknowledged to a member
	reader    *reader

	// lostToPowerLoss maps a record (partition, offset, value) to the
	// brokers that lost it from their page cache in a power loss. See
	// lostWrites for what Kafka 3.8 promises then.
	lostToPowerLoss map[lostRecord]map[int32]bool
	tainted         map[int32]bool // brokers that lost records in a power loss

	// Observations for the monotonicity and uniqueness checks.
	epochSeen map[*broker.Partition]int32
	maxEpoch  map[replicaKey]int32
	hwSeen    map[*broker.Partition]hwMark
	maxHW     map[storage.TopicPartition]int64 // the highest HW any replica ever had, at a sample
	// hwNoted is the highest HW any replica ever had, noted as each HW
	// moves (event.HighWatermarkUpdated): an HW can rise and fall back
	// between two samples (seed 3281).
	hwNoted       map[storage.TopicPartition]int64
	leaderOfEpoch map[partitionEpoch]int32 // the broker that led each partition's epoch
	quorumLeader  map[int32]int32          // quorum epoch -> its leader
	pendingReads  []pendingRead

	// pace, when set, hands control to a frame-by-frame caller between
	// slices of virtual time (stepper.go); nil runs straight through.
	pace *pacer

	x extras // later fault families and checkers (extras.go)

	txn txnRun // the transactional workload and its checks (txn_*.go)
}

// Stats are a run's measurements.
type Stats struct {
	Sent, Acked, Failed, Unknown, Exempt int
	PowerLosses                          int
	Consumed                             int // records given to group members
	OffsetResets                         int // auto.offset.reset after OFFSET_OUT_OF_RANGE (see watchCommits)
	EpochBumpDuplicates                  int // see duplicates
	Checks                               int
	Converged                            time.Duration // how long the liveness phase took
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

// violate records a broken invariant seen now (the first maxViolations).
func (run *Run) violate(invariant, format string, args ...any) {
	run.violateAt(run.C.World.Now(), invariant, format, args...)
}

// violateAt records a broken invariant whose violating event happened at.
func (run *Run) violateAt(at sim.Time, invariant, format string, args ...any) {
	if len(run.Violations) < maxViolations {
		run.Violations = append(run.Violations, Violation{invariant, at, fmt.Sprintf(format, args...)})
	}
}

func (run *Run) note(format string, args ...any) {
	line := fmt.Sprintf("t=%s ", run.C.World.Now()) + fmt.Sprintf(format, args...)
	run.Schedule = append(run.Schedule, line)
	if run.Opts.Trace != nil {
		run.Opts.Trace("== " + line)
	}
}

// Simulate executes one seed. An error is an infrastructure failure (the
// world erroring, a topic not created); what the checkers find is in
// Violations.
func Simulate(seed uint64, opts Options) (*Run, error) {
	run := newRun(seed, opts)
	err := run.simulate()
	if err != nil {
		return run, fmt.Errorf("%s: %w", run.Plan.Describe(opts), err)
	}
	return run, nil
}

// newRun is a run drawn from seed, not yet started.
func newRun(seed uint64, opts Options) *Run {
	return &Run{
		Plan: Draw(seed, opts), Opts: opts,
		lostToPowerLoss: map[lostRecord]map[int32]bool{}, tainted: map[int32]bool{},
		epochSeen: map[*broker.Partition]int32{}, maxEpoch: map[replicaKey]int32{},
		hwSeen: map[*broker.Partition]hwMark{}, maxHW: map[storage.TopicPartition]int64{}, hwNoted: map[storage.TopicPartition]int64{},
		leaderOfEpoch: map[partitionEpoch]int32{}, quorumLeader: map[int32]int32{},
		acked: map[commitKey]commitMark{},
	}
}

func (run *Run) simulate() error {
	p, opts := run.Plan, run.Opts
	// Stepped: a run's trace hash is its fingerprint (--trace, the page's
	// replay of a seed), and a leaped run traces only the events it did
	// not leap, which depends on where its driver paused.
	c, err := cluster.New(cluster.Config{Brokers: p.Brokers, Controllers: p.Voters, ZooKeepers: p.ZooKeepers, Seed: p.Seed, TraceContent: opts.TraceContent, Static: brokerConfig(opts.Overrides), Stepped: true,
		Version: p.Version, Unfinished: opts.unfinished})
	if err != nil {
		return err
	}
	run.C = c
	c.OnZooKeeperCommit(run.onZooKeeperCommit)
	c.OnNote(func(e sim.TraceEvent) {
		run.observe(e)
		if opts.Notes != nil {
			opts.Notes(e)
		}
		if opts.Trace != nil {
			opts.Trace(e.String())
		}
	})
	for _, t := range p.Topics {
		if err := createTopic(c, t.Name, t.Assignment, t.config(opts.Overrides, p.Version)); err != nil {
			return err
		}
	}
	if run.reader, err = newReader(c); err != nil {
		return err
	}
	for i, pp := range p.Producers {
		pr, err := run.startProducer(i, pp)
		if err != nil {
			return err
		}
		run.producers = append(run.producers, pr)
	}
	if err := run.startGroups(); err != nil {
		return err
	}
	if err := run.startTxn(); err != nil {
		return err
	}

	// Safety phase: faults at random gaps, invariants sampled every second.
	faults := sim.NewRand(p.Seed, "simulate/faults")
	start := c.World.Now()
	for i := 0; ; i++ {
		if opts.Minutes > 0 {
			if c.World.Now().Sub(start) >= time.Duration(opts.Minutes)*time.Minute {
				break
			}
		} else if i >= p.Faults {
			break
		}
		run.fault(faults)
		if err := run.advance(faultGap(faults)); err != nil {
			return err
		}
	}

	// Liveness phase: heal everything, bring everyone back, drain the
	// producers, and require convergence within the bound.
	for _, pr := range run.producers {
		run.stopSending(pr)
	}
	run.stopTxn()
	if err := run.healAll(); err != nil {
		return err
	}
	for _, id := range c.NodeIDs() {
		if err := c.Delay(id, 0); err != nil {
			return err
		}
	}
	if err := run.restartZooKeepers(); err != nil {
		return err
	}
	if err := run.restartAll(); err != nil {
		return err
	}
	if err := run.closeProducers(); err != nil {
		return err
	}
	if err := run.closeTxn(); err != nil {
		return err
	}
	if err := run.closeGroups(); err != nil {
		return err
	}
	run.sample()
	t0 := c.World.Now()
	if err := run.runWorldUntil(run.converged, settleLimit); err != nil {
		return err
	}
	run.Stats.Converged = c.World.Now().Sub(t0)
	if !run.converged() && run.electionLockstep() {
		run.note("  (no active controller: the two controller voters stood as candidates together in each of the last %d quorum epochs, up to %d; the simulated network has no jitter to part them: exempt)",
			run.x.tiedStreak, run.x.tiedEpoch)
		return nil
	}
	if !run.converged() {
		run.violate("liveness", "the cluster did not converge within %s after healing and restarting everything:\n%s", settleLimit, run.stateDump())
	}
	run.sample()
	if err := run.settleTxn(); err != nil {
		return err
	}
	// The reader stays up: a test may plant damage and check again.
	return run.finalChecks()
}

// faultGap draws the virtual time between two faults: mostly short, at
// times long enough for ISR shrinks (30 s) and session expiry (9 s).
func faultGap(r *sim.Rand) time.Duration {
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
func (run *Run) advance(d time.Duration) error {
	end := run.C.World.Now().Add(d)
	for run.C.World.Now() < end {
		step := min(checkEvery, end.Sub(run.C.World.Now()))
		if err := run.advanceWorld(step); err != nil {
			return err
		}
		run.sample()
	}
	return nil
}

// advanceUntil runs until cond (at most limit), sampling invariants.
func (run *Run) advanceUntil(cond func() bool, limit time.Duration) error {
	end := run.C.World.Now().Add(limit)
	for !cond() && run.C.World.Now() < end {
		step := min(checkEvery, end.Sub(run.C.World.Now()))
		if err := run.runWorldUntil(cond, step); err != nil {
			return err
		}
		run.sample()
	}
	return nil
}

// Report is the failure text: the plan, how to replay it, the schedule and
// the violations.
func (run *Run) Report() string {
	var b strings.Builder
	// The replay names the release even when it was drawn, so that it
	// keeps replaying this run when the releases to draw from change.
	pinned := run.Opts
	pinned.Version = run.Plan.Version
	fmt.Fprintf(&b, "%s\nreplay: go run ./scripts/kafkasim simulate --seed %d%s --trace\n", run.Plan.Describe(run.Opts), run.Plan.Seed, pinned.Flags())
	fmt.Fprintf(&b, "open: %s%s\n", PageURL, LinkHash(run.Plan.Seed, pinned))
	b.WriteString("schedule:\n")
	for _, line := range run.Schedule {
		b.WriteString("  " + line + "\n")
	}
	s := run.Stats
	fmt.Fprintf(&b, "sent %d: acked %d, failed %d, unresolved %d; %d power losses, %d acked records exempt as lost to them; %d idempotent records written again after a producer epoch bump\n",
		s.Sent, s.Acked, s.Failed, s.Unknown, s.PowerLosses, s.Exempt, s.EpochBumpDuplicates)
	if len(run.txn.apps) > 0 {
		b.WriteString(run.txn.stats.String() + "\n")
	}
	b.WriteString("violations:\n")
	for _, v := range run.Violations {
		b.WriteString("  " + v.String() + "\n")
	}
	return b.String()
}

// Flags are the command-line flags that reproduce opts (for replay lines).
func (opts Options) Flags() string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(opts.Overrides)) {
		fmt.Fprintf(&b, " --config %s=%s", k, opts.Overrides[k])
	}
	if opts.Faults > 0 {
		fmt.Fprintf(&b, " --faults %d", opts.Faults)
	}
	if opts.Minutes > 0 {
		fmt.Fprintf(&b, " --minutes %d", opts.Minutes)
	}
	if opts.NoGroups {
		b.WriteString(" --groups=false")
	}
	if opts.Version != (release.Version{}) {
		fmt.Fprintf(&b, " --version %s", opts.Version)
	}
	return b.String()
}
