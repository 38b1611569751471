package cluster

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/config"
	"kafkascope/core/controller"
	"kafkascope/core/jmx"
	"kafkascope/core/raft"
	"kafkascope/core/release"
)

// ReplicaManager's gauges summarise the partitions a broker hosts; each is
// compared here with the same count taken from the controller's image
// (the committed state), through a follower's loss and a second one.
func TestReplicaManagerGaugesSummariseTheReplicas(t *testing.T) {
	c := newCluster(t, config.Static{"min.insync.replicas": "2"})
	createTopic(t, c, "t", 6, 3)
	check := func(when string, wantURP, wantUnderMin int) {
		t.Helper()
		img := c.ControllerImage()
		urp, under := 0, 0
		for _, id := range c.NodeIDs() {
			if c.State(id) != NodeRunning {
				continue
			}
			var want broker.ReplicaManagerGauges
			for _, st := range img.Topics["t"].Partitions {
				if !slices.Contains(st.Replicas, id) {
					continue
				}
				want.PartitionCount++
				if st.Leader != id {
					continue
				}
				want.LeaderCount++
				minISR := min(2, len(st.Replicas))
				if len(st.ISR) < len(st.Replicas) {
					want.UnderReplicatedPartitions++
				}
				if len(st.ISR) < minISR {
					want.UnderMinIsrPartitionCount++
				}
				if len(st.ISR) == minISR {
					want.AtMinIsrPartitionCount++
				}
			}
			got := c.Node(id).Broker.ReplicaManagerGauges()
			got.PartitionCount -= internalPartitions(c, id)
			if got != want {
				t.Fatalf("%s: broker %d's gauges %+v, the image says %+v", when, id, got, want)
			}
			urp += got.UnderReplicatedPartitions
			under += got.UnderMinIsrPartitionCount
		}
		if urp != wantURP || under != wantUnderMin {
			t.Fatalf("%s: UnderReplicatedPartitions %d and UnderMinIsrPartitionCount %d over the cluster, want %d and %d", when, urp, under, wantURP, wantUnderMin)
		}
	}
	check("all in sync", 0, 0)
	if err := c.Kill(3, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(40 * time.Second); err != nil {
		t.Fatal(err)
	}
	check("broker 3 down", 6, 0)
	if err := c.Kill(2, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(40 * time.Second); err != nil {
		t.Fatal(err)
	}
	check("brokers 2 and 3 down", 6, 6)
}

// internalPartitions counts the partitions of internal topics broker id
// hosts (none in this test's cluster unless a coordinator created them).
func internalPartitions(c *Cluster, id int32) int {
	n := 0
	for _, p := range c.Node(id).Broker.Partitions() {
		if p.TopicPartition().Topic != "t" {
			n++
		}
	}
	return n
}

// The controller's metadata gauges count the committed image of each
// controller, active or not; ActiveControllerCount summed over the
// cluster is 1, before and after the active controller dies.
func TestControllerGaugesSummariseTheImage(t *testing.T) {
	c, err := New(Config{Brokers: 3, Controllers: 3, Seed: 1, Stepped: true})
	if err != nil {
		t.Fatal(err)
	}
	createTopic(t, c, "solo", 3, 1)
	createTopic(t, c, "t", 2, 3)
	check := func(when string, wantOffline int) {
		t.Helper()
		active := 0
		for _, id := range c.NodeIDs() {
			n := c.Node(id)
			if c.State(id) != NodeRunning || n.Controller == nil {
				continue
			}
			img := n.Controller.Committed()
			var want controller.ControllerMetadataGauges
			for _, b := range img.Brokers {
				if b.Fenced {
					want.FencedBrokerCount++
				} else {
					want.ActiveBrokerCount++
				}
			}
			for _, tp := range img.Topics {
				want.GlobalTopicCount++
				for _, st := range tp.Partitions {
					want.GlobalPartitionCount++
					if st.Leader == -1 {
						want.OfflinePartitionsCount++
					}
					if st.Leader != st.Replicas[0] {
						want.PreferredReplicaImbalanceCount++
					}
				}
			}
			got := gaugeValues(n.Controller.MBeans(c.World.Now()))
			if got["ActiveControllerCount"] == 1 {
				active++
			}
			for name, v := range map[string]int{"ActiveBrokerCount": want.ActiveBrokerCount, "FencedBrokerCount": want.FencedBrokerCount,
				"GlobalTopicCount": want.GlobalTopicCount, "GlobalPartitionCount": want.GlobalPartitionCount,
				"OfflinePartitionsCount": want.OfflinePartitionsCount, "PreferredReplicaImbalanceCount": want.PreferredReplicaImbalanceCount} {
				if got[name] != int64(v) {
					t.Errorf("%s: controller %d's %s = %d, its image counts %d", when, id, name, got[name], v)
				}
			}
			if got["OfflinePartitionsCount"] != int64(wantOffline) {
				t.Errorf("%s: controller %d's OfflinePartitionsCount = %d, want %d", when, id, got["OfflinePartitionsCount"], wantOffline)
			}
		}
		if active != 1 {
			t.Errorf("%s: ActiveControllerCount sums to %d over the cluster, want 1", when, active)
		}
	}
	if err := c.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	check("all up", 0)
	leader := c.Controller().NodeID()
	if err := c.Kill(leader, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The dead node led one partition of solo, its only replica.
	check("the active controller dead", 1)
}

// gaugeValues are the Value of each kafka.controller gauge, by name.
func gaugeValues(beans []jmx.MBean) map[string]int64 {
	out := map[string]int64{}
	for _, b := range beans {
		name, _ := b.Name.Prop("name")
		v, err := strconv.ParseInt(b.Attrs[0].Value, 10, 64)
		if err == nil {
			out[name] = v
		}
	}
	return out
}

// meterCount is the Count of broker id's meter named name (under
// kafka.server:type=ReplicaManager).
func meterCount(t *testing.T, c *Cluster, id int32, name string) int64 {
	t.Helper()
	for _, b := range c.MBeans(id) {
		if b.Name.String() == "kafka.server:type=ReplicaManager,name="+name {
			n, _ := strconv.ParseInt(b.Attrs[0].Value, 10, 64)
			return n
		}
	}
	t.Fatalf("broker %d has no %s", id, name)
	return 0
}

// IsrShrinksPerSec and IsrExpandsPerSec count the ISR changes a leader
// makes through AlterPartition whose answer finds the change still
// pending: a follower cut off from its leader (but not from the
// controller) is shrunk out, the answer arriving first, and counted once.
// When the link heals the follower is expanded back in, but here the
// metadata log brings the committed change to the leader before the
// controller's answer does; the leader takes the new state from it and,
// as Kafka does, ignores the answer: no expand is counted. A dead broker
// removed from the ISR by the controller when it fences it counts on no
// leader.
func TestIsrMetersCountTheLeadersChanges(t *testing.T) {
	c := newCluster(t, nil) // node 1 is the only controller
	createTopic(t, c, "t", 3, 3)
	img := c.ControllerImage()
	var part, leader, follower int32 = -1, -1, -1
	for i, st := range img.Topics["t"].Partitions {
		if st.Leader == 1 {
			continue
		}
		for _, r := range st.Replicas {
			if r != 1 && r != st.Leader {
				part, leader, follower = int32(i), st.Leader, r
			}
		}
	}
	if part < 0 {
		t.Fatal("no partition led by a broker that is not the controller")
	}
	counts := func() (shrinks, expands int64) {
		return meterCount(t, c, leader, "IsrShrinksPerSec"), meterCount(t, c, leader, "IsrExpandsPerSec")
	}
	if err := c.Cut(leader, follower, false); err != nil {
		t.Fatal(err)
	}
	produceTo(t, c, "t", part, 1, "a", "b")
	if err := c.Advance(45 * time.Second); err != nil {
		t.Fatal(err)
	}
	if s, e := counts(); s != 1 || e != 0 {
		t.Fatalf("after the cut: shrinks %d, expands %d; want 1 and 0", s, e)
	}
	if err := c.Heal(leader, follower, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(60 * time.Second); err != nil {
		t.Fatal(err)
	}
	if st := c.ControllerImage().Topics["t"].Partitions[part]; !slices.Contains(st.ISR, follower) {
		t.Fatalf("the follower is not back in the ISR: %v", st.ISR)
	}
	if s, e := counts(); s != 1 || e != 0 {
		t.Fatalf("after the heal: shrinks %d, expands %d; want 1 and 0", s, e)
	}
	if err := c.Kill(follower, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if st := c.ControllerImage().Topics["t"].Partitions[part]; slices.Contains(st.ISR, follower) {
		t.Fatalf("the dead follower is still in the ISR: %v", st.ISR)
	}
	if s, e := counts(); s != 1 || e != 0 {
		t.Fatalf("after the controller fenced the dead follower: shrinks %d, expands %d; want still 1 and 0", s, e)
	}
}

// The raft-metrics gauges name each node's role as its release does: the
// leader votes for itself; 3.8 reads a vote only in the voted state, so
// its followers show -1, while 4.x reads the epoch's election record and
// its followers show the vote they gave the leader; a broker-only node
// is an observer.
func TestRaftMetricsPerRelease(t *testing.T) {
	for _, c := range []struct {
		version      string
		followerVote func(leader int32) int32
	}{
		{"3.8", func(int32) int32 { return -1 }},
		{"4.3", func(leader int32) int32 { return leader }},
	} {
		v, err := release.Runnable(c.version)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := New(Config{Brokers: 4, Controllers: 3, Seed: 3, Stepped: true, Version: v})
		if err != nil {
			t.Fatal(err)
		}
		leader := cl.Controller().NodeID()
		for _, id := range cl.NodeIDs() {
			m := cl.Node(id).Raft.Metrics(cl.World.Now())
			want := raft.RaftMetrics{State: "follower", Leader: leader, Vote: c.followerVote(leader)}
			switch {
			case id == leader:
				want.State, want.Vote = "leader", leader
			case !cl.IsVoter(id):
				want.State, want.Vote = "observer", -1
			}
			if m.State != want.State || m.Leader != want.Leader || m.Vote != want.Vote || m.Epoch < 1 || m.HighWatermark < 1 {
				t.Errorf("%s: node %d reads %+v, want state %s, leader %d, vote %d", c.version, id, m, want.State, want.Leader, want.Vote)
			}
		}
	}
}
