package simulate

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Each checker is shown to catch a planted bug: after a clean run, state
// is altered behind the engine's back (or a forged observation is fed to
// the checker), and the checker must name the invariant.

const plantSeed = 2

// cleanRun is a short run with no violation, and its last acknowledged
// acks=all record on a replicated partition held to the no-loss rule.
func cleanRun(t *testing.T) (*Run, *send, int32, []int32) {
	t.Helper()
	run := mustSimulate(t, plantSeed, Options{Faults: 4, NoPowerLoss: true, Version: kafka38})
	if len(run.Violations) > 0 {
		t.Fatalf("clean run failed:\n%s", run.Report())
	}
	for i := len(run.sends) - 1; i >= 0; i-- {
		s := run.sends[i]
		if !s.acked || s.acks != -1 || run.topic(s.topic).MinISR < 2 {
			continue
		}
		st := run.C.Controller().Image().Partition(s.topic, s.partition)
		if partitionOf(run, st.Leader, s).Log().LogEndOffset() != s.offset+1 {
			continue // not its partition's last record: planting would cut others
		}
		var followers []int32
		for _, r := range st.Replicas {
			if r != st.Leader {
				followers = append(followers, r)
			}
		}
		return run, s, st.Leader, followers
	}
	t.Fatal("no partition of a topic with min.insync.replicas=2 ends with an acknowledged acks=all record")
	return nil, nil, 0, nil
}

func wantViolation(t *testing.T, run *Run, invariant, detail string) {
	t.Helper()
	for _, v := range run.Violations {
		if v.Invariant == invariant && strings.Contains(v.Detail, detail) {
			return
		}
	}
	t.Fatalf("planted bug not reported as %s %q; violations: %v", invariant, detail, run.Violations)
}

func partitionOf(run *Run, id int32, s *send) *broker.Partition {
	return run.C.Node(id).Broker.Partition(storage.TopicPartition{Topic: s.topic, Partition: s.partition})
}

// plant runs fn inside broker id's process now (under the lockstep).
func plant(t *testing.T, run *Run, id int32, fn func(env *sim.Env)) {
	t.Helper()
	if err := run.C.World.Call(cluster.Host(id), "plant", fn); err != nil {
		t.Fatal(err)
	}
	if err := run.C.World.RunUntil(run.C.World.Now()); err != nil {
		t.Fatal(err)
	}
}

// rewrite replaces the record at s.offset on broker id with another value,
// keeping its batch's leader epoch and the HW.
func rewrite(t *testing.T, run *Run, id int32, s *send, asLeader bool) {
	t.Helper()
	p := partitionOf(run, id, s)
	plant(t, run, id, func(env *sim.Env) {
		l := p.Log()
		hw := l.HighWatermark()
		bs, err := l.Batches(s.offset, s.offset+1)
		if err != nil || len(bs) != 1 {
			t.Fatalf("batch at %d: %v %v", s.offset, bs, err)
		}
		if err := l.TruncateTo(s.offset); err != nil {
			t.Fatal(err)
		}
		rec := []record.Record{{Timestamp: env.Now().UnixMilli(), Value: []byte("planted")}}
		if asLeader {
			_, err = l.AppendAsLeader(record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), rec), bs[0].PartitionLeaderEpoch)
		} else {
			_, err = l.AppendAsFollower(record.Build(s.offset, bs[0].PartitionLeaderEpoch, record.NoProducer(), rec))
		}
		if err != nil {
			t.Fatal(err)
		}
		l.UpdateHighWatermark(hw)
	})
}

