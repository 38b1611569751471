package cluster

import (
	"fmt"

	"kafkascope/core/sim"
)

// An ensemble member crashes and comes back: the same zookeeper.Server is
// spawned again, so its disk (the transaction log and the epoch files)
// survives, as a restarted QuorumPeer finds its dataDir; it rejoins
// through leader election and a DIFF, TRUNC or SNAP from the leader. A
// standalone server is never killed here: a restarted one starts from an
// empty tree (snapshots are not modelled, docs/zookeeper.md), which would
// lose every znode of the cluster, not model a crash.

// zkServerIndex checks that n names an ensemble member.
func (c *Cluster) zkServerIndex(n int) error {
	if !c.IsZooKeeper() {
		return fmt.Errorf("this cluster runs in KRaft mode and has no ZooKeeper")
	}
	if n < 1 || n > len(c.zkServers) {
		return fmt.Errorf("no such ZooKeeper server %d (the ensemble is zookeeper-1..%d)", n, len(c.zkServers))
	}
	if len(c.zkServers) == 1 {
		return fmt.Errorf("zookeeper-1 runs standalone: a restart would start from an empty tree (snapshots are not modelled); use --zookeepers %d", MaxZooKeepers)
	}
	return nil
}

// ZooKeeperRunning reports whether server n's process runs.
func (c *Cluster) ZooKeeperRunning(n int) bool {
	st, ok := c.World.State(ZooKeeperHost(n))
	return ok && st == sim.ProcRunning
}

// KillZooKeeper crashes ensemble member n (kill -9): its clients lose
// their connections and move to another server within their session
// timeout; a leader's crash makes the others elect a new one.
func (c *Cluster) KillZooKeeper(n int) error {
	if err := c.zkServerIndex(n); err != nil {
		return err
	}
	if !c.ZooKeeperRunning(n) {
		return fmt.Errorf("%s is not running", ZooKeeperHost(n))
	}
	return c.World.Kill(ZooKeeperHost(n), false)
}

// StartZooKeeper restarts ensemble member n over the disk it had.
func (c *Cluster) StartZooKeeper(n int) error {
	if err := c.zkServerIndex(n); err != nil {
		return err
	}
	if c.ZooKeeperRunning(n) {
		return fmt.Errorf("%s is already running", ZooKeeperHost(n))
	}
	return c.World.Spawn(ZooKeeperHost(n), c.zkServers[n-1])
}
