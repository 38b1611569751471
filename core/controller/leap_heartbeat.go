package controller

import (
	"fmt"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// The active controller's side of steady broker heartbeats, for a leap
// (sim.World.Leap; the loop itself is broker.HeartbeatLoop). In a steady
// cluster each heartbeat only renews its broker's session (lastContact),
// re-arms the session-expiry timer and is answered at once: a leap sets
// the sessions and the timer as the span's last heartbeat left them.

// Addr is the controller listener's address.
func (c *Controller) Addr() sim.Addr { return c.cfg.Addr }

// SteadyHeartbeat is the answer handling req now would send at once,
// changing nothing but the broker's session and the expiry timer (false:
// it would change more, or wait for a commit). It holds for a registered,
// unfenced broker of req's epoch that asks neither to be fenced nor to
// shut down, while everything written is committed.
func (c *Controller) SteadyHeartbeat(req *protocol.BrokerHeartbeatRequest) (*protocol.BrokerHeartbeatResponse, bool) {
	b := c.image.Brokers[req.BrokerID]
	if !c.active || b == nil || b.Epoch != req.BrokerEpoch || b.Fenced || b.InControlledShutdown || req.WantFence || req.WantShutDown || c.lastWritten > c.lastCommitted() {
		return nil, false
	}
	resp := &protocol.BrokerHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	c.heartbeatAnswer(resp, req, b)
	return resp, true
}

// SessionExpiry is the session-expiry timer if it is pending, and the
// sessions it watches (those of unfenced registered brokers): broker id
// to last contact. The timer is due at the earliest last contact plus
// broker.session.timeout.ms plus 1 ms (scheduleExpiry).
func (c *Controller) SessionExpiry() (*sim.Timer, map[int32]sim.Time) {
	watched := map[int32]sim.Time{}
	for _, id := range c.image.BrokerIDs() {
		if s, ok := c.sessions[id]; ok && !c.image.Brokers[id].Fenced {
			watched[id] = s.lastContact
		}
	}
	if !c.expiry.Pending() {
		return nil, watched
	}
	if next, ok := c.nextExpiry(); !ok || next != c.expiry.At() {
		return nil, watched // not armed as the sessions say: not steady
	}
	return c.expiry, watched
}

// ExpiryDelay is how long after a broker's last contact its session
// expires: broker.session.timeout.ms plus the 1 ms scheduleExpiry adds
// (the session is valid up to the timeout itself).
func (c *Controller) ExpiryDelay() time.Duration { return c.sessionTimeout() + time.Millisecond }

// LeapSessions renews the sessions of the heartbeats a leap handled
// (broker id to the last one's arrival) and re-arms the expiry timer as
// the last of them did, at armedAt: it returns the timer's event for the
// leap to queue (its Rank left to the caller).
func (c *Controller) LeapSessions(contacts map[int32]sim.Time, armedAt sim.Time, host string) sim.LeapEvent {
	for id, t := range contacts {
		c.sessions[id] = &session{lastContact: t}
	}
	next, ok := c.nextExpiry()
	if !ok {
		panic(fmt.Sprintf("controller %d: a leap renewed sessions that no expiry watches", c.cfg.NodeID))
	}
	c.expiry.Stop()
	c.expiry = &sim.Timer{}
	return sim.LeapEvent{PushedAt: armedAt, Host: host, Timer: c.expiry, At: next, Name: sessionExpiryName, Task: sessionExpiry{c, c.gen}}
}
