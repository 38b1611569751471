package groupcoordinator

import (
	"fmt"
	"slices"
	"strings"

	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// ConsumerGroupHeartbeat (API key 68): Kafka 4.3's
// GroupCoordinatorService.consumerGroupHeartbeat (request validation) and
// GroupMetadataManager.consumerGroupHeartbeat (GMM:2303-2457, 4907-4935),
// with 4.1's differences (no assignment interval, 4.1's reconciliation).

// apiError is an ApiException: an error code and its message.
type apiError struct {
	code protocol.ErrorCode
	msg  string
}

func errf(code protocol.ErrorCode, format string, args ...any) *apiError {
	return &apiError{code, fmt.Sprintf(format, args...)}
}

// validateHeartbeat is throwIfConsumerGroupHeartbeatRequestIsInvalid
// (GCS:438-477) for API version 1, the version 4.x clients send (MemberId
// is then always required). kafkascope's messages carry null strings as
// "", so the "can't be empty" checks of InstanceId and RackId cannot fail.
func (c *Coordinator) validateHeartbeat(req *protocol.ConsumerGroupHeartbeatRequest) *apiError {
	switch {
	case req.MemberID == "":
		return errf(protocol.INVALID_REQUEST, "MemberId can't be empty.")
	case req.GroupID == "":
		return errf(protocol.INVALID_REQUEST, "GroupId can't be empty.")
	}
	switch e := req.MemberEpoch; {
	case e == 0:
		if req.RebalanceTimeoutMs == -1 {
			return errf(protocol.INVALID_REQUEST, "RebalanceTimeoutMs must be provided in first request.")
		}
		if req.TopicPartitions == nil || len(req.TopicPartitions) > 0 {
			return errf(protocol.INVALID_REQUEST, "TopicPartitions must be empty when (re-)joining.")
		}
		if req.SubscribedTopicNames == nil && req.SubscribedTopicRegex == nil {
			return errf(protocol.INVALID_REQUEST, "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.")
		}
	case e == protocol.LeaveGroupStaticMemberEpoch:
		if req.InstanceID == "" {
			return errf(protocol.INVALID_REQUEST, "InstanceId can't be null.")
		}
	case e < protocol.LeaveGroupStaticMemberEpoch:
		return errf(protocol.INVALID_REQUEST, "MemberEpoch is invalid.")
	}
	if a := req.ServerAssignor; a != "" && !slices.Contains(c.assignors(), a) {
		return errf(protocol.UNSUPPORTED_ASSIGNOR, "ServerAssignor %s is not supported. Supported assignors: %s.", a, strings.Join(c.assignors(), ", "))
	}
	return nil
}

// assignors is group.consumer.assignors: the names of the server
// assignors, the first the default.
func (c *Coordinator) assignors() []string {
	var out []string
	for _, s := range strings.Split(c.host.ConfigString("group.consumer.assignors"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// handleConsumerGroupHeartbeat validates, runs the heartbeat, replays its
// records and answers once they are written (the coordinator runtime
// completes a write operation when its records commit; one with no
// records is answered at once).
func (c *Coordinator) handleConsumerGroupHeartbeat(env *sim.Env, from sim.Addr, req *protocol.ConsumerGroupHeartbeatRequest) bool {
	fail := func(e *apiError) bool {
		c.respond(env, from, &protocol.ConsumerGroupHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ErrorCode: e.code, ErrorMessage: e.msg})
		return true
	}
	if e := c.validateHeartbeat(req); e != nil {
		return fail(e)
	}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		return fail(&apiError{code: code})
	}
	var op *heartbeatOp
	var e *apiError
	if req.MemberEpoch == protocol.LeaveGroupMemberEpoch || req.MemberEpoch == protocol.LeaveGroupStaticMemberEpoch {
		op, e = c.consumerGroupLeave(env, req)
	} else {
		op, e = c.consumerGroupHeartbeat(env, from, req)
	}
	if e != nil {
		return fail(e)
	}
	op.resp.CorrelationID = req.CorrelationID
	if len(op.records) == 0 && len(op.pre) == 0 && op.install == nil {
		// Nothing to write: answered once the partition's writes in
		// flight have committed (deferred.go).
		op.after(env)
		deferred := false
		ran := c.afterPendingWrites(env, c.PartitionFor(req.GroupID), func(env *sim.Env, code protocol.ErrorCode) {
			if code != protocol.NONE {
				c.respond(env, from, &protocol.ConsumerGroupHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
					ErrorCode: CommitError(code)})
			} else {
				c.respond(env, from, op.resp)
			}
			if deferred {
				c.done(env, from)
			}
		})
		deferred = !ran
		return ran
	}
	c.write848(env, req.GroupID, op, func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			c.respond(env, from, &protocol.ConsumerGroupHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
				ErrorCode: CommitError(code)})
		} else {
			c.respond(env, from, op.resp)
		}
		c.done(env, from)
	})
	return false
}

