package cluster

import (
	"strconv"
	"strings"

	"kafkascope/core/broker"
	"kafkascope/core/controller"
	"kafkascope/core/jmx"
	"kafkascope/core/kafkazk"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
	"kafkascope/core/zkcontroller"
)

// Node is one Kafka process: a broker and, when the node is a voter, the
// controller (process.roles=broker,controller). They share the process and
// one raft client (Kafka's KafkaRaftClient): a voter's on the controller
// listener, or an observer's on the broker listener for a broker-only node.
// Killing the process kills all of them.
type Node struct {
	ID         int32
	Raft       *raft.Node
	Broker     *broker.Broker
	Controller *controller.Controller
	// A ZooKeeper-era broker (zkcluster.go) has neither raft client nor
	// KRaft controller: its ZooKeeper session and its controller instead.
	ZK           *kafkazk.Client
	ZkController *zkcontroller.Controller
	// jmxServer names this incarnation's JMX server (never 0): a JMX
	// client connected to an earlier one is refused (node_jmx.go).
	jmxServer uint64
	// logFlush is this incarnation's LogFlushRateAndTimeMs timer: its
	// disk reports every log segment flushed (node_jmx.go).
	logFlush *logFlushTimer
}

// Exited implements sim.Exiter: the process ends when its broker finished a
// clean shutdown and, on a controller, its raft client handed its quorum
// role over (raft.Node.Shutdown).
func (n *Node) Exited() bool {
	return n.Broker.Stopped() && (n.Controller == nil || n.Raft.ShutdownComplete())
}

// Start implements sim.Process: the broker recovers its logs, then the
// raft client recovers the metadata log and starts replaying it into the
// controller (first) and the broker.
func (n *Node) Start(env *sim.Env) {
	if n.ZK != nil {
		n.Broker.Start(env) // it opens the session and starts the controller
		return
	}
	if n.Controller != nil {
		n.Raft.Register(env, n.Controller)
		n.Controller.Start(env)
	}
	n.Raft.Register(env, n.Broker)
	n.Broker.Start(env)
	if err := n.Raft.Start(env); err != nil {
		panic(err)
	}
}

// Receive implements sim.Process: raft messages go to the raft client;
// otherwise the port picks the listener. Nothing listens on any other
// port: the connection is refused.
func (n *Node) Receive(env *sim.Env, e *sim.Envelope) {
	if n.ZK != nil {
		if n.ZK.Receive(env, e) || n.ZkController.Handle(env, e) {
			return
		}
	} else if n.Raft.Handle(env, e) {
		return
	}
	if n.Broker != nil && n.Broker.HandleChannelReply(env, e) {
		return
	}
	switch port := portOf(e.To); {
	case port == broker.ControllerPort && n.Controller != nil:
		n.Controller.Receive(env, e)
	case port == broker.BrokerPort:
		n.Broker.Receive(env, e)
	case port == jmx.Port && n.serveJMX(env, e):
	default:
		if _, isReset := e.Msg.(*sim.Disconnected); !isReset {
			env.Send(e.To, e.From, &sim.Disconnected{Peer: e.To, Request: e.Msg})
		}
	}
}

// resignOnShutdown hands the quorum role over before a stopping combined
// node exits: Kafka's controller shuts its raft client down gracefully
// before it closes its listener (SharedServer.ensureNotRaftLeader). A
// leader resigns; the node keeps answering votes until another voter leads,
// for up to 5 s.
func (n *Node) resignOnShutdown(env *sim.Env) {
	if n.Controller == nil {
		return
	}
	n.Raft.Shutdown(env, raft.DefaultShutdownTimeout)
}

// quorumView is a broker's view of the quorum through its raft client.
type quorumView struct {
	rn     *raft.Node
	voters map[int32]sim.Addr
}

func (q quorumView) ActiveController() (sim.Addr, bool) {
	le := q.rn.LeaderAndEpoch()
	a, ok := q.voters[le.LeaderID]
	return a, ok && le.HasLeader()
}

func (q quorumView) HighWatermark() int64 { return q.rn.HighWatermark() }

func portOf(a sim.Addr) int {
	s := string(a)
	n, err := strconv.Atoi(s[strings.LastIndexByte(s, ':')+1:])
	if err != nil {
		return 0
	}
	return n
}
