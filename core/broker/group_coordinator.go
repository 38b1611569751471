package broker

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"kafkascope/core/hashing"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// groupCoordinator is the broker's classic group coordinator (Kafka's
// GroupCoordinator and GroupMetadataManager): it serves the groups whose
// __consumer_offsets partition this broker leads. It loads a partition's
// groups and offsets from the log when it becomes leader (answering
// COORDINATOR_LOAD_IN_PROGRESS meanwhile) and forgets them when it stops
// leading (NOT_COORDINATOR).
type groupCoordinator struct {
	groups   map[string]*group
	loading  map[int32]bool // partitions led but not loaded yet
	owned    map[int32]bool // partitions led and loaded
	appends  []*groupAppend
	creating bool // a CreateTopics for __consumer_offsets is on its way
	uuids    *sim.Rand
}

// groupAppend is a write to __consumer_offsets waiting for replication
// (offsets.commit.required.acks=-1): done runs once with NONE when the HW
// passes it, or with the error.
type groupAppend struct {
	partition int32
	required  int64
	done      func(env *sim.Env, code protocol.ErrorCode)
	timer     *sim.Timer
	finished  bool
}

func (b *Broker) coord() *groupCoordinator {
	if b.groupCoord == nil {
		b.groupCoord = &groupCoordinator{groups: map[string]*group{}, loading: map[int32]bool{}, owned: map[int32]bool{}}
	}
	return b.groupCoord
}

// groupPartition is Utils.abs(groupId.hashCode) % offsets.topic.num.partitions.
func (b *Broker) groupPartition(groupID string) int32 {
	return hashing.Abs(hashing.JavaStringHashCode(groupID)) % int32(b.conf().BrokerInt("offsets.topic.num.partitions"))
}

// groupError is the coordinator-level error for a request about groupID:
// NOT_COORDINATOR when this broker does not lead its partition,
// COORDINATOR_LOAD_IN_PROGRESS while loading it.
func (b *Broker) groupError(groupID string) protocol.ErrorCode {
	c := b.coord()
	p := b.groupPartition(groupID)
	switch {
	case c.loading[p]:
		return protocol.COORDINATOR_LOAD_IN_PROGRESS
	case !c.owned[p]:
		return protocol.NOT_COORDINATOR
	}
	return protocol.NONE
}

// handleFindCoordinator names the leader of each group's __consumer_offsets
// partition, creating the topic on first use (as Kafka's
// AutoTopicCreationManager does): until it exists and the partition has a
// leader the answer is COORDINATOR_NOT_AVAILABLE.
func (b *Broker) handleFindCoordinator(env *sim.Env, from sim.Addr, req *protocol.FindCoordinatorRequest) {
	resp := &protocol.FindCoordinatorResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	_, exists := b.image.Topics[metadata.ConsumerOffsetsTopic]
	if exists {
		b.topicSeen(metadata.ConsumerOffsetsTopic)
	}
	for _, key := range req.CoordinatorKeys {
		co := protocol.Coordinator{Key: key, NodeID: -1, Port: -1}
		switch {
		case req.KeyType != protocol.CoordinatorKeyTypeGroup:
			co.ErrorCode = protocol.INVALID_REQUEST // transactions are not simulated
		case !exists:
			co.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
			co.Cause = b.missingTopicCause(metadata.ConsumerOffsetsTopic, true)
		default:
			st := b.image.Partition(metadata.ConsumerOffsetsTopic, b.groupPartition(key))
			reg, ok := b.image.Brokers[st.Leader]
			if st.Leader < 0 || !ok || len(reg.Endpoints) == 0 {
				co.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
				if st.Leader < 0 {
					co.Cause = b.coordinatorNoLeaderCause(b.groupPartition(key), st)
				}
				break
			}
			co.NodeID, co.Host, co.Port = st.Leader, reg.Endpoints[0].Host, reg.Endpoints[0].Port
			co.Cause = b.noControllerCause()
		}
		if co.ErrorCode != protocol.NONE {
			co.ErrorMessage = co.ErrorCode.Message()
			co.Host = ""
		}
		resp.Coordinators = append(resp.Coordinators, co)
	}
	b.respond(env, from, resp)
	if !exists && req.KeyType == protocol.CoordinatorKeyTypeGroup {
		b.createOffsetsTopic(env)
	}
}

