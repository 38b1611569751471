package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The ZooKeeper era end to end: brokers register in ZooKeeper, one wins
// /controller, a crashed broker is noticed only when its session expires,
// a controller that loses ZooKeeper is replaced and resigns.

func newZkCluster(t *testing.T, brokers, zks int) *Cluster {
	t.Helper()
	c, err := New(Config{Brokers: brokers, Seed: 1, Version: release.Version{Major: 2, Minor: 8}, ZooKeepers: zks})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// zkState reads a partition's state znode from server 1.
func zkState(t *testing.T, c *Cluster, topic string, p int32) (kafkazk.PartitionState, int32) {
	t.Helper()
	data, st, err := c.ZooKeeperServer(1).Tree().GetData(kafkazk.TopicPartitionStatePath(topic, p), 0)
	if err != nil {
		t.Fatalf("state of %s-%d: %v", topic, p, err)
	}
	s, err := kafkazk.DecodePartitionState(data)
	if err != nil {
		t.Fatal(err)
	}
	return s, st.Version
}

func idle(c *Cluster, d time.Duration) { _ = c.RunUntil(func() bool { return false }, d) }

func TestZkClusterRegistersAndElects(t *testing.T) {
	for _, zks := range []int{1, 3} {
		c := newZkCluster(t, 3, zks)
		tree := c.ZooKeeperServer(1).Tree()
		ids, _, err := tree.GetChildren(kafkazk.BrokerIdsPath, 0)
		slices.Sort(ids)
		if err != nil || !slices.Equal(ids, []string{"1", "2", "3"}) {
			t.Fatalf("%d servers: /brokers/ids = %v, %v", zks, ids, err)
		}
		ctl := c.ZkController()
		data, _, err := tree.GetData(kafkazk.ControllerPath, 0)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := kafkazk.DecodeController(data)
		if ctl == nil || info.BrokerID != ctl.ActiveID() || ctl.Epoch() != 1 {
			t.Fatalf("%d servers: /controller %s, active %+v", zks, data, ctl)
		}
		for _, id := range c.NodeIDs() {
			// The registration is a create then a setData: version 1; its
			// czxid is the broker epoch.
			_, st, err := tree.GetData(kafkazk.BrokerIDPath(id), 0)
			if err != nil || st.Version != 1 || st.Czxid != c.Node(id).Broker.Epoch() || st.EphemeralOwner != c.Node(id).ZK.Session() {
				t.Errorf("%d servers: broker %d znode %+v, %v; epoch %d session %x", zks, id, st, err, c.Node(id).Broker.Epoch(), c.Node(id).ZK.Session())
			}
			if active := c.Node(id).ZkController.Active(); active != (id == ctl.ActiveID()) {
				t.Errorf("broker %d active %v", id, active)
			}
		}
		if err := c.CreateTopic("admin", "t", 3, 3, nil, nil); err != nil {
			t.Fatal(err)
		}
		idle(c, 2*time.Second)
		for p := int32(0); p < 3; p++ {
			s, v := zkState(t, c, "t", p)
			if v != 0 || s.LeaderEpoch != 0 || s.ControllerEpoch != 1 || len(s.ISR) != 3 {
				t.Errorf("t-%d: %+v version %d", p, s, v)
			}
			for _, id := range c.NodeIDs() {
				rp := c.Node(id).Broker.Partition(storage.TopicPartition{Topic: "t", Partition: p})
				if rp == nil || rp.IsLeader() != (id == s.Leader) || rp.LeaderEpoch() != 0 {
					t.Errorf("broker %d replica of t-%d: %v (state leader %d)", id, p, rp, s.Leader)
				}
			}
		}
	}
}

// A crashed broker keeps its znode until its session expires
// (zookeeper.session.timeout.ms 18 s after the server last heard from it,
// rounded up to a tickTime (3 s) bucket; an idle client pings every 6 s,
// so 12 to 21 s after the crash): only then does the controller move its
// leaderships, each one a conditional write of the state znode with the
// leader epoch one higher.
func TestZkCrashNoticedAtSessionExpiry(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.CreateTopic("admin", "t", 6, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	idle(c, 5*time.Second)
	ctl := c.ZkController().ActiveID()
	victim := int32(1)
	if victim == ctl {
		victim = 2
	}
	before := map[int32]kafkazk.PartitionState{}
	var led []int32
	for p := int32(0); p < 6; p++ {
		before[p], _ = zkState(t, c, "t", p)
		if before[p].Leader == victim {
			led = append(led, p)
		}
	}
	if len(led) == 0 {
		t.Fatal("the victim leads nothing")
	}
	if err := c.Kill(victim, false); err != nil {
		t.Fatal(err)
	}
	idle(c, 11*time.Second)
	for _, p := range led {
		if s, _ := zkState(t, c, "t", p); s.Leader != victim {
			t.Fatalf("t-%d moved to %d before the session could expire", p, s.Leader)
		}
	}
	idle(c, 11*time.Second)
	for p := int32(0); p < 6; p++ {
		s, v := zkState(t, c, "t", p)
		if slices.Contains(s.ISR, victim) || s.Leader == victim || s.LeaderEpoch != before[p].LeaderEpoch+1 || v != 1 {
			t.Errorf("t-%d after the expiry: %+v version %d (before %+v)", p, s, v, before[p])
		}
	}
	// The controller's death: a new one wins epoch 2.
	if err := c.Kill(ctl, false); err != nil {
		t.Fatal(err)
	}
	idle(c, 25*time.Second)
	n := c.ZkController()
	if n == nil || n.Epoch() != 2 || n.ActiveID() == ctl {
		t.Fatalf("after the controller died: %+v", n)
	}
	data, st, _ := c.ZooKeeperServer(1).Tree().GetData(kafkazk.ControllerEpochPath, 0)
	if string(data) != "2" || st.Version != 2 {
		t.Errorf("/controller_epoch %q version %d", data, st.Version)
	}
}

// A controller cut from ZooKeeper (not from the brokers) loses its
// session: another broker wins a higher epoch while the old one still
// believes it leads; once it hears its session is gone it resigns,
// registers again and follows.
func TestZkControllerCutFromZooKeeperResigns(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.CreateTopic("admin", "t", 3, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	idle(c, 5*time.Second)
	id := c.ZkController().ActiveID()
	name := Host(id)[len("kafka-"):]
	if err := c.CutZooKeeper(name, "zookeeper-1", false); err != nil {
		t.Fatal(err)
	}
	idle(c, 30*time.Second)
	var actives []int32
	for _, n := range c.NodeIDs() {
		if c.Node(n).ZkController.Active() {
			actives = append(actives, n)
		}
	}
	if len(actives) != 2 || !slices.Contains(actives, id) || c.ZkController().Epoch() != 2 || c.ZkController().ActiveID() == id {
		t.Fatalf("during the cut: active %v, newest %+v", actives, c.ZkController())
	}
	// The new controller dies: until its session expires ZooKeeper still
	// names it, so no controller is active, though the cut-off one still
	// believes it is (it is a zombie, not the active controller).
	newID := c.ZkController().ActiveID()
	if err := c.Kill(newID, false); err != nil {
		t.Fatal(err)
	}
	idle(c, time.Second)
	if ctl := c.ZkController(); ctl != nil || !c.Node(id).ZkController.Active() {
		t.Fatalf("the active controller is %+v after its death; the cut-off one active: %v", ctl, c.Node(id).ZkController.Active())
	}
	if err := c.Start(newID); err != nil {
		t.Fatal(err)
	}
	if err := c.HealZooKeeper(name, "zookeeper-1"); err != nil {
		t.Fatal(err)
	}
	idle(c, 30*time.Second)
	if c.Node(id).ZkController.Active() {
		t.Fatalf("broker %d still acts as controller", id)
	}
	if !c.AllUnfenced() {
		t.Fatalf("broker %d did not register again", id)
	}
	for p := int32(0); p < 3; p++ {
		if s, _ := zkState(t, c, "t", p); len(s.ISR) != 3 || s.ControllerEpoch != 3 { // epoch 3: after the second controller's death
			t.Errorf("t-%d: %+v", p, s)
		}
	}
}

// A new controller reads every partition's state znode before it acts,
// ten requests in flight at a time: the load grows with the partitions
// (the KRaft controller has them in memory already).
func TestZkControllerLoadGrowsWithPartitions(t *testing.T) {
	took := func(partitions int32) time.Duration {
		c := newZkCluster(t, 3, 1)
		if err := c.CreateTopic("admin", "t", partitions, 3, nil, nil); err != nil {
			t.Fatal(err)
		}
		idle(c, 5*time.Second)
		var loaded []event.ZkControllerLoaded
		c.OnNote(func(e sim.TraceEvent) {
			if n, ok := e.Note.(event.ZkControllerLoaded); ok {
				loaded = append(loaded, n)
			}
		})
		if err := c.Kill(c.ZkController().ActiveID(), false); err != nil {
			t.Fatal(err)
		}
		idle(c, 30*time.Second)
		if len(loaded) != 1 || loaded[0].Partitions != int(partitions) || loaded[0].Brokers != 2 || loaded[0].Epoch != 2 {
			t.Fatalf("%d partitions: loads %+v", partitions, loaded)
		}
		return loaded[0].Took
	}
	small, large := took(10), took(500)
	// 500 state znodes are 50 round trips of ten; 10 are one.
	if large < small+40*2*sim.DefaultLatency {
		t.Errorf("the load took %v for 10 partitions and %v for 500", small, large)
	}
	t.Logf("load: 10 partitions %v, 500 partitions %v", small, large)
}

// lostAnswer runs until applied names the broker whose write the server
// applied, then cuts zookeeper-1 → that broker for longer than the
// client's read timeout (12 s): the answer is lost with the connection,
// and the client sends the write again on its next one.
func lostAnswer(t *testing.T, c *Cluster, applied func() int32) int32 {
	t.Helper()
	if err := c.RunUntil(func() bool { return applied() > 0 }, time.Minute); err != nil || applied() <= 0 {
		t.Fatalf("the write was not applied: %v", err)
	}
	id := applied()
	if err := c.CutZooKeeper("zookeeper-1", fmt.Sprint(id), true); err != nil {
		t.Fatal(err)
	}
	idle(c, 13*time.Second)
	if err := c.HealZooKeeper("zookeeper-1", fmt.Sprint(id)); err != nil {
		t.Fatal(err)
	}
	idle(c, 15*time.Second)
	return id
}

// A broker whose registration was applied but whose answer was lost finds
// its own znode when it sends the multi again (NODEEXISTS, owned by its
// session: CheckedEphemeral's success) and serves, instead of waiting for
// its own session to go away.
func TestZkRegistrationAnswerLost(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.Kill(3, false); err != nil {
		t.Fatal(err)
	}
	idle(c, 25*time.Second) // its session expires: /brokers/ids/3 is gone
	if err := c.Start(3); err != nil {
		t.Fatal(err)
	}
	tree := c.ZooKeeperServer(1).Tree()
	lostAnswer(t, c, func() int32 {
		if _, err := tree.Exists(kafkazk.BrokerIDPath(3), 0); err == nil {
			return 3
		}
		return 0
	})
	_, st, err := tree.GetData(kafkazk.BrokerIDPath(3), 0)
	if err != nil || st.EphemeralOwner != c.Node(3).ZK.Session() {
		t.Fatalf("/brokers/ids/3: %v, owner %x, session %x", err, st.EphemeralOwner, c.Node(3).ZK.Session())
	}
	if s := c.Node(3).Broker.State(); s != broker.StateRunning {
		t.Fatalf("broker 3 is %s", s)
	}
}

// A broker whose /controller multi was applied but whose answer was lost
// finds /controller its own and /controller_epoch at the epoch it wrote
// (checkControllerAndEpoch), and acts as the controller.
func TestZkControllerElectionAnswerLost(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	old := c.ZkController().ActiveID()
	if err := c.Kill(old, false); err != nil {
		t.Fatal(err)
	}
	tree := c.ZooKeeperServer(1).Tree()
	winner := lostAnswer(t, c, func() int32 {
		data, _, err := tree.GetData(kafkazk.ControllerPath, 0)
		if err != nil {
			return 0
		}
		info, _ := kafkazk.DecodeController(data)
		if info.BrokerID == old {
			return 0
		}
		return info.BrokerID
	})
	ctl := c.ZkController()
	if ctl == nil || ctl.ActiveID() != winner || ctl.Epoch() != 2 || len(ctl.LiveBrokerIDs()) != 2 {
		t.Fatalf("broker %d won epoch 2, the active controller is %+v", winner, ctl)
	}
}
