package groupcoordinator

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/event"
	kgroup "kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Online migration between classic and consumer groups, as Kafka 4.3's
// GroupMetadataManager runs it (4.1's rules are the same):
//
//   - the upgrade: the first ConsumerGroupHeartbeat (epoch 0) to a
//     non-empty classic group converts it into a consumer group whose
//     members are the classic ones, each at epoch = the generation with
//     the assignment its last SyncGroup gave it (validateOnlineUpgrade,
//     convertToConsumerGroup GMM:1372-1451; ConsumerGroup.fromClassicGroup
//     and createConsumerGroupRecords CG:1213-1310);
//   - classic members inside a consumer group: their JoinGroup, SyncGroup,
//     Heartbeat and LeaveGroup are served from the consumer group's
//     reconciliation (classicGroupJoinToConsumerGroup GMM:2469-2626,
//     classicGroupSyncToConsumerGroup GMM:7682-7717,
//     classicGroupHeartbeatToConsumerGroup GMM:7922-7955,
//     classicGroupLeaveToConsumerGroup GMM:8021-8079), with the join and
//     sync timers of GMM:4837-4895;
//   - the downgrade: when the last consumer-protocol member leaves or is
//     fenced and classic members remain, the group becomes a classic one
//     again, Stable at generation = the group epoch with the targets as
//     assignments, and rebalances (validateOnlineDowngradeWithFencedMembers
//     GMM:1256-1276, convertToClassicGroup GMM:1313-1370,
//     ClassicGroup.fromConsumerGroup ClassicGroup.java:1358-1440).
//
// group.consumer.migration.policy (GroupCoordinatorConfig, default
// bidirectional in 4.1 and 4.3; ConsumerGroupMigrationPolicy.java) allows
// either direction. A classic static member that replaces the last
// consumer-protocol member (a static one, with its group.instance.id)
// downgrades the group too, taking over that member's target
// (validateOnlineDowngradeWithReplacedMember GMM:1284-1300, the downgrade
// branch of classicGroupJoinToConsumerGroup GMM:2526-2616).

// migrationPolicy is ConsumerGroupMigrationPolicy.parse of
// group.consumer.migration.policy: whether the upgrade and the downgrade
// are enabled.
func (c *Coordinator) migrationPolicy() (upgrade, downgrade bool) {
	switch strings.ToLower(c.host.ConfigString("group.consumer.migration.policy")) {
	case "disabled":
		return false, false
	case "upgrade":
		return true, false
	case "downgrade":
		return false, true
	}
	return true, true
}

// upgradeClassicGroup is validateOnlineUpgrade then convertToConsumerGroup
// for a ConsumerGroupHeartbeat with epoch 0 reaching the non-empty classic
// group g. It returns the consumer group, built apart: op installs it in g
// when the heartbeat's records are written (the classic group's parked
// JoinGroup and SyncGroup then get REBALANCE_IN_PROGRESS and its timers
// stop), and writes the classic group's tombstone and the consumer group's
// records before the heartbeat's own.
func (c *Coordinator) upgradeClassicGroup(g *group, op *heartbeatOp) (*consumerGroup, *apiError) {
	gid := g.id
	cannot := func(why string) *apiError {
		return errf(protocol.GROUP_ID_NOT_FOUND, "Cannot upgrade classic group %s to consumer group because %s.", gid, why)
	}
	switch up, _ := c.migrationPolicy(); {
	case !up:
		return nil, cannot("online upgrade is disabled")
	case g.protocolType != protocol.ConsumerProtocolType:
		return nil, cannot("the group does not use the consumer embedded protocol")
	case int64(len(g.members)) > c.host.Config("group.consumer.max.size"):
		return nil, cannot("the group size exceeds the consumer group maximum size")
	}
	cg, recs, e := c.fromClassicGroup(g)
	if e != nil {
		return nil, e
	}
	op.pre = append(op.pre, groupRecord{key: encodeGroupKey(gid)})
	op.converted = recs
	op.install = func(env *sim.Env) {
		c.dropClassicState(env, g, protocol.REBALANCE_IN_PROGRESS)
		g.consumer = cg
		env.Note(event.GroupConverted{Broker: c.nodeID, Group: gid, To: "consumer", Epoch: cg.groupEpoch, Members: len(cg.members)})
		// Each converted member's session timer, at its classic
		// session timeout.
		for _, m := range cg.memberList() {
			c.scheduleSessionTimeout(env, gid, m.id)
		}
	}
	return cg, nil
}