// heartbeatOp is a CoordinatorResult: the records to write (pre: classic
// records before them), the response, and what to do once they are
// replayed (timers, events).
type heartbeatOp struct {
	pre groupRecords
	// converted: a conversion's records, written after pre and before
	// records but not replayed (the conversion built the group directly).
	converted []cgRecord
	records   []cgRecord
	resp      *protocol.ConsumerGroupHeartbeatResponse
	post      []func(env *sim.Env)
	// install, if set, runs first when the operation is written: a
	// migration's change of the group's kind (migration.go). It may add
	// to pre.
	install func(env *sim.Env)
}

func (op *heartbeatOp) after(env *sim.Env) {
	for _, f := range op.post {
		f(env)
	}
}

// write848 replays the operation's records into memory, runs its post
// actions, and appends the records to the group's partition; done (if
// any) gets the append's result. A failed write is not rolled back
// (Kafka reverts its timeline to the last committed offset): the
// coordinator keeps what it replayed.
func (c *Coordinator) write848(env *sim.Env, groupID string, op *heartbeatOp, done func(*sim.Env, protocol.ErrorCode)) {
	partition := c.PartitionFor(groupID)
	now := msTime(env)
	f := c.format()
	if op.install != nil {
		op.install(env)
	}
	recs := op.pre.records()
	for _, r := range op.converted {
		recs = append(recs, groupRecord{key: f.encodeKey(r), value: f.encodeValue(r)}.record())
	}
	for _, r := range op.records {
		c.replay(r, partition, now)
		recs = append(recs, groupRecord{key: f.encodeKey(r), value: f.encodeValue(r)}.record())
	}
	op.after(env)
	w := c.beginWrite(partition)
	c.host.Append(env, partition, recs, func(env *sim.Env, code protocol.ErrorCode) {
		if done != nil {
			done(env, code)
		}
		if code == protocol.REQUEST_TIMED_OUT {
			// The records stay in the log and may still commit: reads
			// keep waiting on them (a timed-out write leaves Kafka's
			// DeferredEventQueue only when the HW passes its offset).
			c.awaitLogEnd(env, partition, nil, w)
			return
		}
		c.finishWrite(env, partition, w, code)
	})
}

