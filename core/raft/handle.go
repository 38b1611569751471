package raft

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleRequest answers a request; a Fetch that finds nothing new may be
// parked and answered later.
func (n *Node) handleRequest(env *sim.Env, e *sim.Envelope) {
	var resp sim.Message
	switch m := e.Msg.(type) {
	case *VoteRequest:
		resp = n.handleVoteRequest(env, m)
	case *BeginQuorumEpochRequest:
		resp = n.handleBeginQuorumEpochRequest(env, m)
	case *EndQuorumEpochRequest:
		resp = n.handleEndQuorumEpochRequest(env, m)
	case *FetchRequest:
		if r := n.handleFetchRequest(env, e, m); r != nil {
			resp = r
		}
	case *FetchSnapshotRequest:
		resp = n.handleFetchSnapshotRequest(env, m)
	case *DescribeQuorumRequest:
		resp = n.handleDescribeQuorumRequest(env, m)
	case *AddRaftVoterRequest:
		resp = n.handleAddRaftVoterRequest(env, m)
	case *RemoveRaftVoterRequest:
		resp = n.handleRemoveRaftVoterRequest(env, m)
	}
	if resp != nil {
		env.Send(e.To, e.From, resp)
	}
}

// handleResponse processes a response (or a synthesized error for a broken
// connection) from a voter, if it answers the request in flight to it, and
// backs the connection off when it could not be handled.
func (n *Node) handleResponse(env *sim.Env, from sim.Addr, msg any) {
	src, ok := n.addrVoter[from]
	if !ok {
		return
	}
	corr, api := correlationOf(msg), apiKeyOf(msg)
	if !n.reqs.isResponseExpected(src, corr, api) {
		return // stale: sent before a transition, a timeout or a restart
	}
	var handled bool
	switch m := msg.(type) {
	case *VoteResponse:
		handled = n.handleVoteResponse(env, src, m)
	case *BeginQuorumEpochResponse:
		handled = n.handleBeginQuorumEpochResponse(env, src, m)
	case *EndQuorumEpochResponse:
		handled = n.handleEndQuorumEpochResponse(env, src, m)
	case *FetchResponse:
		handled = n.handleFetchResponse(env, src, m)
	case *FetchSnapshotResponse:
		handled = n.handleFetchSnapshotResponse(env, src, m)
	}
	n.reqs.onResponseResult(src, corr, api, handled, env.Now())
}

// apiKeyOf is the API of a request or response.
func apiKeyOf(msg any) int16 {
	switch msg.(type) {
	case *VoteRequest, *VoteResponse:
		return APIKeyVote
	case *BeginQuorumEpochRequest, *BeginQuorumEpochResponse:
		return APIKeyBeginQuorumEpoch
	case *EndQuorumEpochRequest, *EndQuorumEpochResponse:
		return APIKeyEndQuorumEpoch
	case *FetchRequest, *FetchResponse:
		return APIKeyFetch
	case *FetchSnapshotRequest, *FetchSnapshotResponse:
		return APIKeyFetchSnapshot
	case *DescribeQuorumRequest, *DescribeQuorumResponse:
		return APIKeyDescribeQuorum
	case *AddRaftVoterRequest, *AddRaftVoterResponse:
		return APIKeyAddRaftVoter
	case *RemoveRaftVoterRequest, *RemoveRaftVoterResponse:
		return APIKeyRemoveRaftVoter
	}
	return -1
}

func correlationOf(msg any) int32 {
	switch m := msg.(type) {
	case *VoteResponse:
		return m.CorrelationID
	case *BeginQuorumEpochResponse:
		return m.CorrelationID
	case *EndQuorumEpochResponse:
		return m.CorrelationID
	case *FetchResponse:
		return m.CorrelationID
	case *FetchSnapshotResponse:
		return m.CorrelationID
	}
	return -1
}

