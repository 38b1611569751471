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
// (broker.FetchLoop). Every other event (KRaft's NoOp records and fetches,
// heartbeats, periodic tasks) bounds a span.
//
// A leaped run ends every span in the state a stepped run reaches: the
// same brokers, logs, in-flight messages and timers. TestLeapMatchesSteps
// compares the two on scenarios that stop and disturb idle clusters.

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

// MayLeap implements sim.Leaper: next may be a loop's if it is one of
// the events the loops leaped today are made of.
func (c *Cluster) MayLeap(next sim.QueuedEvent) bool {
	if next.Timer != nil {
		return broker.LoopTimer(next.Timer.Name())
	}
	return next.Env != nil && broker.LoopMessage(next.Env.Msg)
}

// Leap implements sim.Leaper.
func (c *Cluster) Leap(w *sim.World, limit sim.Time) (sim.Time, int) {
	now := w.Now()
	queued := w.Queued()
	brokers := map[string]*broker.Broker{}
	for id, n := range c.nodes {
		if c.state[id] == NodeRunning && w.Process(Host(id)) != nil {
			brokers[Host(id)] = n.Broker
		}
	}
	loops := broker.FetchLoops(w, queued, brokers)
	tasks := broker.TaskLoops(queued, brokers)
	claimed := make(map[uint64]bool, 2*len(loops)+len(tasks))
	for _, l := range loops {
		for _, q := range l.Claims() {
			claimed[q.Seq] = true
		}
	}
	for _, l := range tasks {
		for _, q := range l.Claims() {
			claimed[q.Seq] = true
		}
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
	if !due {
		return max(horizon, now.Add(leapBackoff)), len(loops)
	}
	drop, add, last := broker.LeapFetchLoops(now, horizon, loops)
	tdrop, tadd, tlast := broker.LeapTaskLoops(w, now, horizon, tasks)
	drop, add, last = append(drop, tdrop...), append(add, tadd...), max(last, tlast)
	if err := w.Leap(min(last, limit), drop, add); err != nil {
		panic(fmt.Sprintf("cluster: leaping %d fetch loops and %d tasks from %s to %s: %v", len(loops), len(tasks), now, horizon, err))
	}
	return horizon, len(loops) + len(tasks)
}

// Digest describes the cluster's moving state: every live event in the
// queue, in the order it will run (timers by process and name, messages by
// link, kind, correlation id and summary, with their times), and each
// running broker's Digest, and every machine's disk. A leaped run and a stepped one of the same
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
		}
		fmt.Fprintf(&s, "disk of %s:\n%s", Host(id), c.disks[id].Digest())
	}
	return s.String()
}
