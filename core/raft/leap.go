package raft

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
	"kafkascope/core/storage"
)

// The KRaft quorum's idle cycle in closed form, for a leap
// (sim.World.Leap).
//
// With nothing to replicate, the quorum still moves: every
// metadata.max.idle.interval.ms (500 ms) the active controller appends a
// NoOpRecord (Node.Append). The leader flushes it and answers the voters'
// parked Fetches with it; each voter appends it, flushes, takes the HW the
// answer carries (the NoOp before it becomes committed there) and fetches
// again from its new end; the first fetch back commits the NoOp on the
// leader; every fetch parks until the next NoOp. Between NoOps only the
// nodes' raft poll timers fire, and they only re-arm: the leader's at its
// check-quorum deadline, a voter's at its fetch deadline.
//
// A QuorumLoop proves the quorum is in that cycle between two NoOps: every
// voter's Fetch is parked at the leader at its end offset, every log and
// listener caught up. LeapQuorum then runs k whole cycles: the appends and
// flushes happen for real, on each node's disk at their instants (returned
// as a sim.LeapRun, ordered with other loops' disk work by the caller); the
// leader's view of the voters, the check-quorum deadline, the voters' high
// watermarks, fetch deadlines and correlation ids, and the poll timers are
// set as k cycles leave them; the listeners are then brought up to the new
// high watermarks by the delivery code itself; and the cycle's pending
// events (each voter's Fetch parked again, the poll timers) are queued.

// QuorumLoop is the quorum in its idle cycle, between two NoOps.
type QuorumLoop struct {
	leader    *Node
	ls        *leaderState
	followers []*quorumFollower
	// wakes are the nodes' pending raft poll timers (the leader's first).
	wakes     []sim.QueuedEvent
	wakeNodes []*Node
	// lastReset is when the leader's check-quorum deadline was last reset
	// (a voter's fetch).
	lastReset sim.Time
	// base is the leader's log end offset before the span.
	base int64
	// byParked are the followers in the order a NoOp answers them (the
	// order of their parked Fetches), so their appends of one instant
	// are listed as a stepped run makes them.
	byParked []*quorumFollower
}

// quorumFollower is one voter fetching from the leader.
type quorumFollower struct {
	n  *Node
	fs *followerState
	// pf is its Fetch, parked at the leader; parked its expiry, and
	// parkedIndex its place among the leader's parked Fetches (the order
	// a NoOp answers them in, which each cycle keeps).
	pf          *parkedFetch
	parked      sim.QueuedEvent
	parkedIndex int
	// toF and toL are the links' latencies, leader to voter and back.
	toF, toL time.Duration
	// lastResp is when its last answer arrived (and its Fetch left).
	lastResp sim.Time
}

// Claims are the queued events the loop owns: the parked Fetches' expiries
// and the poll timers.
func (q *QuorumLoop) Claims() []sim.QueuedEvent {
	out := slices.Clone(q.wakes)
	for _, f := range q.followers {
		out = append(out, f.parked)
	}
	return out
}

// Leader is the node that leads the quorum.
func (q *QuorumLoop) Leader() *Node { return q.leader }

// Nodes are the quorum's nodes, the leader first.
func (q *QuorumLoop) Nodes() []*Node {
	out := []*Node{q.leader}
	for _, f := range q.followers {
		out = append(out, f.n)
	}
	return out
}

// RoundTrip is the longest time from an append on the leader to the last
// voter's Fetch back: a cycle is whole once that much has passed.
func (q *QuorumLoop) RoundTrip() time.Duration {
	var rt time.Duration
	for _, f := range q.followers {
		rt = max(rt, f.toF+f.toL)
	}
	return rt
}

