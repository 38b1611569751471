package groupcoordinator

import (
	"strings"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Join, sync, heartbeat and leave: the classic rebalance protocol
// (Kafka 3.8's GroupCoordinator, as the broker runs it with
// group.coordinator.new.enable=false).

func msDur(ms int32) time.Duration { return time.Duration(ms) * time.Millisecond }

// handleJoinGroup answers at once (errors, MEMBER_ID_REQUIRED, a member of
// a settled group) or parks the request until the rebalance's join phase
// ends; it reports whether the request is finished.
func (c *Coordinator) handleJoinGroup(env *sim.Env, from sim.Addr, req *protocol.JoinGroupRequest) bool {
	fail := func(code protocol.ErrorCode) bool {
		c.respond(env, from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ErrorCode: code, GenerationID: -1, MemberID: req.MemberID})
		return true
	}
	if req.GroupID == "" {
		return fail(protocol.INVALID_GROUP_ID)
	}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		return fail(code)
	}
	session := msDur(req.SessionTimeoutMs)
	if session < c.ms("group.min.session.timeout.ms") || session > c.ms("group.max.session.timeout.ms") {
		return fail(protocol.INVALID_SESSION_TIMEOUT)
	}
	g := c.groups[req.GroupID]
	if g == nil {
		if req.MemberID != "" {
			return fail(protocol.UNKNOWN_MEMBER_ID)
		}
		if c.atGroupLimit(c.PartitionFor(req.GroupID)) {
			return fail(protocol.POLICY_VIOLATION) // limits.go
		}
		g = newGroup(req.GroupID, c.PartitionFor(req.GroupID), msTime(env))
		c.groups[req.GroupID] = g
	}
	if g.state == groupDead {
		return fail(protocol.COORDINATOR_NOT_AVAILABLE)
	}
	if g.consumer != nil {
		if g.consumer.state != cgEmpty {
			return c.classicGroupJoinToConsumerGroup(env, from, g, req)
		}
		c.deleteEmptyConsumerGroup(env, g)
	}
	if !g.supportsProtocols(req.ProtocolType, req.Protocols) {
		return fail(protocol.INCONSISTENT_GROUP_PROTOCOL)
	}
	rep := &reply{from: from, corr: req.CorrelationID}
	if req.MemberID == "" {
		if int64(len(g.members)+len(g.pending)) >= c.host.Config("group.max.size") {
			return fail(protocol.GROUP_MAX_SIZE_REACHED)
		}
		if req.GroupInstanceID != "" {
			// A static member: no MEMBER_ID_REQUIRED round trip; its id is
			// `<group.instance.id>-<UUID>` (GroupMetadata.generateMemberId).
			id := c.newMemberID(env, req.GroupInstanceID)
			if old, ok := g.static[req.GroupInstanceID]; ok {
				return c.replaceStaticMember(env, g, old, id, req, rep)
			}
			c.addMember(env, g, id, req, rep, from)
			return false
		}
		// KIP-394: hand out an id and wait for the member to come back with
		// it; the id expires if it does not within the session timeout.
		id := c.newMemberID(env, req.ClientID)
		g.pending[id] = env.After(session, "group-pending-member-expiry", func(env *sim.Env) {
			delete(g.pending, id)
			if g.state == groupPreparingRebalance && g.allJoined() {
				c.completeJoin(env, g)
			}
		})
		c.respond(env, from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ErrorCode: protocol.MEMBER_ID_REQUIRED, GenerationID: -1, MemberID: id})
		return true
	}
	if t, ok := g.pending[req.MemberID]; ok {
		t.Stop()
		delete(g.pending, req.MemberID)
		c.addMember(env, g, req.MemberID, req, rep, from)
		return false
	}
	if code := g.validateMember(req.MemberID, req.GroupInstanceID); code != protocol.NONE {
		return fail(code)
	}
	m := g.members[req.MemberID]
	switch g.state {
	case groupPreparingRebalance:
		c.updateMember(env, g, m, req, rep)
		return false
	case groupCompletingRebalance:
		if protocolsEqual(m.protocols, req.Protocols) {
			// The member missed its JoinGroup answer: send it again.
			c.respond(env, from, c.joinResponse(g, m, req.CorrelationID))
			return true
		}
		c.updateMember(env, g, m, req, rep)
		c.prepareRebalance(env, g, "Updating metadata for member "+m.id+" during CompletingRebalance; client reason: "+reasonOr(req.Reason))
		return false
	case groupStable:
		if m.id == g.leader || !protocolsEqual(m.protocols, req.Protocols) {
			c.updateMember(env, g, m, req, rep)
			c.prepareRebalance(env, g, "leader "+m.id+" re-joining group during Stable; client reason: "+reasonOr(req.Reason))
			return false
		}
		c.respond(env, from, c.joinResponse(g, m, req.CorrelationID))
		return true
	}
	return fail(protocol.UNKNOWN_MEMBER_ID)
}

