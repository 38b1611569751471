package broker

import (
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// A broker's heartbeats in closed form, for a leap (sim.World.Leap).
//
// A running broker sends BrokerHeartbeat (sendHeartbeat), the active
// controller renews its session, re-arms the session-expiry timer and
// answers at once (handleHeartbeat), and the broker sends the next one
// broker.heartbeat.interval.ms after the answer arrived
// (BrokerLifecycleManager). Each cycle takes the interval plus both links'
// latencies (2002 ms to a remote controller, 2000 ms to the one on the
// broker's own node) and changes nothing but clocks and counters: the
// session's last contact, the expiry timer, the broker's correlation ids
// and which of the cycle's three events is pending. The controller's
// expiry timer is shared by every broker's session: a leap takes it over
// only when every session it watches belongs to a steady loop (so it never
// fires in the span, and the span's last heartbeat re-armed it), and it
// never takes a heartbeat the controller would answer late (a reply held
// until a commit): nothing is uncommitted when a span begins, and the
// cluster ends a span before a heartbeat that would reach the controller
// between a leaped NoOp's append and its commit. A heartbeat sent in the
// span carries the metadata offset of its instant (LeapLoops'
// metadataOffset: the leaped NoOps move it).

// HeartbeatController is the active controller's side of heartbeats
// (controller.Controller).
type HeartbeatController interface {
	Addr() sim.Addr
	// SteadyHeartbeat is the answer handling req now would send at once,
	// changing nothing but the session and the expiry timer (false: it
	// would change more, or wait).
	SteadyHeartbeat(req *protocol.BrokerHeartbeatRequest) (*protocol.BrokerHeartbeatResponse, bool)
	// SessionExpiry is the pending session-expiry timer (nil: none, or
	// not as the sessions say) and the sessions it watches (broker id to
	// last contact).
	SessionExpiry() (*sim.Timer, map[int32]sim.Time)
	// ExpiryDelay is how long after a broker's last contact its session
	// expires (the session timeout plus 1 ms).
	ExpiryDelay() time.Duration
	// LeapSessions renews sessions (broker id to last contact) and
	// re-arms the expiry timer as a heartbeat handled at armedAt did.
	LeapSessions(contacts map[int32]sim.Time, armedAt sim.Time, host string) sim.LeapEvent
}

// The heartbeat's cycle as a chain (leap_order.go): the heartbeat timer
// fires (step 0) and the broker sends the request, its timeout timer
// first; the request reaches the controller (step 1), which re-arms the
// expiry timer, then answers; the answer arrives (step 2) and the broker
// arms the next heartbeat.
const (
	hbFireStep = iota
	hbArriveStep
	hbAnswerStep
)

// HeartbeatLoop is one broker's heartbeats in a steady cycle.
type HeartbeatLoop struct {
	b       *Broker
	ctl     HeartbeatController
	ctlHost string
	local   sim.Addr // the broker's end of the connection
	event   sim.QueuedEvent
	call    sim.QueuedEvent // the request's timeout (not in the timer step)
	cc      *controllerCall // the heartbeat in flight (none in the timer step)
	// req is the heartbeat the broker sends next (its correlation id
	// aside).
	req *protocol.BrokerHeartbeatRequest
	// The cycle's constants: the links' latencies, the interval, the
	// channel's timeout.
	toCtl, fromCtl, interval, timeout time.Duration
	contact                           sim.Time // the session's last contact now
	ch                                chain
}

// HeartbeatLoops are the steady heartbeat loops of a world, grouped by the
// controller they go to.
type HeartbeatLoops struct {
	groups []*sessionGroup
}

// sessionGroup is an active controller's steady sessions: every session
// its expiry timer watches has a loop.
type sessionGroup struct {
	ctl    HeartbeatController
	host   string
	expiry sim.QueuedEvent
	loops  []*HeartbeatLoop
}

// Claims are the queued events the loops own: each loop's pending event
// and request timeout, and each controller's session-expiry timer.
func (h *HeartbeatLoops) Claims() []sim.QueuedEvent {
	var out []sim.QueuedEvent
	for _, g := range h.groups {
		out = append(out, g.expiry)
		for _, l := range g.loops {
			out = append(out, l.event)
			if l.cc != nil {
				out = append(out, l.call)
			}
		}
	}
	return out
}

// FirstArrival is the first instant before end at which a loop's
// heartbeat reaches its controller and hit reports true (end if none):
// a leap that also runs the controller's NoOps stops short of a
// heartbeat the controller would answer only after a commit.
func (h *HeartbeatLoops) FirstArrival(end sim.Time, hit func(sim.Time) bool) sim.Time {
	first := end
	for _, g := range h.groups {
		for _, l := range g.loops {
			n := l.ch.before(first)
			for j := (hbArriveStep - l.ch.step + l.ch.m) % l.ch.m; j < n; j += l.ch.m {
				if t := l.ch.eventAt(j); hit(t) {
					first = min(first, t)
					break
				}
			}
		}
	}
	return first
}

// Len counts the loops.
func (h *HeartbeatLoops) Len() int {
	n := 0
	for _, g := range h.groups {
		n += len(g.loops)
	}
	return n
}

// FindHeartbeatLoops finds the brokers (running brokers by host) whose
// heartbeats are in a steady cycle now, given the world's queue and the
// active controllers by listener address.
func FindHeartbeatLoops(w *sim.World, ix *LeapIndex, brokers map[string]*Broker, controllers map[sim.Addr]HeartbeatController) *HeartbeatLoops {
	out := &HeartbeatLoops{}
	hosts := make([]string, 0, len(brokers))
	for h := range brokers {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	var refused []*sessionGroup // a loop to it is not steady: its expiry timer cannot be leaped
	for _, h := range hosts {
		b := brokers[h]
		addr, ok := b.cfg.Quorum.ActiveController()
		ctl := controllers[addr]
		if !ok || ctl == nil {
			continue
		}
		var g *sessionGroup
		for _, o := range out.groups {
			if o.ctl == ctl {
				g = o
			}
		}
		if g == nil {
			g = &sessionGroup{ctl: ctl, host: addr.Host()}
			out.groups = append(out.groups, g)
		}
		if slices.Contains(refused, g) {
			continue
		}
		if l := findHeartbeatLoop(w, ix, b, ctl); l != nil {
			g.loops = append(g.loops, l)
		} else {
			refused = append(refused, g)
		}
	}
	out.groups = slices.DeleteFunc(out.groups, func(g *sessionGroup) bool { return slices.Contains(refused, g) || !g.steady(ix) })
	return out
}

// steady reports whether the controller's sessions are all its loops'
// and its expiry timer never fires while they run: each loop's next
// heartbeat arrives before its session expires, and so does every one
// after it (the cycle is shorter than the expiry delay).
func (g *sessionGroup) steady(ix *LeapIndex) bool {
	timer, watched := g.ctl.SessionExpiry()
	if timer == nil || len(watched) != len(g.loops) {
		return false
	}
	q, ok := ix.timers[timer]
	if !ok {
		return false
	}
	g.expiry = q
	delay := g.ctl.ExpiryDelay()
	for _, l := range g.loops {
		contact, ok := watched[l.b.cfg.NodeID]
		if !ok || l.ch.period >= sim.Time(delay) {
			return false
		}
		l.contact = contact
		first := ev{&l.ch, l.ch.lastOf(hbArriveStep, l.ch.m)}.at()
		if first >= contact.Add(delay) {
			return false
		}
	}
	return true
}

// findHeartbeatLoop returns b's heartbeats as a loop if they are in a
// steady cycle towards ctl: every event of its next cycles is one it
// would repeat (nil otherwise).
func findHeartbeatLoop(w *sim.World, ix *LeapIndex, b *Broker, ctl HeartbeatController) *HeartbeatLoop {
	if b.state != StateRunning || !b.registered || b.wantShutdown || !b.readyToUnfence() || b.heartbeatFailures != 0 {
		return nil
	}
	addr := ctl.Addr()
	l := &HeartbeatLoop{b: b, ctl: ctl, ctlHost: addr.Host(), req: b.heartbeatRequest()}
	if _, ok := ctl.SteadyHeartbeat(l.req); !ok {
		return nil
	}
	var ok bool
	if l.local, ok = b.net.Connected(addr); !ok {
		return nil
	}
	bh, ch := b.cfg.Host, l.ctlHost
	net := w.Net()
	if net.IsCut(bh, ch) || net.IsCut(ch, bh) {
		return nil
	}
	l.toCtl, l.fromCtl = w.Latency(bh, ch), w.Latency(ch, bh)
	l.interval = b.ms("broker.heartbeat.interval.ms")
	l.timeout = b.heartbeatTimeout()
	// The answer comes before the request's timeout, which is the
	// channel's deadline (min(timeout, controller.socket.timeout.ms)).
	if l.interval <= 0 || l.toCtl+l.fromCtl >= min(l.timeout, controllerSocketTimeout) {
		return nil
	}
	var step int
	if !b.heartbeatInFlight {
		q, ok := ix.timers[b.heartbeatTimer]
		if !ok || q.Timer.Name() != heartbeatTimerName {
			return nil
		}
		step, l.event = hbFireStep, q
	} else {
		cc := b.heartbeatCall
		if cc == nil {
			return nil
		}
		req, isHB := cc.req.(*protocol.BrokerHeartbeatRequest)
		if !isHB || cc.b != b {
			return nil
		}
		timer, to := b.net.CallTimer(cc.id)
		if timer == nil || to != addr || req.CorrelationID != cc.id {
			return nil
		}
		if l.call, ok = ix.timers[timer]; !ok || l.call.At != cc.deadline {
			return nil
		}
		l.cc = cc
		if q, ok := ix.msgs[req]; ok {
			e := q.Env
			if e.From != l.local || e.To != addr || e.DeliverAt.Sub(e.SentAt) != l.toCtl {
				return nil
			}
			if _, ok := ctl.SteadyHeartbeat(req); !ok {
				return nil
			}
			step, l.event = hbArriveStep, q
		} else if q, ok := ix.answers[answerKey{l.local, cc.id}]; ok {
			e := q.Env
			resp, isHB := e.Msg.(*protocol.BrokerHeartbeatResponse)
			if !isHB || e.From != addr || e.DeliverAt.Sub(e.SentAt) != l.fromCtl || resp.ErrorCode != protocol.NONE {
				return nil
			}
			step, l.event = hbAnswerStep, q
		} else {
			return nil // held by the controller, or on a retry's backoff
		}
	}
	// FIFO links never hold a message back.
	if net.LastDelivery(bh, ch) > w.Now().Add(l.toCtl) || net.LastDelivery(ch, bh) > w.Now().Add(l.fromCtl) {
		return nil
	}
	l.ch.init(l.event, step, []time.Duration{l.toCtl, l.fromCtl, l.interval}, []int{1, 1, 0})
	return l
}

// hbSpan is a heartbeat loop across a span: its heartbeats are sent one
// at each timer (its sender's n is the loop's events due in the span).
type hbSpan struct {
	l *HeartbeatLoop
	sender
}

func (s *hbSpan) init(l *HeartbeatLoop, horizon sim.Time) {
	*s = hbSpan{l: l, sender: spanSender(l.b, &l.ch, hbFireStep, horizon)}
}

// apply moves the broker to the end of its span and adds its events
// consumed and pending to out. The controller's side is the group's.
func (s *hbSpan) apply(out *leapOut, metadataOffset func(id int32, t sim.Time) int64) {
	l, ch, b := s.l, &s.l.ch, s.l.b
	if s.n == 0 {
		return
	}
	out.drop = append(out.drop, l.event)
	last := ev{ch, s.n - 1}
	final := ch.stepOf(last.j)
	cc := l.cc // the heartbeat in flight at the end, if any
	if l.cc != nil && ch.ofStep(hbAnswerStep, s.n) > 0 {
		// The heartbeat in flight at the start was answered.
		out.drop = append(out.drop, l.call)
		b.net.LeapAnswered(l.cc.id)
		cc = nil
	}
	addr := l.ctl.Addr()
	if sent := ch.lastOf(hbFireStep, s.n); sent >= 0 && final != hbAnswerStep {
		// The last heartbeat sent is still in flight: its call, as
		// sendToController made it.
		e := ev{ch, sent}
		at := e.at()
		req := *l.req
		if metadataOffset != nil {
			req.CurrentMetadataOffset = metadataOffset(b.cfg.NodeID, at)
		}
		cc = &controllerCall{b: b, req: &req, deadline: at.Add(l.timeout), cb: b.heartbeatAnswered, id: s.id}
		timer, name, task := b.net.LeapSent(cc.id, addr, &req, cc.answered)
		out.add = append(out.add, leapAdd{sim.LeapEvent{Host: b.cfg.Host, Timer: timer, At: at.Add(min(l.timeout, controllerSocketTimeout)), Name: name, Task: task}, pushed{e, 0}})
		if final == hbFireStep {
			out.add = append(out.add, leapAdd{sim.LeapEvent{Env: &sim.Envelope{From: l.local, To: addr, Msg: &req, SentAt: at, DeliverAt: at.Add(l.toCtl)}}, nextPush(e)})
		}
	}
	at := last.at()
	switch final {
	case hbFireStep:
		b.heartbeatInFlight, b.heartbeatCall = true, cc
	case hbArriveStep:
		resp, ok := l.ctl.SteadyHeartbeat(cc.req.(*protocol.BrokerHeartbeatRequest))
		if !ok {
			panic("broker: a leaped heartbeat is no longer steady")
		}
		out.add = append(out.add, leapAdd{sim.LeapEvent{Env: &sim.Envelope{From: addr, To: l.local, Msg: resp, SentAt: at, DeliverAt: at.Add(l.fromCtl)}}, nextPush(last)})
		b.heartbeatInFlight, b.heartbeatCall = true, cc
	case hbAnswerStep:
		b.heartbeatInFlight, b.heartbeatCall, b.heartbeatFailures = false, nil, 0
		b.heartbeatTimer = &sim.Timer{}
		out.add = append(out.add, leapAdd{sim.LeapEvent{Host: b.cfg.Host, Timer: b.heartbeatTimer, At: at.Add(l.interval), Name: heartbeatTimerName, Task: heartbeatTick{b}}, nextPush(last)})
	}
}

// apply renews the controller's sessions as the span's heartbeats did and
// re-arms its expiry timer as the last of them did.
// spans are its loops', in order.
func (g *sessionGroup) apply(spans []hbSpan, out *leapOut) {
	contacts := map[int32]sim.Time{}
	var lastArrival *ev
	for i, l := range g.loops {
		j := l.ch.lastOf(hbArriveStep, spans[i].n)
		if j < 0 {
			continue
		}
		e := ev{&l.ch, j}
		contacts[l.b.cfg.NodeID] = e.at()
		if lastArrival == nil || e.at() > lastArrival.at() || (e.at() == lastArrival.at() && seqCmp(e, *lastArrival) > 0) {
			lastArrival = &e
		}
	}
	if lastArrival == nil {
		return
	}
	e := g.ctl.LeapSessions(contacts, lastArrival.at(), g.host)
	out.drop = append(out.drop, g.expiry)
	out.add = append(out.add, leapAdd{e, pushed{*lastArrival, 0}})
}

// leapOut gathers a leap's events consumed and pending.
type leapOut struct {
	drop []sim.QueuedEvent
	add  []leapAdd
}

// LeapLoops moves the loops across the span from now to just before
// horizon: every event of theirs due before it happens, in closed form.
// It updates the brokers and controllers and returns the events consumed,
// the events pending at the end, and the time of the last event it ran
// (now if none).
//
// metadataOffset, when not nil, is a broker's metadata image offset at an
// instant of the span (before that instant's other events: a leap that
// also runs KRaft's NoOps moves it), which a heartbeat sent then carries.
func LeapLoops(now, horizon sim.Time, fetches []*FetchLoop, hb *HeartbeatLoops, metadataOffset func(id int32, t sim.Time) int64) (drop []sim.QueuedEvent, add []sim.LeapEvent, last sim.Time) {
	last = now
	senders := make([]*sender, 0, len(fetches)+hb.Len())
	fspans := make([]fetchSpan, len(fetches))
	for i, l := range fetches {
		s := &fspans[i]
		s.init(l, horizon)
		senders = append(senders, &s.sender)
		if s.n > 0 {
			last = max(last, l.ch.eventAt(s.n-1))
		}
	}
	hspans := make([]hbSpan, 0, hb.Len())
	for _, g := range hb.groups {
		for _, l := range g.loops {
			hspans = append(hspans, hbSpan{})
			s := &hspans[len(hspans)-1]
			s.init(l, horizon)
			senders = append(senders, &s.sender)
			if s.n > 0 {
				last = max(last, l.ch.eventAt(s.n-1))
			}
		}
	}
	numberSends(senders)
	out := &leapOut{drop: make([]sim.QueuedEvent, 0, 3*len(senders)), add: make([]leapAdd, 0, 3*len(senders))}
	leapFetchSpans(fspans, out)
	for i := range hspans {
		hspans[i].apply(out, metadataOffset)
	}
	off := 0
	for _, g := range hb.groups {
		g.apply(hspans[off:off+len(g.loops)], out)
		off += len(g.loops)
	}
	return out.drop, ranked(out.add), last
}