// FindQuorumLoop returns the quorum of nodes (every node of the cluster,
// running, by id) as a loop if it is in its idle cycle now, nil otherwise.
// Observers are not handled: every node must be a voter, two or three of
// them (one follower's fetch then makes a majority with the leader).
func FindQuorumLoop(w *sim.World, queued []sim.QueuedEvent, nodes map[int32]*Node) *QuorumLoop {
	timers := map[*sim.Timer]sim.QueuedEvent{}
	for _, e := range queued {
		if e.Timer != nil {
			timers[e.Timer] = e
		}
		if e.Env != nil {
			switch e.Env.Msg.(type) {
			case *FetchRequest, *FetchResponse, *VoteRequest, *VoteResponse, *BeginQuorumEpochRequest, *BeginQuorumEpochResponse,
				*EndQuorumEpochRequest, *EndQuorumEpochResponse, *FetchSnapshotRequest, *FetchSnapshotResponse:
				return nil // the quorum is talking
			}
		}
	}
	var leader *Node
	for _, n := range nodes {
		if !n.started || n.observer {
			return nil
		}
		if _, ok := n.quorum.state.(*leaderState); ok {
			if leader != nil {
				return nil
			}
			leader = n
		}
	}
	if leader == nil || len(nodes) != len(leader.voters) || len(leader.voters) < 2 || len(leader.voters) > 3 {
		return nil
	}
	ls := leader.quorum.state.(*leaderState)
	leo := leader.log.endOffset()
	if ls.resignRequested || ls.hw != leo || ls.hw <= ls.epochStartOffset || len(ls.observerStates) > 0 || len(ls.fetchedVoters) > 0 ||
		len(leader.parked) != len(leader.voters)-1 || leader.log.log.HighWatermark() != leo {
		return nil
	}
	q := &QuorumLoop{leader: leader, ls: ls, lastReset: -1, base: leo}
	ids := append([]int32{leader.cfg.NodeID}, slices.DeleteFunc(slices.Clone(leader.voters), func(id int32) bool { return id == leader.cfg.NodeID })...)
	for _, id := range ids {
		n := nodes[id]
		if n == nil {
			return nil
		}
		if !n.listenersCaughtUp() {
			return nil
		}
		wake, ok := timers[n.wake]
		if !ok || !n.wake.Pending() {
			return nil
		}
		q.wakes, q.wakeNodes = append(q.wakes, wake), append(q.wakeNodes, n)
		if n == leader {
			if r := ls.voterStates[id]; r.endOffset != leo {
				return nil
			}
			continue
		}
		f := q.follower(w, timers, n, leo)
		if f == nil {
			return nil
		}
		q.followers = append(q.followers, f)
		q.lastReset = max(q.lastReset, f.lastResp.Add(f.toL))
	}
	// The check-quorum deadline runs from the last fetch.
	if ls.checkQuorumDeadline != q.lastReset.Add(ls.checkQuorumTimeout) {
		return nil
	}
	q.byParked = slices.Clone(q.followers)
	slices.SortFunc(q.byParked, func(a, b *quorumFollower) int { return a.parkedIndex - b.parkedIndex })
	return q
}

// listenersCaughtUp: every listener has every committed entry, and no
// leader change is waiting to be told.
func (n *Node) listenersCaughtUp() bool {
	hw := n.quorum.state.highWatermark()
	le := n.quorum.leaderAndEpoch()
	for _, c := range n.listeners {
		if c.nextOffset != hw || c.shouldFireLeaderChange(le) {
			return false
		}
	}
	return !n.busy && !n.inCallback && !n.dirty
}

