package cluster

import (
	"strconv"
	"strings"

	"kafkascope/core/broker"
	"kafkascope/core/controller"
	"kafkascope/core/sim"
)

// Node is one Kafka process: a broker and, when the node is a voter, the
// controller (process.roles=broker,controller). The two share the process:
// killing it kills both.
type Node struct {
	ID         int32
	Broker     *broker.Broker
	Controller *controller.Controller
}

// Exited implements sim.Exiter: the process ends when its broker finished a
// clean shutdown.
func (n *Node) Exited() bool { return n.Broker.Stopped() }

// Start implements sim.Process.
func (n *Node) Start(env *sim.Env) {
	if n.Controller != nil {
		n.Controller.Start(env)
	}
	n.Broker.Start(env)
}

// Receive implements sim.Process: the port picks the listener. Nothing
// listens on any other port: the connection is refused.
func (n *Node) Receive(env *sim.Env, e *sim.Envelope) {
	switch port := portOf(e.To); {
	case port == broker.ControllerPort && n.Controller != nil:
		n.Controller.Receive(env, e)
	case port == broker.BrokerPort:
		n.Broker.Receive(env, e)
	default:
		if _, isReset := e.Msg.(*sim.Disconnected); !isReset {
			env.Send(e.To, e.From, &sim.Disconnected{Peer: e.To, Request: e.Msg})
		}
	}
}

func portOf(a sim.Addr) int {
	s := string(a)
	n, err := strconv.Atoi(s[strings.LastIndexByte(s, ':')+1:])
	if err != nil {
		return 0
	}
	return n
}
