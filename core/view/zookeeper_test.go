package view_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/view"
)

// zkSession is a 2.8 cluster (a ZooKeeper ensemble and three brokers)
// with topic t (3 partitions, replication factor 3).
func zkSession(t *testing.T, create string) *console.Session {
	t.Helper()
	s := session(t, create)
	out := s.Exec("kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic t --partitions 3 --replication-factor 3", nil)
	if !strings.Contains(strings.Join(out, "\n"), "Created topic t") {
		t.Fatalf("create: %v", out)
	}
	advance(t, s, 2*time.Second)
	return s
}

func znode(t *testing.T, z *view.ZooKeeper, path string) view.Znode {
	t.Helper()
	for _, n := range z.Znodes {
		if n.Path == path {
			return n
		}
	}
	t.Fatalf("no znode %s", path)
	return view.Znode{}
}

func hasZnode(z *view.ZooKeeper, path string) bool {
	for _, n := range z.Znodes {
		if n.Path == path {
			return true
		}
	}
	return false
}

func TestZooKeeperSnapshotOfA28Cluster(t *testing.T) {
	s := zkSession(t, "cluster create --version 2.8")
	c := s.Cluster()
	snap := view.Take(c)
	z := snap.ZooKeeper
	if z == nil {
		t.Fatal("no ZooKeeper on a 2.8 cluster")
	}
	// No KRaft on a ZooKeeper-era cluster.
	if len(snap.Quorum.Voters) != 0 || snap.Quorum.Frozen() || len(snap.MetaLog.Entries) != 0 || snap.MetaLog.Source != -1 {
		t.Fatalf("KRaft state on 2.8: quorum %+v metalog source %d, %d entries", snap.Quorum, snap.MetaLog.Source, len(snap.MetaLog.Entries))
	}
	if len(z.Servers) != 1 || z.Servers[0].Role != "standalone" || !z.Servers[0].Serving || z.Source != 1 || z.Servers[0].Host != "zookeeper-1" {
		t.Fatalf("servers %+v source %d", z.Servers, z.Source)
	}
	if z.LastZxid == 0 || z.Servers[0].LastZxid != z.LastZxid {
		t.Fatalf("zxid %x, server %+v", z.LastZxid, z.Servers[0])
	}
	for _, h := range snap.Clients {
		if strings.HasPrefix(h, "zookeeper-") && !strings.HasPrefix(h, "zookeeper-shell") {
			t.Fatalf("a ZooKeeper server listed as a client: %v", snap.Clients)
		}
	}
	// Each broker's registration is ephemeral, owned by its own session.
	for _, nd := range snap.Nodes {
		zn := znode(t, z, "/brokers/ids/"+itoa(nd.ID))
		if !zn.Ephemeral() || zn.OwnerBroker != nd.ID || zn.Stat.EphemeralOwner != c.Node(nd.ID).ZK.Session() || nd.ZkSession != zn.Stat.EphemeralOwner {
			t.Fatalf("broker %d: znode %+v, session %x", nd.ID, zn, c.Node(nd.ID).ZK.Session())
		}
		if !strings.Contains(zn.Data, `"host":"kafka-`+itoa(nd.ID)+`"`) || !nd.Registered || !nd.ZkConnected {
			t.Fatalf("broker %d: data %s, node %+v", nd.ID, zn.Data, nd)
		}
	}
	// /controller names the active controller, which the node marks.
	ctl := c.ZkController()
	if ctl == nil || z.ControllerID != ctl.ActiveID() || snap.Controller.NodeID != ctl.ActiveID() || z.ControllerEpoch != ctl.Epoch() {
		t.Fatalf("controller: znode %d epoch %d, snapshot %+v", z.ControllerID, z.ControllerEpoch, snap.Controller)
	}
	zc := znode(t, z, "/controller")
	if zc.OwnerBroker != z.ControllerID {
		t.Fatalf("/controller owned by %d, names %d", zc.OwnerBroker, z.ControllerID)
	}
	for _, nd := range snap.Nodes {
		if nd.IsController != (nd.ID == z.ControllerID) {
			t.Fatalf("node %d IsController %v, controller %d", nd.ID, nd.IsController, z.ControllerID)
		}
	}
	// Persistent znodes have no owner; the tree is depth-first.
	if st := znode(t, z, "/brokers/topics/t"); st.Ephemeral() || st.OwnerBroker != -1 || st.Stat.NumChildren != 1 {
		t.Fatalf("/brokers/topics/t %+v", st)
	}
	if z.Znodes[0].Path != "/" || z.Znodes[0].Depth != 0 {
		t.Fatalf("first znode %+v", z.Znodes[0])
	}
	for i, n := range z.Znodes[1:] {
		parent := n.Path[:strings.LastIndexByte(n.Path, '/')]
		if parent == "" {
			parent = "/"
		}
		found := false
		for _, p := range z.Znodes[:i+1] {
			if p.Path == parent {
				found = p.Depth == n.Depth-1
			}
		}
		if !found {
			t.Fatalf("%s listed before its parent (or at the wrong depth)", n.Path)
		}
	}
	// The controller watches the brokers' registrations.
	watched := false
	for _, w := range z.Watches {
		if w.Path == "/brokers/ids" && w.Child && w.Host == "kafka-"+itoa(z.ControllerID) {
			watched = true
		}
	}
	if !watched {
		t.Fatalf("no child watch of the controller on /brokers/ids: %+v", z.Watches)
	}
	// An unchanged tree is not listed again.
	again := view.Take(c).ZooKeeper
	if &again.Znodes[0] != &z.Znodes[0] {
		t.Fatal("an unchanged tree was listed again")
	}
}

