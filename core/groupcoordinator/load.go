package groupcoordinator

import (
	"maps"
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Loading and unloading a __consumer_offsets partition's groups as this
// broker's replica of it gains and loses leadership
// (GroupCoordinator.onElection and onResignation,
// GroupMetadataManager.loadGroupsForPartition and removeGroupsForPartition).

// OnElection is called when this broker becomes the leader of
// __consumer_offsets partition `partition`, or starts a new leader epoch
// of it: the groups it held are dropped and the partition loads from the
// log in an event of its own (until then its groups' requests get
// COORDINATOR_LOAD_IN_PROGRESS). A load that a later election or a
// resignation overtook does not run.
func (c *Coordinator) OnElection(env *sim.Env, partition int32) {
	c.elections++
	election := c.elections
	c.loading[partition] = election
	delete(c.owned, partition)
	c.unloadGroups(env, partition) // a new epoch: reload what the log says
	env.After(0, "group-load", func(env *sim.Env) {
		if c.loading[partition] == election {
			c.loadGroups(env, partition)
		}
	})
}

// OnResignation is called when this broker stops leading
// __consumer_offsets partition `partition` (it follows, or its replica is
// deleted): it forgets the partition's groups.
func (c *Coordinator) OnResignation(env *sim.Env, partition int32) {
	if !c.owned[partition] && c.loading[partition] == 0 {
		return
	}
	delete(c.loading, partition)
	delete(c.owned, partition)
	c.unloadGroups(env, partition)
}

// loadGroups replays the partition's log: the last value of each key wins,
// a tombstone removes it. Groups with members come back Stable with their
// generation and assignment, waiting for the members' heartbeats.
func (c *Coordinator) loadGroups(env *sim.Env, partition int32) {
	batches := c.host.ReadLog(partition)
	offsets := map[offsetKey]*offsetValue{}
	var okeys []offsetKey
	groups := map[string]*groupValue{}
	var gkeys []string
	var consumerRecs []cgRecord // consumer group records, replayed in log order
	applyOffset := func(k offsetKey, v *offsetValue) {
		if _, seen := offsets[k]; !seen {
			okeys = append(okeys, k)
		}
		offsets[k] = v
	}
	var txns txnLoad
	for i := range batches {
		bt := &batches[i]
		if txns.batch(bt, applyOffset) {
			continue
		}
		for _, r := range bt.Records {
			if cr, ok, err := decodeConsumerRecord(r.Key, r.Value); ok {
				if err == nil {
					consumerRecs = append(consumerRecs, cr)
				}
				continue
			}
			k, isOffset, err := decodeCoordinatorKey(r.Key)
			if err != nil {
				continue
			}
			if isOffset {
				var value *offsetValue
				if r.Value != nil {
					if v, err := decodeOffsetValue(r.Value); err == nil {
						value = &v
					}
				}
				applyOffset(k, value)
				continue
			}
			if _, seen := groups[k.group]; !seen {
				gkeys = append(gkeys, k.group)
			}
			// A group record after consumer group records is a
			// downgrade (they were all tombstoned before it): the
			// consumer group's records no longer count.
			consumerRecs = slices.DeleteFunc(consumerRecs, func(cr cgRecord) bool { return cr.group == k.group })
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
			g = newGroup(id, partition, now)
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
			if m.instanceID != "" {
				g.static[m.instanceID] = m.id
			}
		}
		if len(g.members) > 0 {
			g.state = groupStable
			for _, m := range g.sortedMembers() {
				c.scheduleExpiry(env, g, m)
			}
		}
	}
	// The consumer groups (KIP-848): replay their records, then arm their
	// members' timers (onLoaded).
	for _, r := range consumerRecs {
		c.replay(r, partition, now)
	}
	var cids []string
	for id, g := range c.groups {
		if g.partition == partition && g.consumer != nil {
			cids = append(cids, id)
		}
	}
	slices.Sort(cids)
	for _, id := range cids {
		c.armTimersOnLoad(env, id, c.groups[id].consumer)
	}
	for _, k := range okeys {
		if v := offsets[k]; v != nil {
			get(k.group).offsets[offsetTopicPartition{k.topic, k.partition}] = *v
		}
	}
	// Transactions still open in the log: their offsets wait for markers
	// as if just written.
	for _, pid := range slices.Sorted(maps.Keys(txns.pending)) {
		for _, o := range txns.pending[pid] {
			if o.value == nil {
				continue
			}
			g := get(o.key.group)
			if g.pendingTxn == nil {
				g.pendingTxn = map[int64][]*txnOffset{}
			}
			g.pendingTxn[pid] = append(g.pendingTxn[pid], &txnOffset{tp: offsetTopicPartition{o.key.topic, o.key.partition}, value: *o.value, appended: true})
		}
	}
	delete(c.loading, partition)
	c.owned[partition] = true
	// The log may end above the high watermark (a new leader has records
	// its followers have not confirmed): what was loaded from there is
	// not committed, and reads wait until it is (deferred.go; Kafka's
	// runtime starts with lastWrittenOffset = the log end and
	// lastCommittedOffset = the HW).
	if len(batches) > 0 {
		c.awaitLogEnd(env, partition, batches, c.beginWrite(partition))
	}
	env.Note(event.GroupsLoaded{Broker: c.nodeID, TP: storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: partition}, Groups: len(gkeys) + len(cids), Offsets: len(okeys)})
}

// unloadGroups drops the partition's groups: parked requests get
// NOT_COORDINATOR so their clients look for the new coordinator.
func (c *Coordinator) unloadGroups(env *sim.Env, partition int32) {
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
		if g.consumer != nil {
			g.consumer.stopTimers()
		}
		for _, t := range g.pending {
			t.Stop()
		}
		for _, m := range g.sortedMembers() {
			m.expiry.Stop()
			c.answerJoin(env, g, m, &protocol.JoinGroupResponse{ErrorCode: protocol.NOT_COORDINATOR, GenerationID: -1, MemberID: m.id})
			c.answerSync(env, m, &protocol.SyncGroupResponse{ErrorCode: protocol.NOT_COORDINATOR})
		}
		g.transition(groupDead, 0)
	}
}
