package groupcoordinator

import (
	"slices"
	"time"

	"kafkascope/core/event"
	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Leaving and fencing consumer group members, and their timers
// (GMM:4148-4355, 4514-4531, 4558-4776).

// consumerGroup is GMM.consumerGroup(groupId): the group as a consumer
// group, or GROUP_ID_NOT_FOUND.
func (c *Coordinator) consumerGroup(gid string) (*consumerGroup, *apiError) {
	g := c.groups[gid]
	switch {
	case g == nil || g.state == groupDead:
		return nil, errf(protocol.GROUP_ID_NOT_FOUND, "Consumer group %s not found.", gid)
	case g.consumer == nil:
		return nil, errf(protocol.GROUP_ID_NOT_FOUND, "Group %s is not a consumer group.", gid)
	}
	return g.consumer, nil
}

// consumerGroupLeave is GMM.consumerGroupLeave (L4148-4183): epoch -1
// fences the member; a static member's -2 only marks it away.
func (c *Coordinator) consumerGroupLeave(env *sim.Env, req *protocol.ConsumerGroupHeartbeatRequest) (*heartbeatOp, *apiError) {
	gid := req.GroupID
	cg, e := c.consumerGroup(gid)
	if e != nil {
		return nil, e
	}
	resp := &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: req.MemberEpoch}
	if req.InstanceID == "" {
		m := cg.members[req.MemberID]
		if m == nil {
			return nil, errf(protocol.UNKNOWN_MEMBER_ID, "Member %s is not a member of group %s.", req.MemberID, gid)
		}
		return c.fenceMembers(gid, cg, []string{m.id}, "member-left", resp), nil
	}
	m := cg.staticMember(req.InstanceID)
	if m == nil {
		return nil, errf(protocol.UNKNOWN_MEMBER_ID, "Instance id %s is unknown.", req.InstanceID)
	}
	if m.id != req.MemberID {
		return nil, errf(protocol.FENCED_INSTANCE_ID, "Static member %s with instance id %s was fenced by member %s.", req.MemberID, req.InstanceID, m.id)
	}
	if req.MemberEpoch != protocol.LeaveGroupStaticMemberEpoch {
		return c.fenceMembers(gid, cg, []string{m.id}, "member-left", resp), nil
	}
	// consumerGroupStaticMemberGroupLeave (L4225-4247): one record at
	// epoch -2, nothing pending, the assigned partitions kept with their
	// assignment epochs reset to 0. The member keeps its target and its
	// session timer runs on.
	left := *m
	left.epoch = protocol.LeaveGroupStaticMemberEpoch
	left.pending = nil
	left.assigned = slices.Clone(m.assigned)
	for i := range left.assigned {
		left.assigned[i].Epoch = 0
	}
	broker := c.nodeID
	return &heartbeatOp{
		records: []cgRecord{currentAssignmentRecord(gid, left)},
		resp:    &protocol.ConsumerGroupHeartbeatResponse{MemberID: m.id, MemberEpoch: protocol.LeaveGroupStaticMemberEpoch},
		post: []func(*sim.Env){func(env *sim.Env) {
			env.Note(event.ConsumerGroupStaticMemberLeft{Broker: broker, Group: gid, Member: left.id, Instance: left.instanceID})
		}},
	}, nil
}

// fenceMembers is consumerGroupFenceMembers (L4297-4355): the downgrade
// to a classic group when only classic members would be left
// (migration.go), or else each member's current, target and metadata
// tombstones, then the group epoch bumped with the hash of what the
// others subscribe to, then the members' timers cancelled.
func (c *Coordinator) fenceMembers(gid string, cg *consumerGroup, ids []string, reason string, resp *protocol.ConsumerGroupHeartbeatResponse) *heartbeatOp {
	if c.canDowngrade(cg, ids) {
		op := c.downgradeOp(gid, cg, ids, reason)
		op.resp = resp
		return op
	}
	op := &heartbeatOp{resp: resp}
	drop := map[string]bool{}
	for _, id := range ids {
		op.records = append(op.records, removeMemberRecords(gid, id)...)
		drop[id] = true
	}
	hash := c.topicView().metadataHash(cg.subscribedNames(nil, drop))
	op.records = append(op.records, epochRecord(gid, cg.groupEpoch+1, hash))
	broker := c.nodeID
	op.post = append(op.post, func(env *sim.Env) {
		for _, id := range ids {
			c.cancelTimers(gid, id)
			env.Note(event.ConsumerGroupMemberFenced{Broker: broker, Group: gid, Member: id, Reason: reason})
		}
	})
	return op
}

// fenceByTimer is consumerGroupFenceMemberOperation: a timer's fencing,
// written with no one to answer.
func (c *Coordinator) fenceByTimer(env *sim.Env, gid, member, reason string) {
	cg, e := c.consumerGroup(gid)
	if e != nil || cg.members[member] == nil {
		return
	}
	c.write848(env, gid, c.fenceMembers(gid, cg, []string{member}, reason, nil), nil)
}