// fromClassicGroup is ConsumerGroup.fromClassicGroup (CG:1213-1286) with
// createConsumerGroupRecords (CG:1288-1310): group epoch and target
// assignment epoch = the generation (assignment timestamp 0); each member
// STABLE at epoch = previous epoch = the generation, subscribed to the
// topics of its metadata for the group's protocol, assigned what its
// assignment names (each partition at the generation; topics the image
// does not know are dropped), its target the same, and its session
// timeout and protocols kept as ClassicMemberMetadata. The records:
// every member's metadata, the group epoch, every target, the target
// metadata, every current assignment.
func (c *Coordinator) fromClassicGroup(g *group) (*consumerGroup, []cgRecord, *apiError) {
	gid, gen := g.id, g.generation
	view := c.topicView()
	cg := newConsumerGroup(c.v43())
	var members []cgMember
	for _, cm := range g.sortedMembers() {
		var assigned []kgroup.PartitionEpoch
		if len(cm.assignment) > 0 {
			a, err := protocol.DecodeConsumerProtocolAssignment(cm.assignment)
			if err != nil {
				return nil, nil, errf(protocol.GROUP_ID_NOT_FOUND, "Cannot upgrade classic group %s to consumer group because the embedded consumer protocol is malformed.", gid)
			}
			if len(a.UserData) > 0 {
				return nil, nil, errf(protocol.GROUP_ID_NOT_FOUND, "Cannot upgrade classic group %s to consumer group because an unsupported custom assignor is in use. "+
					"Please refer to the documentation or switch to a default assignor before re-attempting the upgrade.", gid)
			}
			for _, tp := range a.AssignedPartitions {
				t, ok := view.byName[tp.Topic]
				if !ok {
					continue
				}
				for _, p := range tp.Partitions {
					assigned = append(assigned, kgroup.PartitionEpoch{TopicID: t.ID, Partition: p, Epoch: gen})
				}
			}
			slices.SortFunc(assigned, comparePartitionEpoch)
			assigned = slices.CompactFunc(assigned, func(a, b kgroup.PartitionEpoch) bool { return comparePartitionEpoch(a, b) == 0 })
		}
		meta := cm.metadata(g.protocolName)
		if g.protocolName == "" && len(cm.protocols) > 0 {
			meta = cm.protocols[0].Metadata // no generation has chosen one yet
		}
		sub, err := protocol.DecodeConsumerProtocolSubscription(meta)
		if err != nil {
			return nil, nil, errf(protocol.GROUP_ID_NOT_FOUND, "Cannot upgrade classic group %s to consumer group because the embedded consumer protocol is malformed.", gid)
		}
		m := newCGMember(cm.id)
		m.epoch, m.prevEpoch, m.state = gen, gen, kgroup.MemberStable
		m.instanceID, m.rackID = cm.instanceID, sub.RackID
		m.rebalanceTimeoutMs = int32(cm.rebalanceTimeout.Milliseconds())
		m.clientID, m.clientHost = cm.clientID, cm.clientHost
		m.subscribed = slices.Clone(sub.Topics)
		m.assigned = assigned
		m.classic = &classicMemberMetadata{sessionTimeoutMs: int32(cm.sessionTimeout.Milliseconds()), protocols: slices.Clone(cm.protocols)}
		members = append(members, m)
	}
	// The members go into the group in the classic group's order; the
	// records then follow the consumer group's members map.
	for _, m := range members {
		cg.apply(memberMetadataRecord(gid, m))
	}
	hash := view.metadataHash(cg.subscribedNames(nil, nil))
	cg.apply(epochRecord(gid, gen, hash))
	for _, m := range members {
		cg.apply(targetMemberRecord(gid, m.id, partitionsOf(m.assigned)))
		cg.apply(currentAssignmentRecord(gid, m))
	}
	cg.apply(targetMetadataRecord(gid, gen, 0))
	var recs []cgRecord
	list := cg.memberList()
	for _, m := range list {
		recs = append(recs, memberMetadataRecord(gid, *m))
	}
	recs = append(recs, epochRecord(gid, gen, hash))
	for _, m := range list {
		recs = append(recs, targetMemberRecord(gid, m.id, cg.targets[m.id]))
	}
	recs = append(recs, targetMetadataRecord(gid, gen, 0))
	for _, m := range list {
		recs = append(recs, currentAssignmentRecord(gid, *m))
	}
	return cg, recs, nil
}

