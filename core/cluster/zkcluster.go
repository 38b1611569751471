package cluster

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/config"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/zkcontroller"
	"kafkascope/core/zookeeper"
)

// The ZooKeeper era (--version 2.8): the cluster runs a ZooKeeper ensemble
// (one standalone server, as Kafka's config/zookeeper.properties runs it,
// or three) as processes zookeeper-N:2181 beside the brokers, and every
// broker embeds a ZooKeeper session and a controller (KafkaServer with
// its KafkaZkClient and KafkaController). There is no metadata quorum.

// ZooKeeperPort is clientPort in Kafka's config/zookeeper.properties.
const ZooKeeperPort = 2181

// MaxZooKeepers bounds --zookeepers: 1 (standalone) or 3.
const MaxZooKeepers = 3

// ZooKeeperHost is ZooKeeper server n's host name.
func ZooKeeperHost(n int) string { return zookeeper.HostName(n) }

// ZooKeeperAddr is ZooKeeper server n's client address.
func ZooKeeperAddr(n int) sim.Addr {
	return sim.Addr(fmt.Sprintf("%s:%d", ZooKeeperHost(n), ZooKeeperPort))
}

// ZooKeeperServers is the ensemble's client addresses (zookeeper.connect),
// none for a KRaft cluster.
func (c *Cluster) ZooKeeperServers() []sim.Addr {
	out := make([]sim.Addr, 0, len(c.zkServers))
	for n := 1; n <= len(c.zkServers); n++ {
		out = append(out, ZooKeeperAddr(n))
	}
	return out
}

// ZooKeeperServer is server n (1-based), nil if there is none.
func (c *Cluster) ZooKeeperServer(n int) *zookeeper.Server {
	if n < 1 || n > len(c.zkServers) {
		return nil
	}
	return c.zkServers[n-1]
}

// IsZooKeeper reports whether the cluster runs in the ZooKeeper era.
func (c *Cluster) IsZooKeeper() bool { return len(c.zkServers) > 0 }

// spawnZooKeepers starts the ensemble: standalone for one server, with
// server.N lines for three (initLimit and syncLimit as zoo_sample.cfg).
func (c *Cluster) spawnZooKeepers(n int) error {
	var peers []zookeeper.Peer
	if n > 1 {
		for i := 1; i <= n; i++ {
			peers = append(peers, zookeeper.Peer{ID: int64(i), Host: ZooKeeperHost(i)})
		}
	}
	committed := func(t zookeeper.Txn, tree *zookeeper.Tree) {
		for _, f := range c.zkCommitted {
			f(t, tree)
		}
	}
	for i := 1; i <= n; i++ {
		s := zookeeper.NewServer(zookeeper.ServerConfig{ID: int64(i), Peers: peers, Committed: committed})
		c.zkServers = append(c.zkServers, s)
		if err := c.World.Spawn(ZooKeeperHost(i), s); err != nil {
			return err
		}
	}
	return nil
}

// spawnZkBroker starts a fresh incarnation of ZooKeeper-era broker id: its
// session, its controller, its broker, over the same disk.
func (c *Cluster) spawnZkBroker(id int32) error {
	n := &Node{ID: id}
	static := c.cfg.Static
	layers := config.Layers{Static: static, Release: c.release.Version}
	n.ZK = kafkazk.NewClient(kafkazk.ClientConfig{
		Servers:        c.ZooKeeperServers(),
		SessionTimeout: time.Duration(layers.BrokerInt("zookeeper.session.timeout.ms")) * time.Millisecond,
		MaxInFlight:    int(layers.BrokerInt("zookeeper.max.in.flight.requests")),
	})
	n.Broker = broker.New(broker.Config{
		NodeID: id, Host: Host(id), ClusterID: c.ClusterID, DirectoryID: c.dirIDs[id],
		Static: c.brokerStatic(id), Disk: c.disks[id], Release: c.release,
		ZooKeeper: &broker.ZooKeeperMode{Client: n.ZK},
	})
	n.ZkController = zkcontroller.New(zkcontroller.Config{
		BrokerID: id, ZK: n.ZK, Release: c.release, Conf: n.Broker.Conf,
		Register: n.Broker.ZkReregister,
	})
	n.Broker.SetZooKeeperController(n.ZkController)
	c.spawns++
	n.jmxServer = c.spawns
	n.logFlush = newLogFlushTimer(c.World.Now())
	c.disks[id].OnSegmentFlush(n.logFlush.flushed)
	c.nodes[id] = n
	c.state[id] = NodeRunning
	c.marks.forget(id)
	return c.World.Spawn(Host(id), n)
}

// OnZooKeeperCommit calls f with every transaction an ensemble member
// commits, once per member that applies it, and the member's tree after
// it (for checkers; f must change nothing).
func (c *Cluster) OnZooKeeperCommit(f func(t zookeeper.Txn, tree *zookeeper.Tree)) {
	c.zkCommitted = append(c.zkCommitted, f)
}

