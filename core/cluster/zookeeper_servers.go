package cluster

import "kafkascope/core/sim"

// ZooKeeperServers are the client addresses (host:2181) of the cluster's
// ZooKeeper servers, in server id order: what zookeeper-shell.sh and
// --zookeeper connect to. A KRaft cluster has none, and every cluster is
// KRaft for now, so this is nil.
func (c *Cluster) ZooKeeperServers() []sim.Addr { return nil }
