package client

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// coordinatorFeed is what the event feed has been told of the group
// coordinator, so that a consumer going round the loop FindCoordinator →
// request fails → FindCoordinator (a coordinator that is down, and no
// controller to move the group) says so once instead of at every turn.
//
// A coordinator is confirmed once any answer from it arrived; a loss is
// told only for a confirmed coordinator, and a coordinator found only when
// it differs from the last one told (or follows a told loss). A loss of an
// unconfirmed coordinator is the loop itself: it is told as the reason the
// consumer is stuck, if the broker that named the coordinator knows it
// (protocol.CauseNoController on its FindCoordinator answer).
type coordinatorFeed struct {
	confirmed bool            // an answer came from the current coordinator
	told      int32           // the coordinator last told as found; -1 none
	toldAny   bool            // told is set
	named     *protocol.Cause // the FindCoordinator answer's cause, if any
}

// found tells the feed of a coordinator a FindCoordinator answer named.
func (g *coordinator) found(env *sim.Env, co protocol.Coordinator) {
	f := &g.feed
	f.confirmed, f.named = false, co.Cause
	if f.toldAny && f.told == co.NodeID {
		return
	}
	f.told, f.toldAny = co.NodeID, true
	env.Note(event.CoordinatorDiscovered{Client: g.c.cfg.ClientID, Group: g.c.cfg.GroupID, Coordinator: co.NodeID})
}

// lost tells the feed the coordinator was dropped for cause.
func (g *coordinator) lost(env *sim.Env, cause string) {
	f := &g.feed
	if f.confirmed {
		f.confirmed, f.toldAny = false, false
		env.Note(event.CoordinatorUnknown{Client: g.c.cfg.ClientID, Cause: cause})
		return
	}
	if f.named != nil && f.named.Kind == protocol.CauseNoController {
		g.c.stuck.stuck(env, scopeCoordinator(), &protocol.Cause{Kind: protocol.CauseCoordinatorUnreachable,
			Fields: []string{"broker", f.named.Field("broker"), "coordinator", fmt.Sprint(g.coordID), "failure", cause}})
	}
}

// heard sees every message to the coordinator connection: an answer from
// the coordinator confirms it and ends a stuck episode.
func (g *coordinator) heard(e *sim.Envelope) {
	if !g.known || e.From != g.coord {
		return
	}
	if _, ok := e.Msg.(protocol.Response); ok {
		g.feed.confirmed = true
		g.c.stuck.cleared(scopeCoordinator())
	}
}