// follower checks voter n's side of the cycle: following the leader in its
// epoch, its Fetch (from the leader's end offset) parked there and nothing
// else outstanding, its log one NoOp ahead of its HW, as a cycle leaves it.
func (q *QuorumLoop) follower(w *sim.World, timers map[*sim.Timer]sim.QueuedEvent, n *Node, leo int64) *quorumFollower {
	leader, ls := q.leader, q.ls
	fs, ok := n.quorum.state.(*followerState)
	if !ok || fs.leaderID != leader.cfg.NodeID || fs.epochNum != ls.epochNum || fs.download != nil || n.log.endOffset() != leo || fs.hw != leo-1 {
		return nil
	}
	if n.log.log.HighWatermark() != fs.hw || n.log.lastFetchedEpoch() != ls.epochNum {
		return nil
	}
	f := &quorumFollower{n: n, fs: fs}
	for i, pf := range leader.parked {
		if pf.req.ReplicaID == n.cfg.NodeID && !pf.done {
			f.pf, f.parkedIndex = pf, i
		}
	}
	if f.pf == nil {
		return nil
	}
	if f.parked, ok = timers[&f.pf.timer]; !ok {
		return nil
	}
	lh, fh := leader.cfg.Addr.Host(), n.cfg.Addr.Host()
	if w.Net().IsCut(lh, fh) || w.Net().IsCut(fh, lh) {
		return nil
	}
	f.toF, f.toL = w.Latency(lh, fh), w.Latency(fh, lh)
	req := f.pf.req
	arrived := f.parked.At.Add(-time.Duration(req.MaxWaitMs) * time.Millisecond)
	f.lastResp = arrived.Add(-f.toL)
	conn := n.reqs.conns[leader.cfg.NodeID]
	if len(n.reqs.conns) != 1 || conn == nil || !conn.awaiting || conn.backingOff || conn.inflightID != req.CorrelationID || conn.apiKey != APIKeyFetch || conn.lastSend != f.lastResp {
		return nil
	}
	if fs.fetchDeadline != f.lastResp.Add(fs.fetchTimeout) || n.nextCorrelationID != req.CorrelationID+1 {
		return nil
	}
	// The Fetch the voter sends each cycle is this one, one NoOp on.
	want := n.buildFetchRequest(req.CorrelationID).(*FetchRequest)
	if *want != *req || req.FetchOffset != leo || time.Duration(req.MaxWaitMs)*time.Millisecond != n.cfg.FetchMaxWait {
		return nil
	}
	r := q.ls.voterStates[n.cfg.NodeID]
	if r == nil || r.endOffset != leo || r.lastFetchLeaderLEO != leo || r.lastFetch != arrived || r.lastCaughtUp != arrived || !r.acked {
		return nil
	}
	resp := f.pf.resp
	if resp.PartitionError != 0 || resp.ErrorCode != 0 || len(resp.Records) > 0 || resp.HighWatermark != leo || resp.DivergingEpoch.Epoch >= 0 || resp.SnapshotID.Epoch >= 0 {
		return nil
	}
	// Each cycle's Fetch must still be parked when the next NoOp comes
	// (its wait outlasts the cycle), and answered before the voter's
	// request times out.
	return f
}

// CycleFits reports whether a NoOp every interval keeps this loop steady:
// each Fetch parked at the leader waits longer than the time to the next
// NoOp, and each voter hears from the leader well within its timeouts.
func (q *QuorumLoop) CycleFits(interval time.Duration) bool {
	for _, f := range q.followers {
		wait := time.Duration(f.pf.req.MaxWaitMs) * time.Millisecond
		if f.toF+f.toL+wait <= interval || interval+f.toF >= f.n.cfg.RequestTimeout || interval+f.toF >= f.fs.fetchTimeout {
			return false
		}
	}
	return interval+q.RoundTrip() < q.ls.checkQuorumTimeout
}

// FirstParkedExpiry is when the first parked Fetch would expire: a NoOp
// must come before it.
func (q *QuorumLoop) FirstParkedExpiry() sim.Time {
	t := sim.Time(1<<63 - 1)
	for _, f := range q.followers {
		t = min(t, f.parked.At)
	}
	return t
}

// NoOps are the NoOp appends of a leap: Count of them, the first when
// Timer (the active controller's NoOp timer, pending when the span began)
// fires, one every Interval (each NoOp's timer armed by the NoOp before
// it), each carrying Payload.
type NoOps struct {
	Timer    sim.QueuedEvent
	Interval time.Duration
	Count    int
	Payload  []byte
}

// at is the i-th NoOp's time.
func (b NoOps) at(i int) sim.Time { return b.Timer.At + sim.Time(i)*sim.Time(b.Interval) }

// path is the i-th NoOp timer's push path: armed by the NoOp before it.
func (b NoOps) path(i int) sim.PushPath { return sim.PeriodicRuns(b.Timer, b.Interval, i) }

// answer is the path of the i-th NoOp's answer to a parked Fetch: queued
// by the NoOp's handler at its instant, rank-th of its pushes (the
// handler answers the parked Fetches in their order).
func (b NoOps) answer(i, rank int) sim.PushPath {
	return sim.LeadPath{Lead: []sim.Time{b.at(i)}, Ranks: []int{rank}, Then: b.path(i)}
}

