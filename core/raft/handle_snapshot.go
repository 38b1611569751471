package raft

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleFetchSnapshotRequest serves a slice of a snapshot file
// (KafkaRaftClient.handleFetchSnapshotRequest, KafkaRaftClient.java:1375-1477).
// A FetchSnapshot counts as contact for the leader's check-quorum, like a
// Fetch.
func (n *Node) handleFetchSnapshotRequest(env *sim.Env, r *FetchSnapshotRequest) *FetchSnapshotResponse {
	resp := &FetchSnapshotResponse{CorrelationID: r.CorrelationID, CurrentLeader: n.quorum.leaderAndEpoch(), SnapshotID: noSnapshot}
	if !n.validClusterID(r.ClusterID) {
		resp.ErrorCode = protocol.INCONSISTENT_CLUSTER_ID
		return resp
	}
	if e := n.validateLeaderOnlyRequest(r.CurrentLeaderEpoch); e != protocol.NONE {
		resp.PartitionError = e
		return resp
	}
	data, ok := n.log.readSnapshot(r.SnapshotID)
	if !ok {
		resp.PartitionError = protocol.SNAPSHOT_NOT_FOUND
		return resp
	}
	size := int64(len(data))
	if r.Position < 0 || r.Position >= size {
		resp.PartitionError = protocol.POSITION_OUT_OF_RANGE
		return resp
	}
	end := min(size, r.Position+int64(max(r.MaxBytes, 1)))
	if s, ok := n.quorum.state.(*leaderState); ok && r.ReplicaID != n.cfg.NodeID {
		s.updateCheckQuorum(r.ReplicaID, env.Now())
	}
	resp.SnapshotID = r.SnapshotID
	resp.Size = size
	resp.Position = r.Position
	resp.UnalignedRecords = append([]byte(nil), data[r.Position:end]...)
	return resp
}

// startSnapshotDownload begins fetching the leader's snapshot: regular
// fetches pause and FetchSnapshot requests take their place. The bytes go
// to a partial file in the partition directory.
func (n *Node) startSnapshotDownload(env *sim.Env, s *followerState, id SnapshotID) {
	if s.download != nil {
		s.download.abort(n.cfg.Disk)
		s.download = nil
	}
	if n.log.hasSnapshot(id) {
		// Already here (Kafka would refuse to create it again and fetch
		// forever): just start the log at it.
		n.finishSnapshotInstall(env, s, id)
		return
	}
	tmp := partialPath(n.log.dir, id, n.rnd.Uint64())
	if err := n.cfg.Disk.WriteFile(tmp, nil); err != nil {
		panic(fmt.Sprintf("raft: node %d creating %s: %v", n.cfg.NodeID, tmp, err))
	}
	s.download = &snapshotDownload{id: id, tmpPath: tmp}
	env.Note(event.SnapshotFetchStarted{Node: n.cfg.NodeID, Snapshot: event.SnapshotID(id), LEO: n.log.endOffset()})
}

// handleFetchSnapshotResponse appends the slice; once the snapshot is whole
// it is frozen and the log restarts at its end offset
// (KafkaRaftClient.handleFetchSnapshotResponse, KafkaRaftClient.java:1479-1608).
func (n *Node) handleFetchSnapshotResponse(env *sim.Env, src int32, r *FetchSnapshotResponse) bool {
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.CurrentLeader.LeaderID, r.CurrentLeader.Epoch); done {
		return res
	}
	s, ok := n.quorum.state.(*followerState)
	if !ok {
		return false
	}
	if r.PartitionError == protocol.SNAPSHOT_NOT_FOUND || r.SnapshotID.EndOffset < 0 || r.SnapshotID.Epoch < 0 {
		// The leader deleted it meanwhile: start over with a Fetch.
		if s.download != nil {
			s.download.abort(n.cfg.Disk)
			s.download = nil
		}
		s.fetchedFromLeader(env.Now())
		return true
	}
	if r.PartitionError != protocol.NONE {
		return false
	}
	d := s.download
	switch {
	case d == nil:
		panic(fmt.Sprintf("raft: node %d got an unexpected FetchSnapshot response for %s", n.cfg.NodeID, r.SnapshotID))
	case d.id != r.SnapshotID:
		panic(fmt.Sprintf("raft: node %d fetching snapshot %s got %s", n.cfg.NodeID, d.id, r.SnapshotID))
	case d.size != r.Position:
		panic(fmt.Sprintf("raft: node %d expected snapshot position %d, got %d", n.cfg.NodeID, d.size, r.Position))
	case d.size+int64(len(r.UnalignedRecords)) > r.Size:
		panic(fmt.Sprintf("raft: node %d snapshot %s grew past its size %d", n.cfg.NodeID, d.id, r.Size))
	}
	if err := n.cfg.Disk.Append(d.tmpPath, r.UnalignedRecords); err != nil {
		panic(fmt.Sprintf("raft: node %d writing snapshot: %v", n.cfg.NodeID, err))
	}
	d.size += int64(len(r.UnalignedRecords))
	if d.size == r.Size {
		if err := n.log.freezeSnapshot(d.id, d.tmpPath); err != nil {
			panic(fmt.Sprintf("raft: node %d freezing snapshot %s: %v", n.cfg.NodeID, d.id, err))
		}
		s.download = nil
		n.finishSnapshotInstall(env, s, d.id)
	}
	s.fetchedFromLeader(env.Now())
	return true
}

// finishSnapshotInstall truncates the log fully to start at the snapshot,
// then takes the snapshot's end offset as high watermark; listeners load
// the snapshot at their next delivery.
func (n *Node) finishSnapshotInstall(env *sim.Env, s *followerState, id SnapshotID) {
	truncated, err := n.log.truncateToLatestSnapshot()
	if err != nil {
		panic(fmt.Sprintf("raft: node %d installing snapshot %s: %v", n.cfg.NodeID, id, err))
	}
	if !truncated {
		panic(fmt.Sprintf("raft: node %d: full log truncation expected for snapshot %s; log end offset %d, last fetched epoch %d",
			n.cfg.NodeID, id, n.log.endOffset(), n.log.lastFetchedEpoch()))
	}
	env.Note(event.SnapshotInstalled{Node: n.cfg.NodeID, Snapshot: event.SnapshotID(id)})
	n.updateFollowerHighWatermark(env, s, n.log.log.HighWatermark())
}
