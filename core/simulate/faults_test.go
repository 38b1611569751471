package simulate

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// faultKinds names every fault the safety phase draws, by the schedule
// line it leaves (run.note). Order matters: the first match wins.
var faultKinds = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"voter power loss", regexp.MustCompile(`broker kill \d+ --power-loss \((a controller voter|the active controller)\)$`)},
	{"power loss", regexp.MustCompile(`broker kill \d+ --power-loss$`)},
	{"active controller crash", regexp.MustCompile(`broker kill \d+ \(the active controller\)$`)},
	{"crash", regexp.MustCompile(`broker kill \d+$`)},
	{"controlled stop", regexp.MustCompile(`broker stop \d+$`)},
	{"restart", regexp.MustCompile(`broker start \d+$`)},
	{"two-way cut", regexp.MustCompile(`network cut \d+ \d+$`)},
	{"one-way cut", regexp.MustCompile(`network cut \d+->\d+$`)},
	{"heal one link", regexp.MustCompile(`network heal \d+ \d+$`)},
	{"heal all", regexp.MustCompile(`network heal \(all\)$`)},
	{"delay", regexp.MustCompile(`network delay \d+ \S+$`)},
	{"no fault", regexp.MustCompile(`\(no fault\)$`)},
	{"consumer crash", regexp.MustCompile(`consumer \S+ \(\S+\) crashes; a new process starts and joins as a new member$`)},
	{"consumer close", regexp.MustCompile(`consumer \S+ \(\S+\) closes: .*rejoins as a new member when done$`)},
	{"consumer rejoin", regexp.MustCompile(`consumer \S+ \(\S+\) starts again and joins as a new member$`)},
	{"static consumer crash", regexp.MustCompile(`consumer \S+ \(\S+\) crashes; a new process starts with the same group.instance.id to take its place$`)},
	{"static consumer close", regexp.MustCompile(`consumer \S+ \(\S+\) closes: a last commit; a static member stays in the group and takes its place back when it starts again$`)},
	{"static consumer rejoin", regexp.MustCompile(`consumer \S+ \(\S+\) starts again with its group.instance.id$`)},
	{"transactional producer crash", regexp.MustCompile(`transactional producer \S+ \(\S+\) crashes; a successor starts with the same transactional.id$`)},
	{"transactional producer zombie", regexp.MustCompile(`transactional producer \S+ \(\S+\) is cut off from the cluster and lives on as a zombie; a successor starts with the same transactional.id$`)},
	{"copier crash", regexp.MustCompile(`copier process \d+ crashes; a successor starts with the same transactional.id and group$`)},
	{"copier zombie", regexp.MustCompile(`copier process \d+ is cut off from the cluster and lives on as a zombie; a successor starts with the same transactional.id and group$`)},
}

// safetyFaults classifies the schedule lines of a run's safety phase
// (those before the producers stop), by kind; unknown lines are an error.
func safetyFaults(t *testing.T, run *Run) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, line := range run.Schedule {
		if strings.HasSuffix(line, "stops sending") {
			break
		}
		if strings.Contains(line, "  (") {
			continue // what a fault did: "(broker 2 lost 3 unflushed records)", "(refused: ...)"
		}
		kind := ""
		for _, k := range faultKinds {
			if k.re.MatchString(line) {
				kind = k.kind
				break
			}
		}
		if kind == "" {
			t.Fatalf("seed %d: schedule line of no known kind: %q", run.Plan.Seed, line)
		}
		out[kind]++
	}
	return out
}

// Every kind of fault is drawn by at least one seed of make simtest's range
// (1-40), the consumer restarts with the consumer groups of --groups.
func TestEveryFaultKindIsDrawnInSeeds1To40(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs 40 seeds (about 20 s; not with -short or -race)")
	}
	count := map[string]int{}
	first := map[string]uint64{}
	for seed := uint64(1); seed <= 40; seed++ {
		run := mustSimulate(t, seed, Options{})
		for k, n := range safetyFaults(t, run) {
			if count[k] == 0 {
				first[k] = seed
			}
			count[k] += n
		}
	}
	var kinds []string
	for _, k := range faultKinds {
		if count[k.kind] == 0 {
			t.Errorf("no seed in 1-40 draws a %s", k.kind)
		}
		kinds = append(kinds, k.kind)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t.Logf("%-24s %4d (first in seed %d)", k, count[k], first[k])
	}
}

// Consumers that crash or close and come back as new members resume from
// the committed offsets: nothing goes back, every group settles with its
// live members, the restarted members read records; and the
// committed-offset checker still catches a planted go-back afterwards,
// except in a group whose __consumer_offsets partition lost records in a
// power loss.
func TestConsumerRestartsKeepCommittedOffsets(t *testing.T) {
	const seed = 10 // with 8 faults: a crash, a close and its rejoin
	run := mustSimulate(t, seed, Options{Faults: 8, NoPowerLoss: true})
	if len(run.Violations) > 0 {
		t.Fatalf("clean run failed:\n%s", run.Report())
	}
	kinds := safetyFaults(t, run)
	for _, k := range []string{"consumer crash", "consumer close", "consumer rejoin"} {
		if kinds[k] == 0 {
			t.Fatalf("seed %d draws no %s: %v", seed, k, kinds)
		}
	}
	initial := 0
	for _, g := range run.Plan.Groups {
		initial += g.Members
	}
	restarted := 0
	for _, m := range run.members[initial:] {
		restarted += m.consumed
	}
	if len(run.members) <= initial || restarted == 0 {
		t.Fatalf("%d members for %d planned; the restarted ones read %d records", len(run.members), initial, restarted)
	}
	if len(run.acked) == 0 {
		t.Fatal("no acknowledged commits seen")
	}

	keys := sortedCommitKeys(run.acked)
	k := keys[0]
	m := run.acked[k]
	m.offset += 10
	run.acked[k] = m
	run.sample()
	wantViolation(t, run, "committed-offset-monotonic", "group "+k.group+" "+k.tp.String()+": offset ")

	// The same go-back after its __consumer_offsets partition lost records
	// in a power loss is exempt.
	run.Violations = nil
	v, ok := run.coordinatorView(k.group)
	if !ok {
		t.Fatalf("group %s has no coordinator view", k.group)
	}
	run.x.offsetsLost = map[int32]bool{v.Partition: true}
	run.sample()
	if len(run.Violations) > 0 {
		t.Fatalf("an exempt go-back reported: %v", run.Violations)
	}
}

