package view

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// ZooKeeper is a ZooKeeper-era cluster's ensemble (--version 2.8): every
// server, the znode tree as one server holds it (each znode's data and
// stat, the broker whose session owns an ephemeral one), the watches set
// on that server, the watches that fired lately, and the controller that
// /controller names. Snapshot.ZooKeeper is nil on a KRaft cluster.
type ZooKeeper struct {
	Servers []ZkServer
	// Source is the server whose tree is listed (1-based): the leader, a
	// standalone server, else the running server that applied the most;
	// 0 when there is no tree to read.
	Source   int
	LastZxid int64 // the source's last applied transaction
	// Znodes is the tree in depth-first order (a node, then its children
	// by name); it is shared between snapshots while the tree is unchanged.
	Znodes  []Znode
	Watches []ZkWatch // by path
	// Watches are every running server's: a client's watches live on
	// the server its session is connected to.
	// Fired is the newest watch notifications delivered, oldest first
	// (MaxZkFired of them).
	Fired []ZkFired
	// ControllerID is the broker /controller names (-1: no znode), and
	// ControllerEpoch /controller_epoch's value (-1: none yet).
	ControllerID    int32
	ControllerEpoch int32
}

// ZkServer is one server of the ensemble.
type ZkServer struct {
	ID    int
	Host  string // zookeeper-1
	State string // running, killed, power-off
	// Role is "standalone" for a lone server, else the quorum peer's state
	// (LEADING, FOLLOWING, LOOKING); "" while it is down.
	Role     string
	Serving  bool  // it takes client connections
	LastZxid int64 // the last transaction its tree applied
	Sessions int   // the sessions it knows
}

// Znode is one node of the tree.
type Znode struct {
	Path  string
	Name  string // the last segment; "/" for the root
	Depth int    // 0 for the root
	// Data is the node's bytes as stored (Kafka writes JSON), cut after
	// MaxZnodeData bytes (DataCut); Null for Java's null.
	Data    string
	DataCut bool
	Null    bool
	Stat    zookeeper.Stat
	// OwnerBroker is the broker whose session owns this ephemeral node
	// (-1: persistent, or a session no broker holds, like a tool's).
	OwnerBroker int32
}

// Ephemeral reports whether a session owns the node.
func (z *Znode) Ephemeral() bool { return z.Stat.EphemeralOwner != 0 }

// ZkWatch is one watch set on the source server.
type ZkWatch struct {
	Path   string
	Child  bool   // a child watch (getChildren); else a data watch (getData, exists)
	Host   string // who set it (the client's host: kafka-2, a tool); "" unknown
	Server int    // the server that holds it (1-based)
}

// ZkFired is one watch notification delivered to a client.
type ZkFired struct {
	At   sim.Time
	Host string // the client it reached (kafka-2)
	From string // the server that sent it (zookeeper-1)
	// Type is the event (NodeCreated, NodeDeleted, NodeDataChanged,
	// NodeChildrenChanged; None for a session state change), Path its znode.
	Type string
	Path string
}

// Bounds of the ZooKeeper view.
const (
	MaxZnodeData = 1024
	MaxZkFired   = 30
)

// zkCache is the last tree listed and the notifications read so far: the
// tree is listed again only when its last zxid changed (or the server's
// tree was rebuilt, or a broker's session became known), so an idle
// ensemble costs a frame nothing but the servers' states and the watches.
type zkCache struct {
	tree   *zookeeper.Tree
	zxid   int64
	owners map[int64]int32 // every broker session seen: id → broker
	nOwner int             // len(owners) when znodes was listed
	znodes []Znode
	// ctlID and ctlEpoch are what /controller and /controller_epoch said.
	ctlID, ctlEpoch int32
	seq             uint64 // the trace was read up to this event
	fired           []ZkFired
}