// consumerGroupHeartbeat is GMM.consumerGroupHeartbeat's regular path.
func (c *Coordinator) consumerGroupHeartbeat(env *sim.Env, from sim.Addr, req *protocol.ConsumerGroupHeartbeatRequest) (*heartbeatOp, *apiError) {
	now := msTime(env)
	op := &heartbeatOp{}
	create := req.MemberEpoch == 0
	gid := req.GroupID

	// getOrMaybeCreateConsumerGroup (GMM:840-866).
	var cg *consumerGroup
	switch g := c.groups[gid]; {
	case g == nil || g.state == groupDead:
		if !create {
			return nil, errf(protocol.GROUP_ID_NOT_FOUND, "Consumer group %s not found.", gid)
		}
		if c.atGroupLimit(c.PartitionFor(gid)) {
			return nil, &apiError{code: protocol.POLICY_VIOLATION} // limits.go
		}
		cg = newConsumerGroup(c.v43())
	case g.consumer != nil:
		cg = g.consumer
	case create && g.state == groupEmpty && len(g.members) == 0:
		// maybeDeleteEmptyClassicGroup: the empty classic group's
		// GroupMetadata tombstone, then a new consumer group; its
		// committed offsets stay.
		op.pre = append(op.pre, groupRecord{key: encodeGroupKey(gid)})
		cg = newConsumerGroup(c.v43())
	case create:
		// The online upgrade of a non-empty classic group (migration.go).
		var e *apiError
		if cg, e = c.upgradeClassicGroup(g, op); e != nil {
			return nil, e
		}
	default:
		return nil, errf(protocol.GROUP_ID_NOT_FOUND, "Group %s is not a consumer group.", gid)
	}
	// throwIfConsumerGroupIsFull (GMM:1552-1561).
	if max := c.host.Config("group.consumer.max.size"); int64(len(cg.members)) >= max && cg.members[req.MemberID] == nil {
		return nil, errf(protocol.GROUP_MAX_SIZE_REACHED, "The consumer group has reached its maximum capacity of %d members.", max)
	}

	member, replaced, e := c.heartbeatMember(cg, gid, req, create, op)
	if e != nil {
		return nil, e
	}

	// The member with the request's fields applied (GMM:2354-2364).
	upd := member
	if req.InstanceID != "" {
		upd.instanceID = req.InstanceID
	}
	if req.RackID != "" {
		upd.rackID = req.RackID
	}
	if req.RebalanceTimeoutMs != -1 {
		upd.rebalanceTimeoutMs = req.RebalanceTimeoutMs
	}
	if req.ServerAssignor != "" {
		upd.serverAssignor = req.ServerAssignor
	}
	if req.SubscribedTopicNames != nil {
		upd.subscribed = slices.Clone(req.SubscribedTopicNames)
	}
	if req.SubscribedTopicRegex != nil {
		upd.regex = *req.SubscribedTopicRegex
	}
	upd.clientID, upd.clientHost = req.ClientID, "/"+from.Host()
	upd.classic = nil

	upd, e = c.updateAndReconcile(cg, gid, member, upd, replaced, ownedPartitions(req.TopicPartitions), now, op)
	if e != nil {
		return nil, e
	}
	op.post = append(op.post, func(env *sim.Env) { c.scheduleSessionTimeout(env, gid, upd.id) })

	op.resp = &protocol.ConsumerGroupHeartbeatResponse{MemberID: upd.id, MemberEpoch: upd.epoch,
		HeartbeatIntervalMs: int32(c.host.Config("group.consumer.heartbeat.interval.ms"))}
	full := req.RebalanceTimeoutMs != -1 && (req.SubscribedTopicNames != nil || req.SubscribedTopicRegex != nil) && req.TopicPartitions != nil
	if req.MemberEpoch == 0 || full || !member.assignedPartitions().Equal(upd.assignedPartitions()) {
		op.resp.Assignment = &protocol.ConsumerGroupAssignment{TopicPartitions: []protocol.ConsumerGroupTopicPartitions{}}
		for _, tp := range upd.assignedPartitions() {
			op.resp.Assignment.TopicPartitions = append(op.resp.Assignment.TopicPartitions,
				protocol.ConsumerGroupTopicPartitions{TopicID: tp.TopicID, Partitions: slices.Clone(tp.Partitions)})
		}
	}
	return op, nil
}

// updateAndReconcile is the part of a heartbeat (GMM:2366-2437) that
// classicGroupJoinToConsumerGroup (GMM:2544-2621) shares: the member
// record if the member changed, the group epoch bumped if its
// subscription did (or the metadata hash), a new target assignment if the
// group epoch is ahead of it, and the member reconciled toward its target
// given the partitions it owns (nil: not reported). It returns the
// reconciled member.
func (c *Coordinator) updateAndReconcile(cg *consumerGroup, gid string, member, upd cgMember, replaced string, owned []kgroup.TopicPartitions, now int64, op *heartbeatOp) (cgMember, *apiError) {
	namesChanged, groupEpoch := c.updateSubscription(cg, gid, member, upd, replaced, op)
	c.countEpochBump(cg, groupEpoch, now)
	return c.targetAndReconcile(cg, gid, member, upd, replaced, owned, now, op, namesChanged, groupEpoch)
}

