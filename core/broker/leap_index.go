package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// LeapIndex is the world's queue indexed for finding loops' events
// (sim.World.Queued): timers, messages, and answers in flight by receiver
// and correlation id. One index serves every loop kind of a leap.
type LeapIndex struct {
	timers  map[*sim.Timer]sim.QueuedEvent
	msgs    map[sim.Message]sim.QueuedEvent
	answers map[answerKey]sim.QueuedEvent
}

type answerKey struct {
	to   sim.Addr
	corr int32
}

// NewLeapIndex indexes queued.
func NewLeapIndex(queued []sim.QueuedEvent) *LeapIndex {
	timers := 0
	for _, q := range queued {
		if q.Timer != nil {
			timers++
		}
	}
	msgs := len(queued) - timers
	ix := &LeapIndex{
		timers:  make(map[*sim.Timer]sim.QueuedEvent, timers),
		msgs:    make(map[sim.Message]sim.QueuedEvent, msgs),
		answers: make(map[answerKey]sim.QueuedEvent, msgs),
	}
	for _, q := range queued {
		switch {
		case q.Timer != nil:
			ix.timers[q.Timer] = q
		case q.Env != nil:
			ix.msgs[q.Env.Msg] = q
			if r, ok := q.Env.Msg.(protocol.Response); ok {
				ix.answers[answerKey{q.Env.To, r.Correlation()}] = q
			}
		}
	}
	return ix
}
