package groupcoordinator

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Handle serves one of the group coordinator's APIs from the client
// connection from (KafkaApis hands them to the GroupCoordinator; the
// broker's handler answers FindCoordinator itself). It reports whether
// the request is finished: JoinGroup, SyncGroup and the writes answer
// later and then call Host.Done. A message that is none of them is
// finished unanswered.
func (c *Coordinator) Handle(env *sim.Env, from sim.Addr, msg sim.Message) bool {
	switch m := msg.(type) {
	case *protocol.JoinGroupRequest:
		return c.handleJoinGroup(env, from, m)
	case *protocol.SyncGroupRequest:
		return c.handleSyncGroup(env, from, m)
	case *protocol.HeartbeatRequest:
		c.handleHeartbeat(env, from, m)
	case *protocol.LeaveGroupRequest:
		return c.handleLeaveGroup(env, from, m)
	case *protocol.OffsetCommitRequest:
		return c.handleOffsetCommit(env, from, m)
	case *protocol.OffsetFetchRequest:
		c.handleOffsetFetch(env, from, m)
	case *protocol.TxnOffsetCommitRequest:
		return c.handleTxnOffsetCommit(env, from, m)
	case *protocol.OffsetDeleteRequest:
		return c.handleOffsetDelete(env, from, m)
	case *protocol.ListGroupsRequest:
		c.handleListGroups(env, from, m)
	case *protocol.DescribeGroupsRequest:
		c.handleDescribeGroups(env, from, m)
	case *protocol.DeleteGroupsRequest:
		return c.handleDeleteGroups(env, from, m)
	case *protocol.ConsumerGroupHeartbeatRequest:
		return c.handleConsumerGroupHeartbeat(env, from, m)
	case *protocol.ConsumerGroupDescribeRequest:
		c.handleConsumerGroupDescribe(env, from, m)
	}
	return true
}
