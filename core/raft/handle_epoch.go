package raft

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleBeginQuorumEpochRequest: a leader announces its epoch; this voter
// follows it (KafkaRaftClient.java:793-825).
func (n *Node) handleBeginQuorumEpochRequest(env *sim.Env, r *BeginQuorumEpochRequest) *BeginQuorumEpochResponse {
	if !n.validClusterID(r.ClusterID) {
		return &BeginQuorumEpochResponse{CorrelationID: r.CorrelationID, ErrorCode: protocol.INCONSISTENT_CLUSTER_ID, LeaderID: NoLeader, LeaderEpoch: -1}
	}
	if e := n.validateVoterOnlyRequest(r.LeaderID, r.LeaderEpoch); e != protocol.NONE {
		return n.beginEpochResponse(r.CorrelationID, e)
	}
	n.maybeTransition(env, r.LeaderID, r.LeaderEpoch, fmt.Sprintf("BeginQuorumEpoch from %d", r.LeaderID))
	return n.beginEpochResponse(r.CorrelationID, protocol.NONE)
}

func (n *Node) beginEpochResponse(corr int32, err protocol.ErrorCode) *BeginQuorumEpochResponse {
	return &BeginQuorumEpochResponse{CorrelationID: corr, PartitionError: err, LeaderID: n.quorum.leaderID(), LeaderEpoch: n.quorum.epoch()}
}

// handleBeginQuorumEpochResponse: the voter acknowledged the leader.
func (n *Node) handleBeginQuorumEpochResponse(env *sim.Env, src int32, r *BeginQuorumEpochResponse) bool {
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.LeaderID, r.LeaderEpoch); done {
		return res
	}
	if r.PartitionError != protocol.NONE {
		return false
	}
	if s, ok := n.quorum.state.(*leaderState); ok {
		if v, ok := s.voterStates[src]; ok {
			v.acked = true
		}
	}
	return true
}

// handleEndQuorumEpochRequest: the leader resigned. A follower of it moves
// its fetch timeout up to its place among the preferred successors, so the
// most caught-up voter stands for election first
// (KafkaRaftClient.java:886-942).
func (n *Node) handleEndQuorumEpochRequest(env *sim.Env, r *EndQuorumEpochRequest) *EndQuorumEpochResponse {
	if !n.validClusterID(r.ClusterID) {
		return &EndQuorumEpochResponse{CorrelationID: r.CorrelationID, ErrorCode: protocol.INCONSISTENT_CLUSTER_ID, LeaderID: NoLeader, LeaderEpoch: -1}
	}
	if e := n.validateVoterOnlyRequest(r.LeaderID, r.LeaderEpoch); e != protocol.NONE {
		return n.endEpochResponse(r.CorrelationID, e)
	}
	n.maybeTransition(env, r.LeaderID, r.LeaderEpoch, fmt.Sprintf("EndQuorumEpoch from %d", r.LeaderID))
	if s, ok := n.quorum.state.(*followerState); ok && s.leaderID == r.LeaderID {
		d := n.endEpochElectionBackoff(r.PreferredSuccessors)
		s.overrideFetchTimeout(env.Now(), d)
		env.Note(event.RaftLeaderResigned{Node: n.cfg.NodeID, Leader: r.LeaderID, Epoch: r.LeaderEpoch, ElectionIn: d})
	}
	return n.endEpochResponse(r.CorrelationID, protocol.NONE)
}

func (n *Node) endEpochResponse(corr int32, err protocol.ErrorCode) *EndQuorumEpochResponse {
	return &EndQuorumEpochResponse{CorrelationID: corr, PartitionError: err, LeaderID: n.quorum.leaderID(), LeaderEpoch: n.quorum.epoch()}
}

// handleEndQuorumEpochResponse: the voter acknowledged the resignation.
func (n *Node) handleEndQuorumEpochResponse(env *sim.Env, src int32, r *EndQuorumEpochResponse) bool {
	if res, done := n.screenResponse(env, r.ErrorCode, r.PartitionError, r.LeaderID, r.LeaderEpoch); done {
		return res
	}
	if r.PartitionError != protocol.NONE {
		return false
	}
	if s, ok := n.quorum.state.(*resignedState); ok {
		delete(s.unacked, src)
	}
	return true
}