// Planted: a group whose members are not what the coordinator holds (a
// live member the coordinator does not know) is not settled.
func TestGroupLivenessSeesAMissingMember(t *testing.T) {
	run := mustSimulate(t, 10, Options{Faults: 8, NoPowerLoss: true})
	// The run closed every member: each group is Empty, as wanted.
	if !run.groupsSettled() {
		t.Fatalf("groups not settled after closing:\n%s", run.describeGroups())
	}
	var m *member
	for _, x := range run.members {
		if x.closed && !x.crashed {
			m = x
			break
		}
	}
	m.closing, m.closed = false, false // as if it still ran
	if run.groupsSettled() {
		t.Fatalf("settled with a live member the coordinator does not have:\n%s", run.describeGroups())
	}
}

// The metadata-log checker catches a voter that lost committed entries,
// and a voter whose committed entry has another epoch.
func TestMetadataCheckerCatchesPlantedLoss(t *testing.T) {
	t.Run("truncated", func(t *testing.T) {
		run, _, _, _ := cleanRun(t)
		n := int64(len(run.x.metaCommitted))
		if n < 50 {
			t.Fatalf("only %d committed metadata entries seen", n)
		}
		id := int32(1) // node 1 is always a voter
		l := run.C.Node(id).Raft.Log()
		plant(t, run, id, func(*sim.Env) { _ = l.TruncateTo(n - 20) })
		recheck(t, run)
		wantViolation(t, run, "metadata-committed-lost", "voter 1's __cluster_metadata-0 ends at")
	})
	t.Run("other epoch", func(t *testing.T) {
		run, _, _, _ := cleanRun(t)
		last := len(run.x.metaCommitted) - 1
		run.x.metaCommitted[last]++ // as if another entry had been committed there
		run.Violations = nil
		run.sample()
		wantViolation(t, run, "metadata-committed-lost", "has an entry of epoch")
	})
}

// The new fault families replay exactly too: consumer restarts (a new
// process, a new member id drawn from the world's streams) and voter power
// losses give the same run, event for event.
func TestNewFaultsAreDeterministic(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		opts Options
		kind string
	}{
		{10, Options{Faults: 8, TraceContent: true}, "consumer crash"},
		{1, Options{TraceContent: true}, "voter power loss"},
	} {
		a, b := mustSimulate(t, c.seed, c.opts), mustSimulate(t, c.seed, c.opts)
		if safetyFaults(t, a)[c.kind] == 0 {
			t.Fatalf("seed %d draws no %s", c.seed, c.kind)
		}
		if ha, hb := a.C.World.Trace().Hash(), b.C.World.Trace().Hash(); ha != hb {
			t.Fatalf("seed %d: trace hashes differ: %x vs %x", c.seed, ha, hb)
		}
		if ra, rb := a.Report(), b.Report(); ra != rb {
			t.Fatalf("seed %d: same hash, different reports:\n%s\n---\n%s", c.seed, ra, rb)
		}
	}
}

// committed-data-lost skips a broker leading an epoch the controller had
// already superseded (a lagging broker replaying old metadata), and only
// that: the same epoch, or a later election, does not excuse it.
func TestStaleLeadershipIsOnlyASupersededEpoch(t *testing.T) {
	run := &Run{C: &cluster.Cluster{World: sim.NewWorld(1)}, leaderOfEpoch: map[partitionEpoch]int32{}, quorumLeader: map[int32]int32{}}
	for _, n := range []event.LeaderElected{{TP: storage.TopicPartition{Topic: "a"}, Leader: 2, Epoch: 1}, {TP: storage.TopicPartition{Topic: "a"}, Leader: 3, Epoch: 2}} {
		run.observe(sim.TraceEvent{At: sim.Time(5 * time.Second), Detail: n.Key(), Note: n})
	}
	for _, c := range []struct {
		tp    string
		epoch int32
		at    time.Duration
		stale bool
	}{
		{"a-0", 1, 6 * time.Second, true},  // epoch 2 was committed before
		{"a-0", 1, 5 * time.Second, true},  // at the same moment
		{"a-0", 2, 6 * time.Second, false}, // the current epoch
		{"a-0", 1, 4 * time.Second, false}, // before epoch 2 was committed
		{"b-0", 0, 6 * time.Second, false}, // another partition
	} {
		if got := run.staleLeadership(c.tp, c.epoch, sim.Time(c.at)); got != c.stale {
			t.Errorf("%s epoch %d at %s: stale = %v, want %v", c.tp, c.epoch, c.at, got, c.stale)
		}
	}
}