// dropClassicState ends g's life as a classic group, keeping its
// committed offsets: parked JoinGroup and SyncGroup get code
// (completeAllJoinFutures, completeAllSyncFutures), and the members', the
// join's, the sync's and the pending members' timers stop.
func (c *Coordinator) dropClassicState(env *sim.Env, g *group, code protocol.ErrorCode) {
	for _, m := range g.sortedMembers() {
		m.expiry.Stop()
		c.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: code, GenerationID: -1, MemberID: m.id})
		c.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: code})
	}
	for _, id := range sortedKeys(g.pending) {
		g.pending[id].Stop()
	}
	g.join.Stop()
	g.syncTimer.Stop()
	g.join, g.syncTimer, g.pendingSync, g.initialDelay, g.newMemberAdded = nil, nil, nil, false, false
	g.members, g.order, g.static, g.pending = map[string]*member{}, nil, map[string]string{}, map[string]*sim.Timer{}
	g.leader, g.protocolName, g.protocolType, g.generation = "", "", "", 0
	g.state = groupEmpty
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// canDowngrade is validateOnlineDowngradeWithFencedMembers
// (GMM:1256-1276): every member left after the fenced ones uses the
// classic protocol, at least one is left, the policy allows the
// downgrade, and they fit in group.max.size.
func (c *Coordinator) canDowngrade(cg *consumerGroup, fenced []string) bool {
	classic, fencedClassic, gone := 0, 0, 0
	for _, m := range cg.memberList() {
		if m.useClassicProtocol() {
			classic++
		}
		if slices.Contains(fenced, m.id) {
			gone++
			if m.useClassicProtocol() {
				fencedClassic++
			}
		}
	}
	left := len(cg.members) - gone
	_, down := c.migrationPolicy()
	return classic-fencedClassic == left && left > 0 && down && int64(left) <= c.host.Config("group.max.size")
}

// canDowngradeReplacing is validateOnlineDowngradeWithReplacedMember
// (GMM:1284-1300): the replaced member is the only one on the consumer
// protocol, the policy allows the downgrade, and the group fits in
// group.max.size.
func (c *Coordinator) canDowngradeReplacing(cg *consumerGroup, replaced cgMember) bool {
	classic := 0
	for _, m := range cg.memberList() {
		if m.useClassicProtocol() {
			classic++
		}
	}
	_, down := c.migrationPolicy()
	return classic == len(cg.members)-1 && !replaced.useClassicProtocol() && down &&
		int64(len(cg.members)) <= c.host.Config("group.max.size")
}

// downgradeOp is convertToClassicGroup (GMM:1313-1370) for members
// leaving: the consumer group's tombstones, then the classic group's
// record; the group is a classic one at once (Kafka updates its state
// directly rather than by replay), each member's session timer runs at
// its classic session timeout, and the group prepares a rebalance.
func (c *Coordinator) downgradeOp(gid string, cg *consumerGroup, fenced []string, reason string) *heartbeatOp {
	op := &heartbeatOp{}
	broker := c.nodeID
	op.install = func(env *sim.Env) {
		g := c.groups[gid]
		op.pre = append(op.pre, c.consumerGroupTombstones(gid, cg)...)
		cg.stopTimers()
		g.consumer = nil
		c.fromConsumerGroup(env, g, cg, fenced, nil)
		op.pre = append(op.pre, groupRecord{key: encodeGroupKey(gid), value: encodeGroupValue(g.value())})
		for _, id := range fenced {
			env.Note(event.ConsumerGroupMemberFenced{Broker: broker, Group: gid, Member: id, Reason: reason})
		}
		env.Note(event.GroupConverted{Broker: broker, Group: gid, To: "classic", Epoch: g.generation, Members: len(g.members)})
		for _, m := range g.sortedMembers() {
			c.scheduleExpiry(env, g, m)
		}
		c.prepareRebalance(env, g, fmt.Sprintf("Downgrade group %s from consumer to classic for member leaving.", gid))
	}
	return op
}

