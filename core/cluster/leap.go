package cluster

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/controller"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// Leaping: an idle cluster spends nearly all its events on loops that
// change nothing but clocks, counters and the metadata log's NoOps. The
// cluster, which knows its processes' loops, finds every loop that is
// steady and the first event that belongs to none (the horizon), and moves
// the loops across the span to it in closed form (sim.World.Leap). The
// world then runs the horizon's event as usual.
//
// Loops leaped today: followers' empty replica-fetch long polls
// (broker.FetchLoop); brokers' heartbeats with the controller's sessions
// and expiry timer (broker.HeartbeatLoop); the brokers' periodic tasks
// while they do nothing or rewrite the same checkpoints, and retention
// until a segment expires (broker.TaskLoop); the KRaft quorum's NoOp
// cycle, whole cycles only, short of a snapshot (raft.QuorumLoop with
// controller.NoOpLoop); the controller's leader-imbalance check while
// balanced (controller.BalanceLoop). Every other event bounds a span:
// clients, anything a fault or a command starts, a heartbeat reaching the
// controller between a NoOp's append and its commit (its answer waits).
//
// A leaped run ends every span in the state a stepped run reaches: the
// same brokers, controllers, raft nodes, logs and disks (page cache
// included), in-flight messages and timers. TestLeapMatchesSteps compares
// the two (outputs, pictures, notes and Digest) after every command of
// every built-in scenario and of scripts that idle, disturb and snapshot.

// leapBackoff is how long the cluster waits, in virtual time, before it
// looks for a span again after finding none worth leaping: a busy cluster
// would otherwise search its queue before every event.
const leapBackoff = 50 * time.Millisecond

// maxBackoffDoublings bounds how far the wait grows while searches find
// nothing (busyBackoff): to 64 × leapBackoff, 3.2 s of virtual time.
const maxBackoffDoublings = 6

// busyBackoff is the wait before the next search: leapBackoff, doubled
// for each search in a row that found no span. A cluster with clients
// finds none search after search, and each search reads every partition
// of every broker: half of the page's time went to them while it sought
// through an hour with a producer and a consumer (profile frames-seeks).
// The first span leaped resets it.
func (c *Cluster) busyBackoff() time.Duration {
	return leapBackoff << min(c.leapMisses, maxBackoffDoublings)
}

// LeapSearches counts the times the scheduler offered the cluster a span
// (for tests and benchmarks: what the backoff saves).
func (c *Cluster) LeapSearches() uint64 { return c.leapSearches }

// MinLeapSpan is the shortest run the cluster looks for a span in. A
// search looks at every partition of every broker; a run shorter than
// this has few events to skip, and stepping them is cheaper (a page
// playing a 1000-partition cluster at real speed, 17 ms a frame, spent a
// tenth of its time searching: profile frames-partitions-play). Fast
// forwards, seeks and a command's wait run far longer.
const MinLeapSpan = time.Second

// SetLeaping turns leaping on or off (New turns it on unless the config
// is Stepped), for runs of at least MinLeapSpan.
func (c *Cluster) SetLeaping(on bool) {
	c.World.SetLeapMinSpan(MinLeapSpan)
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
		switch next.Timer.Name() {
		case "metadata-no-op", "raft poll", "raft fetch expiry", "leader-imbalance-check":
			return true
		}
		return broker.LoopTimer(next.Timer.Name())
	}
	return next.Env != nil && broker.LoopMessage(next.Env.Msg)
}