// addMember is addMemberAndRebalance: a new member (a dynamic one coming
// back with the id MEMBER_ID_REQUIRED gave it, or a static one) joins and
// the group rebalances.
func (c *Coordinator) addMember(env *sim.Env, g *group, id string, req *protocol.JoinGroupRequest, rep *reply, from sim.Addr) {
	m := &member{id: id, instanceID: req.GroupInstanceID, clientID: req.ClientID, clientHost: "/" + from.Host(),
		rebalanceTimeout: msDur(req.RebalanceTimeoutMs), sessionTimeout: msDur(req.SessionTimeoutMs), protocolType: req.ProtocolType, protocols: req.Protocols, join: rep, isNew: true}
	// Only the first generation's initial delay waits again for
	// members that keep arriving (addMemberAndRebalance).
	if g.state == groupPreparingRebalance && g.generation == 0 {
		g.newMemberAdded = true
	}
	g.add(m)
	// A new member's session starts counting only after its join
	// completes (Kafka waits up to 5 minutes for it here).
	c.scheduleExpiryAfter(env, g, m, 5*time.Minute)
	c.maybePrepareRebalance(env, g, "Adding new member "+m.id+" with group instance id "+instanceIDOption(m.instanceID)+"; client reason: "+reasonOr(req.Reason))
}

// replaceStaticMember is updateStaticMemberAndRebalance: a known
// group.instance.id joins with no member id (the instance restarted, or a
// second process uses the same id). The member takes the new id and keeps
// its assignment; the old id's parked JoinGroup and SyncGroup, and every
// later request with it, get FENCED_INSTANCE_ID. A Stable group whose
// selected protocol stays the same does not rebalance: the group is
// stored with the new id and the member gets the current generation
// (GroupCoordinator.scala:1345-1440 in Kafka 3.8; 4.3's
// GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin).
func (c *Coordinator) replaceStaticMember(env *sim.Env, g *group, oldID, newID string, req *protocol.JoinGroupRequest, rep *reply) bool {
	currentLeader := g.leader
	m := g.members[oldID]
	c.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: protocol.FENCED_INSTANCE_ID, GenerationID: -1, MemberID: oldID})
	c.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: protocol.FENCED_INSTANCE_ID})
	g.replaceStatic(oldID, newID)
	// The session restarts with the new id, at the timeout the member had.
	c.scheduleExpiry(env, g, m)
	oldProtocols, oldRebalance, oldSession := m.protocols, m.rebalanceTimeout, m.sessionTimeout
	m.protocols, m.rebalanceTimeout, m.sessionTimeout, m.join = req.Protocols, msDur(req.RebalanceTimeoutMs), msDur(req.SessionTimeoutMs), rep
	iid, reason := req.GroupInstanceID, reasonOr(req.Reason)
	switch g.state {
	case groupStable:
		if g.selectProtocol() != g.protocolName {
			c.prepareRebalance(env, g, "Group's selectedProtocol will change because static member "+newID+" with instance id "+iid+" joined with change of protocol; client reason: "+reason)
			return false
		}
		gen := g.generation
		c.storeGroup(env, g, func(env *sim.Env, code protocol.ErrorCode) {
			if g.members[newID] != m || m.join != rep {
				return // the member was replaced or removed meanwhile
			}
			if code != protocol.NONE {
				// The new id could not be stored: back to the old one.
				m.protocols, m.rebalanceTimeout, m.sessionTimeout, m.join = oldProtocols, oldRebalance, oldSession, nil
				g.replaceStatic(newID, oldID)
				c.scheduleExpiry(env, g, m)
				c.respond(env, rep.from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: rep.corr},
					ErrorCode: CommitError(code), GenerationID: g.generation, ProtocolType: g.protocolType, ProtocolName: g.protocolName, Leader: currentLeader})
				c.done(env, rep.from)
				return
			}
			if g.state != groupStable || g.generation != gen {
				return // a rebalance began meanwhile: the join waits for it
			}
			// JoinGroup v9+ (KIP-814), what 3.8's and 4.x's clients send:
			// a returning static leader is told it leads, with the
			// members, but to skip the assignment.
			r := c.joinResponse(g, m, rep.corr)
			r.SkipAssignment = m.id == g.leader
			c.answerJoin(env, g, m, r)
		})
		return false
	case groupCompletingRebalance:
		// The leader may have assigned with the old id: rebalance again.
		c.prepareRebalance(env, g, "Updating metadata for static member "+newID+" with instance id "+iid+"; client reason: "+reason)
	case groupPreparingRebalance:
		if g.join != nil && g.allJoined() && !g.isInitialDelay() {
			c.completeJoin(env, g)
		}
	}
	return false
}