// disconnectedResponse is what KafkaNetworkChannel completes a request with
// when the connection breaks: an error response with the top-level error
// BROKER_NOT_AVAILABLE (KafkaNetworkChannel.java:144-145).
func disconnectedResponse(req sim.Message) any {
	e := protocol.BROKER_NOT_AVAILABLE
	switch r := req.(type) {
	case *VoteRequest:
		return &VoteResponse{CorrelationID: r.CorrelationID, ErrorCode: e, LeaderID: NoLeader, LeaderEpoch: -1}
	case *BeginQuorumEpochRequest:
		return &BeginQuorumEpochResponse{CorrelationID: r.CorrelationID, ErrorCode: e, LeaderID: NoLeader, LeaderEpoch: -1}
	case *EndQuorumEpochRequest:
		return &EndQuorumEpochResponse{CorrelationID: r.CorrelationID, ErrorCode: e, LeaderID: NoLeader, LeaderEpoch: -1}
	case *FetchRequest:
		return &FetchResponse{CorrelationID: r.CorrelationID, ErrorCode: e, HighWatermark: -1,
			CurrentLeader: LeaderAndEpoch{LeaderID: NoLeader, Epoch: -1}, DivergingEpoch: EpochEndOffset{Epoch: -1, EndOffset: -1}, SnapshotID: noSnapshot}
	case *FetchSnapshotRequest:
		return &FetchSnapshotResponse{CorrelationID: r.CorrelationID, ErrorCode: e, CurrentLeader: LeaderAndEpoch{LeaderID: NoLeader, Epoch: -1}, SnapshotID: noSnapshot}
	}
	return nil
}

// handleTopLevelError: a broken connection (BROKER_NOT_AVAILABLE) or any
// other top-level error fails the response, so the connection backs off.
func (n *Node) handleTopLevelError(env *sim.Env, err protocol.ErrorCode) bool {
	if err != protocol.BROKER_NOT_AVAILABLE {
		env.Note(event.RaftResponseFailed{Node: n.cfg.NodeID, Error: err})
	}
	return false
}

// screenResponse runs the checks every response starts with (a top-level
// error, then maybeHandleCommonResponse's epoch and leader checks); done
// reports whether they settled it, and result is then the handler's
// answer.
func (n *Node) screenResponse(env *sim.Env, topErr, partErr protocol.ErrorCode, leaderID, epoch int32) (result, done bool) {
	if topErr != protocol.NONE {
		return n.handleTopLevelError(env, topErr), true
	}
	switch n.maybeHandleCommonResponse(env, partErr, leaderID, epoch) {
	case handledOK:
		return true, true
	case handledRetry:
		return false, true
	}
	return false, false
}

// commonResult is maybeHandleCommonResponse's answer: not handled (the
// API's own handler continues), or handled with a success flag.
type commonResult uint8

const (
	notHandled commonResult = iota
	handledOK
	handledRetry
)

// maybeHandleCommonResponse applies what every response says about epochs
// and leaders (KafkaRaftClient.java:1641-1692):
//   - an older epoch (or UNKNOWN_LEADER_EPOCH: the peer is behind) makes the
//     response irrelevant;
//   - a newer epoch, FENCED_LEADER_EPOCH or NOT_LEADER_OR_FOLLOWER makes
//     this node move to that epoch (following its leader if named);
//   - the current epoch with a leader this node did not know makes it a
//     follower, and the response is still handled if it had no error (an
//     observer discovers the leader and appends in one Fetch);
//   - BROKER_NOT_AVAILABLE means retry after backoff; INVALID_REQUEST and
//     INCONSISTENT_VOTER_SET are bugs and Kafka throws.
func (n *Node) maybeHandleCommonResponse(env *sim.Env, err protocol.ErrorCode, leaderID, epoch int32) commonResult {
	cur := n.quorum.epoch()
	switch {
	case epoch < cur || err == protocol.UNKNOWN_LEADER_EPOCH:
		return handledOK
	case epoch > cur || err == protocol.FENCED_LEADER_EPOCH || err == protocol.NOT_LEADER_OR_FOLLOWER:
		n.maybeTransition(env, leaderID, epoch, fmt.Sprint("response from epoch ", epoch))
		return handledOK
	case epoch == cur && n.validLeader(leaderID) && !n.quorum.hasLeader():
		n.transitionToFollower(env, epoch, leaderID, "learned the leader from a response")
		if err == protocol.NONE {
			return notHandled
		}
		return handledOK
	case err == protocol.BROKER_NOT_AVAILABLE:
		return handledRetry
	case err == protocol.INCONSISTENT_VOTER_SET, err == protocol.INVALID_REQUEST:
		panic(fmt.Sprintf("raft: node %d received unexpected error %s", n.cfg.NodeID, err))
	}
	return notHandled
}

