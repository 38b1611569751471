package cluster

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Leaping: an idle cluster spends nearly all its events on loops that
// change nothing but clocks and counters (followers' empty long polls,
// 502 ms a cycle). The cluster, which knows its processes' loops, finds
// every loop that is steady and the first event that belongs to none
// (the horizon), and moves the loops across the span to it in closed form
// (sim.World.Leap). The world then runs the horizon's event as usual.
//
// Loops leaped today: replica fetchers in an idle long poll
// (broker.FetchLoop) and brokers' heartbeats to the active controller with
// its session-expiry timer (broker.HeartbeatLoop). Every other event
// (KRaft's NoOp records and fetches, periodic tasks) bounds a span. Events
// of different loops due at one instant keep the order a stepped run gives
// them (broker's leap_order.go).
//
// A leaped run ends every span in the state a stepped run reaches: the
// same brokers, controllers, logs, in-flight messages and timers.
// TestLeapMatchesSteps compares the two on scenarios that stop and disturb
// idle clusters, TestLeapHeartbeatsMatchSteps on long idle spans followed
// by kills, restarts, slow links and cuts.

// leapBackoff is how long the cluster waits, in virtual time, before it
// looks for a span again after finding none worth leaping: a busy cluster
// would otherwise search its queue before every event.
const leapBackoff = 50 * time.Millisecond

// SetLeaping turns leaping on or off (New does as the config's Leap
// says).
func (c *Cluster) SetLeaping(on bool) {
	if on {
		c.World.SetLeaper(c)
	} else {
		c.World.SetLeaper(nil)
	}
}

// Leap implements sim.Leaper.
func (c *Cluster) Leap(w *sim.World, limit sim.Time) (sim.Time, int) {
	now := w.Now()
	queued := w.Queued()
	brokers := map[string]*broker.Broker{}
	controllers := map[sim.Addr]broker.HeartbeatController{}
	for id, n := range c.nodes {
		if c.state[id] == NodeRunning && w.Process(Host(id)) != nil {
			brokers[Host(id)] = n.Broker
			if n.Controller != nil && n.Controller.Active() {
				controllers[n.Controller.Addr()] = n.Controller
			}
		}
	}
	ix := broker.NewLeapIndex(queued)
	loops := broker.FetchLoops(w, ix, brokers)
	hbs := broker.FindHeartbeatLoops(w, ix, brokers, controllers)
	claimed := make(map[uint64]bool, 2*len(loops))
	for _, l := range loops {
		for _, q := range l.Claims() {
			claimed[q.Seq] = true
		}
	}
	for _, q := range hbs.Claims() {
		claimed[q.Seq] = true
	}
	horizon := limit + 1
	due := false // a loop's event is due before the horizon
	for _, q := range queued {
		if !claimed[q.Seq] {
			horizon = min(horizon, q.At)
			break
		}
	}
	for _, q := range queued {
		if q.At >= horizon {
			break
		}
		due = due || claimed[q.Seq]
	}
	work := len(loops) + hbs.Len()
	if !due {
		return max(horizon, now.Add(leapBackoff)), work
	}
	drop, add, last := broker.LeapLoops(now, horizon, loops, hbs)
	if err := w.Leap(min(last, limit), drop, add); err != nil {
		panic(fmt.Sprintf("cluster: leaping %d fetch and %d heartbeat loops from %s to %s: %v", len(loops), hbs.Len(), now, horizon, err))
	}
	return horizon, work
}

// Digest describes the cluster's moving state: every live event in the
// queue, in the order it will run (timers by process and name, messages by
// link, kind, correlation id and summary, with their times), and each
// running node's broker and controller Digest. A leaped run and a stepped one of the same
// actions must reach the same digest at every pause.
func (c *Cluster) Digest() string {
	var s strings.Builder
	for _, q := range c.World.Queued() {
		switch {
		case q.Timer != nil:
			fmt.Fprintf(&s, "%s timer %s %s\n", q.At, q.Host, q.Timer.Name())
		case q.Env != nil:
			e := q.Env
			corr := int32(-1)
			switch m := e.Msg.(type) {
			case protocol.Request:
				corr = m.Header().CorrelationID
			case protocol.Response:
				corr = m.Correlation()
			}
			summary := ""
			if sm, ok := e.Msg.(sim.Summarizer); ok {
				summary = sm.Summary()
			}
			fmt.Fprintf(&s, "%s message %s->%s sent %s %s #%d %s\n", q.At, e.From, e.To, e.SentAt, e.Msg.Kind(), corr, summary)
		default:
			fmt.Fprintf(&s, "%s start %s\n", q.At, q.Host)
		}
	}
	for _, id := range c.NodeIDs() {
		if c.state[id] == NodeRunning && c.World.Process(Host(id)) != nil {
			s.WriteString(c.nodes[id].Broker.Digest())
			if ctl := c.nodes[id].Controller; ctl != nil {
				s.WriteString(ctl.Digest())
			}
		}
	}
	return s.String()
}