// lastBefore is the latest NoOp time plus d that is before t (ok false if
// none is).
func (b NoOps) lastBefore(t sim.Time, d time.Duration) (sim.Time, bool) {
	first := b.Timer.At.Add(d)
	if b.Count == 0 || first >= t {
		return 0, false
	}
	i := min(int((t-1-first)/sim.Time(b.Interval)), b.Count-1)
	return first + sim.Time(i)*sim.Time(b.Interval), true
}

// Appends is the disk work of noops' cycles: each NoOp appended and
// flushed on the leader at its instant, and on each voter when the answer
// carrying it arrives. It is a run of ops for each node (each node's disk
// is its own), which the caller runs in time order with other loops' disk
// work (sim.World.RunLeapOps), then calls Finish.
func (q *QuorumLoop) Appends(noops NoOps) []sim.LeapRun {
	leader, epoch := q.leader, q.ls.epochNum
	run := noops.run(leader.log.endOffset(), epoch)
	flushes := leader.cfg.hooks == nil || !leader.cfg.hooks.skipFlush
	l := &nodeAppends{noops: noops, n: leader, batches: run.batches(), path: noops.path, leader: true, epoch: epoch, flushes: flushes,
		commitDelay: q.minRoundTrip()}
	l.do = func(i int) {
		// The batch has the base offset and epoch already, and was
		// validated once for the whole run (record.Valid).
		info, err := leader.log.log.AppendRunAsLeader(l.batches.at(i), epoch)
		if err != nil {
			panic("raft: leaping the leader's NoOp: " + err.Error())
		}
		leader.appended(l.at(i), info.LastOffset-info.FirstOffset+1)
		l.forCommit(i, info.LastOffset, info.LastOffset-info.FirstOffset+1)
		leader.flushForLeap()
	}
	runs := []sim.LeapRun{l}
	for _, f := range q.byParked {
		v := &nodeAppends{noops: noops, n: f.n, batches: run.batches(), delay: f.toF, rank: f.parkedIndex,
			flushes: !f.n.observer && (f.n.cfg.hooks == nil || !f.n.cfg.hooks.skipFlush)}
		v.path = func(i int) sim.PushPath { return noops.answer(i, f.parkedIndex) }
		v.do = func(i int) {
			// The batch its answer carries, as the leader stored it.
			if err := f.n.appendRunAsFollower(v.at(i), v.batches.at(i)); err != nil {
				panic("raft: leaping a voter's NoOp: " + err.Error())
			}
		}
		runs = append(runs, v)
	}
	return runs
}

// nodeAppends is one node's NoOp appends in a span as a run of ops
// (sim.LeapRun): the leader's at each NoOp's instant, a voter's when the
// answer carrying it arrives (delay later). Ops of one node share its
// disk, and nothing with other nodes' ops; where no other loop's op on
// its machine comes between them, a stretch of them runs at once
// (sim.LeapStretch), most of it appended in place
// (storage.Log.AppendRunAsLeaderFlushed).
type nodeAppends struct {
	noops   NoOps
	n       *Node
	batches *noOpBatches
	delay   time.Duration
	rank    int
	leader  bool
	epoch   int32 // the leader's
	flushes bool  // every append is flushed at once
	// commitDelay is when the leader's NoOps commit after their append:
	// the first Fetch back.
	commitDelay time.Duration
	// One function for each of Do and Path, shared by the NoOps (sim.LeapOp).
	do   func(int)
	path func(int) sim.PushPath
}

func (r *nodeAppends) Len() int { return r.noops.Count }

// forCommit notes the leader's i-th NoOp, ending at offset last, for the
// commit latency: the NoOps before it committed by now.
func (r *nodeAppends) forCommit(i int, last, records int64) {
	at := r.at(i)
	r.n.leapedCommitsBy(at)
	r.n.appendedForCommit(last, at, records, at.Add(r.commitDelay))
}

func (r *nodeAppends) at(i int) sim.Time { return r.noops.at(i).Add(r.delay) }

func (r *nodeAppends) Op(i int) sim.LeapOp {
	return sim.LeapOp{At: r.at(i), Rank: r.rank, Arg: i, Do: r.do, Path: r.path}
}

