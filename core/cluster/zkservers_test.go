package cluster

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/zookeeper"
)

// An ensemble member's crash: the leader of a 3-server ensemble dies, the
// other two elect a new one, the brokers' sessions move to them and live
// on (no broker is noticed as failed, the controller stays), a topic is
// still created; the member comes back over its disk and catches up.
func TestZkEnsembleLeaderCrashAndRestart(t *testing.T) {
	c := newZkCluster(t, 3, 3)
	leader := 0
	for n := 1; n <= 3; n++ {
		if c.ZooKeeperServer(n).PeerState() == zookeeper.Leading {
			leader = n
		}
	}
	if leader == 0 {
		t.Fatal("no ensemble leader")
	}
	ctl := c.ZkController()
	if err := c.KillZooKeeper(leader); err != nil {
		t.Fatal(err)
	}
	if err := c.KillZooKeeper(leader); err == nil || !strings.Contains(err.Error(), "is not running") {
		t.Fatalf("second kill: %v", err)
	}
	idle(c, 30*time.Second)
	serving := 0
	for n := 1; n <= 3; n++ {
		if n != leader && c.ZooKeeperServer(n).Serving() {
			serving++
		}
	}
	if serving != 2 {
		t.Fatalf("%d of the two live servers serve after the leader's crash", serving)
	}
	if got := c.ZkController(); got != ctl || got.Epoch() != ctl.Epoch() {
		t.Fatalf("the controller changed with the ensemble leader: %v", got)
	}
	if err := c.CreateTopic("admin", "after", 1, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	idle(c, 5*time.Second)
	if err := c.StartZooKeeper(leader); err != nil {
		t.Fatal(err)
	}
	idle(c, 30*time.Second)
	back := c.ZooKeeperServer(leader)
	if !back.Serving() {
		t.Fatalf("zookeeper-%d does not serve after its restart (%v)", leader, back.PeerState())
	}
	st, _ := zkState(t, c, "after", 0)
	if _, _, err := back.Tree().GetData("/brokers/topics/after/partitions/0/state", 0); err != nil || st.Leader < 0 {
		t.Fatalf("the restarted member lacks the topic made while it was down: %v (leader %d)", err, st.Leader)
	}
	for id := int32(1); id <= 3; id++ {
		if c.State(id) != NodeRunning {
			t.Fatalf("broker %d is %s", id, c.State(id))
		}
	}
	if live := c.ZkController().LiveBrokerIDs(); len(live) != 3 {
		t.Fatalf("live brokers %v", live)
	}
}

// A standalone server is not killed: its restart would start empty.
func TestZkStandaloneNotKilled(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.KillZooKeeper(1); err == nil || !strings.Contains(err.Error(), "standalone") {
		t.Fatalf("kill of a standalone server: %v", err)
	}
	if err := c.KillZooKeeper(4); err == nil {
		t.Fatal("kill of zookeeper-4 accepted")
	}
}