// downgradeReplacing is the downgrade branch of
// classicGroupJoinToConsumerGroup (GMM:2526-2616): upd (a classic static
// member) replaces existing, the group's last consumer-protocol member.
// Its records are written but not replayed: the group becomes a classic
// one directly (convertToClassicGroup with a joining member). The member
// is first reconciled against the replaced member's target unless the
// group epoch is ahead of the assignment, in which case the classic group
// rebalances at once.
func (c *Coordinator) downgradeReplacing(cg *consumerGroup, gid string, member, upd, existing cgMember, owned []kgroup.TopicPartitions, now int64, op *heartbeatOp) (cgMember, *apiError) {
	replaced := ""
	if existing.id != upd.id {
		replaced = existing.id
	}
	namesChanged, groupEpoch := c.updateSubscription(cg, gid, member, upd, replaced, op)
	c.countEpochBump(cg, groupEpoch, now)
	rebalance := cg.assignmentEpoch < groupEpoch
	if !rebalance {
		// The target is the group's own (assignment epoch = group
		// epoch): reconcile toward it.
		var e *apiError
		if upd, e = c.targetAndReconcile(cg, gid, member, upd, replaced, owned, now, op, namesChanged, groupEpoch); e != nil {
			return cgMember{}, e
		}
	}
	joining := upd
	recs := op.records
	op.records = nil
	broker := c.nodeID
	op.install = func(env *sim.Env) {
		g := c.groups[gid]
		f := c.format()
		for _, r := range recs {
			op.pre = append(op.pre, groupRecord{key: f.encodeKey(r), value: f.encodeValue(r)})
		}
		op.pre = append(op.pre, c.consumerGroupTombstonesReplacing(gid, cg, existing.id, joining.id)...)
		cg.stopTimers()
		g.consumer = nil
		c.fromConsumerGroup(env, g, cg, nil, &joining)
		op.pre = append(op.pre, groupRecord{key: encodeGroupKey(gid), value: encodeGroupValue(g.value())})
		env.Note(event.GroupConverted{Broker: broker, Group: gid, To: "classic", Epoch: g.generation, Members: len(g.members)})
		for _, m := range g.sortedMembers() {
			c.scheduleExpiry(env, g, m)
		}
		if rebalance {
			c.prepareRebalance(env, g, fmt.Sprintf("Downgrade group %s from consumer to classic with stale assignment.", gid))
		}
	}
	return upd, nil
}

// fromConsumerGroup is ClassicGroup.fromConsumerGroup
// (ClassicGroup.java:1358-1440) into g: Stable, protocol type consumer,
// generation = the group epoch, the members but the leaving ones in the
// consumer group's order (the first leads), the protocol selectProtocol
// picks, and each member's assignment its target, ConsumerProtocol-encoded
// (version 3, the version kafkascope's clients write their metadata in).
// A joining static member (nil: none) takes the place of the member
// holding its instance id: it is added last and gets that member's
// target.
func (c *Coordinator) fromConsumerGroup(env *sim.Env, g *group, cg *consumerGroup, leaving []string, joining *cgMember) {
	g.protocolType = protocol.ConsumerProtocolType
	g.generation = cg.groupEpoch
	g.transition(groupStable, msTime(env))
	add := func(m cgMember) {
		g.add(&member{id: m.id, instanceID: m.instanceID, clientID: m.clientID, clientHost: m.clientHost,
			rebalanceTimeout: msDur(m.rebalanceTimeoutMs), sessionTimeout: msDur(m.classic.sessionTimeoutMs),
			protocolType: protocol.ConsumerProtocolType, protocols: slices.Clone(m.classic.protocols)})
	}
	replaced := ""
	for _, m := range cg.memberList() {
		if joining != nil && m.instanceID == joining.instanceID {
			replaced = m.id
			continue
		}
		if slices.Contains(leaving, m.id) || m.classic == nil {
			continue
		}
		add(*m)
	}
	if joining != nil {
		add(*joining)
	}
	g.protocolName = g.selectProtocol()
	view := c.topicView()
	for _, m := range g.sortedMembers() {
		target := m.id
		if joining != nil && m.id == joining.id {
			target = replaced
		}
		m.assignment = encodeAssignment(cg.targets[target], view)
	}
}

