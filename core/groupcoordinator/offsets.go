package groupcoordinator

import (
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// groupRecord is one __consumer_offsets record (value nil: a tombstone).
type groupRecord struct{ key, value []byte }

type groupRecords []groupRecord

func (r groupRecord) record() record.Record { return record.Record{Key: r.key, Value: r.value} }

func (rs groupRecords) records() []record.Record {
	out := make([]record.Record, len(rs))
	for i, r := range rs {
		out[i] = record.Record{Key: r.key, Value: r.value}
	}
	return out
}

// everyPartition answers code for every partition of a commit.
func everyPartition(code protocol.ErrorCode) func(string, int32) protocol.ErrorCode {
	return func(string, int32) protocol.ErrorCode { return code }
}

// handleOffsetCommit validates the committer (a member of the current
// generation, or a standalone client of an empty group), writes one
// OffsetCommit record per partition and answers once they are replicated.
// Commits are allowed during PreparingRebalance (eager consumers commit
// while revoking) but not during CompletingRebalance.
func (c *Coordinator) handleOffsetCommit(env *sim.Env, from sim.Addr, req *protocol.OffsetCommitRequest) bool {
	answer := func(code func(topic string, p int32) protocol.ErrorCode) {
		resp := &protocol.OffsetCommitResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
		for _, t := range req.Topics {
			rt := protocol.OffsetCommitResponseTopic{Name: t.Name}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, protocol.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code(t.Name, p.PartitionIndex)})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		c.respond(env, from, resp)
	}
	if req.GroupID == "" {
		answer(everyPartition(protocol.INVALID_GROUP_ID))
		return true
	}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		answer(everyPartition(code))
		return true
	}
	g := c.groups[req.GroupID]
	if g == nil {
		if req.GenerationIDOrMemberEpoch >= 0 {
			answer(everyPartition(protocol.ILLEGAL_GENERATION))
			return true
		}
		if c.atGroupLimit(c.PartitionFor(req.GroupID)) {
			answer(everyPartition(protocol.POLICY_VIOLATION)) // limits.go
			return true
		}
		g = newGroup(req.GroupID, c.PartitionFor(req.GroupID), msTime(env))
		c.groups[req.GroupID] = g
	}
	// A consumer group validates per partition (offsets848.go).
	partitionCode := func(string, int32) protocol.ErrorCode { return protocol.NONE }
	var code protocol.ErrorCode
	if g.consumer != nil {
		code, partitionCode = c.validateConsumerCommit(g.consumer, req)
	}
	// validateOffsetCommit, then doCommitOffsets' state check.
	switch {
	case g.consumer != nil:
	case g.state == groupDead:
		code = protocol.COORDINATOR_NOT_AVAILABLE
	case req.GenerationIDOrMemberEpoch < 0 && g.state == groupEmpty:
	case req.GenerationIDOrMemberEpoch >= 0 || req.MemberID != "" || req.GroupInstanceID != "":
		code = g.validateMember(req.MemberID, req.GroupInstanceID)
		if code == protocol.NONE && req.GenerationIDOrMemberEpoch != g.generation {
			code = protocol.ILLEGAL_GENERATION
		}
	case g.state != groupEmpty:
		code = protocol.UNKNOWN_MEMBER_ID
	}
	if code == protocol.NONE {
		switch g.state {
		case groupCompletingRebalance:
			code = protocol.REBALANCE_IN_PROGRESS
		case groupStable, groupPreparingRebalance:
			c.scheduleExpiry(env, g, g.members[req.MemberID])
		}
	}
	if code != protocol.NONE {
		answer(everyPartition(code))
		return true
	}
	now := env.Now().UnixMilli()
	version, ids := c.offsetValueFormat()
	var recs groupRecords
	var vals []offsetValue
	var keys []offsetTopicPartition
	failed := map[offsetTopicPartition]protocol.ErrorCode{}
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			if pc := partitionCode(t.Name, p.PartitionIndex); pc != protocol.NONE {
				failed[offsetTopicPartition{t.Name, p.PartitionIndex}] = pc
				continue
			}
			v := offsetValue{offset: p.CommittedOffset, leaderEpoch: p.CommittedLeaderEpoch, metadata: p.CommittedMetadata, commitTimestamp: now}
			if ids != nil {
				v.topicID = ids.byName[t.Name].ID
			}
			recs = append(recs, groupRecord{key: encodeOffsetKey(offsetKey{group: g.id, topic: t.Name, partition: p.PartitionIndex}), value: encodeOffsetValue(v, version)})
			vals = append(vals, v)
			keys = append(keys, offsetTopicPartition{t.Name, p.PartitionIndex})
		}
	}
	codeOf := func(written protocol.ErrorCode) func(string, int32) protocol.ErrorCode {
		return func(topic string, p int32) protocol.ErrorCode {
			if pc, ok := failed[offsetTopicPartition{topic, p}]; ok {
				return pc
			}
			return written
		}
	}
	if len(recs) == 0 {
		answer(codeOf(protocol.NONE))
		return true
	}
	c.sensors().offsetCommits.Record(env.Now(), float64(len(recs))) // OffsetMetadataManager.commitOffset
	g.pendingOffsets++
	c.host.Append(env, g.partition, recs.records(), func(env *sim.Env, code protocol.ErrorCode) {
		g.pendingOffsets--
		if code == protocol.NONE && g.state != groupDead {
			for i, k := range keys {
				g.offsets[k] = vals[i]
			}
		}
		answer(codeOf(CommitError(code)))
		c.done(env, from)
	})
	return false
}

