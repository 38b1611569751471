package cluster

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/sim"
)

func newQuorumCluster(t testing.TB, brokers int, seed uint64) *Cluster {
	t.Helper()
	c, err := New(Config{Brokers: brokers, Controllers: 3, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Killing the active controller: another voter wins an election in a
// higher epoch within a few election timeouts, becomes the active
// controller, and metadata changes go through again.
func TestQuorumFailoverElectsANewActiveController(t *testing.T) {
	c := newQuorumCluster(t, 3, 1)
	q := newQuorumChecker(c)
	createTopic(t, c, "before", 1, 3)
	old := c.Controller()
	if old == nil {
		t.Fatal("no active controller after startup")
	}
	oldNode, oldEpoch := old.NodeID(), old.Epoch()
	if err := c.Kill(oldNode, false); err != nil {
		t.Fatal(err)
	}
	killedAt := c.World.Now()
	// Followers notice after controller.quorum.fetch.timeout.ms (2 s), then
	// a randomised election timeout (1-2 s), perhaps a split vote and a
	// backoff: well within 6 s.
	runUntil(t, c, func() bool { n := activeNode(c); return n >= 0 && n != oldNode }, 6*time.Second, "a new active controller")
	ctl := c.Controller()
	if ctl.Epoch() <= oldEpoch {
		t.Fatalf("new controller %d has epoch %d, not above %d", ctl.NodeID(), ctl.Epoch(), oldEpoch)
	}
	took := c.World.Now().Sub(killedAt)
	if took < 2*time.Second {
		t.Fatalf("new controller after %s: before the fetch timeout", took)
	}
	call := startCreate(t, c, ctl.NodeID(), "after")
	runUntil(t, c, call.done, 10*time.Second, "topic creation after failover")
	if !call.createdOK() {
		t.Fatalf("create after failover: %+v %v", call.resp, call.err)
	}
	q.runFor(t, c, 2*time.Second, 100*time.Millisecond)
	for _, id := range []int32{1, 2, 3} {
		if id == oldNode {
			continue
		}
		if c.Node(id).Broker.Image().Topics["after"] == nil {
			t.Errorf("broker %d never learned topic after", id)
		}
	}
	if len(q.violations) > 0 {
		t.Fatal(q.violations)
	}
}

// With one of three voters alive nothing commits: a topic creation times
// out (the admin client's 60 s default.api.timeout.ms), brokers keep their
// last image, and once a second voter returns, changes resume.
func TestQuorumLossFreezesMetadata(t *testing.T) {
	c := newQuorumCluster(t, 3, 2)
	q := newQuorumChecker(c)
	createTopic(t, c, "t", 1, 3)
	survivor := int32(3)
	for _, id := range []int32{1, 2} {
		if err := c.Kill(id, false); err != nil {
			t.Fatal(err)
		}
	}
	before := c.Node(survivor).Broker.Image().Offset
	call := startCreate(t, c, survivor, "frozen")
	start := c.World.Now()
	runUntil(t, c, call.done, 70*time.Second, "the creation to give up")
	if call.err == nil {
		t.Fatalf("creation without a quorum answered %+v", call.resp)
	}
	if took := c.World.Now().Sub(start); took < 59*time.Second {
		t.Fatalf("creation gave up after %s, before default.api.timeout.ms", took)
	}
	if c.Controller() != nil {
		t.Fatal("an active controller without a quorum")
	}
	img := c.Node(survivor).Broker.Image()
	if img.Offset != before || img.Topics["frozen"] != nil {
		t.Fatalf("broker 3's image moved without a quorum: offset %d → %d", before, img.Offset)
	}
	if st := c.Node(survivor).Broker.State(); st != broker.StateRunning {
		t.Fatalf("broker 3 is %s: a broker keeps serving without a controller", st)
	}
	if err := c.Start(2); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return c.Controller() != nil }, 15*time.Second, "an active controller once two voters run")
	call = startCreate(t, c, survivor, "thawed")
	runUntil(t, c, call.done, 10*time.Second, "a creation with the quorum back")
	if !call.createdOK() {
		t.Fatalf("create with the quorum back: %+v %v", call.resp, call.err)
	}
	q.runFor(t, c, time.Second, 100*time.Millisecond)
	if len(q.violations) > 0 {
		t.Fatal(q.violations)
	}
}

// A broker that cannot reach the quorum serves stale metadata: it does
// not know a topic the others have; after the network heals it catches
// up to the same image.
func TestLaggingBrokerCatchesUpOnMetadata(t *testing.T) {
	c := newQuorumCluster(t, 4, 3)
	q := newQuorumChecker(c)
	for _, v := range []int32{1, 2, 3} {
		if err := c.Cut(4, v, false); err != nil {
			t.Fatal(err)
		}
	}
	call := startCreate(t, c, 1, "news")
	runUntil(t, c, call.done, 10*time.Second, "the creation")
	if !call.createdOK() {
		t.Fatalf("create: %+v %v", call.resp, call.err)
	}
	q.runFor(t, c, time.Second, 100*time.Millisecond)
	if c.Node(1).Broker.Image().Topics["news"] == nil {
		t.Fatal("broker 1 does not know the new topic")
	}
	stale := c.Node(4).Broker.Image()
	if stale.Topics["news"] != nil {
		t.Fatal("broker 4 learned the topic through a cut")
	}
	hw := c.Node(activeNode(c)).Raft.HighWatermark()
	if stale.Offset+1 >= hw {
		t.Fatalf("broker 4 at offset %d is not behind the HW %d", stale.Offset, hw)
	}
	if err := c.Heal(0, 0, true); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return c.Node(4).Broker.Image().Topics["news"] != nil }, 5*time.Second, "broker 4 to catch up")
	q.runFor(t, c, time.Second, 100*time.Millisecond)
	if len(q.violations) > 0 {
		t.Fatal(q.violations)
	}
}