// Leap implements sim.Leaper.
func (c *Cluster) Leap(w *sim.World, limit sim.Time, budget int) (sim.Time, int) {
	now := w.Now()
	queued := w.Queued()
	// An event no loop can run (a client's, a command's) bounds the span:
	// when it is due within the backoff, no span is worth the search (it
	// looks at every partition of every broker: a tenth of a busy
	// 1000-partition cluster's time went to searches that found none).
	c.leapSearches++
	backoff := c.busyBackoff()
	for _, q := range queued {
		if !c.MayLeap(q) {
			if q.At < now.Add(backoff) {
				c.leapMisses++
				return now.Add(backoff), 0
			}
			break
		}
	}
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
	tasks := broker.TaskLoops(queued, brokers)
	quorum, noop := c.quorumLoop(w, queued)
	var balance *controller.BalanceLoop
	if ctl := c.Controller(); ctl != nil {
		balance = controller.FindBalanceLoop(queued, ctl)
	}
	claimed := map[uint64]bool{}
	claim := func(qs ...sim.QueuedEvent) {
		for _, q := range qs {
			claimed[q.Seq] = true
		}
	}
	for _, l := range loops {
		claim(l.Claims()...)
	}
	claim(hbs.Claims()...)
	for _, l := range tasks {
		claim(l.Claims()...)
	}
	if quorum != nil {
		claim(quorum.Claims()...)
		claim(noop.Claim())
	}
	if balance != nil {
		claim(balance.Claim())
	}
	horizon := limit + 1
	for _, q := range queued {
		if !claimed[q.Seq] {
			horizon = min(horizon, q.At)
			break
		}
	}
	for _, l := range tasks {
		horizon = min(horizon, l.Until())
	}
	// A leap's work, counted in events for the run's budget: a unit per
	// loop, and for each NoOp's cycle one per node (its appends and
	// flushes). A run with too little budget left steps instead.
	fixed := len(loops) + hbs.Len() + len(tasks)
	if balance != nil {
		fixed++
	}
	if budget >= 0 && fixed > budget {
		return now.Add(leapBackoff), 0
	}
	var noops raft.NoOps
	if quorum != nil {
		maxNoOps := int64(1) << 62
		if budget >= 0 {
			maxNoOps = int64((budget - fixed) / len(quorum.Nodes()))
		}
		horizon, noops = c.quorumSpan(quorum, noop, horizon, maxNoOps)
		// A heartbeat reaching the controller between a NoOp's append and
		// its commit is answered only at the commit: that heartbeat is
		// stepped (fewer NoOps then fit, and none of them collides).
		if hit := hbs.FirstArrival(horizon, func(t sim.Time) bool { return quorum.InCommitWindow(noops, t) }); hit < horizon {
			horizon, noops = c.quorumSpan(quorum, noop, hit, maxNoOps)
		}
	}
	due := false // a loop's event is due before the horizon
	for _, q := range queued {
		if q.At >= horizon {
			break
		}
		due = due || claimed[q.Seq]
	}
	work := fixed + noops.Count*len(c.nodes)
	if !due {
		c.leapMisses++
		return max(horizon, now.Add(backoff)), work
	}
	c.leapMisses = 0
	var metadataOffset func(id int32, t sim.Time) int64
	if quorum != nil && noops.Count > 0 {
		metadataOffset = func(id int32, t sim.Time) int64 {
			if off, ok := quorum.DeliveredBefore(id, noops, t); ok {
				return off
			}
			panic(fmt.Sprintf("cluster: a leaped heartbeat from node %d, outside the quorum", id))
		}
	}
	drop, add, last := broker.LeapLoops(now, horizon, loops, hbs, metadataOffset)
	ops, tdrop, tadd, tlast := broker.LeapTaskLoops(now, horizon, tasks)
	drop, add, last = append(drop, tdrop...), append(add, tadd...), max(last, tlast)
	if quorum != nil {
		ops = append(ops, quorum.Appends(noops)...)
	}
	w.RunLeapOps(ops)
	if balance != nil {
		if bdrop, badd, blast, ok := balance.Leap(horizon); ok {
			drop, add, last = append(drop, bdrop), append(add, badd), max(last, blast)
		}
	}
	if quorum != nil {
		qdrop, qadd, qlast := quorum.Finish(noops, horizon)
		drop, add, last = append(drop, qdrop...), append(add, qadd...), max(last, qlast)
		if noops.Count > 0 {
			drop = append(drop, noop.Claim())
			if err := noop.Finish(w, noops.Count, quorum.Leader().LogEndOffset()-1); err != nil {
				panic(err)
			}
			if err := quorum.Deliver(w, noops); err != nil {
				panic(err)
			}
		}
	}
	if err := w.Leap(min(last, limit), drop, add); err != nil {
		panic(fmt.Sprintf("cluster: leaping %d fetch loops, %d heartbeats, %d tasks and %d NoOps from %s to %s: %v", len(loops), hbs.Len(), len(tasks), noops.Count, now, horizon, err))
	}
	return horizon, work
}

