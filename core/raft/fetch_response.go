package raft

import (
	"errors"
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// handleFetchResponse applies the leader's answer on a follower or observer
// (KafkaRaftClient.handleFetchResponse, KafkaRaftClient.java:1197-1302):
// truncate where the logs diverge, start downloading a snapshot, or append
// the records and take the leader's high watermark (capped by the local
// log end offset). Any successful answer resets the fetch timeout.
func (n *Node) handleFetchResponse(env *sim.Env, src int32, r *FetchResponse) bool {
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.CurrentLeader.LeaderID, r.CurrentLeader.Epoch); done {
		return res
	}
	s, ok := n.quorum.state.(*followerState)
	if !ok || r.PartitionError != protocol.NONE {
		return false
	}
	switch {
	case r.DivergingEpoch.Epoch >= 0:
		n.truncateDiverging(env, s, r.DivergingEpoch)
	case r.SnapshotID.Epoch >= 0 || r.SnapshotID.EndOffset >= 0:
		if r.SnapshotID.Epoch < 0 || r.SnapshotID.EndOffset < 0 {
			return false // a half-valid snapshot id: Kafka logs an error and retries
		}
		n.startSnapshotDownload(env, s, r.SnapshotID)
	default:
		if len(r.Records) > 0 {
			if err := n.appendAsFollower(env, r.Records); err != nil {
				env.Note(event.RaftAppendFailed{Node: n.cfg.NodeID, Error: err.Error()})
				return false
			}
		}
		if r.HighWatermark >= 0 {
			n.updateFollowerHighWatermark(env, s, r.HighWatermark)
		}
	}
	s.fetchedFromLeader(env.Now())
	return true
}

// truncateDiverging cuts the log where the leader says it diverges. Never
// below the high watermark: a committed entry is never removed (Kafka
// throws, and so does this).
func (n *Node) truncateDiverging(env *sim.Env, s *followerState, d EpochEndOffset) {
	if s.hw >= 0 && d.EndOffset < s.hw {
		panic(fmt.Sprintf("raft: node %d asked to truncate to %d, below its high watermark %d", n.cfg.NodeID, d.EndOffset, s.hw))
	}
	before := n.log.endOffset()
	at, err := n.log.truncateToEndOffset(d.EndOffset, d.Epoch)
	if err != nil {
		panic(fmt.Sprintf("raft: node %d truncating: %v", n.cfg.NodeID, err))
	}
	if s.hw >= 0 && at < s.hw {
		panic(fmt.Sprintf("raft: node %d truncated to %d, below its high watermark %d", n.cfg.NodeID, at, s.hw))
	}
	env.Note(event.RaftTruncated{Node: n.cfg.NodeID, From: before, To: at,
		DivergingEpoch: d.Epoch, DivergingEndOffset: d.EndOffset})
}

// appendAsFollower appends the leader's batches as they are. A voter
// fsyncs before its next Fetch: the leader counts a voter's fetch offset
// towards the high watermark, so what it reports must survive a power loss
// (KafkaRaftClient.appendAsFollower, KafkaRaftClient.java:1304-1320).
// Observers do not count, and do not flush.
func (n *Node) appendAsFollower(env *sim.Env, records []byte) error {
	info, err := n.log.log.AppendAsFollower(records)
	if err == nil {
		n.fetched(env.Now(), info.LastOffset-info.FirstOffset+1)
	}
	return n.appendedAsFollower(err)
}

// appendRunAsFollower is appendAsFollower of one batch of a run, validated
// already (a leaped NoOp), which the log holds as the run's.
func (n *Node) appendRunAsFollower(at sim.Time, b storage.RunBatch) error {
	info, err := n.log.log.AppendRunAsFollower(b)
	if err == nil {
		n.fetched(at, info.LastOffset-info.FirstOffset+1)
	}
	return n.appendedAsFollower(err)
}

// appendedAsFollower finishes a follower's append that returned err: a
// batch out of order or invalid is the caller's to handle, any other
// failure is the disk's (a bug), and an appended batch is flushed before
// the next Fetch says it is held.
func (n *Node) appendedAsFollower(err error) error {
	if err != nil {
		if errors.Is(err, storage.ErrOffsetOrder) || errors.Is(err, storage.ErrInvalidRecord) {
			return err
		}
		panic(fmt.Sprintf("raft: node %d appending as follower: %v", n.cfg.NodeID, err))
	}
	if !n.observer && (n.cfg.hooks == nil || !n.cfg.hooks.skipFlush) {
		if err := n.log.log.Flush(); err != nil {
			panic(fmt.Sprintf("raft: node %d flushing: %v", n.cfg.NodeID, err))
		}
	}
	return nil
}

// updateFollowerHighWatermark takes min(leader's high watermark, local LEO).
func (n *Node) updateFollowerHighWatermark(env *sim.Env, s *followerState, leaderHW int64) {
	hw := min(n.log.endOffset(), leaderHW)
	if s.updateHighWatermark(hw) {
		n.log.log.UpdateHighWatermark(hw)
		n.updateListenersProgress(env)
	}
}