// scheduleSessionTimeout (re)arms the member's session timer
// (group.consumer.session.timeout.ms, GMM:4684-4698): when it fires the
// member is fenced ("the member session expired").
// A classic member's session timeout is its JoinGroup's (GMM:2661,
// 7703, 7935).
func (c *Coordinator) scheduleSessionTimeout(env *sim.Env, gid, member string) {
	d := c.ms("group.consumer.session.timeout.ms")
	if g := c.groups[gid]; g != nil && g.consumer != nil {
		if m := g.consumer.members[member]; m != nil && m.classic != nil {
			d = msDur(m.classic.sessionTimeoutMs)
		}
	}
	c.scheduleSessionTimeoutAfter(env, gid, member, d)
}

func (c *Coordinator) scheduleSessionTimeoutAfter(env *sim.Env, gid, member string, d time.Duration) {
	g := c.groups[gid]
	if g == nil || g.consumer == nil {
		return
	}
	cg := g.consumer
	cg.session[member].Stop()
	cg.session[member] = env.After(d, "consumer-group-session-timeout", func(env *sim.Env) {
		if g := c.groups[gid]; g != nil && g.consumer != nil {
			delete(g.consumer.session, member)
		}
		c.fenceByTimer(env, gid, member, "member-session")
	})
}

// rebalanceTimerAction schedules the rebalance timeout of a member that
// must revoke partitions (its rebalanceTimeoutMs; it is fenced if still at
// that epoch when it fires, GMM:4739-4776), or cancels it otherwise.
func (c *Coordinator) rebalanceTimerAction(gid string, m cgMember) func(*sim.Env) {
	return func(env *sim.Env) {
		g := c.groups[gid]
		if g == nil || g.consumer == nil {
			return
		}
		cg := g.consumer
		cg.rebalance[m.id].Stop()
		delete(cg.rebalance, m.id)
		if m.state != kgroup.MemberUnrevokedPartitions {
			return
		}
		epoch := m.epoch
		cg.rebalance[m.id] = env.After(time.Duration(m.rebalanceTimeoutMs)*time.Millisecond, "consumer-group-rebalance-timeout", func(env *sim.Env) {
			g := c.groups[gid]
			if g == nil || g.consumer == nil {
				return
			}
			delete(g.consumer.rebalance, m.id)
			if cur := g.consumer.members[m.id]; cur != nil && cur.epoch == epoch {
				c.fenceByTimer(env, gid, m.id, "member-rebalance")
			}
		})
	}
}

// cancelTimers is GMM.cancelTimers.
func (c *Coordinator) cancelTimers(gid, member string) {
	g := c.groups[gid]
	if g == nil || g.consumer == nil {
		return
	}
	g.consumer.session[member].Stop()
	g.consumer.rebalance[member].Stop()
	delete(g.consumer.session, member)
	delete(g.consumer.rebalance, member)
	for _, kind := range []string{"join/", "sync/"} {
		g.consumer.classicTimers[kind+member].Stop()
		delete(g.consumer.classicTimers, kind+member)
	}
}

// stopConsumerTimers stops every timer of a group being unloaded.
func (cg *consumerGroup) stopTimers() {
	for _, m := range cg.memberList() {
		cg.session[m.id].Stop()
		cg.rebalance[m.id].Stop()
	}
	for _, k := range sortedKeys(cg.classicTimers) {
		cg.classicTimers[k].Stop()
	}
}

// armTimersOnLoad re-arms every member's session timer, and the rebalance
// timer of those revoking, as onLoaded does (GMM:6118-6132).
func (c *Coordinator) armTimersOnLoad(env *sim.Env, gid string, cg *consumerGroup) {
	for _, m := range cg.memberList() {
		c.scheduleSessionTimeout(env, gid, m.id)
		if m.state == kgroup.MemberUnrevokedPartitions {
			c.rebalanceTimerAction(gid, *m)(env)
		}
	}
}

// The notes a heartbeat leaves once its records are replayed.

func (c *Coordinator) noteEpochBump(gid string, epoch int32, member string) func(*sim.Env) {
	broker := c.nodeID
	return func(env *sim.Env) {
		env.Note(event.ConsumerGroupEpochBumped{Broker: broker, Group: gid, Epoch: epoch, Member: member})
	}
}

func (c *Coordinator) noteTarget(gid string, epoch int32, assignor string, changed int) func(*sim.Env) {
	broker := c.nodeID
	return func(env *sim.Env) {
		env.Note(event.ConsumerGroupTargetComputed{Broker: broker, Group: gid, Epoch: epoch, Assignor: assignor, Changed: changed})
	}
}

func (c *Coordinator) noteMemberState(gid string, before, after cgMember) func(*sim.Env) {
	broker := c.nodeID
	return func(env *sim.Env) {
		if before.state == after.state && before.epoch == after.epoch && len(before.assigned) == len(after.assigned) && len(before.pending) == len(after.pending) {
			return
		}
		env.Note(event.ConsumerGroupMemberReconciled{Broker: broker, Group: gid, Member: after.id, State: after.state.String(),
			Epoch: after.epoch, Partitions: len(after.assigned), Revoking: len(after.pending)})
	}
}

func (c *Coordinator) noteStaticReplaced(gid, instance, old, new string) func(*sim.Env) {
	broker := c.nodeID
	return func(env *sim.Env) {
		env.Note(event.ConsumerGroupStaticMemberReplaced{Broker: broker, Group: gid, Instance: instance, Old: old, New: new})
	}
}