// updateSubscription is the first half of updateAndReconcile: the member
// record if the member changed, and the group epoch bumped if its
// subscribed names changed (or the metadata hash did). It reports whether
// the names changed and the group epoch after it.
func (c *Coordinator) updateSubscription(cg *consumerGroup, gid string, member, upd cgMember, replaced string, op *heartbeatOp) (namesChanged bool, groupEpoch int32) {
	// hasMemberSubscriptionChanged (GMM:3216-3232).
	if !upd.sameMetadata(member) || cg.members[upd.id] == nil && replaced == "" {
		op.records = append(op.records, memberMetadataRecord(gid, upd))
		namesChanged = !sameNames(upd.subscribed, member.subscribed)
	}
	// A regex subscription is kept but never resolved (regexes are not
	// simulated): it never bumps the epoch (REGEX_UPDATED, unresolved).

	view := c.topicView()
	groupEpoch = cg.groupEpoch
	bump := namesChanged
	refreshed := false
	if bump || cg.refreshMetadata {
		// updateSubscriptionMetadata (GMM:3728-3790).
		hash := view.metadataHash(cg.subscribedNames(&upd, map[string]bool{replaced: replaced != ""}))
		if hash != cg.metadataHash {
			bump = true
		}
		if bump {
			groupEpoch++
			op.records = append(op.records, epochRecord(gid, groupEpoch, hash))
			op.post = append(op.post, c.noteEpochBump(gid, groupEpoch, upd.id))
		}
		refreshed = true
		if cg.subscriptionMetadataRecord {
			op.records = append(op.records, tombstone(recConsumerGroupPartitionMetadata, gid, ""))
		}
	}
	if refreshed {
		op.post = append(op.post, func(*sim.Env) {
			if g := c.groups[gid]; g != nil && g.consumer != nil {
				g.consumer.refreshMetadata = false
			}
		})
	}
	return namesChanged, groupEpoch
}

// targetAndReconcile is the second half: a new target assignment if the
// group epoch is ahead of it, and the member reconciled toward its target.
func (c *Coordinator) targetAndReconcile(cg *consumerGroup, gid string, member, upd cgMember, replaced string, owned []kgroup.TopicPartitions, now int64, op *heartbeatOp, namesChanged bool, groupEpoch int32) (cgMember, *apiError) {
	view := c.topicView()
	// maybeUpdateTargetAssignment (GMM:3839-3911).
	targetEpoch, target := cg.assignmentEpoch, cg.targetOf(upd.id, upd.instanceID)
	if cg.assignmentEpoch < groupEpoch && c.canComputeTarget(cg, now) {
		members := cg.membersWith(upd, replaced)
		name := cg.preferredAssignor(member.serverAssignor, upd.serverAssignor, c.assignors()[0])
		in := kgroup.TargetAssignmentInput{
			GroupEpoch: groupEpoch, Assignor: kgroup.ServerAssignorByName(name), Members: cg.targetMembers(),
			StaticMembers: cg.static, SubscriptionType: kgroup.ComputeSubscriptionType(members),
			TargetAssignment: cg.targets, Topics: view.image,
			Updates: []kgroup.MemberUpdate{{MemberID: upd.id, Member: ptr(upd.targetMember())}},
		}
		if replaced != "" {
			in.Updates = append(in.Updates, kgroup.MemberUpdate{MemberID: replaced})
		}
		res, err := kgroup.BuildTargetAssignment(in)
		if err != nil {
			return cgMember{}, errf(protocol.UNKNOWN_SERVER_ERROR, "Failed to compute a new target assignment for epoch %d: %s", groupEpoch, err.Error())
		}
		for _, r := range res.Records {
			op.records = append(op.records, targetMemberRecord(gid, r.MemberID, r.Partitions))
		}
		op.records = append(op.records, targetMetadataRecord(gid, groupEpoch, now))
		op.post = append(op.post, c.noteTarget(gid, groupEpoch, name, len(res.Records)))
		targetEpoch, target = groupEpoch, res.TargetAssignment[upd.id]
	}

	// maybeReconcile (GMM:3542-3597).
	hasSubscriptionChanged := namesChanged
	if hasSubscriptionChanged || !upd.isReconciledTo(targetEpoch) {
		next, err := kgroup.BuildCurrentAssignment(kgroup.ReconcileInput{
			Member: kgroup.ReconcileMember{State: upd.state, MemberEpoch: upd.epoch, PreviousMemberEpoch: upd.prevEpoch,
				Assigned: upd.assigned, PendingRevocation: upd.pending, SubscribedTopicIDs: view.subscribedIDs(upd.subscribed)},
			TargetEpoch: targetEpoch, Target: target, Owned: owned,
			HasSubscriptionChanged: hasSubscriptionChanged, CurrentPartitionEpoch: cg.currentPartitionEpoch, Rules: c.reconcileRules(),
		})
		if err != nil {
			return cgMember{}, &apiError{protocol.FENCED_MEMBER_EPOCH, err.Error()}
		}
		reconciled := upd
		reconciled.state, reconciled.epoch, reconciled.prevEpoch, reconciled.assigned, reconciled.pending =
			next.State, next.MemberEpoch, next.PreviousMemberEpoch, next.Assigned, next.PendingRevocation
		if !reconciled.sameAssignment(upd) {
			op.records = append(op.records, currentAssignmentRecord(gid, reconciled))
			op.post = append(op.post, c.noteMemberState(gid, upd, reconciled), c.rebalanceTimerAction(gid, reconciled))
		}
		upd = reconciled
	}

	return upd, nil
}

