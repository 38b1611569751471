package raft

import (
	"fmt"
	"path"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleDescribeQuorumRequest answers with the leader's view
// (KafkaRaftClient.handleDescribeQuorumRequest); others answer
// NOT_LEADER_OR_FOLLOWER.
func (n *Node) handleDescribeQuorumRequest(env *sim.Env, r *DescribeQuorumRequest) *DescribeQuorumResponse {
	q, err := n.DescribeQuorum(env.Now())
	if err != nil {
		return &DescribeQuorumResponse{CorrelationID: r.CorrelationID, PartitionError: protocol.NOT_LEADER_OR_FOLLOWER,
			Quorum: QuorumInfo{LeaderID: n.quorum.leaderID(), LeaderEpoch: n.quorum.epoch(), HighWatermark: -1}}
	}
	return &DescribeQuorumResponse{CorrelationID: r.CorrelationID, Quorum: q}
}

// Append writes payloads as one record batch of the current epoch, fsyncs
// it, and returns the offset of its last record and the epoch. Only the
// leader appends (ErrNotLeader otherwise, also while it resigns). The batch
// is committed once a majority of voters has it; listeners on every node
// then receive it. Payloads are opaque: the caller serializes its records.
//
// Kafka's leader gathers appends for controller.quorum.append.linger.ms
// (25 ms) into one batch; here every Append is its own batch at once,
// which is what scheduleAtomicAppend guarantees about its records.
func (n *Node) Append(env *sim.Env, payloads [][]byte) (lastOffset int64, epoch int32, err error) {
	if !n.started {
		return 0, 0, ErrNotStarted
	}
	s, ok := n.quorum.state.(*leaderState)
	if !ok || s.resignRequested {
		return 0, 0, ErrNotLeader
	}
	if len(payloads) == 0 {
		return 0, 0, fmt.Errorf("raft: append of no records")
	}
	size := 0
	for _, p := range payloads {
		size += len(p) + recordOverhead
	}
	if size > MaxBatchSizeBytes {
		return 0, 0, ErrBatchTooLarge
	}
	batch := dataBatch(n.log.endOffset(), s.epochNum, env.Now().UnixMilli(), payloads)
	n.run(env, func() {
		info, aerr := n.log.log.AppendAsLeader(batch, s.epochNum)
		if aerr != nil {
			err = aerr
			return
		}
		lastOffset, epoch = info.LastOffset, s.epochNum
		n.appended(env.Now(), info.LastOffset-info.FirstOffset+1)
		n.appendedForCommit(info.LastOffset, env.Now(), info.LastOffset-info.FirstOffset+1, -1)
		n.flushLeaderLog(env, s)
	})
	return lastOffset, epoch, err
}

// Resign asks the leader of epoch to give it up gracefully: it becomes
// Resigned and sends EndQuorumEpoch so the most caught-up voter stands
// first (RaftClient.resign). An older epoch is ignored (already over).
func (n *Node) Resign(env *sim.Env, epoch int32) error {
	if !n.started {
		return ErrNotStarted
	}
	if n.observer {
		return fmt.Errorf("raft: an observer cannot resign")
	}
	cur := n.quorum.epoch()
	switch {
	case epoch > cur:
		return fmt.Errorf("raft: cannot resign from epoch %d above the current epoch %d", epoch, cur)
	case epoch < cur:
		return nil
	}
	s, ok := n.quorum.state.(*leaderState)
	if !ok {
		if n.quorum.leaderID() != n.cfg.NodeID {
			return ErrNotLeader
		}
		return nil // already resigned
	}
	n.run(env, func() { s.resignRequested = true })
	return nil
}

// CreateSnapshot writes a snapshot of the committed state below endOffset
// (KIP-630): payloads are the caller's serialization of that state, opaque
// here. endOffset must be committed (at most the high watermark), above
// the log start, and the end of a batch (snapshots end where the listener
// stopped after a whole batch). Its epoch is the epoch of the entry at
// endOffset-1. Any node may snapshot its own committed state, as every
// Kafka controller and broker does.
func (n *Node) CreateSnapshot(env *sim.Env, endOffset int64, payloads [][]byte) (SnapshotID, error) {
	if !n.started {
		return SnapshotID{}, ErrNotStarted
	}
	hw := n.quorum.state.highWatermark()
	if endOffset > hw {
		return SnapshotID{}, fmt.Errorf("raft: cannot snapshot at %d above the high watermark %d", endOffset, hw)
	}
	if endOffset <= n.log.startOffset {
		return SnapshotID{}, fmt.Errorf("raft: cannot snapshot at %d at or below the log start offset %d", endOffset, n.log.startOffset)
	}
	epoch, ok := n.log.epochOfOffset(endOffset - 1)
	if !ok {
		return SnapshotID{}, fmt.Errorf("raft: no epoch known for offset %d", endOffset-1)
	}
	lastTs, ok, err := n.log.batchEndingBefore(endOffset)
	if err != nil {
		return SnapshotID{}, fmt.Errorf("raft: reading the batch before snapshot end offset %d: %w", endOffset, err)
	}
	if !ok {
		return SnapshotID{}, fmt.Errorf("raft: snapshot end offset %d is not the end of a batch", endOffset)
	}
	id := SnapshotID{EndOffset: endOffset, Epoch: epoch}
	if v := n.log.validateOffsetAndEpoch(endOffset, epoch); v.kind != validOffset {
		return SnapshotID{}, fmt.Errorf("raft: snapshot id %s is not valid for the log", id)
	}
	if n.log.hasSnapshot(id) {
		return id, nil
	}
	data := encodeSnapshot(id, env.Now().UnixMilli(), lastTs, payloads)
	tmp := partialPath(n.log.dir, id, n.rnd.Uint64())
	if err := n.cfg.Disk.WriteFile(tmp, data); err != nil {
		return SnapshotID{}, err
	}
	if err := n.log.freezeSnapshot(id, tmp); err != nil {
		return SnapshotID{}, err
	}
	env.Note(event.SnapshotCreated{Node: n.cfg.NodeID, Snapshot: event.SnapshotID(id), Bytes: int64(len(data)),
		File: path.Base(SnapshotFileName(id))})
	return id, nil
}

// DeleteBeforeSnapshot moves the log start offset up to snapshot id's end
// offset, deletes the segments wholly below it and older snapshots
// (Kafka's deleteBeforeSnapshot, which
// its metadata log cleaner calls when metadata.max.retention.bytes or .ms
// is exceeded). Fetches from below the new log start get the snapshot.
// It reports whether anything changed.
func (n *Node) DeleteBeforeSnapshot(env *sim.Env, id SnapshotID) (bool, error) {
	if !n.started {
		return false, ErrNotStarted
	}
	changed, deleted, err := n.log.deleteBeforeSnapshot(id, n.quorum.state.highWatermark(), env.Now().UnixMilli())
	if changed {
		env.Note(event.RaftLogStartAdvanced{Node: n.cfg.NodeID, LogStartOffset: n.log.startOffset})
	}
	for _, d := range deleted {
		env.Note(event.RaftSegmentsDeleted{Node: n.cfg.NodeID, Segments: len(d.Bases), Bytes: d.Bytes,
			LogStartOffset: d.LogStartOffset})
	}
	return changed, err
}