// Randomized controller crashes, power losses, restarts and cuts (seeded,
// replayable) with topic creations throughout. After every step: at most
// one quorum leader per epoch, committed metadata never lost or changed,
// every broker's image the replay of a prefix of the committed log. After
// healing everything: an active controller, every broker unfenced and at
// the same image.
func TestQuorumChaos(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			runQuorumChaos(t, seed)
		})
	}
}

func runQuorumChaos(t *testing.T, seed uint64) {
	rnd := sim.NewRand(seed, "quorum-chaos")
	brokers := 3 + int(rnd.Uint64()%3)
	c := newQuorumCluster(t, brokers, seed)
	q := newQuorumChecker(c)
	var calls []*adminCall
	pick := func() int32 { return int32(1 + rnd.Uint64()%uint64(brokers)) }
	for step := 0; step < 40; step++ {
		id := pick()
		switch r := rnd.Uint64() % 10; {
		case r < 2: // crash a voter (often the active one)
			if n := activeNode(c); n > 0 && rnd.Uint64()%2 == 0 {
				id = n
			}
			if c.State(id) == NodeRunning {
				_ = c.Kill(id, rnd.Uint64()%3 == 0)
			}
		case r < 5: // restart something that is down
			for _, n := range c.NodeIDs() {
				if c.State(n) != NodeRunning {
					_ = c.Start(n)
					break
				}
			}
		case r < 6:
			if other := pick(); other != id {
				_ = c.Cut(id, other, rnd.Uint64()%2 == 0)
			}
		case r < 7:
			_ = c.Heal(0, 0, true)
		default:
			if c.State(id) == NodeRunning {
				calls = append(calls, startCreate(t, c, id, fmt.Sprintf("t%d", step)))
			}
		}
		q.runFor(t, c, time.Duration(200+rnd.Uint64()%1800)*time.Millisecond, 100*time.Millisecond)
	}
	// Liveness: heal everything and start every node.
	_ = c.Heal(0, 0, true)
	for _, n := range c.NodeIDs() {
		if c.State(n) != NodeRunning {
			_ = c.Start(n)
		}
	}
	runUntil(t, c, func() bool {
		if !c.AllUnfenced() {
			return false
		}
		hw := c.Node(activeNode(c)).Raft.HighWatermark()
		for _, n := range c.NodeIDs() {
			if c.Node(n).Broker.Image().Offset+1 < hw-2 {
				return false
			}
		}
		return true
	}, 60*time.Second, "every broker unfenced and caught up after healing")
	q.runFor(t, c, 2*time.Second, 100*time.Millisecond)
	if len(q.violations) > 0 {
		t.Fatalf("seed %d: %v", seed, q.violations)
	}
	if len(q.committed) < 10 {
		t.Fatalf("seed %d: only %d committed entries checked", seed, len(q.committed))
	}
	for _, call := range calls {
		c.StopClient(call.host)
	}
}

