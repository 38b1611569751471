package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleGroupRequest dispatches the group coordinator's APIs; it reports
// whether the request is finished (JoinGroup, SyncGroup and the writes
// answer later).
func (b *Broker) handleGroupRequest(env *sim.Env, e *sim.Envelope) bool {
	switch m := e.Msg.(type) {
	case *protocol.FindCoordinatorRequest:
		b.handleFindCoordinator(env, e.From, m)
	case *protocol.JoinGroupRequest:
		return b.handleJoinGroup(env, e.From, m)
	case *protocol.SyncGroupRequest:
		return b.handleSyncGroup(env, e.From, m)
	case *protocol.HeartbeatRequest:
		b.handleHeartbeat(env, e.From, m)
	case *protocol.LeaveGroupRequest:
		b.handleLeaveGroup(env, e.From, m)
	case *protocol.OffsetCommitRequest:
		return b.handleOffsetCommit(env, e.From, m)
	case *protocol.OffsetFetchRequest:
		b.handleOffsetFetch(env, e.From, m)
	case *protocol.OffsetDeleteRequest:
		return b.handleOffsetDelete(env, e.From, m)
	case *protocol.ListGroupsRequest:
		b.handleListGroups(env, e.From, m)
	case *protocol.DescribeGroupsRequest:
		b.handleDescribeGroups(env, e.From, m)
	case *protocol.DeleteGroupsRequest:
		return b.handleDeleteGroups(env, e.From, m)
	}
	return true
}
