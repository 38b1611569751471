package cluster

import (
	"testing"
	"time"

	"kafkascope/core/release"
)

func newZkCluster(t *testing.T, brokers, zks int) *Cluster {
	t.Helper()
	c, err := New(Config{Brokers: brokers, Seed: 1, Version: release.Version{Major: 2, Minor: 8}, ZooKeepers: zks, Unfinished: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestZkClusterStarts(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	ctl := c.ZkController()
	if ctl == nil {
		t.Fatal("no controller")
	}
	t.Logf("controller %d epoch %d at %v", ctl.ActiveID(), ctl.Epoch(), c.World.Now())
	if err := c.CreateTopic("admin", "t", 3, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	c.RunUntil(func() bool { return false }, 5*time.Second)
	for _, id := range c.NodeIDs() {
		for _, p := range c.Node(id).Broker.Partitions() {
			t.Logf("broker %d: %v", id, p)
		}
	}
	tree := c.ZooKeeperServer(1).Tree()
	_ = tree
}

func TestZkBrokerCrashMovesLeaders(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.CreateTopic("admin", "t", 6, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	c.RunUntil(func() bool { return false }, 5*time.Second)
	ctl := c.ZkController().ActiveID()
	victim := int32(1)
	if victim == ctl {
		victim = 2
	}
	if err := c.Kill(victim, false); err != nil {
		t.Fatal(err)
	}
	start := c.World.Now()
	c.RunUntil(func() bool { return false }, 30*time.Second)
	t.Logf("killed %d at %v", victim, start)
	for _, id := range c.NodeIDs() {
		if id == victim {
			continue
		}
		for _, p := range c.Node(id).Broker.Partitions() {
			t.Logf("broker %d: %v", id, p)
		}
	}
	// kill the controller
	if err := c.Kill(ctl, false); err != nil {
		t.Fatal(err)
	}
	c.RunUntil(func() bool { return false }, 40*time.Second)
	n := c.ZkController()
	if n == nil {
		t.Fatal("no controller after the controller died")
	}
	t.Logf("new controller %d epoch %d", n.ActiveID(), n.Epoch())
	for _, id := range c.NodeIDs() {
		if id == victim || id == ctl {
			continue
		}
		for _, p := range c.Node(id).Broker.Partitions() {
			t.Logf("broker %d: %v", id, p)
		}
	}
}
