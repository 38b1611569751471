package controller

import (
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

func (c *Controller) sessionTimeout() time.Duration {
	return time.Duration(c.conf().BrokerInt("broker.session.timeout.ms")) * time.Millisecond
}

func (c *Controller) hasValidSession(id int32, now sim.Time) bool {
	s, ok := c.sessions[id]
	return ok && now.Sub(s.lastContact) <= c.sessionTimeout()
}

// handleRegistration registers a (re)starting broker. While the previous
// incarnation still holds a live session, a new incarnation is refused with
// DUPLICATE_BROKER_REGISTRATION: the broker retries until that session
// expires.
func (c *Controller) handleRegistration(env *sim.Env, from sim.Addr, req *protocol.BrokerRegistrationRequest) {
	resp := &protocol.BrokerRegistrationResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	existing := c.image.Brokers[req.BrokerID]
	switch {
	case req.ClusterID != c.cfg.ClusterID:
		resp.ErrorCode = protocol.INCONSISTENT_CLUSTER_ID
	case existing != nil && existing.IncarnationID != req.IncarnationID && c.hasValidSession(req.BrokerID, env.Now()) &&
		!c.cfg.Static.ZooKeeperEraRegistration():
		// (Before KRaft, a broker that came back within its session simply
		// took it over and kept its ISR memberships.)
		resp.ErrorCode = protocol.DUPLICATE_BROKER_REGISTRATION
	}
	if resp.ErrorCode != protocol.NONE {
		c.reply(env, from, resp)
		return
	}
	rec := &metadata.RegisterBrokerRecord{
		BrokerID: req.BrokerID, IncarnationID: req.IncarnationID, Endpoints: req.Listeners, Rack: req.Rack,
		Fenced: true, BrokerEpoch: c.nextOffset(),
		LogDirs: sortedLogDirs(req.LogDirs), Features: req.Features,
	}
	var recs []metadata.Record
	if existing != nil && existing.IncarnationID == req.IncarnationID {
		rec.Fenced, rec.InControlledShutdown, rec.BrokerEpoch = existing.Fenced, existing.InControlledShutdown, existing.Epoch
	} else {
		delete(c.sessions, req.BrokerID)
		stored := int64(-2) // no registration: never a clean restart (ClusterControlManager)
		if existing != nil {
			stored = existing.Epoch
		}
		recs = c.restartRecords(req.BrokerID, stored == req.PreviousBrokerEpoch)
	}
	c.appendRecords(env, append(recs, rec)...)
	c.sessions[req.BrokerID] = &session{lastContact: env.Now()}
	c.scheduleExpiry(env)
	resp.BrokerEpoch = rec.BrokerEpoch
	env.Note(event.BrokerRegistered{Broker: req.BrokerID, Epoch: rec.BrokerEpoch})
	c.reply(env, from, resp)
}

// restartRecords are the partition changes a new incarnation of broker id
// brings before its registration, once eligible leader replicas are on
// (Kafka 4.x's handleBrokerShutdown; 3.8's controller does nothing here
// below metadata.version 3.9-IV0). A clean restart (the epoch in its
// clean-shutdown file is the one it was registered with) counts as a
// fencing: it leaves every ISR. A crash may have lost acknowledged
// records, so the broker also leaves every ELR and may not be elected.
func (c *Controller) restartRecords(id int32, clean bool) []metadata.Record {
	if !c.elrEnabled() {
		return nil
	}
	return c.leaveISRs(id, !clean)
}

// sameDirSet says whether two directory lists hold the same ids
// (BrokerRegistration.cordonedDirChanged compares sets).
func sameDirSet(a, b []metadata.Uuid) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// sortedLogDirs is a registration's log directories in CompareUuids order
// (a copy: the request's slice is left as it came).
func sortedLogDirs(dirs []metadata.Uuid) []metadata.Uuid {
	out := slices.Clone(dirs)
	sorts.Func(out, metadata.CompareUuids)
	return out
}

// handleHeartbeat renews a broker's session and moves it between fenced,
// unfenced and controlled shutdown, as Kafka's BrokerHeartbeatManager does.
func (c *Controller) handleHeartbeat(env *sim.Env, from sim.Addr, req *protocol.BrokerHeartbeatRequest) {
	resp := &protocol.BrokerHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	b := c.image.Brokers[req.BrokerID]
	switch {
	case b == nil:
		resp.ErrorCode = protocol.BROKER_ID_NOT_REGISTERED
	case b.Epoch != req.BrokerEpoch:
		resp.ErrorCode = protocol.STALE_BROKER_EPOCH
	}
	if resp.ErrorCode != protocol.NONE {
		c.reply(env, from, resp)
		return
	}
	c.sessions[req.BrokerID] = &session{lastContact: env.Now()}
	caughtUp := req.CurrentMetadataOffset >= b.RegisteredAt
	// handleDirectoriesCordoned: a registration holds none until the
	// broker reports, so the first report is always written; after the
	// heartbeat's state change, in the same batch when there is one.
	var cordoned metadata.Record
	if req.CordonedLogDirs != nil && c.image.Features[release.MetadataVersionFeature] >= metadata.LevelCordonedLogDirs &&
		(b.CordonedLogDirs == nil || !sameDirSet(b.CordonedLogDirs, req.CordonedLogDirs)) {
		cordoned = &metadata.BrokerRegistrationChangeRecord{BrokerID: b.ID, BrokerEpoch: b.Epoch, CordonedLogDirs: slices.Clone(req.CordonedLogDirs)}
	}
	switch {
	case req.WantShutDown && !b.InControlledShutdown:
		c.beginControlledShutdown(env, b)
	case b.Fenced && !req.WantFence && caughtUp && !b.InControlledShutdown:
		c.unfence(env, b, cordoned)
		cordoned = nil
	case !b.Fenced && req.WantFence:
		c.fence(env, b, "asked")
	}
	if cordoned != nil {
		c.appendRecords(env, cordoned)
	}
	c.scheduleExpiry(env)
	c.heartbeatAnswer(resp, req, c.image.Brokers[req.BrokerID])
	c.reply(env, from, resp)
}

// heartbeatAnswer fills in what a heartbeat's answer tells broker b once
// its session was renewed.
func (c *Controller) heartbeatAnswer(resp *protocol.BrokerHeartbeatResponse, req *protocol.BrokerHeartbeatRequest, b *metadata.BrokerRegistration) {
	resp.IsCaughtUp = req.CurrentMetadataOffset >= b.RegisteredAt
	resp.IsFenced = b.Fenced
	resp.ShouldShutDown = b.InControlledShutdown && c.leadsNothing(b.ID) && req.CurrentMetadataOffset >= c.lastCommitted()
}

// scheduleExpiry arms one timer for the earliest session that can expire.
func (c *Controller) scheduleExpiry(env *sim.Env) {
	c.expiry.Stop()
	next, ok := c.nextExpiry()
	if !ok {
		return
	}
	c.expiry = &sim.Timer{}
	env.Arm(c.expiry, next.Sub(env.Now()), sessionExpiryName, sessionExpiry{c, c.gen})
}

// nextExpiry is when the earliest session of an unfenced broker expires
// (false: there is none).
func (c *Controller) nextExpiry() (sim.Time, bool) {
	var next sim.Time = -1
	for _, id := range c.image.BrokerIDs() {
		b := c.image.Brokers[id]
		s, ok := c.sessions[id]
		if !ok || b.Fenced {
			continue
		}
		at := s.lastContact.Add(c.sessionTimeout() + time.Millisecond)
		if next < 0 || at < next {
			next = at
		}
	}
	return next, next >= 0
}

const sessionExpiryName = "broker-session-expiry"

// sessionExpiry is the session-expiry timer's task: it fences every
// unfenced broker whose session expired, if the controller is still
// active in the activation that armed it (gen), and arms the next.
type sessionExpiry struct {
	c   *Controller
	gen int
}

func (t sessionExpiry) Fire(env *sim.Env) {
	c := t.c
	if !c.active || c.gen != t.gen {
		return
	}
	for _, id := range c.image.BrokerIDs() {
		b := c.image.Brokers[id]
		if !b.Fenced && !c.hasValidSession(id, env.Now()) {
			c.fence(env, b, "session")
		}
	}
	c.scheduleExpiry(env)
}

// fence fences a broker: it leaves every ISR (unless it is the last member)
// and loses its leaderships.
func (c *Controller) fence(env *sim.Env, b *metadata.BrokerRegistration, why string) {
	env.Note(event.BrokerFenced{Broker: b.ID, Reason: why})
	// One batch, the partition changes first (handleBrokerFenced).
	c.appendRecords(env, append(c.removeFromISRs(b.ID),
		&metadata.BrokerRegistrationChangeRecord{BrokerID: b.ID, BrokerEpoch: b.Epoch, Fenced: metadata.FencingFence})...)
}

// unfence lets a caught-up broker serve again and gives leaderless
// partitions whose ISR holds it a leader: one batch, the registration
// change first (handleBrokerUnfenced), so the elections see it unfenced.
func (c *Controller) unfence(env *sim.Env, b *metadata.BrokerRegistration, then metadata.Record) {
	if !c.active {
		return
	}
	env.Note(event.BrokerUnfenced{Broker: b.ID})
	var bt batch
	c.stage(&bt, &metadata.BrokerRegistrationChangeRecord{BrokerID: b.ID, BrokerEpoch: b.Epoch, Fenced: metadata.FencingUnfence})
	c.eachPartition(func(t *metadata.Topic, i int32, p *metadata.PartitionState) {
		if p.Leader == metadata.NoLeader && slices.Contains(p.Replicas, b.ID) {
			if rec := partitionChange(t.ID, i, p, nil, c.electionFor(t.Name), c.acceptable, c.elrFor(t.Name, p)); rec != nil {
				c.stage(&bt, rec)
			}
		}
	})
	if then != nil {
		c.stage(&bt, then)
	}
	c.flush(env, &bt)
}

// beginControlledShutdown marks the broker as shutting down and moves every
// leadership and ISR membership off it before it is allowed to exit: one
// batch, the registration change first (handleBrokerInControlledShutdown).
func (c *Controller) beginControlledShutdown(env *sim.Env, b *metadata.BrokerRegistration) {
	if !c.active {
		return
	}
	env.Note(event.ControlledShutdownStarted{Broker: b.ID})
	var bt batch
	c.stage(&bt, &metadata.BrokerRegistrationChangeRecord{BrokerID: b.ID, BrokerEpoch: b.Epoch, InControlledShutdown: metadata.ShutdownRequested})
	c.stage(&bt, c.removeFromISRs(b.ID)...)
	c.flush(env, &bt)
}

// removeFromISRs builds the changes that take broker id out of every ISR it
// is in, electing new leaders where it led.
func (c *Controller) removeFromISRs(id int32) []metadata.Record { return c.leaveISRs(id, false) }

// leaveISRs is generateLeaderAndIsrUpdates for a broker leaving: id
// leaves every ISR it is in and may not be elected (it is excluded even
// before its fencing is applied, as Kafka's brokerToRemove is); with
// unclean (a crash, ELR on) it leaves every ELR too, as a replica that
// may have lost acknowledged records.
func (c *Controller) leaveISRs(id int32, unclean bool) []metadata.Record {
	acceptable := func(r int32) bool { return r != id && c.acceptable(r) }
	var recs []metadata.Record
	c.eachPartition(func(t *metadata.Topic, i int32, p *metadata.PartitionState) {
		if !slices.Contains(p.ISR, id) && p.Leader != id && !(unclean && slices.Contains(p.ELR, id)) {
			return
		}
		elr := c.elrFor(t.Name, p)
		if unclean && elr != nil {
			elr.uncleanShutdown = []int32{id}
		}
		target := slices.DeleteFunc(slices.Clone(p.ISR), func(x int32) bool { return x == id })
		if rec := partitionChange(t.ID, i, p, target, c.electionFor(t.Name), acceptable, elr); rec != nil {
			recs = append(recs, rec)
		}
	})
	return recs
}
func (c *Controller) leadsNothing(id int32) bool {
	leads := false
	c.eachPartition(func(_ *metadata.Topic, _ int32, p *metadata.PartitionState) {
		leads = leads || p.Leader == id
	})
	return !leads
}

// electionFor is the election a partition of topic gets when its leader must
// change: online, or unclean when unclean.leader.election.enable is true.
func (c *Controller) electionFor(topic string) ElectionType {
	if c.conf().TopicBool(c.image.TopicConfig(topic), "unclean.leader.election.enable") {
		return ElectionUnclean
	}
	return ElectionOnline
}

// elrFor is the ELR rules for a partition of topic, or nil while
// eligible.leader.replicas.version is not finalized at 1 or more
// (FeatureControlManager.isElrFeatureEnabled). The min ISR is the topic's
// effective min.insync.replicas, capped at its replication factor
// (ReplicationControlManager.getTopicEffectiveMinIsr).
func (c *Controller) elrFor(topic string, p *metadata.PartitionState) *elrRules {
	if !c.elrEnabled() {
		return nil
	}
	minISR := int(c.conf().TopicInt(c.image.TopicConfig(topic), "min.insync.replicas"))
	return &elrRules{minISR: min(minISR, len(p.Replicas)), lastKnownOnEmptyISR: !c.cfg.Release.Version.AtLeast(4, 3)}
}

// elrEnabled is FeatureControlManager.isElrFeatureEnabled: KIP-966's
// feature finalized at 1 or more.
func (c *Controller) elrEnabled() bool {
	return c.image.Features[release.EligibleLeaderReplicasFeature] >= 1
}

// eachPartition visits every partition in topic-name then index order.
func (c *Controller) eachPartition(fn func(t *metadata.Topic, i int32, p *metadata.PartitionState)) {
	for _, name := range c.image.TopicNames() {
		t := c.image.Topics[name]
		for i, p := range t.Partitions {
			fn(t, int32(i), p)
		}
	}
}