// validLeader: a leader id names a known voter (Kafka looks it up in the
// voter set; an unknown id counts as no leader).
func (n *Node) validLeader(id int32) bool {
	_, ok := n.voterAddr[id]
	return id >= 0 && ok
}

// maybeTransition moves to epoch (as follower of leaderID when it is
// known) if the epoch is newer, or follows a newly learned leader of the
// current epoch (KafkaRaftClient.maybeTransition).
func (n *Node) maybeTransition(env *sim.Env, leaderID, epoch int32, why string) {
	if !n.validLeader(leaderID) {
		leaderID = NoLeader
	}
	if !n.hasConsistentLeader(epoch, leaderID) {
		panic(fmt.Sprintf("raft: node %d got leader %d for epoch %d, inconsistent with leader %d of epoch %d",
			n.cfg.NodeID, leaderID, epoch, n.quorum.leaderID(), n.quorum.epoch()))
	}
	switch {
	case epoch > n.quorum.epoch() && leaderID >= 0:
		n.transitionToFollower(env, epoch, leaderID, why)
	case epoch > n.quorum.epoch():
		n.transitionToUnattached(env, epoch, why)
	case leaderID >= 0 && !n.quorum.hasLeader():
		n.transitionToFollower(env, epoch, leaderID, why)
	}
}

// hasConsistentLeader: a message naming this node leader must find it
// leading; one naming another leader of the current epoch must agree with
// the leader this node knows. Two leaders in one epoch would break Raft's
// election safety, so a mismatch is fatal (Kafka throws).
func (n *Node) hasConsistentLeader(epoch, leaderID int32) bool {
	if leaderID >= 0 && leaderID == n.cfg.NodeID {
		return n.quorum.role() == RoleLeader
	}
	return epoch != n.quorum.epoch() || leaderID < 0 || !n.quorum.hasLeader() || leaderID == n.quorum.leaderID()
}

// validateVoterOnlyRequest checks Vote, BeginQuorumEpoch and EndQuorumEpoch
// (KafkaRaftClient.java:1780-1788): an older epoch is FENCED_LEADER_EPOCH.
// Kafka 3.8 documents, but does not check, INCONSISTENT_VOTER_SET; this
// node checks it (a sender that is not a voter, or a receiver that is not
// one), because its vote bookkeeping has no room for non-voters.
func (n *Node) validateVoterOnlyRequest(remoteID, epoch int32) protocol.ErrorCode {
	switch {
	case epoch < n.quorum.epoch():
		return protocol.FENCED_LEADER_EPOCH
	case remoteID < 0:
		return protocol.INVALID_REQUEST
	case n.observer || !n.quorum.isVoter(remoteID):
		return protocol.INCONSISTENT_VOTER_SET
	}
	return protocol.NONE
}

// validateLeaderOnlyRequest checks Fetch and FetchSnapshot
// (KafkaRaftClient.java:1795-1810): the fetcher's epoch must be this
// leader's. A fetcher behind is FENCED_LEADER_EPOCH, one ahead is
// UNKNOWN_LEADER_EPOCH; in the same epoch a non-leader answers
// NOT_LEADER_OR_FOLLOWER (observers ask any voter to find the leader).
func (n *Node) validateLeaderOnlyRequest(epoch int32) protocol.ErrorCode {
	switch {
	case epoch < n.quorum.epoch():
		return protocol.FENCED_LEADER_EPOCH
	case epoch > n.quorum.epoch():
		return protocol.UNKNOWN_LEADER_EPOCH
	case n.quorum.role() != RoleLeader:
		return protocol.NOT_LEADER_OR_FOLLOWER
	}
	return protocol.NONE
}

func (n *Node) validClusterID(id string) bool { return id == "" || id == n.cfg.ClusterID }