func reasonOr(r string) string {
	if r == "" {
		return "not provided"
	}
	return r
}

func protocolsEqual(a, b []protocol.JoinGroupRequestProtocol) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || string(a[i].Metadata) != string(b[i].Metadata) {
			return false
		}
	}
	return true
}

func (c *Coordinator) updateMember(env *sim.Env, g *group, m *member, req *protocol.JoinGroupRequest, rep *reply) {
	if m.join != nil && (m.join.from != rep.from || m.join.corr != rep.corr) {
		// A member re-sending JoinGroup replaces its parked one.
		old := m.join
		m.join = nil
		c.respond(env, old.from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: old.corr}, ErrorCode: protocol.REBALANCE_IN_PROGRESS, GenerationID: -1, MemberID: m.id})
		c.done(env, old.from)
	}
	m.protocols, m.rebalanceTimeout, m.sessionTimeout, m.join = req.Protocols, msDur(req.RebalanceTimeoutMs), msDur(req.SessionTimeoutMs), rep
	if g.state == groupPreparingRebalance && g.allJoined() {
		c.completeJoin(env, g)
	}
}

// maybePrepareRebalance starts a rebalance unless one is under way; in
// PreparingRebalance it completes the join phase once everyone is in.
func (c *Coordinator) maybePrepareRebalance(env *sim.Env, g *group, reason string) {
	switch g.state {
	case groupStable, groupCompletingRebalance, groupEmpty:
		c.prepareRebalance(env, g, reason)
	case groupPreparingRebalance:
		if g.join == nil && g.allJoined() {
			c.completeJoin(env, g)
		}
	}
}

// prepareRebalance moves the group to PreparingRebalance. An empty group
// waits group.initial.rebalance.delay.ms for more members (and again, up to
// the rebalance timeout, while new ones keep coming); otherwise the join
// phase ends when every member has rejoined or the rebalance timeout
// passes.
func (c *Coordinator) prepareRebalance(env *sim.Env, g *group, reason string) {
	if g.state == groupCompletingRebalance {
		for _, m := range g.sortedMembers() {
			m.assignment = nil
			c.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: protocol.REBALANCE_IN_PROGRESS})
		}
	}
	g.join.Stop()
	g.syncTimer.Stop()
	g.pendingSync = nil
	wasEmpty := g.state == groupEmpty
	g.transition(groupPreparingRebalance, msTime(env))
	env.Note(event.GroupRebalancing{Broker: c.nodeID, Group: g.id, Generation: g.generation, Reason: reason})
	if wasEmpty {
		delay := c.ms("group.initial.rebalance.delay.ms")
		c.initialDelayedJoin(env, g, delay, g.rebalanceTimeout()-delay)
		return
	}
	g.initialDelay = false
	g.join = env.After(g.rebalanceTimeout(), "group-delayed-join", func(env *sim.Env) {
		g.join = nil
		c.completeJoin(env, g)
	})
	if g.allJoined() {
		c.completeJoin(env, g)
	}
}