func (r *nodeAppends) Machine() string { return r.n.cfg.Addr.Host() }

// Stretch implements sim.LeapStretch: the appends due before `before`,
// in place where the log can, else one by one.
func (r *nodeAppends) Stretch(j int, before sim.Time, setNow func(sim.Time)) int {
	end := j + 1
	if t := r.at(j); before > t {
		end = min(r.noops.Count, j+int((before-1-t)/sim.Time(r.noops.Interval))+1)
	}
	for i := j; i < end; {
		setNow(r.at(i))
		if r.flushes && end-i > 1 {
			m, err := r.inPlace(i, end-i)
			if err != nil {
				panic(fmt.Sprintf("raft: node %d appending NoOps in place: %v", r.n.cfg.NodeID, err))
			}
			if m > 0 {
				i += m
				continue
			}
		}
		r.do(i)
		i++
	}
	return end - j
}

// inPlace appends as many of the n NoOps from i in place as the log can.
func (r *nodeAppends) inPlace(i, n int) (int, error) {
	instant := func(k int) sim.Time { return r.at(i + k) }
	before := r.n.log.endOffset()
	var m int
	var err error
	if r.leader {
		m, err = r.n.log.log.AppendRunAsLeaderFlushed(r.batches.run, i, n, r.epoch, instant)
	} else {
		m, err = r.n.log.log.AppendRunAsFollowerFlushed(r.batches.run, i, n, instant)
	}
	if m > 0 {
		// The raft-metrics of the m appends, one at a time at their
		// instants: the run's batches hold the same number of records.
		per := (r.n.log.endOffset() - before) / int64(m)
		for k := range m {
			if r.leader {
				r.n.appended(instant(k), per)
				r.forCommit(i+k, before+int64(k+1)*per-1, per)
			} else {
				r.n.fetched(instant(k), per)
			}
		}
	}
	return m, err
}

// run is the NoOps' record batches, from offset base in epoch, as a run
// (nil if there are none): the first as the leader's Append builds it
// (dataBatch), validated once, and each next one a copy with its offset
// and time changed (record.Valid.Restamped) when an append needs its bytes
// (building each was a twentieth of a leaped week; validating each on
// every voter, a tenth; holding them all at once, in one allocation of the
// span's bytes and one of their headers, a quarter of the week's garbage).
// The logs hold them as the run they are: their bytes, written out, were a
// third of a leaped week's native time.
func (b NoOps) run(base int64, epoch int32) *noOpRun {
	if b.Count == 0 {
		return nil
	}
	first, err := record.ValidateBatch(dataBatch(base, epoch, b.at(0).UnixMilli(), [][]byte{b.Payload}))
	if err != nil {
		panic("raft: a NoOp batch the leader built is invalid: " + err.Error())
	}
	return &noOpRun{first: first, base: base, start: b.Timer.At, interval: b.Interval}
}

// noOpRun is a span's NoOp batches as a storage.BatchRun: batch i is the
// first one with offset base+i and the time of NoOp i. It holds nothing
// else (a log keeps it as long as it keeps the batches).
type noOpRun struct {
	first    record.Valid
	base     int64
	start    sim.Time
	interval time.Duration
}

func (r *noOpRun) BatchSize() int { return len(r.first.Bytes()) }

func (r *noOpRun) Batch(i int, dst []byte) { r.restamped(i, dst) }

// restamped is batch i, made in dst.
func (r *noOpRun) restamped(i int, dst []byte) record.Valid {
	if i == 0 {
		copy(dst, r.first.Bytes())
		return r.first
	}
	return r.first.Restamped(dst, r.base+int64(i), r.start.Add(time.Duration(i)*r.interval).UnixMilli())
}

// batches makes the run's batches one at a time, into a buffer of its
// own (nil for no run).
func (r *noOpRun) batches() *noOpBatches {
	if r == nil {
		return nil
	}
	return &noOpBatches{run: r, buf: make([]byte, len(r.first.Bytes())), i: 0, cur: r.first}
}

// noOpBatches makes a span's NoOp batches for one node's appends, one at a
// time, into one buffer: a log copies what it appends, or keeps the run,
// so the buffer may be reused.
//
// Invariant: cur is batch i.
type noOpBatches struct {
	run *noOpRun
	buf []byte
	i   int
	cur record.Valid
}