// createOffsetsTopic asks the controller for __consumer_offsets with
// Kafka's settings for it (GroupCoordinator.groupMetadataTopicConfigs).
func (b *Broker) createOffsetsTopic(env *sim.Env) {
	c := b.coord()
	if c.creating {
		return
	}
	c.creating = true
	str := func(s string) *string { return &s }
	req := &protocol.CreateTopicsRequest{TimeoutMs: int32(b.conf().BrokerInt("request.timeout.ms"))}
	req.Topics = append(req.Topics, protocol.CreatableTopic{
		Name: metadata.ConsumerOffsetsTopic, NumPartitions: int32(b.conf().BrokerInt("offsets.topic.num.partitions")),
		ReplicationFactor: int16(b.conf().BrokerInt("offsets.topic.replication.factor")),
		Configs: []protocol.ConfigEntry{
			{Name: "cleanup.policy", Value: str("compact")},
			{Name: "compression.type", Value: str("producer")},
			{Name: "segment.bytes", Value: str(strconv.FormatInt(b.conf().BrokerInt("offsets.topic.segment.bytes"), 10))},
		},
	})
	if b.askCreate(metadata.ConsumerOffsetsTopic) {
		env.Note("topic.autocreate", "broker", id32(b.cfg.NodeID), "topics", metadata.ConsumerOffsetsTopic)
	}
	b.sendToController(env, req, forwardingRetryTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		c.creating = false
		code := protocol.REQUEST_TIMED_OUT // no controller answered in time
		if r, ok := resp.(*protocol.CreateTopicsResponse); err == nil && ok && len(r.Topics) > 0 {
			code = r.Topics[0].ErrorCode
		}
		if b.createAnswered(metadata.ConsumerOffsetsTopic, code) {
			env.Note("group.offsets-topic", "broker", id32(b.cfg.NodeID), "error", code.String())
		}
	})
}

// groupsLeaderChange follows a __consumer_offsets replica's role: a new
// leader loads the partition's groups, a former leader unloads them.
func (b *Broker) groupsLeaderChange(env *sim.Env, p *Partition) {
	if p.tp.Topic != metadata.ConsumerOffsetsTopic {
		return
	}
	c := b.coord()
	if p.isLeader {
		c.loading[p.tp.Partition] = true
		delete(c.owned, p.tp.Partition)
		b.unloadGroups(env, p.tp.Partition) // a new epoch: reload what the log says
		epoch := p.leaderEpoch
		env.After(0, "group-load", func(env *sim.Env) {
			if q := b.partitions[p.tp]; q == p && p.isLeader && p.leaderEpoch == epoch && c.loading[p.tp.Partition] {
				b.loadGroups(env, p)
			}
		})
		return
	}
	b.groupsResign(env, p.tp.Partition)
}

// groupsResign forgets a partition's groups (this broker no longer leads it).
func (b *Broker) groupsResign(env *sim.Env, partition int32) {
	c := b.coord()
	if !c.owned[partition] && !c.loading[partition] {
		return
	}
	delete(c.loading, partition)
	delete(c.owned, partition)
	b.unloadGroups(env, partition)
	b.failGroupAppends(env, partition, protocol.NOT_LEADER_OR_FOLLOWER)
}

// loadGroups replays the partition's log: the last value of each key wins,
// a tombstone removes it. Groups with members come back Stable with their
// generation and assignment, waiting for the members' heartbeats.
func (b *Broker) loadGroups(env *sim.Env, p *Partition) {
	c := b.coord()
	batches, _ := p.log.Batches(p.log.LogStartOffset(), p.log.LogEndOffset())
	offsets := map[offsetKey]*offsetValue{}
	var okeys []offsetKey
	groups := map[string]*groupValue{}
	var gkeys []string
	for _, bt := range batches {
		if bt.IsControl() {
			continue
		}
		for _, r := range bt.Records {
			k, isOffset, err := decodeCoordinatorKey(r.Key)
			if err != nil {
				continue
			}
			if isOffset {
				if _, seen := offsets[k]; !seen {
					okeys = append(okeys, k)
				}
				offsets[k] = nil
				if r.Value != nil {
					if v, err := decodeOffsetValue(r.Value); err == nil {
						offsets[k] = &v
					}
				}
				continue
			}
			if _, seen := groups[k.group]; !seen {
				gkeys = append(gkeys, k.group)
			}
			groups[k.group] = nil
			if r.Value != nil {
				if v, err := decodeGroupValue(r.Value); err == nil {
					groups[k.group] = &v
				}
			}
		}
	}
	now := env.Now().UnixMilli()
	get := func(id string) *group {
		g := c.groups[id]
		if g == nil {
			g = newGroup(id, p.tp.Partition, now)
			c.groups[id] = g
		}
		return g
	}
	for _, id := range gkeys {
		v := groups[id]
		if v == nil {
			continue
		}
		g := get(id)
		g.protocolType, g.generation, g.protocolName, g.leader, g.stateTimestamp = v.protocolType, v.generation, v.protocol, v.leader, v.currentStateTimestamp
		for _, mv := range v.members {
			m := &member{id: mv.memberID, instanceID: mv.groupInstanceID, clientID: mv.clientID, clientHost: mv.clientHost,
				rebalanceTimeout: time.Duration(mv.rebalanceTimeout) * time.Millisecond, sessionTimeout: time.Duration(mv.sessionTimeout) * time.Millisecond,
				protocolType: v.protocolType, protocols: []protocol.JoinGroupRequestProtocol{{Name: v.protocol, Metadata: mv.subscription}}, assignment: mv.assignment}
			g.members[m.id] = m
			g.order = append(g.order, m.id)
		}
		if len(g.members) > 0 {
			g.state = groupStable
			for _, m := range g.sortedMembers() {
				b.scheduleExpiry(env, g, m)
			}
		}
	}
	for _, k := range okeys {
		if v := offsets[k]; v != nil {
			get(k.group).offsets[offsetTopicPartition{k.topic, k.partition}] = *v
		}
	}
	delete(c.loading, p.tp.Partition)
	c.owned[p.tp.Partition] = true
	env.Note("group.loaded", "broker", id32(b.cfg.NodeID), "tp", p.tp.String(), "groups", strconv.Itoa(len(gkeys)), "offsets", strconv.Itoa(len(okeys)))
}

