package simulate

import (
	"fmt"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// zkFaultOneIn: on a ZooKeeper-era cluster, at each step of the safety
// phase a ZooKeeper fault happens with probability 1/zkFaultOneIn, on top
// of the main stream's broker fault.
const zkFaultOneIn = 2

// zooKeeperFault (drawn from "simulate/faults/zookeeper") is one of the
// ZooKeeper era's own faults, chosen among those that apply:
//
//   - a broker cut from the whole ensemble but not from its peers: it
//     keeps leading and following until its session expires
//     (zookeeper.session.timeout.ms, 18 s in 2.8), then the controller
//     moves its leaderships, and the broker, once it reconnects, finds
//     its session expired and registers again (a new broker epoch); a
//     cut controller loses /controller the same way. With three servers
//     a broker may be cut from one of them only: its client moves to
//     another within the session timeout and nothing expires;
//   - an ensemble member crashes (kill -9, its disk kept) or starts again
//     and rejoins; losing two of three stops every ZooKeeper write (and
//     read) until one is back, while records keep flowing;
//   - two ensemble members cut from each other;
//   - the heal of one of these cuts.
//
// A standalone server is never killed: its restart would start from an
// empty tree (cluster/zkservers.go).
func (run *Run) zooKeeperFault() {
	c := run.C
	if !c.IsZooKeeper() {
		return
	}
	r := run.stream(&run.x.zookeeper, "simulate/faults/zookeeper")
	if r.Intn(zkFaultOneIn) != 0 {
		return
	}
	servers := len(c.ZooKeeperServers())
	net := c.World.Net()
	ids := c.NodeIDs()
	var choices faultChoices
	add := choices.add
	cut := func(a, b string) error {
		run.note("network cut %s %s", a, b)
		return c.CutZooKeeper(a, b, false)
	}
	id := pick(r, ids)
	broker := fmt.Sprint(id)
	whole := false
	for n := 1; n <= servers; n++ {
		whole = whole || !net.IsCut(cluster.Host(id), cluster.ZooKeeperHost(n))
	}
	add(4, whole, func() error {
		for n := 1; n <= servers; n++ {
			if !net.IsCut(cluster.Host(id), cluster.ZooKeeperHost(n)) {
				if err := cut(broker, cluster.ZooKeeperHost(n)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	n := 1 + r.Intn(servers)
	add(2, servers > 1 && !net.IsCut(cluster.Host(id), cluster.ZooKeeperHost(n)), func() error {
		return cut(broker, cluster.ZooKeeperHost(n))
	})
	var zkCuts [][2]string
	for _, l := range net.Cuts() {
		if isZooKeeperHost(l[0]) || isZooKeeperHost(l[1]) {
			zkCuts = append(zkCuts, l)
		}
	}
	add(5, len(zkCuts) > 0, func() error {
		l := pick(r, zkCuts)
		a, b := endpoint(l[0]), endpoint(l[1])
		run.note("network heal %s %s", a, b)
		return c.HealZooKeeper(a, b)
	})
	if servers > 1 {
		add(2, c.ZooKeeperRunning(n), func() error {
			run.note("zookeeper kill %d", n)
			return c.KillZooKeeper(n)
		})
		add(4, !c.ZooKeeperRunning(n), func() error {
			run.note("zookeeper start %d", n)
			return c.StartZooKeeper(n)
		})
		m := 1 + r.Intn(servers)
		add(2, m != n && !net.IsCut(cluster.ZooKeeperHost(n), cluster.ZooKeeperHost(m)), func() error {
			return cut(cluster.ZooKeeperHost(n), cluster.ZooKeeperHost(m))
		})
	}
	run.apply(r, choices)
}

// restartZooKeepers starts every ensemble member that is down (the
// liveness phase).
func (run *Run) restartZooKeepers() error {
	c := run.C
	for n := 1; n <= len(c.ZooKeeperServers()); n++ {
		if !c.ZooKeeperRunning(n) {
			run.note("zookeeper start %d", n)
			if err := c.StartZooKeeper(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// isZooKeeperHost reports whether host is a ZooKeeper server's.
func isZooKeeperHost(host string) bool {
	_, ok := zookeeper.HostNumber(host)
	return ok
}

// isBrokerHost reports whether host is a Kafka node's (cluster.Host).
func isBrokerHost(host string) bool { return strings.HasPrefix(host, "kafka-") }

// endpoint names a host as network cut names it: a broker by its id, a
// ZooKeeper server by its host name.
func endpoint(host string) string {
	if isZooKeeperHost(host) {
		return host
	}
	return fmt.Sprint(hostID(host))
}

// brokerCuts are the cut links between two brokers (the main stream's
// network heal draws among them; the ZooKeeper faults heal their own, and
// a zombie producer's cuts, txn_faults.go, are healed by a heal of all).
func brokerCuts(net *sim.Network) [][2]string {
	var out [][2]string
	for _, l := range net.Cuts() {
		if isBrokerHost(l[0]) && isBrokerHost(l[1]) {
			out = append(out, l)
		}
	}
	return out
}
