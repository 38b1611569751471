package groupcoordinator

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Transactional offset commits (KIP-98, KIP-447): a transactional
// producer commits a group's offsets with TxnOffsetCommit inside its
// transaction. The coordinator writes them to __consumer_offsets as a
// transactional batch of the producer and keeps them pending, by producer,
// until the transaction's marker reaches the partition: COMMIT makes them
// the group's committed offsets, ABORT drops them. Meanwhile a fetch that
// requires stable offsets is answered UNSTABLE_OFFSET_COMMIT for those
// partitions, so a read_committed consumer that takes over does not start
// from offsets that may yet be aborted (GroupMetadata's
// pendingTransactionalOffsetCommits; OffsetMetadataManager's
// pendingTransactionalOffsets in 4.x).

// txnOffset is one pending transactional offset, written (appended) or
// still being written.
type txnOffset struct {
	tp       offsetTopicPartition
	value    offsetValue
	appended bool
}

// handleTxnOffsetCommit checks the committer as doTxnCommitOffsets does (a
// member id, if given, must be the group's; a generation, if given, the
// current one; a KIP-848 group checks the member's epoch), writes the
// offsets as the producer's transactional batch, and answers per
// partition once they are replicated.
func (c *Coordinator) handleTxnOffsetCommit(env *sim.Env, from sim.Addr, req *protocol.TxnOffsetCommitRequest) bool {
	answer := func(code func(topic string, p int32) protocol.ErrorCode) {
		resp := &protocol.TxnOffsetCommitResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
		for _, t := range req.Topics {
			rt := protocol.TxnTopicResult{Name: t.Name}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, protocol.TxnPartitionResult{PartitionIndex: p.PartitionIndex, ErrorCode: code(t.Name, p.PartitionIndex)})
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
		g = newGroup(req.GroupID, c.PartitionFor(req.GroupID), msTime(env))
		c.groups[req.GroupID] = g
	}
	partitionCode := everyPartition(protocol.NONE)
	var code protocol.ErrorCode
	switch {
	case g.consumer != nil:
		code, partitionCode = c.validateConsumerCommit(g.consumer, &protocol.OffsetCommitRequest{GroupID: req.GroupID,
			GenerationIDOrMemberEpoch: req.GenerationID, MemberID: req.MemberID, GroupInstanceID: req.GroupInstanceID})
		if code == protocol.STALE_MEMBER_EPOCH {
			code = protocol.ILLEGAL_GENERATION // a transactional commit's error
		}
	case g.state == groupDead:
		code = protocol.COORDINATOR_NOT_AVAILABLE
	case req.GroupInstanceID != "" && g.static[req.GroupInstanceID] != "" && g.static[req.GroupInstanceID] != req.MemberID:
		code = protocol.FENCED_INSTANCE_ID
	case req.MemberID != "" && g.members[req.MemberID] == nil:
		code = protocol.UNKNOWN_MEMBER_ID
	case req.GenerationID >= 0 && req.GenerationID != g.generation:
		code = protocol.ILLEGAL_GENERATION
	}
	if code != protocol.NONE {
		answer(everyPartition(code))
		return true
	}
	now := env.Now().UnixMilli()
	version, ids := c.offsetValueFormat()
	var recs groupRecords
	var pending []*txnOffset
	failed := map[offsetTopicPartition]protocol.ErrorCode{}
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			key := offsetTopicPartition{t.Name, p.PartitionIndex}
			if pc := partitionCode(t.Name, p.PartitionIndex); pc != protocol.NONE {
				failed[key] = pc
				continue
			}
			v := offsetValue{offset: p.CommittedOffset, leaderEpoch: p.CommittedLeaderEpoch, metadata: p.CommittedMetadata, commitTimestamp: now}
			if ids != nil {
				v.topicID = ids.byName[t.Name].ID
			}
			recs = append(recs, groupRecord{key: encodeOffsetKey(offsetKey{group: g.id, topic: t.Name, partition: p.PartitionIndex}), value: encodeOffsetValue(v, version)})
			pending = append(pending, &txnOffset{tp: key, value: v})
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
	c.sensors().offsetCommits.Record(env.Now(), float64(len(recs))) // OffsetMetadataManager.commitTransactionalOffset
	if g.pendingTxn == nil {
		g.pendingTxn = map[int64][]*txnOffset{}
	}
	g.pendingTxn[req.ProducerID] = append(g.pendingTxn[req.ProducerID], pending...) // prepareTxnOffsetCommit
	c.host.AppendTransactional(env, g.partition, req.ProducerID, req.ProducerEpoch, recs.records(), func(env *sim.Env, code protocol.ErrorCode) {
		if code == protocol.NONE {
			for _, o := range pending {
				o.appended = true // onTxnOffsetCommitAppend
			}
		} else if list := g.pendingTxn[req.ProducerID]; list != nil {
			g.pendingTxn[req.ProducerID] = slices.DeleteFunc(list, func(o *txnOffset) bool { return slices.Contains(pending, o) }) // failPendingTxnOffsetCommit
			if len(g.pendingTxn[req.ProducerID]) == 0 {
				delete(g.pendingTxn, req.ProducerID)
			}
		}
		if code == protocol.INVALID_PRODUCER_EPOCH {
			answer(codeOf(code)) // passed through to the producer, which is fenced
		} else {
			answer(codeOf(CommitError(code)))
		}
		c.done(env, from)
	})
	return false
}