func ptr[T any](v T) *T { return &v }

// heartbeatMember finds (or makes) the heartbeat's member
// (getOrMaybeSubscribeDynamicConsumerGroupMember GMM:3062-3085 and
// getOrMaybeSubscribeStaticConsumerGroupMember GMM:3127-3180). replaced
// is the id of the static member the heartbeat's member replaces ("" if
// none); its replacement records are added to op.
func (c *Coordinator) heartbeatMember(cg *consumerGroup, gid string, req *protocol.ConsumerGroupHeartbeatRequest, create bool, op *heartbeatOp) (cgMember, string, *apiError) {
	id, iid := req.MemberID, req.InstanceID
	if iid == "" {
		m := cg.members[id]
		if m == nil {
			if !create {
				return cgMember{}, "", errf(protocol.UNKNOWN_MEMBER_ID, "Member %s is not a member of group %s.", id, gid)
			}
			return newCGMember(id), "", nil
		}
		return *m, "", validateMemberEpoch(*m, req)
	}
	existing := cg.staticMember(iid)
	if create {
		if existing == nil {
			if m := cg.members[id]; m != nil {
				return *m, "", nil
			}
			return newCGMember(id), "", nil
		}
		// When both use the consumer protocol, the instance id must have
		// been released with a -2 leave (throwIfInstanceIdIsUnreleased,
		// GMM:1675-1685); a classic holder is replaced at once.
		if !existing.useClassicProtocol() && existing.epoch != protocol.LeaveGroupStaticMemberEpoch {
			return cgMember{}, "", errf(protocol.UNRELEASED_INSTANCE_ID,
				"Static member %s with instance id %s cannot join the group because the instance id is owned by %s member.", id, iid, existing.id)
		}
		// replaceMember (GMM:4407-4435): the old member under the new id
		// at epochs 0/0, keeping its assignment, state and target.
		m := *existing
		m.id, m.epoch, m.prevEpoch = id, 0, 0
		op.records = append(op.records, removeMemberRecords(gid, existing.id)...)
		op.records = append(op.records, memberMetadataRecord(gid, m), targetMemberRecord(gid, id, cg.targets[existing.id]), currentAssignmentRecord(gid, m))
		op.post = append(op.post, c.noteStaticReplaced(gid, iid, existing.id, id))
		return m, existing.id, nil
	}
	if existing == nil {
		return cgMember{}, "", errf(protocol.UNKNOWN_MEMBER_ID, "Instance id %s is unknown.", iid)
	}
	if existing.id != id {
		return cgMember{}, "", errf(protocol.FENCED_INSTANCE_ID, "Static member %s with instance id %s was fenced by member %s.", id, iid, existing.id)
	}
	return *existing, "", validateMemberEpoch(*existing, req)
}