// initialDelayedJoin is Kafka's InitialDelayedJoin: it never completes
// early; when it fires and new members arrived meanwhile it waits again.
func (c *Coordinator) initialDelayedJoin(env *sim.Env, g *group, delay, remaining time.Duration) {
	g.newMemberAdded = false
	g.initialDelay = true
	g.join = env.After(delay, "group-initial-delayed-join", func(env *sim.Env) {
		g.join = nil
		if g.newMemberAdded && remaining > 0 {
			d := min(c.ms("group.initial.rebalance.delay.ms"), remaining)
			c.initialDelayedJoin(env, g, d, max(remaining-d, 0))
			return
		}
		c.completeJoin(env, g)
	})
}

// completeJoin ends the join phase (onCompleteJoin): members that did not
// rejoin are removed, the generation advances, a protocol is chosen and
// every waiting member gets its JoinGroup answer (the leader with the
// members' subscriptions).
func (c *Coordinator) completeJoin(env *sim.Env, g *group) {
	if g.state != groupPreparingRebalance {
		return
	}
	g.join.Stop()
	g.join = nil
	// Dynamic members that did not rejoin are gone; static ones stay
	// (their session timeout, not the rebalance, decides).
	for _, m := range g.sortedMembers() {
		if m.join == nil && m.instanceID == "" {
			m.expiry.Stop()
			g.remove(m.id)
		}
	}
	if !g.electJoinedLeader() {
		// Only static members that did not rejoin are left: wait another
		// rebalance timeout (onCompleteJoin: "could not complete rebalance
		// because no members rejoined").
		g.initialDelay = false
		g.join = env.After(g.rebalanceTimeout(), "group-delayed-join", func(env *sim.Env) {
			g.join = nil
			c.completeJoin(env, g)
		})
		return
	}
	g.generation++
	if len(g.members) == 0 {
		g.protocolName = ""
		g.transition(groupEmpty, msTime(env))
		env.Note(event.GroupEmptied{Broker: c.nodeID, Group: g.id, Generation: g.generation})
		c.storeGroup(env, g, func(*sim.Env, protocol.ErrorCode) {})
		return
	}
	g.protocolName = g.selectProtocol()
	g.transition(groupCompletingRebalance, msTime(env))
	env.Note(event.GroupGenerationStarted{Broker: c.nodeID, Group: g.id, Generation: g.generation, Protocol: g.protocolName, Leader: g.leader})
	// Answer after building every response, so that every member's
	// answer is built from the same group: each answer ends a request
	// (done), and a connection's next request, which may change the
	// group, runs in an event after this one.
	type answer struct {
		rep  *reply
		resp *protocol.JoinGroupResponse
	}
	var answers []answer
	for _, m := range g.sortedMembers() {
		if m.join != nil {
			answers = append(answers, answer{m.join, c.joinResponse(g, m, m.join.corr)})
		}
		m.join = nil
		m.isNew = false
		c.scheduleExpiry(env, g, m)
	}
	c.schedulePendingSync(env, g)
	for _, a := range answers {
		c.respond(env, a.rep.from, a.resp)
	}
	for _, a := range answers {
		c.done(env, a.rep.from)
	}
}

// electJoinedLeader is GroupMetadata.maybeElectNewJoinedLeader: a leader
// that did not rejoin (a static member) hands the leadership to the first
// member, in join order, that did (Kafka takes the first in its hash
// map's order). It reports false when members remain but none rejoined.
func (g *group) electJoinedLeader() bool {
	if len(g.members) == 0 {
		return true
	}
	if l := g.members[g.leader]; l != nil && l.join != nil {
		return true
	}
	for _, id := range g.order {
		if g.members[id].join != nil {
			g.leader = id
			return true
		}
	}
	return false
}

