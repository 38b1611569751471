package cluster

import (
	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// ClientState is one running client process and the state of the Kafka
// clients in it, copied (client.Producer.State), for views. Reading it
// changes nothing in the cluster.
type ClientState struct {
	Host      string
	Producers []client.ProducerState
}

// unwrapper is a process wrapping a program (the console's JVM start delay).
type unwrapper interface{ Unwrap() sim.Process }

// Clients lists the running client processes (every host that is not a
// node), in host order, with the producers each runs.
func (c *Cluster) Clients() []ClientState {
	var out []ClientState
	for _, h := range c.World.Hosts() {
		if c.isNodeHost(h) {
			continue
		}
		p := c.World.Process(h) // nil unless running
		if p == nil {
			continue
		}
		cs := ClientState{Host: h}
		for _, hd := range clientHandlers(p) {
			if pr, ok := hd.(*client.Producer); ok {
				cs.Producers = append(cs.Producers, pr.State(c.World.Now()))
			}
		}
		out = append(out, cs)
	}
	return out
}

// clientHandlers finds the Kafka clients of a program, through any
// wrappers (bounded: wrappers do not nest deeply).
func clientHandlers(p sim.Process) []client.Handler {
	for range 4 {
		switch q := p.(type) {
		case *client.Process:
			return q.Handlers
		case unwrapper:
			p = q.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// isNodeHost reports whether host is a node's (kafka-N).
func (c *Cluster) isNodeHost(h string) bool {
	for id := range c.nodes {
		if Host(id) == h {
			return true
		}
	}
	return false
}