// OnTxnCompleted is called once a transaction's marker is written to
// __consumer_offsets partitions this broker leads
// (GroupCoordinator.onTransactionCompleted): the producer's pending
// offsets in their groups become committed (the appended ones), or are
// dropped.
func (c *Coordinator) OnTxnCompleted(env *sim.Env, producerID int64, partitions []int32, commit bool) {
	for _, id := range c.sortedGroupIDs() {
		g := c.groups[id]
		if !slices.Contains(partitions, g.partition) || g.pendingTxn[producerID] == nil {
			continue
		}
		g.completePendingTxn(producerID, commit)
	}
}

// completePendingTxn is completePendingTxnOffsetCommit.
func (g *group) completePendingTxn(producerID int64, commit bool) {
	list := g.pendingTxn[producerID]
	delete(g.pendingTxn, producerID)
	if !commit {
		return
	}
	for _, o := range list {
		if o.appended {
			g.offsets[o.tp] = o.value
		}
	}
}

// hasPendingTxnOffset reports a transactional offset pending for the
// partition (hasPendingOffsetCommitsForTopicPartition).
func (g *group) hasPendingTxnOffset(tp offsetTopicPartition) bool {
	for _, list := range g.pendingTxn {
		for _, o := range list {
			if o.tp == tp {
				return true
			}
		}
	}
	return false
}

// sortedGroupIDs lists the groups by id, so that work over them does not
// depend on map order.
func (c *Coordinator) sortedGroupIDs() []string {
	ids := make([]string, 0, len(c.groups))
	for id := range c.groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// loadTxnOffsets is the loader's side (GroupMetadataManager
// .doLoadGroupsAndOffsets): a transactional batch's offsets wait, by
// producer, for the producer's marker; COMMIT applies them over what the
// log held before, ABORT drops them, and those without a marker yet stay
// pending.
type txnLoad struct {
	pending map[int64][]loadedTxnOffset
}

type loadedTxnOffset struct {
	key   offsetKey
	value *offsetValue // nil: a tombstone
}

// batch takes one batch of the log: true if it was transactional (its
// offsets are held back) or a marker (it settles them into apply).
func (l *txnLoad) batch(bt *record.Batch, apply func(k offsetKey, v *offsetValue)) bool {
	switch {
	case bt.IsControl():
		for _, r := range bt.Records {
			m, err := record.ParseEndTxnMarker(r.Key, r.Value)
			if err != nil {
				continue
			}
			if m.Type == record.ControlCommit {
				for _, o := range l.pending[bt.ProducerID] {
					apply(o.key, o.value)
				}
			}
			delete(l.pending, bt.ProducerID)
		}
		return true
	case bt.IsTransactional():
		for _, r := range bt.Records {
			k, isOffset, err := decodeCoordinatorKey(r.Key)
			if err != nil || !isOffset {
				continue
			}
			o := loadedTxnOffset{key: k}
			if r.Value != nil {
				if v, err := decodeOffsetValue(r.Value); err == nil {
					o.value = &v
				}
			}
			if l.pending == nil {
				l.pending = map[int64][]loadedTxnOffset{}
			}
			l.pending[bt.ProducerID] = append(l.pending[bt.ProducerID], o)
		}
		return true
	}
	return false
}
