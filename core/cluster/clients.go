package cluster

import (
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/event"
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
		for _, hd := range ClientHandlers(p) {
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

// ClientHandlers finds the Kafka clients of a program, through any
// wrappers (bounded: wrappers do not nest deeply).
func ClientHandlers(p sim.Process) []client.Handler {
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
	ev := GroupEvent{At: e.At, Generation: -1, Members: -1}
	var group string
	switch n := e.Note.(type) {
	case event.GroupRebalancing:
		group, ev.Kind, ev.Broker, ev.Generation, ev.Reason = n.Group, "rebalance", n.Broker, n.Generation, n.Reason
	case event.GroupGenerationStarted:
		group, ev.Kind, ev.Broker, ev.Generation = n.Group, "generation", n.Broker, n.Generation
	case event.GroupStable:
		group, ev.Kind, ev.Broker, ev.Generation, ev.Members = n.Group, "stable", n.Broker, n.Generation, int32(n.Members)
	case event.MemberLeft:
		group, ev.Kind, ev.Broker, ev.Member = n.Group, "member-left", n.Broker, n.Member
	case event.MemberExpired:
		group, ev.Kind, ev.Broker, ev.Member = n.Group, "member-expired", n.Broker, n.Member
	default:
		return
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