// unloadGroups drops the partition's groups: parked requests get
// NOT_COORDINATOR so their clients look for the new coordinator.
func (b *Broker) unloadGroups(env *sim.Env, partition int32) {
	c := b.coord()
	var ids []string
	for id, g := range c.groups {
		if g.partition == partition {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := c.groups[id]
		delete(c.groups, id)
		g.join.Stop()
		g.syncTimer.Stop()
		for _, t := range g.pending {
			t.Stop()
		}
		for _, m := range g.sortedMembers() {
			m.expiry.Stop()
			b.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: protocol.NOT_COORDINATOR, GenerationID: -1, MemberID: m.id})
			b.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: protocol.NOT_COORDINATOR})
		}
		g.transition(groupDead, 0)
	}
}

// appendGroupRecords writes records to the group's __consumer_offsets
// partition as its leader and calls done when they are replicated
// (offsets.commit.required.acks -1: the HW passed them) or failed.
func (b *Broker) appendGroupRecords(env *sim.Env, partition int32, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode)) {
	p := b.partitions[tp(metadata.ConsumerOffsetsTopic, partition)]
	switch {
	case p == nil || !p.isLeader:
		done(env, protocol.NOT_LEADER_OR_FOLLOWER)
		return
	case len(p.isr) < p.effectiveMinISR():
		done(env, protocol.NOT_ENOUGH_REPLICAS)
		return
	}
	now := env.Now().UnixMilli()
	for i := range recs {
		recs[i].Timestamp = now
	}
	info, err := p.log.AppendAsLeader(record.Build(0, p.leaderEpoch, record.NoProducer(), recs), p.leaderEpoch)
	p.noteRoll(env, info)
	if err != nil {
		done(env, protocol.KAFKA_STORAGE_ERROR)
		return
	}
	a := &groupAppend{partition: partition, required: info.LastOffset + 1, done: done}
	c := b.coord()
	c.appends = append(c.appends, a)
	a.timer = env.After(b.ms("offsets.commit.timeout.ms"), "group-append-timeout", func(env *sim.Env) {
		b.finishGroupAppend(env, a, protocol.REQUEST_TIMED_OUT)
	})
	if !p.maybeIncrementHW(env) {
		b.checkParkedFetches(env)
	}
}

func (b *Broker) finishGroupAppend(env *sim.Env, a *groupAppend, code protocol.ErrorCode) {
	if a.finished {
		return
	}
	a.finished = true
	a.timer.Stop()
	c := b.coord()
	c.appends = slices.DeleteFunc(c.appends, func(x *groupAppend) bool { return x == a })
	a.done(env, code)
}

// groupAppendsHWMoved completes the writes the partition's HW now covers.
func (b *Broker) groupAppendsHWMoved(env *sim.Env, p *Partition) {
	if b.groupCoord == nil || p.tp.Topic != metadata.ConsumerOffsetsTopic {
		return
	}
	for _, a := range slices.Clone(b.groupCoord.appends) {
		if a.partition == p.tp.Partition && p.log.HighWatermark() >= a.required {
			b.finishGroupAppend(env, a, protocol.NONE)
		}
	}
}

func (b *Broker) failGroupAppends(env *sim.Env, partition int32, code protocol.ErrorCode) {
	for _, a := range slices.Clone(b.coord().appends) {
		if a.partition == partition {
			b.finishGroupAppend(env, a, code)
		}
	}
}

// commitError maps an append's error to what OffsetCommit and SyncGroup
// answer (GroupMetadataManager's mapping).
func commitError(code protocol.ErrorCode) protocol.ErrorCode {
	switch code {
	case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.NOT_ENOUGH_REPLICAS, protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND, protocol.REQUEST_TIMED_OUT:
		return protocol.COORDINATOR_NOT_AVAILABLE
	case protocol.NOT_LEADER_OR_FOLLOWER, protocol.KAFKA_STORAGE_ERROR:
		return protocol.NOT_COORDINATOR
	case protocol.MESSAGE_TOO_LARGE, protocol.RECORD_LIST_TOO_LARGE:
		return protocol.INVALID_COMMIT_OFFSET_SIZE
	}
	return code
}

// newMemberID is Kafka's `clientId + "-" + UUID.randomUUID()`.
func (b *Broker) newMemberID(env *sim.Env, clientID string) string {
	c := b.coord()
	if c.uuids == nil {
		c.uuids = env.Rand(fmt.Sprintf("broker-%d/member-ids", b.cfg.NodeID))
	}
	var u [16]byte
	c.uuids.Bytes(u[:])
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // IETF variant
	return fmt.Sprintf("%s-%x-%x-%x-%x-%x", clientID, u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func msTime(env *sim.Env) int64 { return env.Now().UnixMilli() }