// handleOffsetFetch answers a group's committed offsets (-1 for partitions
// without one); no topics means every partition the group has.
func (c *Coordinator) handleOffsetFetch(env *sim.Env, from sim.Addr, req *protocol.OffsetFetchRequest) {
	resp := &protocol.OffsetFetchResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, rg := range req.Groups {
		out := protocol.OffsetFetchResponseGroup{GroupID: rg.GroupID}
		if code := c.groupError(rg.GroupID); code != protocol.NONE {
			out.ErrorCode = code
			resp.Groups = append(resp.Groups, out)
			continue
		}
		g := c.groups[rg.GroupID]
		if g != nil && g.consumer != nil {
			if code := validateConsumerFetch(g.consumer, rg); code != protocol.NONE {
				out.ErrorCode = code
				resp.Groups = append(resp.Groups, out)
				continue
			}
		}
		if g != nil && req.RequireStable && g.pendingOffsets > 0 {
			out.ErrorCode = protocol.UNSTABLE_OFFSET_COMMIT
			resp.Groups = append(resp.Groups, out)
			continue
		}
		topics := rg.Topics
		if topics == nil && g != nil {
			topics = g.offsetTopics()
		}
		for _, t := range topics {
			rt := protocol.OffsetFetchResponseTopics{Name: t.Name}
			for _, p := range t.PartitionIndexes {
				rp := protocol.OffsetFetchResponsePartitions{PartitionIndex: p, CommittedOffset: -1, CommittedLeaderEpoch: -1}
				if g != nil && req.RequireStable && g.hasPendingTxnOffset(offsetTopicPartition{t.Name, p}) {
					rp.ErrorCode = protocol.UNSTABLE_OFFSET_COMMIT
				} else if g != nil {
					if v, ok := g.offsets[offsetTopicPartition{t.Name, p}]; ok {
						rp.CommittedOffset, rp.CommittedLeaderEpoch, rp.Metadata = v.offset, v.leaderEpoch, v.metadata
					}
				}
				rt.Partitions = append(rt.Partitions, rp)
			}
			out.Topics = append(out.Topics, rt)
		}
		resp.Groups = append(resp.Groups, out)
	}
	c.respond(env, from, resp)
}