// encodeAssignment is ConsumerProtocol.serializeAssignment of partitions
// named by topic id (toConsumerProtocolAssignment: topics the image no
// longer has are left out).
func encodeAssignment(a kgroup.MemberAssignment, view topicView) []byte {
	out := protocol.ConsumerProtocolAssignment{AssignedPartitions: []protocol.TopicPartitions{}}
	for _, tp := range a {
		name := view.topicName(tp.TopicID)
		if name == "" {
			continue
		}
		out.AssignedPartitions = append(out.AssignedPartitions, protocol.TopicPartitions{Topic: name, Partitions: slices.Clone(tp.Partitions)})
	}
	return out.Encode()
}

// classicOwned is a JoinGroup subscription's owned partitions by topic id
// (toTopicPartitions: topics the image does not know are dropped), never
// nil: a classic member always reports what it owns.
func classicOwned(sub protocol.ConsumerProtocolSubscription, view topicView) []kgroup.TopicPartitions {
	out := []kgroup.TopicPartitions{}
	for _, tp := range sub.OwnedPartitions {
		if t, ok := view.byName[tp.Topic]; ok {
			out = append(out, kgroup.TopicPartitions{TopicID: t.ID, Partitions: slices.Clone(tp.Partitions)})
		}
	}
	return out
}