// Killing a broker: its registration goes when its session expires, the
// controller's watch on /brokers/ids fires, and the controller rewrites
// the state znode of every partition the broker was in.
func TestZooKeeperAfterABrokerDies(t *testing.T) {
	s := zkSession(t, "cluster create --version 2.8")
	c := s.Cluster()
	before := view.Take(c).ZooKeeper
	ctlID := before.ControllerID
	victim := int32(2)
	if ctlID == victim {
		victim = 3
	}
	state := "/brokers/topics/t/partitions/0/state"
	v0 := znode(t, before, state).Stat.Version
	s.Exec("broker kill "+itoa(victim), nil)
	advance(t, s, 30*time.Second)
	snap := view.Take(c)
	z := snap.ZooKeeper
	if hasZnode(z, "/brokers/ids/"+itoa(victim)) {
		t.Fatalf("/brokers/ids/%d outlived its session", victim)
	}
	after := znode(t, z, state)
	if after.Stat.Version <= v0 || after.Stat.Mzxid <= znode(t, before, state).Stat.Mzxid {
		t.Fatalf("%s: version %d → %d", state, v0, after.Stat.Version)
	}
	if isr := after.Data[strings.Index(after.Data, `"isr":`):]; strings.Contains(isr[:strings.IndexByte(isr, ']')], itoa(victim)) {
		t.Fatalf("%s still names broker %d: %s", state, victim, after.Data)
	}
	fired := false
	for _, f := range z.Fired {
		if f.Type == "NodeChildrenChanged" && f.Path == "/brokers/ids" && f.Host == "kafka-"+itoa(ctlID) && f.From == "zookeeper-1" {
			fired = true
		}
	}
	if !fired {
		t.Fatalf("no NodeChildrenChanged /brokers/ids reached the controller: %+v", z.Fired)
	}
	for _, nd := range snap.Nodes {
		if nd.ID == victim && (nd.Registered || nd.ZkConnected) {
			t.Fatalf("killed broker %+v", nd)
		}
	}
}

func TestZooKeeperEnsembleRoles(t *testing.T) {
	s := zkSession(t, "cluster create --version 2.8 --zookeepers 3")
	z := view.Take(s.Cluster()).ZooKeeper
	roles := map[string]int{}
	for _, sv := range z.Servers {
		roles[sv.Role]++
		if sv.State != "running" || !sv.Serving {
			t.Fatalf("server %+v", sv)
		}
	}
	if len(z.Servers) != 3 || roles["LEADING"] != 1 || roles["FOLLOWING"] != 2 {
		t.Fatalf("servers %+v", z.Servers)
	}
	if z.Servers[z.Source-1].Role != "LEADING" {
		t.Fatalf("tree read from %+v", z.Servers[z.Source-1])
	}
	if !hasZnode(z, "/brokers/ids/3") {
		t.Fatal("the leader's tree has no /brokers/ids/3")
	}
	// The controller's watch lives on the server its session is
	// connected to, which need not be the leader.
	watched := false
	for _, w := range z.Watches {
		if w.Path == "/brokers/ids" && w.Child && w.Host == "kafka-"+itoa(z.ControllerID) && w.Server >= 1 {
			watched = true
		}
	}
	if !watched {
		t.Fatalf("no child watch of the controller on /brokers/ids: %+v", z.Watches)
	}
	// The leader dies: the other two elect one of them, which serves the tree.
	leader := z.Source
	if err := s.Cluster().World.Kill("zookeeper-"+itoa(int32(leader)), false); err != nil {
		t.Fatal(err)
	}
	advance(t, s, 30*time.Second)
	z = view.Take(s.Cluster()).ZooKeeper
	if sv := z.Servers[leader-1]; sv.State != "killed" || sv.Role != "" || sv.Serving {
		t.Fatalf("killed leader %+v", sv)
	}
	if z.Source == leader || z.Servers[z.Source-1].Role != "LEADING" {
		t.Fatalf("after the leader died: source %d, servers %+v", z.Source, z.Servers)
	}
}

func TestKRaftHasNoZooKeeper(t *testing.T) {
	if z := view.Take(session(t, "").Cluster()).ZooKeeper; z != nil {
		t.Fatalf("ZooKeeper on KRaft: %+v", z)
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// Servers are zookeeper-N; a tool named after ZooKeeper is a client.
func TestZkServerHosts(t *testing.T) {
	for host, want := range map[string]bool{"zookeeper-1": true, "zookeeper-3": true, "zookeeper-shell-1": false, "zookeeper-": false, "kafka-1": false} {
		if got := view.IsZkServer(host); got != want {
			t.Errorf("%s: %v", host, got)
		}
	}
}