// at is batch i (its bytes valid until at is called with another i).
func (s *noOpBatches) at(i int) storage.RunBatch {
	if i != s.i {
		if i == 0 {
			s.cur = s.run.first
		} else {
			s.cur = s.run.restamped(i, s.buf)
		}
		s.i = i
	}
	return storage.RunBatch{V: s.cur, Run: s.run, I: i}
}

// Finish moves the quorum's state to the end of noops' cycles, once
// their appends ran (the span ends at end, after the last cycle): it
// returns the events consumed (the parked expiries and the poll timers
// that fired), the events pending at the end (each Fetch parked again, the
// poll timers re-armed), and the time of the last event. The caller then
// runs Deliver.
func (q *QuorumLoop) Finish(noops NoOps, end sim.Time) (drop []sim.QueuedEvent, add []sim.LeapEvent, last sim.Time) {
	k := noops.Count
	leader, ls := q.leader, q.ls
	newLEO := leader.log.endOffset()
	// The poll timers, from the state before the span.
	for i, n := range q.wakeNodes {
		w := q.wakes[i].At
		if w >= end {
			continue
		}
		drop = append(drop, q.wakes[i])
		// Each wake is armed by the one before; the first was queued
		// before the span.
		var fired []sim.Time // most recent first
		for w < end {
			fired = append(fired, w)
			w = q.nextWake(i, noops, w)
		}
		slices.Reverse(fired)
		last = max(last, fired[0])
		t := &sim.Timer{}
		n.wake = t
		add = append(add, sim.LeapEvent{PushedAt: fired[0], Path: sim.LeadPath{Lead: fired, Then: sim.PathOf(q.wakes[i])}, Host: n.cfg.Addr.Host(), Timer: t, At: w, Name: "raft poll", Task: (*pollTask)(n)})
	}
	if k == 0 {
		return drop, add, last
	}
	lastNoOp := noops.at(k - 1)
	last = max(last, lastNoOp)
	// The leader's view of each voter after the last cycle's Fetch, and
	// each voter after the last answer.
	type arrival struct {
		f  *quorumFollower
		at sim.Time
	}
	var arrivals []arrival
	for _, f := range q.followers {
		arrived := lastNoOp.Add(f.toF + f.toL)
		arrivals = append(arrivals, arrival{f, arrived})
		r := ls.voterStates[f.n.cfg.NodeID]
		r.endOffset, r.lastFetchLeaderLEO, r.lastFetch, r.lastCaughtUp = newLEO, newLEO, arrived, arrived
		q.lastReset = max(q.lastReset, arrived)
		last = max(last, arrived)
		drop = append(drop, f.parked)
		f.pf.done = true
		resp := lastNoOp.Add(f.toF)
		f.fs.hw = newLEO - 1
		f.fs.fetchedFromLeader(resp)
		f.n.nextCorrelationID += int32(k)
		conn := f.n.reqs.conns[leader.cfg.NodeID]
		conn.inflightID, conn.lastSend = f.n.nextCorrelationID-1, resp
		f.lastResp = resp
	}
	ls.voterStates[leader.cfg.NodeID].endOffset = newLEO
	ls.hw = newLEO
	leader.log.log.UpdateHighWatermark(newLEO)
	for _, f := range q.followers {
		f.n.log.log.UpdateHighWatermark(f.fs.hw)
	}
	ls.checkQuorumDeadline = q.lastReset.Add(ls.checkQuorumTimeout)
	// Each voter's Fetch, parked again in arrival order: at one instant,
	// in the order the arrivals were queued (sent when the last NoOp's
	// answer arrived).
	sentPath := func(a arrival) sim.PushPath {
		return sim.LeadPath{Lead: []sim.Time{a.at.Add(-a.f.toL)}, Then: noops.answer(k-1, a.f.parkedIndex)}
	}
	sorts.Func(arrivals, func(a, b arrival) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return sim.ComparePaths(sentPath(a), 0, sentPath(b), 0)
	})
	leader.parked = leader.parked[:0]
	for _, a := range arrivals {
		f := a.f
		req := f.n.buildFetchRequest(f.n.nextCorrelationID - 1).(*FetchRequest)
		pf := &parkedFetch{n: leader, from: f.pf.from, to: f.pf.to, req: req, resp: leader.parkedAnswer(req)}
		leader.parked = append(leader.parked, pf)
		// Parked by the Fetch's arrival, sent when the last NoOp's answer
		// arrived.
		path := sim.LeadPath{Lead: []sim.Time{a.at, a.at.Add(-f.toL)}, Then: noops.answer(k-1, f.parkedIndex)}
		add = append(add, sim.LeapEvent{PushedAt: a.at, Path: path, Host: leader.cfg.Addr.Host(), Timer: &pf.timer, At: a.at.Add(time.Duration(req.MaxWaitMs) * time.Millisecond), Name: "raft fetch expiry", Task: pf})
		f.pf = pf
	}
	return drop, add, last
}