// supportsClassicProtocols is ConsumerGroup.supportsClassicProtocols
// (CG:1322-1333): the consumer protocol type, and one of the protocols
// every classic member supports.
func (cg *consumerGroup) supportsClassicProtocols(protocolType string, protos []protocol.JoinGroupRequestProtocol) bool {
	if protocolType != protocol.ConsumerProtocolType {
		return false
	}
	if len(cg.members) == 0 {
		return len(protos) > 0
	}
	for _, p := range protos {
		all := true
		for _, m := range cg.memberList() {
			if m.classic != nil && !slices.ContainsFunc(m.classic.protocols, func(q protocol.JoinGroupRequestProtocol) bool { return q.Name == p.Name }) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// newUuidMemberID is `Uuid.randomUuid().toString()`, the id a consumer
// group gives a classic member that joins without one.
func (c *Coordinator) newUuidMemberID(env *sim.Env) string {
	if c.uuids848 == nil {
		c.uuids848 = env.Rand(fmt.Sprintf("broker-%d/consumer-group-member-ids", c.nodeID))
	}
	return metadata.RandomUuid(c.uuids848.Uint64).String()
}

// classicGroupJoinToConsumerGroup answers a JoinGroup reaching a non-empty
// consumer group (GMM:2469-2626): a member without an id first gets
// MEMBER_ID_REQUIRED with a Uuid; then the member is created or updated
// from its subscription (the first protocol's metadata), the group epoch
// bumped if its topics changed, a target computed, and the member
// reconciled against what its subscription says it owns. The answer,
// once the records are written: generation = the member epoch, the
// member's first protocol, no leader and no members (the coordinator
// assigns). It reports whether the request is finished.
func (c *Coordinator) classicGroupJoinToConsumerGroup(env *sim.Env, from sim.Addr, g *group, req *protocol.JoinGroupRequest) bool {
	cg, gid, now := g.consumer, g.id, msTime(env)
	fail := func(e *apiError) bool {
		c.respond(env, from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ErrorCode: e.code, GenerationID: -1, MemberID: req.MemberID})
		return true
	}
	id, iid := req.MemberID, req.GroupInstanceID
	unknown := id == ""
	if unknown {
		id = c.newUuidMemberID(env)
	}
	if max := c.host.Config("group.consumer.max.size"); int64(len(cg.members)) >= max && cg.members[id] == nil {
		return fail(errf(protocol.GROUP_MAX_SIZE_REACHED, "The consumer group has reached its maximum capacity of %d members.", max))
	}
	if !cg.supportsClassicProtocols(req.ProtocolType, req.Protocols) {
		return fail(errf(protocol.INCONSISTENT_GROUP_PROTOCOL, "Member %s's protocols are not supported.", id))
	}
	if unknown && iid == "" {
		// JoinGroupRequest.requiresKnownMemberId (v4+).
		c.respond(env, from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
			ErrorCode: protocol.MEMBER_ID_REQUIRED, GenerationID: -1, MemberID: id})
		return true
	}
	op := &heartbeatOp{}
	var member cgMember
	replaced := ""
	var existing *cgMember
	if iid != "" {
		existing = cg.staticMember(iid)
	}
	switch {
	case iid == "":
		member = newCGMember(id)
		if m := cg.members[id]; m != nil {
			member = *m
		}
	case unknown && existing == nil:
		member = newCGMember(id)
		if m := cg.members[id]; m != nil {
			member = *m
		}
	case unknown:
		// A classic static member replaces the instance's holder,
		// whatever protocol that one uses (getOrMaybeSubscribeStatic
		// ConsumerGroupMember, GMM:3127-3180).
		m := *existing
		m.id, m.epoch, m.prevEpoch = id, 0, 0
		op.records = append(op.records, removeMemberRecords(gid, existing.id)...)
		op.records = append(op.records, memberMetadataRecord(gid, m), targetMemberRecord(gid, id, cg.targets[existing.id]), currentAssignmentRecord(gid, m))
		op.post = append(op.post, c.noteStaticReplaced(gid, iid, existing.id, id))
		member, replaced = m, existing.id
	case existing == nil:
		return fail(errf(protocol.UNKNOWN_MEMBER_ID, "Instance id %s is unknown.", iid))
	case existing.id != id:
		return fail(errf(protocol.FENCED_INSTANCE_ID, "Static member %s with instance id %s was fenced by member %s.", id, iid, existing.id))
	default:
		member = *existing
	}
	var sub protocol.ConsumerProtocolSubscription
	if len(req.Protocols) > 0 {
		var err error
		if sub, err = protocol.DecodeConsumerProtocolSubscription(req.Protocols[0].Metadata); err != nil {
			return fail(errf(protocol.UNKNOWN_SERVER_ERROR, "Malformed embedded consumer protocol in subscription deserialization."))
		}
	}
	upd := member
	if iid != "" {
		upd.instanceID = iid
	}
	if sub.RackID != "" {
		upd.rackID = sub.RackID
	}
	if req.RebalanceTimeoutMs != -1 {
		upd.rebalanceTimeoutMs = req.RebalanceTimeoutMs
	}
	upd.subscribed = append([]string{}, sub.Topics...)
	upd.regex = ""
	upd.clientID, upd.clientHost = req.ClientID, "/"+from.Host()
	upd.classic = &classicMemberMetadata{sessionTimeoutMs: req.SessionTimeoutMs, protocols: slices.Clone(req.Protocols)}
	owned := classicOwned(sub, c.topicView())
	downgrade := existing != nil && c.canDowngradeReplacing(cg, *existing)
	var e *apiError
	if downgrade {
		upd, e = c.downgradeReplacing(cg, gid, member, upd, *existing, owned, now, op)
	} else {
		upd, e = c.updateAndReconcile(cg, gid, member, upd, replaced, owned, now, op)
	}
	if e != nil {
		return fail(e)
	}
	resp := &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
		MemberID: upd.id, GenerationID: upd.epoch, ProtocolType: protocol.ConsumerProtocolType, ProtocolName: upd.classicProtocolName()}
	session, rebalance := msDur(req.SessionTimeoutMs), msDur(req.RebalanceTimeoutMs)
	joined := func(env *sim.Env) {
		c.cancelClassicTimer(gid, upd.id, "join")
		if !downgrade {
			// Still a consumer group: the member must sync within its
			// rebalance timeout. A downgraded group's classic timers
			// were set by the conversion.
			c.scheduleSessionTimeoutAfter(env, gid, upd.id, session)
			c.scheduleClassicTimer(env, gid, upd.id, "sync", rebalance, false)
		}
		c.respond(env, from, resp)
	}
	if len(op.records) == 0 && op.install == nil {
		joined(env)
		return true
	}
	c.write848(env, gid, op, func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			c.respond(env, from, &protocol.JoinGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
				ErrorCode: CommitError(code), GenerationID: -1, MemberID: req.MemberID})
		} else {
			joined(env)
		}
		c.done(env, from)
	})
	return false
}