// joinResponse is the generation's JoinGroup answer for m.
func (c *Coordinator) joinResponse(g *group, m *member, corr int32) *protocol.JoinGroupResponse {
	r := &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}, GenerationID: g.generation,
		ProtocolType: g.protocolType, ProtocolName: g.protocolName, Leader: g.leader, MemberID: m.id}
	if m.id == g.leader {
		for _, o := range g.sortedMembers() {
			r.Members = append(r.Members, protocol.JoinGroupResponseMember{MemberID: o.id, GroupInstanceID: o.instanceID, Metadata: o.metadata(g.protocolName)})
		}
	}
	return r
}

// answerJoin sends a parked JoinGroup its answer.
func (c *Coordinator) answerJoin(env *sim.Env, g *group, m *member, r *protocol.JoinGroupResponse) {
	if m.join == nil {
		return
	}
	rep := m.join
	m.join = nil
	r.CorrelationID = rep.corr
	c.respond(env, rep.from, r)
	c.done(env, rep.from)
}

// answerSync sends a parked SyncGroup its answer.
func (c *Coordinator) answerSync(env *sim.Env, m *member, r *protocol.SyncGroupResponse) {
	if m.sync == nil {
		return
	}
	rep := m.sync
	m.sync = nil
	r.CorrelationID = rep.corr
	c.respond(env, rep.from, r)
	c.done(env, rep.from)
}

// scheduleExpiry (re)starts m's session timer: a member not heard from for
// session.timeout.ms is removed and the group rebalances.
func (c *Coordinator) scheduleExpiry(env *sim.Env, g *group, m *member) {
	c.scheduleExpiryAfter(env, g, m, m.sessionTimeout)
}

func (c *Coordinator) scheduleExpiryAfter(env *sim.Env, g *group, m *member, d time.Duration) {
	m.expiry.Stop()
	m.expiry = env.After(d, "group-member-session-expiry", func(env *sim.Env) {
		if g.members[m.id] != m || g.state == groupDead {
			return
		}
		if !m.isNew && (m.join != nil || m.sync != nil) {
			// A member waiting in JoinGroup or SyncGroup is not expected to
			// heartbeat (hasSatisfiedHeartbeat); its session restarts when
			// the rebalance answers it.
			return
		}
		env.Note(event.MemberExpired{Broker: c.nodeID, Group: g.id, Member: m.id})
		c.removeMember(env, g, m, "removing member "+m.id+" on heartbeat expiration")
	})
}

// removeMember takes m out of the group and rebalances what is left.
func (c *Coordinator) removeMember(env *sim.Env, g *group, m *member, reason string) {
	m.expiry.Stop()
	c.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID, GenerationID: -1, MemberID: m.id})
	c.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID})
	g.remove(m.id)
	switch g.state {
	case groupStable, groupCompletingRebalance:
		c.prepareRebalance(env, g, reason)
	case groupPreparingRebalance:
		if g.join != nil && g.allJoined() && !g.isInitialDelay() {
			c.completeJoin(env, g)
		}
	}
}

// isInitialDelay: the join phase is the initial delay, which never ends
// early.
func (g *group) isInitialDelay() bool { return g.join != nil && g.initialDelay }