// flushForLeap is flushLeaderLog's fsync.
func (n *Node) flushForLeap() {
	if n.cfg.hooks == nil || !n.cfg.hooks.skipFlush {
		if err := n.log.log.Flush(); err != nil {
			panic("raft: flushing the leader's log: " + err.Error())
		}
	}
}

// parkedAnswer is the answer tryCompleteFetchRequest builds for a voter's
// Fetch at the leader's end offset (what a parked Fetch is answered with
// when it expires).
func (n *Node) parkedAnswer(r *FetchRequest) *FetchResponse {
	resp := n.emptyFetchResponse(r.CorrelationID, 0)
	data, _, err := n.log.log.ReadSlice(r.FetchOffset, int(min(r.MaxBytes, MaxBatchSizeBytes)), n.log.endOffset(), true)
	if err != nil {
		panic("raft: leaping a parked Fetch: " + err.Error())
	}
	resp.Records = data
	resp.HighWatermark = n.quorum.state.highWatermark()
	return resp
}

// nextWake is where node i's poll at w re-arms its timer. A poll only
// re-arms it: the leader's for its check-quorum deadline (the last reset
// before the wake: a voter's Fetch arriving, or the leader answering it
// with a NoOp, plus the timeout), a voter's for its request and fetch
// deadlines (its last answer before the wake plus the timeouts). A wake
// due at the instant of another event of its node fires first (it was
// armed earlier), so it sees only what came strictly before.
func (q *QuorumLoop) nextWake(i int, noops NoOps, w sim.Time) sim.Time {
	n := q.wakeNodes[i]
	if n == q.leader {
		last := q.lastReset
		if t, ok := noops.lastBefore(w, 0); ok {
			last = max(last, t)
		}
		for _, f := range q.followers {
			if t, ok := noops.lastBefore(w, f.toF+f.toL); ok {
				last = max(last, t)
			}
		}
		return last.Add(q.ls.checkQuorumTimeout)
	}
	f := q.followers[i-1]
	last := f.lastResp
	if t, ok := noops.lastBefore(w, f.toF); ok {
		last = max(last, t)
	}
	return last.Add(min(n.cfg.RequestTimeout, f.fs.fetchTimeout))
}

// Deliver brings every node's listeners up to its high watermark, as the
// last cycle's deliveries did (the leader's when the first Fetch back
// committed the last NoOp, a voter's when the last answer arrived): the
// delivery code runs (through w.LeapRun) at that instant.
func (q *QuorumLoop) Deliver(w *sim.World, noops NoOps) error {
	if noops.Count == 0 {
		return nil
	}
	lastNoOp := noops.at(noops.Count - 1)
	first := sim.Time(1<<63 - 1)
	for _, f := range q.followers {
		first = min(first, lastNoOp.Add(f.toF+f.toL))
	}
	deliver := func(n *Node, at sim.Time, by sim.PushPath) error {
		return w.LeapRun(n.cfg.Addr.Host(), at, by, func(env *sim.Env) { q.deliverNoOps(env, n, noops) })
	}
	k := noops.Count
	for _, f := range q.followers {
		if a := lastNoOp.Add(f.toF + f.toL); a == first {
			// The first Fetch back, sent when the answer arrived.
			by := sim.LeadPath{Lead: []sim.Time{a.Add(-f.toL)}, Then: noops.answer(k-1, f.parkedIndex)}
			if err := deliver(q.leader, first, by); err != nil {
				return err
			}
			break
		}
	}
	for _, f := range q.followers {
		if err := deliver(f.n, lastNoOp.Add(f.toF), noops.answer(k-1, f.parkedIndex)); err != nil {
			return err
		}
	}
	return nil
}