// classicMember is validateConsumerGroupMember (GMM:7966-7990) then
// throwIfMemberDoesNotUseClassicProtocol and throwIfGenerationIdUnmatched
// (GMM:1829-1856): the classic member a SyncGroup or Heartbeat names.
func classicMember(cg *consumerGroup, gid, id, iid string, generation int32) (cgMember, protocol.ErrorCode) {
	var m *cgMember
	if iid == "" {
		if m = cg.members[id]; m == nil {
			return cgMember{}, protocol.UNKNOWN_MEMBER_ID
		}
	} else {
		if m = cg.staticMember(iid); m == nil {
			return cgMember{}, protocol.UNKNOWN_MEMBER_ID
		}
		if m.id != id {
			return cgMember{}, protocol.FENCED_INSTANCE_ID
		}
	}
	switch {
	case !m.useClassicProtocol():
		return cgMember{}, protocol.UNKNOWN_MEMBER_ID
	case m.epoch != generation:
		return cgMember{}, protocol.ILLEGAL_GENERATION
	}
	return *m, protocol.NONE
}

// classicGroupSyncToConsumerGroup (GMM:7682-7717): after the checks, a
// member that must rejoin (the target epoch passed its epoch, and it is
// not revoking) gets REBALANCE_IN_PROGRESS; otherwise its sync timer
// stops, its session restarts and it gets its current assigned
// partitions.
func (c *Coordinator) classicGroupSyncToConsumerGroup(env *sim.Env, from sim.Addr, g *group, req *protocol.SyncGroupRequest) {
	cg, gid := g.consumer, g.id
	answer := func(r *protocol.SyncGroupResponse) {
		r.CorrelationID = req.CorrelationID
		c.respond(env, from, r)
	}
	if len(cg.members) == 0 {
		answer(&protocol.SyncGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID})
		return
	}
	m, code := classicMember(cg, gid, req.MemberID, req.GroupInstanceID, req.GenerationID)
	if code != protocol.NONE {
		answer(&protocol.SyncGroupResponse{ErrorCode: code})
		return
	}
	// throwIfClassicProtocolUnmatched (GMM:1864-1883).
	if (req.ProtocolType != "" && req.ProtocolType != protocol.ConsumerProtocolType) || (req.ProtocolName != "" && req.ProtocolName != m.classicProtocolName()) {
		answer(&protocol.SyncGroupResponse{ErrorCode: protocol.INCONSISTENT_GROUP_PROTOCOL})
		return
	}
	// throwIfRebalanceInProgress (GMM:1889-1902).
	if cg.assignmentEpoch > m.epoch && m.state != kgroup.MemberUnrevokedPartitions {
		c.scheduleClassicTimer(env, gid, m.id, "join", msDur(m.rebalanceTimeoutMs), true)
		answer(&protocol.SyncGroupResponse{ErrorCode: protocol.REBALANCE_IN_PROGRESS})
		return
	}
	c.cancelClassicTimer(gid, m.id, "sync")
	c.scheduleSessionTimeout(env, gid, m.id)
	answer(&protocol.SyncGroupResponse{ProtocolType: req.ProtocolType, ProtocolName: req.ProtocolName,
		Assignment: encodeAssignment(m.assignedPartitions(), c.topicView())})
}

// classicGroupHeartbeatToConsumerGroup (GMM:7922-7955): the session
// restarts; the member must rejoin (REBALANCE_IN_PROGRESS, and its join
// timer starts unless running) when the target epoch passed its epoch, or
// it has partitions to revoke, or the partitions it waited for are free.
func (c *Coordinator) classicGroupHeartbeatToConsumerGroup(env *sim.Env, g *group, req *protocol.HeartbeatRequest) protocol.ErrorCode {
	cg, gid := g.consumer, g.id
	m, code := classicMember(cg, gid, req.MemberID, req.GroupInstanceID, req.GenerationID)
	if code != protocol.NONE {
		return code
	}
	c.scheduleSessionTimeout(env, gid, m.id)
	if m.epoch < cg.assignmentEpoch || m.state == kgroup.MemberUnrevokedPartitions ||
		(m.state == kgroup.MemberUnreleasedPartitions && !cg.waitingOnUnreleasedPartition(m)) {
		c.scheduleClassicTimer(env, gid, m.id, "join", msDur(m.rebalanceTimeoutMs), true)
		return protocol.REBALANCE_IN_PROGRESS
	}
	return protocol.NONE
}