// handleSyncGroup stores the leader's assignment and hands each member its
// own; it reports whether the request is finished.
func (c *Coordinator) handleSyncGroup(env *sim.Env, from sim.Addr, req *protocol.SyncGroupRequest) bool {
	fail := func(code protocol.ErrorCode) bool {
		c.respond(env, from, &protocol.SyncGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: code})
		return true
	}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		return fail(code)
	}
	g := c.groups[req.GroupID]
	if g == nil {
		return fail(protocol.UNKNOWN_MEMBER_ID)
	}
	if g.consumer != nil {
		c.classicGroupSyncToConsumerGroup(env, from, g, req)
		return true
	}
	m := g.members[req.MemberID]
	switch {
	case g.state == groupDead:
		return fail(protocol.COORDINATOR_NOT_AVAILABLE)
	case g.validateMember(req.MemberID, req.GroupInstanceID) != protocol.NONE:
		return fail(g.validateMember(req.MemberID, req.GroupInstanceID))
	case req.GenerationID != g.generation:
		return fail(protocol.ILLEGAL_GENERATION)
	case (req.ProtocolType != "" && req.ProtocolType != g.protocolType) || (req.ProtocolName != "" && req.ProtocolName != g.protocolName):
		return fail(protocol.INCONSISTENT_GROUP_PROTOCOL)
	}
	switch g.state {
	case groupPreparingRebalance:
		return fail(protocol.REBALANCE_IN_PROGRESS)
	case groupStable:
		delete(g.pendingSync, m.id)
		c.scheduleExpiry(env, g, m)
		c.respond(env, from, &protocol.SyncGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ProtocolType: g.protocolType, ProtocolName: g.protocolName, Assignment: m.assignment})
		return true
	case groupCompletingRebalance:
		delete(g.pendingSync, m.id)
		m.sync = &reply{from: from, corr: req.CorrelationID}
		c.scheduleExpiry(env, g, m)
		if m.id != g.leader {
			return false
		}
		given := map[string][]byte{}
		for _, a := range req.Assignments {
			given[a.MemberID] = a.Assignment
		}
		for _, o := range g.sortedMembers() {
			o.assignment = given[o.id] // members the leader left out get nothing
		}
		gen := g.generation
		c.storeGroup(env, g, func(env *sim.Env, code protocol.ErrorCode) {
			if g.state != groupCompletingRebalance || g.generation != gen {
				return
			}
			if code != protocol.NONE {
				for _, o := range g.sortedMembers() {
					o.assignment = nil
					c.answerSync(env, o, &protocol.SyncGroupResponse{ErrorCode: CommitError(code)})
				}
				c.prepareRebalance(env, g, "Error "+code.String()+" when storing group assignment during SyncGroup")
				return
			}
			g.transition(groupStable, msTime(env))
			c.sensors().classicRebalances.Record(env.Now(), 1) // group-completed-rebalance (4.x)
			env.Note(event.GroupStable{Broker: c.nodeID, Group: g.id, Generation: g.generation, Members: len(g.members)})
			var waiting []*reply
			for _, o := range g.sortedMembers() {
				if o.sync != nil {
					c.respond(env, o.sync.from, &protocol.SyncGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: o.sync.corr},
						ProtocolType: g.protocolType, ProtocolName: g.protocolName, Assignment: o.assignment})
					waiting = append(waiting, o.sync)
					o.sync = nil
				}
			}
			for _, r := range waiting {
				c.done(env, r.from)
			}
		})
		return false
	}
	return fail(protocol.UNKNOWN_MEMBER_ID)
}

// storeGroup writes the group's metadata record (GroupMetadataKey/Value).
func (c *Coordinator) storeGroup(env *sim.Env, g *group, done func(*sim.Env, protocol.ErrorCode)) {
	c.host.Append(env, g.partition, groupRecords{{key: encodeGroupKey(g.id), value: encodeGroupValue(g.value())}}.records(), done)
}

// handleHeartbeat keeps a member's session alive and tells it when a
// rebalance needs it to rejoin.
func (c *Coordinator) handleHeartbeat(env *sim.Env, from sim.Addr, req *protocol.HeartbeatRequest) {
	code := c.heartbeat(env, req)
	c.respond(env, from, &protocol.HeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: code})
}