// takeZooKeeper reads the ensemble; nil on a KRaft cluster.
func takeZooKeeper(c *cluster.Cluster) *ZooKeeper {
	if !c.IsZooKeeper() {
		return nil
	}
	vs := stateFor(c)
	if vs.zk == nil {
		vs.zk = &zkCache{owners: map[int64]int32{}}
	}
	zc := vs.zk
	w := c.World
	z := &ZooKeeper{ControllerID: -1, ControllerEpoch: -1}
	var src *zookeeper.Server
	for n := 1; ; n++ {
		s := c.ZooKeeperServer(n)
		if s == nil {
			break
		}
		host := cluster.ZooKeeperHost(n)
		sv := ZkServer{ID: n, Host: host, State: procState(w, host)}
		sv.LastZxid = s.Tree().LastZxid()
		if sv.State == "running" {
			sv.Serving = s.Serving()
			sv.Role = "standalone"
			if s.Ensemble() {
				sv.Role = s.PeerState().String()
			}
			sv.Sessions = len(s.GlobalSessions())
		}
		z.Servers = append(z.Servers, sv)
		if better(src, sv, z) {
			src, z.Source = s, n
		}
	}
	for _, id := range c.NodeIDs() {
		if n := c.Node(id); n != nil && n.ZK != nil {
			if sid := n.ZK.Session(); sid != 0 {
				zc.owners[sid] = id
			}
		}
	}
	if src == nil {
		return z
	}
	t := src.Tree()
	z.LastZxid = t.LastZxid()
	if t != zc.tree || z.LastZxid != zc.zxid || len(zc.owners) != zc.nOwner || zc.znodes == nil {
		zc.tree, zc.zxid, zc.nOwner = t, z.LastZxid, len(zc.owners)
		zc.znodes = listZnodes(t, zc.owners)
		zc.ctlID, zc.ctlEpoch = controllerZnodes(t)
	}
	z.Znodes, z.ControllerID, z.ControllerEpoch = zc.znodes, zc.ctlID, zc.ctlEpoch
	z.Watches = takeWatches(c, z.Servers)
	zc.readFired(w.Trace())
	z.Fired = zc.fired
	return z
}

// controllerZnodes reads the broker /controller names (Kafka's
// {"version":1,"brokerid":1,"timestamp":"..."}) and /controller_epoch's
// value; -1 for a znode missing or unreadable.
func controllerZnodes(t *zookeeper.Tree) (id, epoch int32) {
	id, epoch = -1, -1
	if data, _, ok := t.Znode("/controller"); ok {
		var v struct {
			BrokerID *int32 `json:"brokerid"`
		}
		if json.Unmarshal(data, &v) == nil && v.BrokerID != nil {
			id = *v.BrokerID
		}
	}
	if data, _, ok := t.Znode("/controller_epoch"); ok {
		if e, err := strconv.ParseInt(string(data), 10, 32); err == nil {
			epoch = int32(e)
		}
	}
	return id, epoch
}

// better says whether the server read as sv is a better source of the
// tree than cur (z.Source, nil for none yet): a serving server over one that is not (the leader over
// a follower), then the one that applied the most.
func better(cur *zookeeper.Server, sv ZkServer, z *ZooKeeper) bool {
	if cur == nil {
		return true
	}
	old := z.Servers[z.Source-1]
	rank := func(v ZkServer) int {
		switch {
		case v.Serving && (v.Role == "LEADING" || v.Role == "standalone"):
			return 3
		case v.Serving:
			return 2
		case v.State == "running":
			return 1
		}
		return 0
	}
	if rank(sv) != rank(old) {
		return rank(sv) > rank(old)
	}
	return sv.LastZxid > old.LastZxid
}

// procState is a host's process state in the words the brokers' use.
func procState(w *sim.World, host string) string {
	st, ok := w.State(host)
	switch {
	case !ok:
		return "stopped"
	case st == sim.ProcRunning:
		return "running"
	case st == sim.ProcHostDown:
		return "power-off"
	}
	return "killed"
}