// waitingOnUnreleasedPartition is ConsumerGroup.waitingOnUnreleasedPartition
// (CG:1368-1385): some partition of the member's target that it does not
// have is still held by another member.
func (cg *consumerGroup) waitingOnUnreleasedPartition(m cgMember) bool {
	if m.state != kgroup.MemberUnreleasedPartitions {
		return false
	}
	for _, tp := range cg.targets[m.id] {
		for _, p := range tp.Partitions {
			if !slices.ContainsFunc(m.assigned, func(pe kgroup.PartitionEpoch) bool { return pe.TopicID == tp.TopicID && pe.Partition == p }) &&
				cg.currentPartitionEpoch(tp.TopicID, p) != -1 {
				return true
			}
		}
	}
	return false
}

// classicGroupLeaveToConsumerGroup (GMM:8021-8079): each member the
// request names (by member id, or by instance id, the admin's way) is
// checked; the valid ones are fenced together, which may downgrade the
// group. The answer goes out once the records are written.
func (c *Coordinator) classicGroupLeaveToConsumerGroup(env *sim.Env, from sim.Addr, g *group, req *protocol.LeaveGroupRequest) bool {
	cg, gid := g.consumer, g.id
	resp := &protocol.LeaveGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var ids []string
	for _, li := range req.Members {
		r := protocol.LeaveGroupMemberResponse{MemberID: li.MemberID, GroupInstanceID: li.GroupInstanceID}
		var m *cgMember
		switch {
		case li.GroupInstanceID == "":
			if m = cg.members[li.MemberID]; m == nil {
				r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
			}
		default:
			m = cg.staticMember(li.GroupInstanceID)
			switch {
			case m == nil:
				r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
			case li.MemberID != "" && m.id != li.MemberID:
				r.ErrorCode = protocol.FENCED_INSTANCE_ID
			}
		}
		if r.ErrorCode == protocol.NONE {
			env.Note(event.MemberLeft{Broker: c.nodeID, Group: gid, Member: m.id})
			if !slices.Contains(ids, m.id) {
				ids = append(ids, m.id)
			}
		}
		resp.Members = append(resp.Members, r)
	}
	if len(ids) == 0 {
		c.respond(env, from, resp)
		return true
	}
	c.write848(env, gid, c.fenceMembers(gid, cg, ids, "classic-left", nil), func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			resp = &protocol.LeaveGroupResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: CommitError(code)}
		}
		c.respond(env, from, resp)
		c.done(env, from)
	})
	return false
}

// scheduleClassicTimer arms a classic member's join or sync timer (its
// rebalance timeout; the join timer only if absent): when it fires the
// member is fenced (scheduleConsumerGroupJoinTimeoutIfAbsent,
// scheduleConsumerGroupSyncTimeout, GMM:4837-4895).
func (c *Coordinator) scheduleClassicTimer(env *sim.Env, gid, member, kind string, d time.Duration, ifAbsent bool) {
	g := c.groups[gid]
	if g == nil || g.consumer == nil {
		return
	}
	timers := g.consumer.classicTimers
	key := kind + "/" + member
	if timers[key] != nil {
		if ifAbsent {
			return
		}
		timers[key].Stop()
	}
	reason := "classic-" + kind
	timers[key] = env.After(d, "consumer-group-classic-"+kind+"-timeout", func(env *sim.Env) {
		if g := c.groups[gid]; g != nil && g.consumer != nil {
			delete(g.consumer.classicTimers, key)
		}
		c.fenceByTimer(env, gid, member, reason)
	})
}

func (c *Coordinator) cancelClassicTimer(gid, member, kind string) {
	g := c.groups[gid]
	if g == nil || g.consumer == nil {
		return
	}
	key := kind + "/" + member
	g.consumer.classicTimers[key].Stop()
	delete(g.consumer.classicTimers, key)
}