// offsetTopics lists the group's committed partitions, sorted.
func (g *group) offsetTopics() []protocol.OffsetFetchRequestTopics {
	keys := make([]offsetTopicPartition, 0, len(g.offsets))
	for k := range g.offsets {
		keys = append(keys, k)
	}
	sorts.Func(keys, func(a, b offsetTopicPartition) int {
		if a.topic != b.topic {
			if a.topic < b.topic {
				return -1
			}
			return 1
		}
		return int(a.partition - b.partition)
	})
	var out []protocol.OffsetFetchRequestTopics
	for _, k := range keys {
		if n := len(out); n > 0 && out[n-1].Name == k.topic {
			out[n-1].PartitionIndexes = append(out[n-1].PartitionIndexes, k.partition)
			continue
		}
		out = append(out, protocol.OffsetFetchRequestTopics{Name: k.topic, PartitionIndexes: []int32{k.partition}})
	}
	return out
}

// subscribedTopics are the topics the group's members subscribe to (for
// OffsetDelete's GROUP_SUBSCRIBED_TO_TOPIC).
func (g *group) subscribedTopics() map[string]bool {
	out := map[string]bool{}
	if g.protocolType != protocol.ConsumerProtocolType {
		return out
	}
	for _, m := range g.members {
		if s, err := protocol.DecodeConsumerProtocolSubscription(m.metadata(g.protocolName)); err == nil {
			for _, t := range s.Topics {
				out[t] = true
			}
		}
	}
	return out
}

// handleOffsetDelete removes committed offsets of topics the group does not
// consume, writing tombstones.
func (c *Coordinator) handleOffsetDelete(env *sim.Env, from sim.Addr, req *protocol.OffsetDeleteRequest) bool {
	resp := &protocol.OffsetDeleteResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if code := c.groupError(req.GroupID); code != protocol.NONE {
		resp.ErrorCode = code
		c.respond(env, from, resp)
		return true
	}
	g := c.groups[req.GroupID]
	switch {
	case g == nil || g.state == groupDead:
		resp.ErrorCode = protocol.GROUP_ID_NOT_FOUND
	case g.state != groupEmpty && g.protocolType != protocol.ConsumerProtocolType:
		resp.ErrorCode = protocol.NON_EMPTY_GROUP
	}
	if resp.ErrorCode != protocol.NONE {
		c.respond(env, from, resp)
		return true
	}
	subscribed := g.subscribedTopics()
	var recs groupRecords
	for _, t := range req.Topics {
		rt := protocol.OffsetDeleteResponseTopic{Name: t.Name}
		for _, p := range t.Partitions {
			rp := protocol.OffsetDeleteResponsePartition{PartitionIndex: p}
			k := offsetTopicPartition{t.Name, p}
			switch {
			case subscribed[t.Name]:
				rp.ErrorCode = protocol.GROUP_SUBSCRIBED_TO_TOPIC
			default:
				if _, ok := g.offsets[k]; ok {
					delete(g.offsets, k)
					recs = append(recs, groupRecord{key: encodeOffsetKey(offsetKey{g.id, t.Name, p})})
				}
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	if len(recs) == 0 {
		c.respond(env, from, resp)
		return true
	}
	c.sensors().offsetDeletions.Record(env.Now(), float64(len(recs))) // OffsetMetadataManager.deleteOffsets
	c.host.Append(env, g.partition, recs.records(), func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			resp.ErrorCode = CommitError(code)
		}
		c.respond(env, from, resp)
		c.done(env, from)
	})
	return false
}

// offsetValueFormat is how this release writes OffsetCommitValue: version
// 3 up to 4.0, 4 from 4.1 (KAFKA-19141). From 4.3 KafkaApis fills in the
// topic id of a commit sent by name from its metadata cache
// (handleOffsetCommitRequest), so every record carries one; 4.1 knows it
// only from an OffsetCommit v10, which its clients do not send (v10 is
// unstable there), so its records have none. ids is nil when no topic id
// is written.
func (c *Coordinator) offsetValueFormat() (version int16, ids *topicView) {
	rel := c.host.Release()
	switch {
	case rel.AtLeast(4, 3):
		v := c.topicView()
		return offsetCommitValueFlexible, &v
	case rel.AtLeast(4, 1):
		return offsetCommitValueFlexible, nil
	}
	return offsetCommitValueVersion, nil
}
