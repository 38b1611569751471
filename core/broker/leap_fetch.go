package broker

import (
	"cmp"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
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
// is pending. A FetchLoop proves a fetcher is in that cycle, and a
// fetchSpan moves it across a span in closed form (LeapLoops).

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
	// ch is the loop's events from its pending one on.
	ch chain
}

// Claims are the queued events the loop owns: its Fetch's timeout and the
// cycle's pending event.
func (l *FetchLoop) Claims() []sim.QueuedEvent { return []sim.QueuedEvent{l.call, l.event} }

// period is one cycle: the Fetch's way there, the wait, the answer's way
// back.
func (l *FetchLoop) period() time.Duration { return l.toLeader + l.wait + l.toFollower }

// FetchLoops finds every replica fetcher of brokers (running brokers'
// by host) that is in a steady long poll now, given the world's queue.
func FetchLoops(w *sim.World, ix *LeapIndex, brokers map[string]*Broker) []*FetchLoop {
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
			if l := findFetchLoop(w, ix, b, b.fetchers[id], brokers); l != nil {
				loops = append(loops, l)
			}
		}
	}
	return loops
}

// findFetchLoop returns f as a loop if it is in a steady long poll: every
// event of its next cycles is one it would repeat (nil otherwise).
func findFetchLoop(w *sim.World, ix *LeapIndex, fb *Broker, f *fetcher, brokers map[string]*Broker) *FetchLoop {
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
	} else if q, ok := ix.answers[answerKey{l.local, req.CorrelationID}]; ok {
		resp, isFetch := q.Env.Msg.(*protocol.FetchResponse)
		if !isFetch || q.Env.From != lb.addr || q.Env.DeliverAt.Sub(q.Env.SentAt) != l.toFollower || conn != nil || !f.emptyAnswer(resp) {
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
	l.ch.init(l.event, int(l.phase-fetchSent), []time.Duration{l.wait, l.toFollower, l.toLeader}, []int{0, 0, 1})
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
		local, topic := b.topicPartitions(t.Name), b.image.Topics[t.Name]
		for _, fp := range t.Partitions {
			p := partitionAt(local, fp.Index)
			if p == nil || !p.isLeader || p.leaderEpoch != fp.CurrentLeaderEpoch || p.pendingISR != nil || topic.Partition(fp.Index) == nil {
				return false
			}
			leo := p.log.LogEndOffset()
			if fp.FetchOffset != leo || p.log.HighWatermark() != leo || !slices.Contains(p.isr, id) {
				return false
			}
			st := p.followers.get(id)
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

// Each fetch loop's cycle as a chain (leap_order.go): the Fetch arrives
// at the leader (step 0) and is parked, the parked fetch expires (step 1)
// and the empty answer goes back, the answer arrives (step 2) and the
// follower sends the next Fetch: its timeout timer first, then the Fetch.
// A loop in phase p waits for step p-fetchSent.
const (
	fetchArriveStep = iota
	fetchExpireStep
	fetchAnswerStep
)

// fetchSpan is a fetch loop across a span: its Fetches are sent one at
// each answer (its sender's n is the loop's events due in the span).
type fetchSpan struct {
	l *FetchLoop
	sender
}

func (s *fetchSpan) init(l *FetchLoop, horizon sim.Time) {
	*s = fetchSpan{l: l, sender: spanSender(l.follower, &l.ch, fetchAnswerStep, horizon)}
}

// apply moves one loop's brokers to the end of its span and adds its
// events consumed and pending to out. It returns its Fetch's arrival at
// the leader if the leader holds it parked at the end (a leap put it
// there).
func (s *fetchSpan) apply(out *leapOut) (parkedAt *ev) {
	l := s.l
	if s.n == 0 {
		return nil // nothing of it happened in the span
	}
	fb, lb, f, ch := l.follower, l.leader, l.f, &l.ch
	out.drop = append(out.drop, l.event)
	req := l.req
	last := ev{ch, s.n - 1}
	final := ch.stepOf(last.j)
	if s.sends() > 0 {
		// The last answer came back: the follower sent the same Fetch
		// again, with the next correlation id.
		out.drop = append(out.drop, l.call)
		fb.net.LeapAnswered(l.req.CorrelationID)
		next := *l.req
		req = &next
		sent := ev{ch, ch.lastOf(fetchAnswerStep, s.n)}
		at := sent.at()
		timer, name, task := fb.net.LeapSent(s.id, f.leaderAddr, req, f.onFetched)
		out.add = append(out.add, leapAdd{sim.LeapEvent{Host: fb.cfg.Host, Timer: timer, At: at.Add(l.timeout), Name: name, Task: task}, pushed{sent, 0}})
		f.sent = req
		if final == fetchAnswerStep {
			out.add = append(out.add, leapAdd{sim.LeapEvent{Env: &sim.Envelope{From: l.local, To: f.leaderAddr, Msg: req, SentAt: at, DeliverAt: at.Add(l.toLeader)}}, nextPush(sent)})
		}
	}
	// The leader: a parked fetch that expired left its purgatory and
	// was answered, which ended the connection's request (done).
	if l.phase == fetchParked {
		l.df.done = true
		if i := slices.Index(lb.parked, l.df); i >= 0 {
			lb.parked = slices.Delete(lb.parked, i, i+1)
		}
		delete(lb.conns, l.local)
	}
	// The follower's latest arrival in the span set its fetch times.
	if a := ch.lastOf(fetchArriveStep, s.n); a >= 0 {
		lb.leapFollowerFetched(req, fb.cfg.NodeID, ch.eventAt(a))
	}
	switch at := last.at(); final {
	case fetchArriveStep:
		df := &delayedFetch{b: lb, from: l.local, req: req}
		out.add = append(out.add, leapAdd{sim.LeapEvent{Host: lb.cfg.Host, Timer: &df.timer, At: at.Add(l.wait), Name: "delayed-fetch-expiry", Task: df}, nextPush(last)})
		l.df = df
		lb.conns[l.local] = &conn{busy: true}
		parkedAt = &last
	case fetchExpireStep:
		resp, _, _, _ := lb.readFetch(nil, req, false)
		out.add = append(out.add, leapAdd{sim.LeapEvent{Env: &sim.Envelope{From: lb.addr, To: l.local, Msg: resp, SentAt: at, DeliverAt: at.Add(l.toFollower)}}, nextPush(last)})
	}
	return parkedAt
}

// leapFetchSpans applies the fetch loops' spans. The leader holds the
// fetches it parked in their arrival order.
func leapFetchSpans(spans []fetchSpan, out *leapOut) {
	type park struct {
		s  *fetchSpan
		at ev
	}
	var parks []park
	for i := range spans {
		if p := spans[i].apply(out); p != nil {
			parks = append(parks, park{&spans[i], *p})
		}
	}
	sorts.StableFunc(parks, func(a, b park) int {
		if c := cmp.Compare(a.at.at(), b.at.at()); c != 0 {
			return c
		}
		return seqCmp(a.at, b.at)
	})
	for _, p := range parks {
		p.s.l.leader.parked = append(p.s.l.leader.parked, p.s.l.df)
	}
}

// leapFollowerFetched is what the follower's Fetch at offsets it already
// had told this leader when it arrived at at: only the fetch times move
// (updateFollowerFetchState with a caught-up follower).
func (b *Broker) leapFollowerFetched(req *protocol.FetchRequest, id int32, at sim.Time) {
	for _, t := range req.Topics {
		local := b.topicPartitions(t.Name)
		for _, fp := range t.Partitions {
			st := local[fp.Index].followers.get(id)
			st.lastCaughtUpTime = max(st.lastCaughtUpTime, at)
			st.lastFetchTime = at
		}
	}
}