// ZkController is the active ZooKeeper-era controller: the running one
// that ZooKeeper names, /controller held by it and /controller_epoch at
// its epoch (read from the server whose tree is furthest along); nil when
// ZooKeeper names none that runs. A controller cut off from ZooKeeper
// believes it is active until its session's expiry reaches it, and a
// newer one may already act: only ZooKeeper's word counts.
func (c *Cluster) ZkController() *zkcontroller.Controller {
	var tree *zookeeper.Tree
	for _, s := range c.zkServers {
		if t := s.Tree(); t != nil && (tree == nil || t.LastZxid() > tree.LastZxid()) {
			tree = t
		}
	}
	if tree == nil {
		return nil
	}
	data, _, err := tree.GetData(kafkazk.ControllerPath, zookeeper.NoWatch)
	if err != nil {
		return nil
	}
	info, err := kafkazk.DecodeController(data)
	if err != nil {
		return nil
	}
	data, _, err = tree.GetData(kafkazk.ControllerEpochPath, zookeeper.NoWatch)
	if err != nil {
		return nil
	}
	epoch, err := kafkazk.DecodeControllerEpoch(data)
	if err != nil {
		return nil
	}
	n := c.nodes[info.BrokerID]
	if n == nil || n.ZkController == nil || c.state[info.BrokerID] != NodeRunning || !n.ZkController.Active() || n.ZkController.Epoch() != epoch {
		return nil
	}
	return n.ZkController
}

// zkAllRegistered reports whether a controller is active and knows every
// running broker, each of them serving.
func (c *Cluster) zkAllRegistered() bool {
	ctl := c.ZkController()
	if ctl == nil {
		return false
	}
	live := map[int32]bool{}
	for _, id := range ctl.LiveBrokerIDs() {
		live[id] = true
	}
	for _, id := range c.NodeIDs() {
		if c.state[id] != NodeRunning {
			continue
		}
		if !live[id] || c.nodes[id].Broker.State() != broker.StateRunning {
			return false
		}
	}
	return true
}

// zkEndpointHost resolves a network endpoint of a ZooKeeper-era cluster:
// a broker id or a ZooKeeper server's host name.
func (c *Cluster) zkEndpointHost(s string) (string, error) {
	for n := 1; n <= len(c.zkServers); n++ {
		if s == ZooKeeperHost(n) {
			return s, nil
		}
	}
	if strings.HasPrefix(s, "zookeeper-") {
		if !c.IsZooKeeper() {
			return "", fmt.Errorf("%s: this cluster runs in KRaft mode and has no ZooKeeper", s)
		}
		return "", fmt.Errorf("%s: no such ZooKeeper server (the ensemble is zookeeper-1..%d)", s, len(c.zkServers))
	}
	id, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return "", fmt.Errorf("%q is not a broker id or a ZooKeeper server", s)
	}
	if err := c.checkID(int32(id)); err != nil {
		return "", err
	}
	return Host(int32(id)), nil
}

// CutZooKeeper drops traffic between two endpoints, one of them a
// ZooKeeper server: a broker cut from ZooKeeper but not from its peers
// keeps serving until its session expires, or two ensemble members lose
// each other.
func (c *Cluster) CutZooKeeper(a, b string, oneWay bool) error {
	ha, err := c.zkEndpointHost(a)
	if err != nil {
		return err
	}
	hb, err := c.zkEndpointHost(b)
	if err != nil {
		return err
	}
	if ha == hb {
		return fmt.Errorf("cannot cut %s from itself", a)
	}
	c.World.Net().Cut(ha, hb)
	if !oneWay {
		c.World.Net().Cut(hb, ha)
	}
	return nil
}

// HealZooKeeper removes the cuts between two endpoints.
func (c *Cluster) HealZooKeeper(a, b string) error {
	ha, err := c.zkEndpointHost(a)
	if err != nil {
		return err
	}
	hb, err := c.zkEndpointHost(b)
	if err != nil {
		return err
	}
	c.World.Net().Heal(ha, hb)
	c.World.Net().Heal(hb, ha)
	return nil
}

// ControllerImage is the active controller's metadata: the KRaft
// controller's image, or what the ZooKeeper-era controller holds (nil
// while no controller is active).
func (c *Cluster) ControllerImage() *metadata.Image {
	if c.IsZooKeeper() {
		if ctl := c.ZkController(); ctl != nil {
			return ctl.Image()
		}
		return nil
	}
	if ctl := c.Controller(); ctl != nil {
		return ctl.Image()
	}
	return nil
}

// ActiveControllerID is the node whose controller is active (0: none).
func (c *Cluster) ActiveControllerID() int32 {
	if c.IsZooKeeper() {
		if ctl := c.ZkController(); ctl != nil {
			return ctl.ActiveID()
		}
		return 0
	}
	ctl := c.Controller()
	for _, id := range c.NodeIDs() {
		if ctl != nil && c.nodes[id].Controller == ctl {
			return id
		}
	}
	return 0
}