func (c *Coordinator) heartbeat(env *sim.Env, req *protocol.HeartbeatRequest) protocol.ErrorCode {
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		return code
	}
	g := c.groups[req.GroupID]
	if g == nil {
		return protocol.UNKNOWN_MEMBER_ID
	}
	if g.consumer != nil {
		return c.classicGroupHeartbeatToConsumerGroup(env, g, req)
	}
	m := g.members[req.MemberID]
	switch {
	case g.state == groupDead:
		return protocol.COORDINATOR_NOT_AVAILABLE
	case g.validateMember(req.MemberID, req.GroupInstanceID) != protocol.NONE:
		return g.validateMember(req.MemberID, req.GroupInstanceID)
	case req.GenerationID != g.generation:
		return protocol.ILLEGAL_GENERATION
	case g.state == groupEmpty:
		return protocol.UNKNOWN_MEMBER_ID
	}
	c.scheduleExpiry(env, g, m)
	if g.state == groupPreparingRebalance {
		return protocol.REBALANCE_IN_PROGRESS
	}
	return protocol.NONE
}

// handleLeaveGroup removes the listed members (a consumer closing, or one
// whose poll timed out); it reports whether the request is finished (a
// consumer group answers once its records are written).
func (c *Coordinator) handleLeaveGroup(env *sim.Env, from sim.Addr, req *protocol.LeaveGroupRequest) bool {
	resp := &protocol.LeaveGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		resp.ErrorCode = code
		c.respond(env, from, resp)
		return true
	}
	g := c.groups[req.GroupID]
	if g != nil && g.state == groupDead {
		resp.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
		c.respond(env, from, resp)
		return true
	}
	if g != nil && g.consumer != nil {
		return c.classicGroupLeaveToConsumerGroup(env, from, g, req)
	}
	for _, li := range req.Members {
		r := protocol.LeaveGroupMemberResponse{MemberID: li.MemberID, GroupInstanceID: li.GroupInstanceID}
		switch {
		case g == nil:
			r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
		case li.MemberID == "":
			// The admin's removal of a static member by its
			// group.instance.id alone.
			id, ok := g.static[li.GroupInstanceID]
			if !ok || li.GroupInstanceID == "" {
				r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
				break
			}
			env.Note(event.MemberLeft{Broker: c.nodeID, Group: g.id, Member: id})
			c.removeMember(env, g, g.members[id], "Removing member "+id+" on LeaveGroup; client reason: "+reasonOr(li.Reason))
		case g.pending[li.MemberID] != nil:
			g.pending[li.MemberID].Stop()
			delete(g.pending, li.MemberID)
			if g.state == groupPreparingRebalance && g.join != nil && g.allJoined() && !g.isInitialDelay() {
				c.completeJoin(env, g)
			}
		case g.validateMember(li.MemberID, li.GroupInstanceID) != protocol.NONE:
			r.ErrorCode = g.validateMember(li.MemberID, li.GroupInstanceID)
		default:
			env.Note(event.MemberLeft{Broker: c.nodeID, Group: g.id, Member: li.MemberID})
			c.removeMember(env, g, g.members[li.MemberID], "Removing member "+li.MemberID+" on LeaveGroup; client reason: "+reasonOr(li.Reason))
		}
		resp.Members = append(resp.Members, r)
	}
	c.respond(env, from, resp)
	return true
}

// schedulePendingSync gives the generation's members the rebalance timeout
// to send SyncGroup (Kafka's DelayedSync); the ones that do not are removed
// and the group rebalances.
func (c *Coordinator) schedulePendingSync(env *sim.Env, g *group) {
	g.pendingSync = map[string]bool{}
	for id := range g.members {
		g.pendingSync[id] = true
	}
	gen := g.generation
	g.syncTimer.Stop()
	g.syncTimer = env.After(g.rebalanceTimeout(), "group-pending-sync", func(env *sim.Env) {
		if g.generation != gen || (g.state != groupCompletingRebalance && g.state != groupStable) || len(g.pendingSync) == 0 {
			return
		}
		var ids []string
		for _, id := range g.order {
			if g.pendingSync[id] {
				ids = append(ids, id)
			}
		}
		for _, id := range ids {
			if m := g.members[id]; m != nil {
				m.expiry.Stop()
				c.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID, GenerationID: -1, MemberID: m.id})
				g.remove(id)
			}
		}
		c.prepareRebalance(env, g, "Removing ["+strings.Join(ids, ", ")+"] on pending sync request expiration")
	})
}
