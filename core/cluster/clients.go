package cluster

import (
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// ClientState is one running client process and the state of the Kafka
// clients in it, copied (client.Producer.State), for views. Reading it
// changes nothing in the cluster.
type ClientState struct {
	Host      string
	Producers []client.ProducerState
	Consumers []client.ConsumerState
}

// unwrapper is a process wrapping a program (the console's JVM start delay).
type unwrapper interface{ Unwrap() sim.Process }

// Clients lists the running client processes (every host that is not a
// node), in host order, with the producers and consumers each runs.
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
			switch cl := hd.(type) {
			case *client.Producer:
				cs.Producers = append(cs.Producers, cl.State(c.World.Now()))
			case *client.Consumer:
				cs.Consumers = append(cs.Consumers, cl.State())
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
	n, ok := strings.CutPrefix(h, "kafka-")
	if !ok {
		return false
	}
	id, err := strconv.Atoi(n)
	_, isNode := c.nodes[int32(id)]
	return err == nil && isNode && Host(int32(id)) == h
}

// GroupEvent is one thing a group coordinator noted about a group: a
// rebalance starting (with its reason), a new generation, the group
// becoming Stable, a member leaving or expiring.
type GroupEvent struct {
	At         sim.Time
	Broker     int32  // the coordinator that noted it
	Kind       string // rebalance, generation, stable, member-left, member-expired
	Generation int32  // -1 when the note has none
	Reason     string // rebalance: why
	Member     string // member-left, member-expired: the member id
	Members    int32  // generation, stable: the members (-1 when not noted)
}

// groupEventsKept bounds the events kept per group (the newest).
const groupEventsKept = 8

// groupLog keeps each group's newest coordinator notes, fed by the note
// hook as the run goes (so a view never scans the trace).
type groupLog struct {
	events map[string][]GroupEvent
}

func (g *groupLog) observe(e sim.TraceEvent) {
	kind, ok := strings.CutPrefix(e.Detail, "group.")
	if !ok {
		return
	}
	switch kind {
	case "rebalance", "generation", "stable", "member-left", "member-expired":
	default:
		return
	}
	ev := GroupEvent{At: e.At, Kind: kind, Generation: -1, Members: -1}
	var group string
	fields := sim.NoteFields(e.Note)
	for i := 0; i+1 < len(fields); i += 2 {
		v := fields[i+1]
		switch fields[i] {
		case "group":
			group = v
		case "broker":
			if n, err := strconv.Atoi(v); err == nil {
				ev.Broker = int32(n)
			}
		case "generation":
			if n, err := strconv.Atoi(v); err == nil {
				ev.Generation = int32(n)
			}
		case "reason":
			ev.Reason = v
		case "member":
			ev.Member = v
		case "members":
			if n, err := strconv.Atoi(v); err == nil {
				ev.Members = int32(n)
			}
		}
	}
	if g.events == nil {
		g.events = map[string][]GroupEvent{}
	}
	evs := append(g.events[group], ev)
	if len(evs) > groupEventsKept {
		evs = slices.Delete(evs, 0, len(evs)-groupEventsKept)
	}
	g.events[group] = evs
}

// GroupEvents is a group's newest coordinator events, oldest first (a
// copy).
func (c *Cluster) GroupEvents(group string) []GroupEvent {
	return slices.Clone(c.groups.events[group])
}
