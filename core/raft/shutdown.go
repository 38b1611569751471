package raft

import (
	"time"

	"kafkascope/core/sim"
)

// DefaultShutdownTimeout is how long a stopping controller's raft client
// may take to hand its quorum role over: KafkaRaftClientDriver calls
// KafkaRaftClient.shutdown(5000) when the controller shuts down
// (SharedServer.ensureNotRaftLeader, before the controller listener
// closes).
const DefaultShutdownTimeout = 5000 * time.Millisecond

// Shutdown begins the raft client's graceful shutdown
// (KafkaRaftClient.shutdown). A leader resigns at once; every state keeps
// answering requests and polling, without starting an election of its own,
// until another voter is known to lead (a follower, at once), the node is
// an observer or the only voter, or timeout passes
// (KafkaRaftClient.maybeCompleteShutdown). So a resigned leader still
// votes, and from 4.x still grants the pre-vote of the successor it named,
// while it stops. ShutdownComplete then reports true and the host may end
// the process.
func (n *Node) Shutdown(env *sim.Env, timeout time.Duration) {
	if !n.started || n.shutdown != nil {
		return
	}
	n.shutdown = &gracefulShutdown{deadline: env.Now().Add(timeout)}
	n.run(env, nil)
}

// ShutdownComplete reports whether a graceful shutdown finished (or timed
// out).
func (n *Node) ShutdownComplete() bool { return n.shutdown != nil && n.shutdown.done }

// gracefulShutdown is Kafka's GracefulShutdown: a deadline and whether it
// is over.
type gracefulShutdown struct {
	deadline sim.Time
	done     bool
}

// remaining is how long the shutdown may still take.
func (g *gracefulShutdown) remaining(now sim.Time) time.Duration {
	return time.Duration(remaining(g.deadline, now))
}

// maybeCompleteShutdown ends a graceful shutdown once there is nothing to
// hand over or the deadline passed; afterwards the node does nothing more.
func (n *Node) maybeCompleteShutdown(env *sim.Env) bool {
	g := n.shutdown
	if g == nil {
		return false
	}
	if g.done {
		return true
	}
	if env.Now() >= g.deadline || n.observer || n.quorum.isOnlyVoter() || n.quorum.hasRemoteLeader() {
		g.done = true
		n.wake.Stop()
		return true
	}
	return false
}