// quorumLoop is the KRaft quorum and the active controller's NoOps as a
// loop, if every node runs and the quorum is in its idle cycle.
func (c *Cluster) quorumLoop(w *sim.World, queued []sim.QueuedEvent) (*raft.QuorumLoop, *controller.NoOpLoop) {
	nodes := map[int32]*raft.Node{}
	for id, n := range c.nodes {
		if c.state[id] != NodeRunning || w.Process(Host(id)) == nil {
			return nil, nil
		}
		nodes[id] = n.Raft
	}
	q := raft.FindQuorumLoop(w, queued, nodes)
	if q == nil {
		return nil, nil
	}
	leader := c.nodes[q.Leader().NodeID()]
	if leader.Controller == nil {
		return nil, nil
	}
	l := controller.FindNoOpLoop(queued, leader.Controller)
	if l == nil || !q.CycleFits(l.Interval()) || l.Next() >= q.FirstParkedExpiry() {
		return nil, nil
	}
	return q, l
}

// quorumSpan fits whole KRaft cycles into the span before horizon: the
// NoOps whose every voter Fetch is back before it, and before any voter's
// controller is due a snapshot. A NoOp whose cycle does not fit ends the
// span (it runs stepped, as does the snapshot).
func (c *Cluster) quorumSpan(q *raft.QuorumLoop, l *controller.NoOpLoop, horizon sim.Time, maxNoOps int64) (sim.Time, raft.NoOps) {
	count := maxNoOps // the most NoOps the span may take
	for _, n := range q.Nodes() {
		ctl := c.nodes[n.NodeID()].Controller
		if ctl == nil {
			continue
		}
		until, left := controller.SnapshotLimits(ctl, l.Payload())
		horizon = min(horizon, until)
		count = min(count, left-1)
	}
	first, every, rt := l.Next(), sim.Time(l.Interval()), sim.Time(q.RoundTrip())
	k := int64(0)
	if first+rt < horizon {
		k = min(int64((horizon-1-rt-first)/every)+1, max(count, 0))
	}
	if next := first + sim.Time(k)*every; next < horizon {
		horizon = next
	}
	return horizon, l.NoOps(int(k))
}

// Digest describes the cluster's moving state: every live event in the
// queue, in the order it will run (timers by process and name, messages by
// link, kind, correlation id and content, with their times), each running
// node's broker, raft and controller Digest, and every machine's disk. A leaped run and a stepped one of the same
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
			// The whole message: a leap rebuilds what is in flight.
			fmt.Fprintf(&s, "%s message %s->%s sent %s %s #%d %s\n", q.At, e.From, e.To, e.SentAt, e.Msg.Kind(), corr, digestMessage(e.Msg))
		default:
			fmt.Fprintf(&s, "%s start %s\n", q.At, q.Host)
		}
	}
	for _, id := range c.NodeIDs() {
		if c.state[id] == NodeRunning && c.World.Process(Host(id)) != nil {
			n := c.nodes[id]
			s.WriteString(n.Broker.Digest())
			if n.Raft != nil { // a ZooKeeper-era broker has none (and never leaps)
				s.WriteString(n.Raft.Digest())
			}
			if n.Controller != nil {
				s.WriteString(n.Controller.Digest())
			}
		}
		fmt.Fprintf(&s, "disk of %s:\n%s", Host(id), c.disks[id].Digest())
	}
	return s.String()
}

// digestMessage prints a message's content: its fields, and a reset's
// refused request rather than its address.
func digestMessage(m sim.Message) string {
	if d, ok := m.(*sim.Disconnected); ok {
		req := "none"
		if d.Request != nil {
			req = d.Request.Kind() + " " + digestMessage(d.Request)
		}
		return fmt.Sprintf("{Peer:%s Request:%s}", d.Peer, req)
	}
	return fmt.Sprintf("%+v", m)
}