func recheck(t *testing.T, run *Run) {
	t.Helper()
	run.Violations = nil
	if err := run.finalChecks(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckersCatchPlantedBugs(t *testing.T) {
	t.Run("producer-id-unique", func(t *testing.T) {
		// Broker 5 handed the block broker 1 has (seed 461 before the
		// controller's image clone kept NextProducerID).
		run := &Run{C: &cluster.Cluster{World: sim.NewWorld(1)}}
		run.observe(sim.TraceEvent{Note: event.ProducerIDBlockReceived{Broker: 1, First: 0, Last: 999}})
		run.observe(sim.TraceEvent{Note: event.ProducerIDBlockReceived{Broker: 3, First: 1000, Last: 1999}})
		if len(run.Violations) > 0 {
			t.Fatalf("disjoint blocks: %v", run.Violations)
		}
		run.observe(sim.TraceEvent{Note: event.ProducerIDBlockReceived{Broker: 5, First: 0, Last: 999}})
		wantViolation(t, run, "producer-id-unique", "broker 5 received producer ids [0, 999], which overlap [0, 999] broker 1 received before")
	})
	t.Run("acked-write-lost", func(t *testing.T) {
		run, s, leader, _ := cleanRun(t)
		rewrite(t, run, leader, s, true)
		recheck(t, run)
		wantViolation(t, run, "acked-write-lost", `was replaced by "planted"`)
	})
	t.Run("isr-identical", func(t *testing.T) {
		run, s, _, followers := cleanRun(t)
		rewrite(t, run, followers[0], s, false)
		recheck(t, run)
		wantViolation(t, run, "isr-identical", "differs from leader")
	})
	t.Run("isr-behind-hw", func(t *testing.T) {
		run, s, _, followers := cleanRun(t)
		p := partitionOf(run, followers[0], s)
		plant(t, run, followers[0], func(*sim.Env) { _ = p.Log().TruncateTo(s.offset) })
		recheck(t, run)
		wantViolation(t, run, "isr-identical", "is beyond ISR member")
		run.Violations = nil
		run.sample()
		wantViolation(t, run, "isr-behind-hw", "but ISR member")
	})
	t.Run("hw-monotonic", func(t *testing.T) {
		run, s, leader, _ := cleanRun(t)
		p := partitionOf(run, leader, s)
		run.sample()
		plant(t, run, leader, func(*sim.Env) { p.Log().UpdateHighWatermark(s.offset) })
		run.Violations = nil
		run.sample()
		wantViolation(t, run, "hw-monotonic", "leader HW went back")
	})
	t.Run("epoch-monotonic", func(t *testing.T) {
		run, s, leader, _ := cleanRun(t)
		p := partitionOf(run, leader, s)
		run.epochSeen[p] = p.LeaderEpoch() + 1 // as if it had applied a later epoch before
		run.Violations = nil
		run.sample()
		wantViolation(t, run, "epoch-monotonic", "leader epoch went back")
	})
	t.Run("idempotent-duplicate", func(t *testing.T) {
		run := &Run{C: &cluster.Cluster{World: sim.NewWorld(1)}, sends: []*send{{idempotent: true, topic: "t", partition: 0, value: "v1"}}}
		tp := storage.TopicPartition{Topic: "t"}
		b1 := record.Build(0, 0, record.NoProducer(), []record.Record{{Value: []byte("v1")}, {Value: []byte("x")}})
		b2 := record.Build(2, 0, record.NoProducer(), []record.Record{{Value: []byte("v1")}})
		run.duplicates(tp, []record.Batch{decoded(t, b1), decoded(t, b2)})
		wantViolation(t, run, "idempotent-duplicate", `"v1" is at offsets 0 (producer id -1, epoch -1) and 2 (producer id -1, epoch -1)`)
		// Written again under a bumped producer epoch: what Kafka 3.8 allows.
		run.Violations = nil
		epoch0 := record.Build(0, 0, record.ProducerInfo{ID: 7, Epoch: 0, BaseSequence: 0}, []record.Record{{Value: []byte("v1")}, {Value: []byte("x")}})
		bumped := record.Build(2, 0, record.ProducerInfo{ID: 7, Epoch: 1, BaseSequence: 0}, []record.Record{{Value: []byte("v1")}})
		run.duplicates(tp, []record.Batch{decoded(t, epoch0), decoded(t, bumped)})
		if len(run.Violations) > 0 || run.Stats.EpochBumpDuplicates != 1 {
			t.Fatalf("a duplicate across producer epochs: %v, counted %d", run.Violations, run.Stats.EpochBumpDuplicates)
		}
		// Not under a lower epoch, nor under another producer id: KIP-360
		// only ever re-sends in-flight batches under the bumped epoch of the
		// same producer id.
		for _, second := range []record.ProducerInfo{{ID: 7, Epoch: 0, BaseSequence: 0}, {ID: 8, Epoch: 2, BaseSequence: 0}} {
			run.Violations = nil
			first := record.Build(0, 0, record.ProducerInfo{ID: 7, Epoch: 1, BaseSequence: 0}, []record.Record{{Value: []byte("v1")}})
			again := record.Build(1, 0, second, []record.Record{{Value: []byte("v1")}})
			run.duplicates(tp, []record.Batch{decoded(t, first), decoded(t, again)})
			wantViolation(t, run, "idempotent-duplicate", `"v1" is at offsets 0 (producer id 7, epoch 1) and 1`)
		}
		// A plain producer's duplicate is allowed (retries without idempotence).
		run.sends[0].idempotent = false
		run.Violations = nil
		run.duplicates(tp, []record.Batch{decoded(t, b1), decoded(t, b2)})
		if len(run.Violations) > 0 {
			t.Fatalf("a plain producer's duplicate reported: %v", run.Violations)
		}
	})
	// The uniqueness checkers see forged notes: legal ones first (nothing
	// reported), then a second leader for an epoch already led.
	a0 := storage.TopicPartition{Topic: "a"}
	for _, c := range []struct {
		invariant string
		legal     []sim.Note
		second    sim.Note
		want      string
	}{
		{"one-leader-per-epoch",
			[]sim.Note{event.LeaderStarted{Broker: 2, TP: a0, Epoch: 4}, event.LeaderStarted{Broker: 2, TP: a0, Epoch: 4}, event.LeaderStarted{Broker: 3, TP: a0, Epoch: 5}},
			event.LeaderStarted{Broker: 1, TP: a0, Epoch: 5}, "a-0 leader epoch 5: led by 3, then by 1"},
		{"one-controller-per-epoch",
			[]sim.Note{event.ControllerActivated{Node: 1, Epoch: 1}, event.ControllerActivated{Node: 1, Epoch: 1}, event.ControllerActivated{Node: 3, Epoch: 2}},
			event.ControllerActivated{Node: 2, Epoch: 2}, "controller epoch 2: led by 3, then by 2"},
		{"one-quorum-leader-per-epoch",
			[]sim.Note{event.RaftTransition{Node: 1, Role: "Leader", Epoch: 7}, event.RaftTransition{Node: 2, Role: "Follower", Epoch: 7}},
			event.RaftTransition{Node: 2, Role: "Leader", Epoch: 7}, "quorum epoch 7: led by 1, then by 2"},
	} {
		t.Run(c.invariant, func(t *testing.T) {
			run := &Run{C: &cluster.Cluster{World: sim.NewWorld(1)}, leaderOfEpoch: map[partitionEpoch]int32{}, quorumLeader: map[int32]int32{}}
			for _, n := range c.legal {
				run.observe(sim.TraceEvent{Detail: n.Key(), Note: n})
			}
			if len(run.Violations) > 0 {
				t.Fatalf("legal leaders reported: %v", run.Violations)
			}
			run.observe(sim.TraceEvent{Detail: c.second.Key(), Note: c.second})
			wantViolation(t, run, c.invariant, c.want)
		})
	}
	t.Run("read-above-hw", func(t *testing.T) {
		tp := storage.TopicPartition{Topic: "t"}
		ok := pendingRead{tp: tp, broker: 1, offset: 3, res: &fetchResult{done: true, hw: 5, records: []record.Record{{Offset: 3}, {Offset: 4}}}}
		if v := readAboveHW(ok, 5); v != "" {
			t.Fatalf("a legal read reported: %s", v)
		}
		above := pendingRead{tp: tp, broker: 1, offset: 3, res: &fetchResult{done: true, hw: 5, records: []record.Record{{Offset: 4}, {Offset: 5}}}}
		if v := readAboveHW(above, 9); !strings.Contains(v, "read offset 5, at or above the HW 5") {
			t.Fatalf("a read above the answer's HW: %q", v)
		}
		beyond := pendingRead{tp: tp, broker: 1, offset: 3, res: &fetchResult{done: true, hw: 9, records: []record.Record{{Offset: 6}}}}
		if v := readAboveHW(beyond, 6); !strings.Contains(v, "above every HW any replica has had (6)") {
			t.Fatalf("a read above every HW: %q", v)
		}
	})
	t.Run("liveness", func(t *testing.T) {
		run, _, _, followers := cleanRun(t)
		if !run.converged() {
			t.Fatal("the clean run is not converged")
		}
		if err := run.C.Kill(followers[0], false); err != nil {
			t.Fatal(err)
		}
		if run.converged() {
			t.Fatal("converged with a broker down")
		}
	})
}

func decoded(t *testing.T, data []byte) record.Batch {
	t.Helper()
	b, _, err := record.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// With consumer groups in the workload, an acknowledged commit planted
// higher than what the coordinator has makes the next sample report the
// committed offset going back; and members read records (each checked
// against the HW).
func TestCommittedOffsetCheckerCatchesAPlantedGoBack(t *testing.T) {
	opts := Options{Faults: 4, NoPowerLoss: true}
	seed := uint64(1)
	for len(Draw(seed, opts).Groups) == 0 {
		seed++
	}
	run := mustSimulate(t, seed, opts)
	if len(run.Violations) > 0 {
		t.Fatalf("clean run failed:\n%s", run.Report())
	}
	if len(run.acked) == 0 || run.Stats.Consumed == 0 {
		t.Fatalf("no acknowledged commits (%d) or consumed records (%d)", len(run.acked), run.Stats.Consumed)
	}
	for _, k := range sortedCommitKeys(run.acked) {
		m := run.acked[k]
		m.offset += 10
		run.acked[k] = m
		break
	}
	run.sample()
	wantViolation(t, run, "committed-offset-monotonic", "was acknowledged to")
	// A member handed a record at the HW (a broker serving uncommitted
	// data) is reported.
	run.Violations = nil
	tp := run.partitions()[0]
	run.consumed(run.members[0], []client.ConsumerRecord{{Topic: tp.Topic, Partition: tp.Partition, Offset: run.highestHW(tp)}})
	wantViolation(t, run, "read-above-hw", "but no replica's HW is above")
}

// The power-loss exemption of acked-write-lost: nothing is exempt without a
// power loss; with min.insync.replicas >= 2 in force one power loss is
// enough (seed 516: the other copy left the ISR cleanly first); under a
// weakened min.insync.replicas, only a loss the drawn setting would also
// have suffered.
func TestPowerLossExemption(t *testing.T) {
	for _, c := range []struct {
		lost, drawn, inForce int
		exempt               bool
	}{
		{0, 2, 2, false},
		{1, 2, 2, true},
		{1, 2, 1, false},
		{2, 2, 1, true},
		{0, 2, 1, false},
	} {
		if got := powerLossExempt(c.lost, c.drawn, c.inForce); got != c.exempt {
			t.Errorf("lost by %d brokers, min.insync.replicas drawn %d in force %d: exempt %v, want %v",
				c.lost, c.drawn, c.inForce, got, c.exempt)
		}
	}
}

// An invariant the engine checks in running code (core/invariant) stops
// the run where it breaks, with what was found: here a leader's HW set
// lower within its epoch, which the leader finds the next time a fetch
// moves its HW.
func TestEngineInvariantStopsTheRun(t *testing.T) {
	run, s, leader, _ := cleanRun(t)
	p := partitionOf(run, leader, s)
	plant(t, run, leader, func(*sim.Env) { p.Log().UpdateHighWatermark(s.offset) })
	err := run.C.World.RunUntil(run.C.World.Now().Add(10 * time.Second))
	if err == nil || !strings.Contains(err.Error(), "invariant violated") || !strings.Contains(err.Error(), "the leader's HW went down") {
		t.Fatalf("the run went on: %v", err)
	}
}

// zk-state-epoch sees forged commits of partition state znodes: the
// current controller's write passes, a deposed controller's and a write
// from an epoch that does not exist yet are reported; below IBP 2.7-IV2 a
// leader's write with an older controller epoch passes.
func TestZkStateEpochCatchesAPlantedWrite(t *testing.T) {
	tree := zookeeper.NewLocal()
	for _, op := range []zookeeper.Op{
		{Type: zookeeper.OpCreate, Path: kafkazk.ControllerEpochPath, Data: kafkazk.EncodeControllerEpoch(3)},
	} {
		if _, err := tree.Write(1, op, 0); err != nil {
			t.Fatal(err)
		}
	}
	state := func(epoch int32) zookeeper.Txn {
		data := kafkazk.EncodePartitionState(kafkazk.PartitionState{Leader: 1, LeaderEpoch: 4, ISR: []int32{1}, ControllerEpoch: epoch})
		return zookeeper.Txn{Type: zookeeper.OpMulti, Ops: []zookeeper.Txn{
			{Type: zookeeper.OpCheck, Path: kafkazk.ControllerEpochPath},
			{Type: zookeeper.OpSetData, Path: kafkazk.TopicPartitionStatePath("t", 0), Data: data},
		}}
	}
	for _, c := range []struct {
		epoch int32
		ibp   string
		want  string
	}{
		{3, "", ""},
		{2, "", "by controller epoch 2 while /controller_epoch is 3: a deposed controller's write went through"},
		{4, "", "by controller epoch 4, newer than /controller_epoch 3"},
		{2, "2.6", ""},
		{4, "2.6", "by controller epoch 4, newer than /controller_epoch 3"},
	} {
		run := &Run{C: &cluster.Cluster{World: sim.NewWorld(1)}}
		if c.ibp != "" {
			run.Opts.Overrides = map[string]string{"inter.broker.protocol.version": c.ibp}
		}
		txn := state(c.epoch)
		txn.Zxid = 7
		run.onZooKeeperCommit(txn, tree.Tree())
		if c.want == "" {
			if len(run.Violations) > 0 {
				t.Errorf("epoch %d, ibp %q: %v", c.epoch, c.ibp, run.Violations)
			}
			continue
		}
		wantViolation(t, run, "zk-state-epoch", "t-0: state written at zxid 0x7 "+c.want)
		// The same zxid seen by a second ensemble member is not checked twice.
		n := len(run.Violations)
		run.onZooKeeperCommit(txn, tree.Tree())
		if len(run.Violations) != n {
			t.Errorf("zxid 0x7 checked twice")
		}
	}
	if tp, ok := partitionOfStatePath("/brokers/topics/a-b/partitions/12/state"); !ok || tp != "a-b-12" {
		t.Errorf("%q %v", tp, ok)
	}
	for _, p := range []string{"/brokers/topics/a/partitions/1", "/brokers/ids/1", "/brokers/topics/a"} {
		if _, ok := partitionOfStatePath(p); ok {
			t.Errorf("%s read as a state znode", p)
		}
	}
}