// validateMemberEpoch is throwIfConsumerGroupMemberEpochIsInvalid
// (GMM:1610-1632).
func validateMemberEpoch(m cgMember, req *protocol.ConsumerGroupHeartbeatRequest) *apiError {
	e := req.MemberEpoch
	switch {
	case e == 0:
		return nil
	case e > m.epoch:
		return errf(protocol.FENCED_MEMBER_EPOCH, "The consumer group member has a greater member epoch (%d) than the one known by the group coordinator (%d). The member must abandon all its partitions and rejoin.", e, m.epoch)
	case e < m.epoch:
		// A lost response: the previous epoch with owned partitions
		// all still assigned is accepted.
		if e != m.prevEpoch || !ownedSubset(req.TopicPartitions, m.assignedPartitions()) {
			return errf(protocol.FENCED_MEMBER_EPOCH, "The consumer group member has a smaller member epoch (%d) than the one known by the group coordinator (%d). The member must abandon all its partitions and rejoin.", e, m.epoch)
		}
	}
	return nil
}

// ownedSubset is GMM.isSubset: a null owned list is not a subset.
func ownedSubset(owned []protocol.ConsumerGroupTopicPartitions, assigned kgroup.MemberAssignment) bool {
	if owned == nil {
		return false
	}
	for _, tp := range owned {
		for _, p := range tp.Partitions {
			if !assigned.Contains(tp.TopicID, p) {
				return false
			}
		}
	}
	return true
}

func ownedPartitions(tps []protocol.ConsumerGroupTopicPartitions) []kgroup.TopicPartitions {
	if tps == nil {
		return nil
	}
	out := make([]kgroup.TopicPartitions, 0, len(tps))
	for _, tp := range tps {
		out = append(out, kgroup.TopicPartitions{TopicID: tp.TopicID, Partitions: tp.Partitions})
	}
	return out
}

// canComputeTarget is 4.3's canComputeNextTargetAssignment
// (GMM:3805-3826) with group.consumer.assignment.interval.ms; 4.1 always
// computes at once.
func (c *Coordinator) canComputeTarget(cg *consumerGroup, now int64) bool {
	if !c.v43() {
		return true
	}
	interval := c.host.Config("group.consumer.assignment.interval.ms")
	return cg.assignmentTimestamp == 0 || interval == 0 || now >= cg.assignmentTimestamp+interval
}

func (c *Coordinator) reconcileRules() kgroup.ReconcileRules {
	if c.v43() {
		return kgroup.Reconcile43
	}
	return kgroup.Reconcile41
}

// targetOf is ConsumerGroup.targetAssignment(memberId, instanceId)
// (CG:305-315): a static member's target is its instance's current
// holder's.
func (cg *consumerGroup) targetOf(id, instanceID string) kgroup.MemberAssignment {
	if instanceID == "" {
		return cg.targets[id]
	}
	if prev, ok := cg.static[instanceID]; ok {
		return cg.targets[prev]
	}
	return nil
}

// membersWith is the members as the subscription type sees them after
// the heartbeat: upd in place of itself or of the member it replaces, or
// added.
func (cg *consumerGroup) membersWith(upd cgMember, replaced string) []kgroup.TargetMember {
	var out []kgroup.TargetMember
	found := false
	for _, m := range cg.memberList() {
		if m.id == upd.id || m.id == replaced {
			if !found {
				out = append(out, upd.targetMember())
				found = true
			}
			continue
		}
		out = append(out, m.targetMember())
	}
	if !found {
		out = append(out, upd.targetMember())
	}
	return out
}