// listZnodes lists the tree depth-first. Paths sort segment by segment
// ("/t/partitions" before "/t-2"), so a node's children follow it.
func listZnodes(t *zookeeper.Tree, owners map[int64]int32) []Znode {
	// Sorted by a key with "/" as the lowest byte (each key made once:
	// a topic of 1000 partitions has 3000 znodes).
	type keyed struct{ key, path string }
	ks := make([]keyed, 0, t.NodeCount())
	for _, p := range t.Paths() {
		ks = append(ks, keyed{strings.ReplaceAll(p, "/", "\x00"), p})
	}
	slices.SortFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	out := make([]Znode, 0, len(ks))
	for _, k := range ks {
		p := k.path
		data, st, ok := t.Znode(p)
		if !ok {
			continue
		}
		z := Znode{Path: p, Name: p[strings.LastIndexByte(p, '/')+1:], Depth: strings.Count(p, "/"), Stat: st, OwnerBroker: -1}
		if p == "/" {
			z.Name, z.Depth = "/", 0
		}
		z.Null = data == nil
		if len(data) > MaxZnodeData {
			data, z.DataCut = data[:MaxZnodeData], true
		}
		z.Data = string(data)
		if st.EphemeralOwner != 0 {
			if b, ok := owners[st.EphemeralOwner]; ok {
				z.OwnerBroker = b
			}
		}
		out = append(out, z)
	}
	return out
}

// readFired adds the notifications delivered since the last read. The
// trace keeps a delivered message for its newest sim.MessageWindow
// events only: after a long jump (time advance 1h) the older ones of the
// jump are not listed.
func (zc *zkCache) readFired(tr *sim.Trace) {
	evs := tr.Since(zc.seq)
	if len(evs) == 0 {
		return
	}
	zc.seq = evs[len(evs)-1].Seq
	var add []ZkFired
	for _, e := range evs {
		if e.Kind != sim.TraceDeliver || e.Env == nil {
			continue
		}
		n, ok := e.Env.Msg.(*zookeeper.Notification)
		if !ok {
			continue
		}
		add = append(add, ZkFired{At: e.At, Host: e.Env.To.Host(), From: e.Env.From.Host(), Type: n.Event.Type.String(), Path: n.Event.Path})
	}
	if len(add) == 0 {
		return
	}
	// Copy on write: earlier snapshots keep the slice they were given.
	out := make([]ZkFired, 0, len(zc.fired)+len(add))
	out = append(append(out, zc.fired...), add...)
	if len(out) > MaxZkFired {
		out = out[len(out)-MaxZkFired:]
	}
	zc.fired = out
}

// zkController fills in s.Controller from a ZooKeeper-era cluster's
// active controller (its broker id and controller epoch; no metadata
// log, so no high watermark) and returns the brokers it counts live.
func zkController(c *cluster.Cluster, s *Snapshot) map[int32]bool {
	zc := c.ZkController()
	if zc == nil {
		return nil
	}
	s.Controller = Controller{NodeID: zc.ActiveID(), Epoch: zc.Epoch()}
	live := map[int32]bool{}
	for _, id := range zc.LiveBrokerIDs() {
		live[id] = true
	}
	return live
}

// takeWatches lists the watches of every running server: each server
// keeps those of the sessions connected to it. By path, then server.
func takeWatches(c *cluster.Cluster, servers []ZkServer) []ZkWatch {
	var out []ZkWatch
	for _, sv := range servers {
		if sv.State != "running" {
			continue
		}
		s := c.ZooKeeperServer(sv.ID)
		for _, wt := range s.Tree().Watches() {
			zw := ZkWatch{Path: wt.Path, Child: wt.Child, Server: sv.ID}
			if a, ok := s.WatcherAddr(wt.Watcher); ok {
				zw.Host = a.Host()
			}
			out = append(out, zw)
		}
	}
	slices.SortStableFunc(out, func(a, b ZkWatch) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// isZkServer reports whether host is a ZooKeeper server (zookeeper-2),
// not a tool named after it (zookeeper-shell-1 is a client).
func isZkServer(host string) bool {
	_, ok := zookeeper.HostNumber(host)
	return ok
}
