package sim

import "time"

// Linux's retransmission timeout bounds (include/net/tcp.h: TCP_RTO_MIN
// 200 ms, TCP_RTO_MAX 120 s).
const (
	StreamRTOMin = 200 * time.Millisecond
	StreamRTOMax = 120 * time.Second
)

// Stream is one direction of a TCP connection over the network, for a
// protocol that relies on TCP delivering every message once and in order
// (a ZooKeeper session: its client has no per-request timeout, only the
// read timeout of a silent connection; ZAB between ensemble members).
// The network drops what a cut takes, when it is sent or while it is in
// flight; a Stream's receiver never sees a message after one that was
// lost (the world drops it too, as TCP holds it back), and at the
// retransmission timeout (from StreamRTOMin, doubling to StreamRTOMax
// while it fails) the sender sends every message not delivered yet
// again, in order. So after a heal the peer gets all of it, late and in
// order, as from a TCP connection that survived the cut. A cut longer
// than the protocol's own timeouts ends with one side closing the
// connection: Close stops the retransmission.
//
// Kafka's own connections do not need it: its clients time out each
// request (request.timeout.ms) and reconnect.
type Stream struct {
	From, To Addr
	// unacked are the envelopes sent and not known delivered, in order;
	// lost says one of them was dropped, so every later one is dropped
	// on arrival until the retransmission.
	unacked []*Envelope
	lost    bool
	rto     time.Duration
	timer   *Timer
	closed  bool
}

// NewStream is the direction from → to of one connection.
func NewStream(from, to Addr) *Stream { return &Stream{From: from, To: to, rto: StreamRTOMin} }

// Send puts m on the stream: on the wire, or, behind a lost message,
// into the retransmission.
func (s *Stream) Send(env *Env, m Message) {
	if s.closed {
		return
	}
	if s.lost {
		s.unacked = append(s.unacked, &Envelope{Msg: m, Dropped: true})
		return
	}
	s.put(env, m)
	s.arm(env)
}

func (s *Stream) put(env *Env, m Message) {
	e := env.Send(s.From, s.To, m)
	if e.Dropped {
		s.lost = true
	} else {
		e.stream = s
	}
	s.unacked = append(s.unacked, e)
}

func (s *Stream) arm(env *Env) {
	if !s.timer.Pending() && len(s.unacked) > 0 {
		s.timer = env.After(s.rto, "tcp-retransmit", s.retransmit)
	}
}

// retransmit forgets what was delivered; if something was lost, it sends
// every message not delivered again, in order (what is still in flight
// is superseded, so nothing arrives twice or out of order).
func (s *Stream) retransmit(env *Env) {
	i := 0
	for i < len(s.unacked) && s.unacked[i].delivered {
		i++
	}
	s.unacked = s.unacked[i:]
	if !s.lost {
		s.rto = StreamRTOMin
		s.arm(env)
		return
	}
	pending := s.unacked
	s.unacked, s.lost = nil, false
	for _, e := range pending {
		e.Dropped, e.stream = true, nil // superseded: dropped if it arrives
		if s.lost {
			s.unacked = append(s.unacked, &Envelope{Msg: e.Msg, Dropped: true})
			continue
		}
		s.put(env, e.Msg)
	}
	if s.lost {
		s.rto = min(2*s.rto, StreamRTOMax)
	} else {
		s.rto = StreamRTOMin
	}
	s.arm(env)
}

// Close stops retransmitting: the socket is closed, what it held is gone.
func (s *Stream) Close() {
	s.timer.Stop()
	s.closed = true
	for _, e := range s.unacked {
		e.stream = nil
	}
	s.unacked = nil
}

// Held is how many messages wait for a retransmission to get through.
func (s *Stream) Held() int {
	if !s.lost {
		return 0
	}
	return len(s.unacked)
}

// arrive is the world's side, when env reaches its link's end: a
// message behind a lost one is dropped (TCP would hold it back); one cut
// now is lost; otherwise it is delivered. It reports whether to deliver.
func (s *Stream) arrive(env *Envelope, cut bool) bool {
	if s.lost || cut {
		s.lost = true
		env.Dropped = true
		return false
	}
	env.delivered = true
	return true
}