// The checkers above are shown to fail: each planted fault is reported.
func TestQuorumCheckersCatchPlantedDamage(t *testing.T) {
	setup := func(t *testing.T) (*Cluster, *quorumChecker) {
		c := newQuorumCluster(t, 3, 5)
		q := newQuorumChecker(c)
		createTopic(t, c, "t", 1, 3)
		q.runFor(t, c, time.Second, 100*time.Millisecond)
		if len(q.violations) > 0 {
			t.Fatal(q.violations)
		}
		return c, q
	}
	expect := func(t *testing.T, q *quorumChecker, want string) {
		t.Helper()
		for _, v := range q.violations {
			if strings.Contains(v, want) {
				return
			}
		}
		t.Fatalf("planted damage not reported as %q; violations: %q", want, q.violations)
	}
	t.Run("two leaders in one epoch", func(t *testing.T) {
		c, q := setup(t)
		ctl := c.Controller()
		other := ctl.NodeID()%3 + 1
		n := event.RaftTransition{Node: other, Role: "Leader", Epoch: ctl.Epoch()}
		q.observe(sim.TraceEvent{Kind: sim.TraceNote, Detail: n.Key(), Note: n})
		expect(t, q, "has two leaders")
	})
	t.Run("a committed entry changed", func(t *testing.T) {
		c, q := setup(t)
		e := q.committed[3]
		e.payload = append([]byte(nil), e.payload...)
		e.payload[len(e.payload)-1] ^= 0xff
		q.committed[3] = e
		q.check(c)
		expect(t, q, "differs from the one committed before")
	})
	t.Run("a broker image that is no prefix", func(t *testing.T) {
		c, q := setup(t)
		c.Node(2).Broker.Image().Topics["t"].Partitions[0].LeaderEpoch += 7
		q.check(c)
		expect(t, q, "broker 2's image")
	})
}

// Snapshots bound the metadata log: with small thresholds the voters write
// snapshots and drop the log before them; a broker that was down meanwhile
// comes back below the log start, loads a snapshot, and ends with the same
// image as the others.
func TestMetadataSnapshotsBoundTheLog(t *testing.T) {
	c, err := New(Config{Brokers: 4, Controllers: 3, Seed: 6, Static: config.Static{
		"metadata.log.max.record.bytes.between.snapshots": "300",
		"metadata.max.retention.bytes":                    "600",
	}})
	if err != nil {
		t.Fatal(err)
	}
	q := newQuorumChecker(c)
	createTopic(t, c, "before", 2, 3)
	if err := c.Kill(4, false); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		call := startCreate(t, c, 1, fmt.Sprintf("while-4-is-down-%d", i))
		runUntil(t, c, call.done, 10*time.Second, "a creation")
		q.runFor(t, c, 5*time.Second, time.Second)
	}
	ctl := c.Controller()
	snaps := ctl.Raft().Snapshots()
	if len(snaps) == 0 {
		t.Fatal("no metadata snapshot after many records")
	}
	if start := ctl.Raft().LogStartOffset(); start == 0 {
		t.Fatalf("the log still starts at 0 (snapshots %v)", snaps)
	}
	var files []string
	for _, e := range c.Disk(ctl.NodeID()).List("/tmp/kafka-logs/__cluster_metadata-0") {
		if strings.HasSuffix(e.Name, ".checkpoint") && e.Name != "leader-epoch-checkpoint" {
			files = append(files, e.Name)
		}
	}
	if len(files) == 0 {
		t.Fatal("no <offset>-<epoch>.checkpoint file on the controller's disk")
	}
	seq := c.World.Trace().Count()
	if err := c.Start(4); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool {
		img := c.Node(4).Broker.Image()
		return img.Topics["while-4-is-down-4"] != nil && c.AllUnfenced()
	}, 20*time.Second, "broker 4 to catch up")
	loaded := false
	for _, e := range traceSince(c, seq) {
		switch n := e.Note.(type) {
		case event.SnapshotFetchStarted:
			loaded = loaded || n.Node == 4
		case event.SnapshotLoaded:
			loaded = loaded || n.Node == 4
		}
	}
	if !loaded {
		t.Fatal("broker 4 caught up without a snapshot although the log start moved past it")
	}
	q.runFor(t, c, time.Second, 100*time.Millisecond)
	if !sameImage(c.Node(4).Broker.Image(), c.Node(1).Broker.Image()) {
		t.Fatal("broker 4's image differs from broker 1's after loading the snapshot")
	}
	if len(q.violations) > 0 {
		t.Fatal(q.violations)
	}
}
