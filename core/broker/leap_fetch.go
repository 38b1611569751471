package broker

import (
	"cmp"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// A follower's long poll in closed form, for a leap (sim.World.Leap).
//
// A follower that has everything its leader has sends a Fetch, the leader
// holds it for replica.fetch.wait.max.ms (nothing to send), answers it
// empty, and the follower sends the same Fetch again as soon as the
// answer arrives (ReplicaFetcherThread's loop against DelayedFetch). Each
// cycle takes the wait plus both links' latencies, 502 ms on an idle
// cluster, and changes nothing but clocks and counters: the leader's
// lastCaughtUpTime and lastFetchTime of the follower (the arrival time),
// the follower's correlation ids, and which of the cycle's three events
// is pending. A FetchLoop proves a fetcher is in that cycle, and
// leapFetchLoops moves it across a span in closed form.

// fetchPhase is where a long poll's cycle stands.
type fetchPhase uint8

const (
	fetchSent     fetchPhase = iota + 1 // the Fetch is on its way to the leader
	fetchParked                         // the leader holds it until MaxWaitMs
	fetchAnswered                       // the empty answer is on its way back
)

// FetchLoop is one replica fetcher in a steady long poll.
type FetchLoop struct {
	follower, leader *Broker
	f                *fetcher
	req              *protocol.FetchRequest // the cycle's Fetch (f.sent)
	local            sim.Addr               // the follower's end of the connection
	call             sim.QueuedEvent        // the Fetch's timeout
	event            sim.QueuedEvent        // the cycle's pending event
	phase            fetchPhase
	df               *delayedFetch // the leader's parked fetch (fetchParked)
	// arrive is when the cycle's Fetch reaches (or reached) the leader.
	arrive sim.Time
	// The cycle's constants: the links' latencies, the leader's wait
	// (the Fetch's MaxWaitMs) and the Fetch's timeout.
	toLeader, toFollower, wait, timeout time.Duration
	// rank is the place of the loop's pending event in the queue: events
	// of two loops pushed at the same instant were pushed in this order
	// (their cycles have run in step since before the span).
	rank int
}

// Claims are the queued events the loop owns: its Fetch's timeout and the
// cycle's pending event.
func (l *FetchLoop) Claims() []sim.QueuedEvent { return []sim.QueuedEvent{l.call, l.event} }

// period is one cycle: the Fetch's way there, the wait, the answer's way
// back.
func (l *FetchLoop) period() time.Duration { return l.toLeader + l.wait + l.toFollower }

// Index of the queue, for finding loops' events.
type leapIndex struct {
	timers map[*sim.Timer]sim.QueuedEvent
	msgs   map[sim.Message]sim.QueuedEvent
}

func newLeapIndex(queued []sim.QueuedEvent) leapIndex {
	ix := leapIndex{timers: map[*sim.Timer]sim.QueuedEvent{}, msgs: map[sim.Message]sim.QueuedEvent{}}
	for _, q := range queued {
		switch {
		case q.Timer != nil:
			ix.timers[q.Timer] = q
		case q.Env != nil:
			ix.msgs[q.Env.Msg] = q
		}
	}
	return ix
}

// FetchLoops finds every replica fetcher of brokers (running brokers'
// by host) that is in a steady long poll now, given the world's queue.
func FetchLoops(w *sim.World, queued []sim.QueuedEvent, brokers map[string]*Broker) []*FetchLoop {
	ix := newLeapIndex(queued)
	var answers map[answerKey]sim.QueuedEvent // made on first need
	var loops []*FetchLoop
	hosts := make([]string, 0, len(brokers))
	for h := range brokers {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	for _, h := range hosts {
		b := brokers[h]
		ids := make([]int32, 0, len(b.fetchers))
		for id := range b.fetchers {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if answers == nil {
				answers = fetchAnswers(queued)
			}
			if l := findFetchLoop(w, ix, answers, b, b.fetchers[id], brokers); l != nil {
				loops = append(loops, l)
			}
		}
	}
	// Rank by the pending event's place in the queue (queued is in run
	// order), as every loop kind ranks.
	pos := make(map[uint64]int, len(queued))
	for i, q := range queued {
		pos[q.Seq] = i
	}
	for _, l := range loops {
		l.rank = pos[l.event.Seq]
	}
	return loops
}

type answerKey struct {
	to   sim.Addr
	corr int32
}

// fetchAnswers indexes the Fetch answers in flight by receiver and
// correlation id.
func fetchAnswers(queued []sim.QueuedEvent) map[answerKey]sim.QueuedEvent {
	out := map[answerKey]sim.QueuedEvent{}
	for _, q := range queued {
		if q.Env == nil {
			continue
		}
		if r, ok := q.Env.Msg.(*protocol.FetchResponse); ok {
			out[answerKey{q.Env.To, r.CorrelationID}] = q
		}
	}
	return out
}

// findFetchLoop returns f as a loop if it is in a steady long poll: every
// event of its next cycles is one it would repeat (nil otherwise).
func findFetchLoop(w *sim.World, ix leapIndex, answers map[answerKey]sim.QueuedEvent, fb *Broker, f *fetcher, brokers map[string]*Broker) *FetchLoop {
	lb := brokers[f.leaderHost]
	if lb == nil || lb == fb || fb.state != StateRunning || lb.state != StateRunning || !lb.readyToServe || len(lb.held) > 0 {
		return nil
	}
	if f.stopped || !f.inFlight || f.epochInFlight || f.wake.Pending() || f.sent == nil || lb.cfg.NodeID != f.leader {
		return nil
	}
	req := f.sent
	l := &FetchLoop{follower: fb, leader: lb, f: f, req: req}
	var ok bool
	if l.local, ok = fb.net.Connected(f.leaderAddr); !ok {
		return nil
	}
	timer, to := fb.net.CallTimer(req.CorrelationID)
	if timer == nil || to != f.leaderAddr {
		return nil
	}
	if l.call, ok = ix.timers[timer]; !ok {
		return nil
	}
	fh, lh := fb.cfg.Host, lb.cfg.Host
	net := w.Net()
	if net.IsCut(fh, lh) || net.IsCut(lh, fh) {
		return nil
	}
	l.toLeader, l.toFollower = w.Latency(fh, lh), w.Latency(lh, fh)
	l.wait = time.Duration(req.MaxWaitMs) * time.Millisecond
	l.timeout = fb.ms("replica.socket.timeout.ms")
	if req.MaxWaitMs <= 0 || l.period() >= l.timeout {
		return nil
	}
	// The cycle's pending event, and when its Fetch reaches the leader.
	conn := lb.conns[l.local]
	if q, ok := ix.msgs[req]; ok {
		l.phase, l.event, l.arrive = fetchSent, q, q.At
		if q.Env.From != l.local || q.Env.To != f.leaderAddr || q.Env.DeliverAt.Sub(q.Env.SentAt) != l.toLeader || conn != nil {
			return nil
		}
	} else if df := lb.parkedFetch(req); df != nil {
		q, ok := ix.timers[&df.timer]
		if !ok || df.from != l.local || conn == nil || !conn.busy || conn.closed || len(conn.queue) > 0 {
			return nil
		}
		l.phase, l.event, l.df, l.arrive = fetchParked, q, df, q.At.Add(-l.wait)
	} else if q, ok := answers[answerKey{l.local, req.CorrelationID}]; ok {
		resp := q.Env.Msg.(*protocol.FetchResponse)
		if q.Env.From != lb.addr || q.Env.DeliverAt.Sub(q.Env.SentAt) != l.toFollower || conn != nil || !f.emptyAnswer(resp) {
			return nil
		}
		l.phase, l.event, l.arrive = fetchAnswered, q, q.Env.SentAt.Add(-l.wait)
	} else {
		return nil
	}
	// The Fetch was sent arrive-toLeader ago, with the timeout it has now.
	if l.call.At != l.arrive.Add(-l.toLeader).Add(l.timeout) {
		return nil
	}
	// FIFO links never hold a message back: each one is due before the
	// next can be sent.
	if net.LastDelivery(fh, lh) > w.Now().Add(l.toLeader) || net.LastDelivery(lh, fh) > w.Now().Add(l.toFollower) {
		return nil
	}
	// The follower would send this same Fetch again, and nothing else.
	if next, backoff := f.nextFetch(w.Now()); next == nil || backoff >= 0 || !next.SameAs(req) {
		return nil
	}
	for _, fs := range f.parts {
		if fs.truncating || fs.resetting {
			return nil
		}
	}
	if !lb.parksIdle(req, f) {
		return nil
	}
	return l
}

// parkedFetch is the live parked fetch for req, if any.
func (b *Broker) parkedFetch(req *protocol.FetchRequest) *delayedFetch {
	for _, df := range b.parked {
		if df.req == req && !df.done {
			return df
		}
	}
	return nil
}

// parksIdle reports whether this leader parks fetcher f's req and
// answers it empty, changing nothing but the follower's fetch times: every
// partition is led here in the Fetch's epoch, at its fetch offset, with
// every replica caught up (HW = LEO) and f's broker in the ISR, and it already
// took what such an answer says.
func (b *Broker) parksIdle(req *protocol.FetchRequest, f *fetcher) bool {
	id := f.b.cfg.NodeID
	for _, t := range req.Topics {
		for _, fp := range t.Partitions {
			p := b.partitions[tp(t.Name, fp.Index)]
			if p == nil || !p.isLeader || p.leaderEpoch != fp.CurrentLeaderEpoch || p.pendingISR != nil || b.image.Partition(t.Name, fp.Index) == nil {
				return false
			}
			leo := p.log.LogEndOffset()
			if fp.FetchOffset != leo || p.log.HighWatermark() != leo || !slices.Contains(p.isr, id) {
				return false
			}
			st := p.followers[id]
			if st == nil || st.logEndOffset != leo || st.lastFetchLeaderLogEndOffset != leo || st.brokerEpoch != req.ReplicaEpoch {
				return false
			}
			for _, o := range p.followers {
				if o.logEndOffset < leo {
					return false
				}
			}
		}
	}
	resp, slices, bytes, stop := b.readFetch(nil, req, false)
	defer b.fetchDraft.release(resp)
	return !stop && bytes == 0 && len(slices) == 0 && f.emptyAnswer(resp)
}

// emptyAnswer reports whether resp, an answer to this fetcher's Fetch,
// changes nothing when processed: no error, no records, no divergence,
// and a HW and log start the follower has already taken.
func (f *fetcher) emptyAnswer(resp *protocol.FetchResponse) bool {
	if resp.ErrorCode != protocol.NONE {
		return false
	}
	for _, t := range resp.Topics {
		for _, pr := range t.Partitions {
			fs, ok := f.parts[tp(t.Name, pr.Index)]
			if !ok || pr.ErrorCode != protocol.NONE || len(pr.Records) > 0 || pr.DivergingEpoch.Epoch >= 0 {
				return false
			}
			log := fs.p.log
			if min(pr.HighWatermark, log.LogEndOffset()) != log.HighWatermark() {
				return false
			}
			if pr.LogStartOffset > log.LogStartOffset() && pr.LogStartOffset <= log.HighWatermark() {
				return false
			}
		}
	}
	return true
}

// fetchLeap is a loop's span: how many cycles it completes before the
// horizon and where its last cycle stands.
type fetchLeap struct {
	l      *FetchLoop
	cycles int      // answers received (= Fetches sent) in the span
	first  sim.Time // the first answer's arrival (the first send)
	// The last cycle: its arrival at the leader, and where it stands at
	// the horizon.
	arrive sim.Time
	phase  fetchPhase
	id     int32 // its Fetch's correlation id (cycles > 0)
}

// sentBefore counts this span's sends before t, and at t if the loop
// ranks before rank (the order a stepped run gives sends at one instant).
func (s *fetchLeap) sentBefore(t sim.Time, rank int) int {
	if s.cycles == 0 || t < s.first {
		return 0
	}
	p := sim.Time(s.l.period())
	k := int((t - s.first) / p) // sends at first + i*p for i <= k are at or before t
	n := min(s.cycles, k+1)
	if k < s.cycles && s.first+sim.Time(k)*p == t && s.l.rank >= rank {
		n-- // the send at t itself comes after
	}
	return n
}

// LeapFetchLoops moves loops across the span from now to just before
// horizon: every event of theirs due before it happens, in closed form.
// It updates the brokers and returns the events consumed, the events
// pending at the end, and the time of the last event it ran (now if none).
func LeapFetchLoops(now, horizon sim.Time, loops []*FetchLoop) (drop []sim.QueuedEvent, add []sim.LeapEvent, last sim.Time) {
	last = now
	spans := make([]*fetchLeap, len(loops))
	for i, l := range loops {
		p := sim.Time(l.period())
		answer := l.arrive.Add(l.wait + l.toFollower) // the cycle's answer arrives
		s := &fetchLeap{l: l, arrive: l.arrive}
		if answer < horizon {
			s.cycles = int((horizon-1-answer)/p) + 1
			s.first = answer
			s.arrive = l.arrive + sim.Time(s.cycles)*p
		}
		switch expiry := s.arrive.Add(l.wait); {
		case s.arrive >= horizon:
			s.phase = fetchSent
			if s.cycles > 0 {
				last = max(last, s.arrive.Add(-l.toLeader))
			}
		case expiry >= horizon:
			s.phase = fetchParked
			last = max(last, s.arrive)
		default:
			s.phase = fetchAnswered
			last = max(last, expiry)
		}
		spans[i] = s
	}
	// Correlation ids: each follower's client numbers its Fetches in the
	// order they were sent, across its fetchers.
	byFollower := map[*Broker][]*fetchLeap{}
	var followers []*Broker
	for _, s := range spans {
		if _, ok := byFollower[s.l.follower]; !ok {
			followers = append(followers, s.l.follower)
		}
		byFollower[s.l.follower] = append(byFollower[s.l.follower], s)
	}
	for _, fb := range followers {
		group := byFollower[fb]
		next := fb.net.NextCorrelationID()
		total := 0
		for _, s := range group {
			total += s.cycles
			if s.cycles == 0 {
				continue
			}
			lastSend := s.arrive.Add(-s.l.toLeader)
			before := 0
			for _, o := range group {
				before += o.sentBefore(lastSend, s.l.rank)
			}
			s.id = next + int32(before)
		}
		fb.net.SetNextCorrelationID(next + int32(total))
	}
	for _, s := range spans {
		d, a := s.apply()
		drop = append(drop, d...)
		add = append(add, a...)
	}
	// The leader holds parked fetches in their arrival order.
	var parked []*fetchLeap
	for _, s := range spans {
		if s.phase == fetchParked && (s.cycles > 0 || s.l.phase != fetchParked) {
			parked = append(parked, s)
		}
	}
	slices.SortStableFunc(parked, func(a, b *fetchLeap) int {
		if c := cmp.Compare(a.arrive, b.arrive); c != 0 {
			return c
		}
		return a.l.rank - b.l.rank
	})
	for _, s := range parked {
		lb := s.l.leader
		lb.parked = append(lb.parked, s.l.df)
	}
	return drop, add, last
}

// apply moves one loop's brokers to the end of its span and returns its
// events consumed and pending.
func (s *fetchLeap) apply() (drop []sim.QueuedEvent, add []sim.LeapEvent) {
	l := s.l
	if s.cycles == 0 && s.phase == l.phase {
		return nil, nil // nothing of it happened in the span
	}
	fb, lb, f := l.follower, l.leader, l.f
	drop = append(drop, l.event)
	req := l.req
	if s.cycles > 0 {
		// The last answer came back: the follower sent the same Fetch
		// again, with the next correlation id.
		drop = append(drop, l.call)
		fb.net.LeapAnswered(l.req.CorrelationID)
		next := *l.req
		req = &next
		send := s.arrive.Add(-l.toLeader)
		timer, name, task := fb.net.LeapSent(s.id, f.leaderAddr, req, f.onFetched)
		// Sent when the answer came, queued at the leader's expiry.
		cause := send.Add(-l.toFollower)
		add = append(add, sim.LeapEvent{PushedAt: send, Cause: cause, Rank: 2 * l.rank, Host: fb.cfg.Host, Timer: timer, At: send.Add(l.timeout), Name: name, Task: task})
		f.sent = req
		if s.phase == fetchSent {
			add = append(add, sim.LeapEvent{PushedAt: send, Cause: cause, Rank: 2*l.rank + 1, Env: &sim.Envelope{From: l.local, To: f.leaderAddr, Msg: req, SentAt: send, DeliverAt: s.arrive}})
		}
	}
	// The leader: a parked fetch that expired left its purgatory and
	// unmuted the connection.
	if l.phase == fetchParked {
		l.df.done = true
		if i := slices.Index(lb.parked, l.df); i >= 0 {
			lb.parked = slices.Delete(lb.parked, i, i+1)
		}
		delete(lb.conns, l.local)
	}
	// The follower's latest arrival in the span set its fetch times.
	arrived := s.arrive
	if s.phase == fetchSent {
		arrived = s.arrive.Add(-l.period())
	}
	if arrived > l.arrive || (arrived == l.arrive && l.phase == fetchSent) {
		lb.leapFollowerFetched(req, fb.cfg.NodeID, arrived)
	}
	switch s.phase {
	case fetchParked:
		df := &delayedFetch{b: lb, from: l.local, req: req}
		add = append(add, sim.LeapEvent{PushedAt: s.arrive, Cause: s.arrive.Add(-l.toLeader), Rank: 2 * l.rank, Host: lb.cfg.Host, Timer: &df.timer, At: s.arrive.Add(l.wait), Name: "delayed-fetch-expiry", Task: df})
		l.df = df
		lb.conns[l.local] = &conn{busy: true}
	case fetchAnswered:
		expiry := s.arrive.Add(l.wait)
		resp, _, _, _ := lb.readFetch(nil, req, false)
		add = append(add, sim.LeapEvent{PushedAt: expiry, Cause: s.arrive, Rank: 2 * l.rank, Env: &sim.Envelope{From: lb.addr, To: l.local, Msg: resp, SentAt: expiry, DeliverAt: expiry.Add(l.toFollower)}})
	}
	return drop, add
}

// leapFollowerFetched is what the follower's Fetch at offsets it already
// had told this leader when it arrived at at: only the fetch times move
// (updateFollowerFetchState with a caught-up follower).
func (b *Broker) leapFollowerFetched(req *protocol.FetchRequest, id int32, at sim.Time) {
	for _, t := range req.Topics {
		for _, fp := range t.Partitions {
			st := b.partitions[tp(t.Name, fp.Index)].followers[id]
			st.lastCaughtUpTime = max(st.lastCaughtUpTime, at)
			st.lastFetchTime = at
		}
	}
}