// deliverNoOps is updateListenersProgress for node n after noops' span:
// what lies before the span's NoOps is read from the log as usual; the
// NoOps themselves are handed over as the batches the leap appended (the
// same batches a read would decode: one NoOpRecord each, in the leader's
// epoch, stamped with its append time), without reading them back; a
// RunListener takes them in one call.
func (q *QuorumLoop) deliverNoOps(env *sim.Env, n *Node, noops NoOps) {
	if n.inCallback {
		n.dirty = true
		return
	}
	n.updateListenersUpTo(env, q.base)
	hw, epoch := n.committedOffset(), q.ls.epochNum
	for _, c := range n.listeners {
		if rl, ok := c.l.(RunListener); ok && c.nextOffset >= q.base && c.nextOffset < hw {
			run := CommittedRun{First: c.nextOffset, Last: hw - 1, Epoch: epoch, Payload: noops.Payload,
				LastAppendTimestamp: noops.at(int(hw - 1 - q.base)).UnixMilli()}
			c.nextOffset = hw
			var done bool
			n.notify(func() { done = rl.HandleCommitRun(env, run) })
			if !done {
				c.nextOffset = run.First
			}
		}
		for c.nextOffset >= q.base && c.nextOffset < hw {
			off := c.nextOffset
			cb := leapedNoOp(noops, q.base, epoch, off)
			c.nextOffset = off + 1
			n.notify(func() { c.l.HandleCommit(env, cb) })
		}
	}
}

// leapedNoOp is the committed batch of the NoOp at offset off of noops'
// span, which begins at offset base, in epoch.
func leapedNoOp(noops NoOps, base int64, epoch int32, off int64) CommittedBatch {
	return CommittedBatch{BaseOffset: off, LastOffset: off, Epoch: epoch, AppendTimestamp: noops.at(int(off - base)).UnixMilli(),
		Entries: []Entry{{Offset: off, Epoch: epoch, Payload: noops.Payload}}}
}

// DeliveredBefore is the offset of the last entry node id's listeners have
// been handed before instant t of noops' span (a delivery due at t itself
// comes after other events of t, armed earlier): the leader's when the
// first Fetch back commits each NoOp, a voter's when the answer carrying
// the next NoOp arrives. ok is false for a node not in the quorum.
func (q *QuorumLoop) DeliveredBefore(id int32, noops NoOps, t sim.Time) (int64, bool) {
	base := q.base
	if id == q.leader.cfg.NodeID {
		if last, ok := noops.lastBefore(t, q.minRoundTrip()); ok {
			return base + int64((last-noops.Timer.At-sim.Time(q.minRoundTrip()))/sim.Time(noops.Interval)), true
		}
		return base - 1, true
	}
	for _, f := range q.followers {
		if f.n.cfg.NodeID != id {
			continue
		}
		if last, ok := noops.lastBefore(t, f.toF); ok {
			return base - 1 + int64((last-noops.Timer.At-sim.Time(f.toF))/sim.Time(noops.Interval)), true
		}
		return base - 2, true
	}
	return 0, false
}

// minRoundTrip is the first voter Fetch's way back after a NoOp: when the
// leader commits it.
func (q *QuorumLoop) minRoundTrip() time.Duration {
	rt := time.Duration(1<<63 - 1)
	for _, f := range q.followers {
		rt = min(rt, f.toF+f.toL)
	}
	return rt
}

// InCommitWindow reports whether t lies in a NoOp's commit window of
// noops' span, from its append to its commit by the first Fetch back
// (both ends included): the active controller holds every reply then.
func (q *QuorumLoop) InCommitWindow(noops NoOps, t sim.Time) bool {
	last, ok := noops.lastBefore(t+1, 0)
	return ok && t <= last.Add(q.minRoundTrip())
}
