package protocol

import (
	"fmt"

	"kafkascope/core/metadata"
)

// The consumer rebalance protocol (KIP-848, group.protocol=consumer): each
// member heartbeats on its own and the coordinator assigns partitions
// (ConsumerGroupHeartbeatRequest.json, ConsumerGroupDescribeRequest.json,
// Kafka 4.3; both API versions 0-1, flexible). Kafka 3.8 brokers answer
// UNSUPPORTED_VERSION: the protocol is off there by default. Topics travel
// by id both ways; a client resolves them with its metadata.

// Member epochs with a meaning of their own in a heartbeat
// (ConsumerGroupHeartbeatRequest.json MemberEpoch).
const (
	// JoinGroupMemberEpoch: the member joins, or rejoins after being
	// fenced.
	JoinGroupMemberEpoch int32 = 0
	// LeaveGroupMemberEpoch: a member leaves for good.
	LeaveGroupMemberEpoch int32 = -1
	// LeaveGroupStaticMemberEpoch: a static member leaves and will come
	// back within the session timeout with the same instance id.
	LeaveGroupStaticMemberEpoch int32 = -2
)

// ConsumerGroupHeartbeatRequest (API key 68). The nil/-1 fields mean "did
// not change since the last heartbeat"; a full request (RebalanceTimeoutMs
// set, a subscription and the owned partitions) makes the coordinator send
// the whole assignment back.
type ConsumerGroupHeartbeatRequest struct {
	RequestHeader
	GroupID string
	// MemberID is made by the client once (a Kafka Uuid, KIP-1082, 4.0+).
	MemberID    string
	MemberEpoch int32
	// InstanceID is group.instance.id ("" = null), sent on every heartbeat.
	InstanceID string
	// RackID is client.rack ("" = null), sent when joining.
	RackID string
	// RebalanceTimeoutMs is max.poll.interval.ms; -1 = unchanged.
	RebalanceTimeoutMs int32
	// SubscribedTopicNames: nil = unchanged.
	SubscribedTopicNames []string
	// SubscribedTopicRegex (v1; RE2/J): nil = unchanged.
	SubscribedTopicRegex *string
	// ServerAssignor is group.remote.assignor ("" = null).
	ServerAssignor string
	// TopicPartitions are the partitions the member owns; nil = unchanged.
	TopicPartitions []ConsumerGroupTopicPartitions
}

// ConsumerGroupTopicPartitions is one topic's partitions, by topic id.
// TopicName is set only in ConsumerGroupDescribe answers (its
// TopicPartitions carry the name too; the heartbeat's do not).
type ConsumerGroupTopicPartitions struct {
	TopicID    metadata.Uuid
	TopicName  string
	Partitions []int32
}

// ConsumerGroupHeartbeatResponse answers it. Assignment is nil when it did
// not change: the partitions the member may use now.
type ConsumerGroupHeartbeatResponse struct {
	ResponseHeader
	ErrorCode           ErrorCode
	ErrorMessage        string // "" = null
	MemberID            string // "" = null
	MemberEpoch         int32
	HeartbeatIntervalMs int32
	Assignment          *ConsumerGroupAssignment
}

// ConsumerGroupAssignment is a member's assignment.
type ConsumerGroupAssignment struct {
	TopicPartitions []ConsumerGroupTopicPartitions
}

// ConsumerGroupDescribeRequest (API key 69) describes consumer-protocol
// groups (kafka-consumer-groups.sh --describe on 4.x asks it first).
type ConsumerGroupDescribeRequest struct {
	RequestHeader
	GroupIDs                    []string
	IncludeAuthorizedOperations bool
}

// ConsumerGroupDescribeResponse answers it, one entry per group.
type ConsumerGroupDescribeResponse struct {
	ResponseHeader
	Groups []DescribedConsumerGroup
}

// DescribedConsumerGroup is one group: GROUP_ID_NOT_FOUND for a group the
// coordinator does not know or that is not a consumer group (the admin
// then asks DescribeGroups).
type DescribedConsumerGroup struct {
	ErrorCode            ErrorCode
	ErrorMessage         string
	GroupID              string
	GroupState           string // Empty, Assigning, Reconciling, Stable, Dead
	GroupEpoch           int32
	AssignmentEpoch      int32
	AssignorName         string
	Members              []DescribedConsumerGroupMember
	AuthorizedOperations int32
}

// DescribedConsumerGroupMember is one member with its current and target
// assignment. MemberType (v1) is 1 for a consumer-protocol member, 0 for a
// classic member in a consumer group, -1 unknown.
type DescribedConsumerGroupMember struct {
	MemberID             string
	InstanceID           string
	RackID               string
	MemberEpoch          int32
	ClientID             string
	ClientHost           string
	SubscribedTopicNames []string
	SubscribedTopicRegex string
	Assignment           []ConsumerGroupTopicPartitions
	TargetAssignment     []ConsumerGroupTopicPartitions
	MemberType           int8
}

func (*ConsumerGroupHeartbeatRequest) Kind() string  { return "ConsumerGroupHeartbeat" }
func (*ConsumerGroupHeartbeatResponse) Kind() string { return "ConsumerGroupHeartbeatResponse" }
func (*ConsumerGroupDescribeRequest) Kind() string   { return "ConsumerGroupDescribe" }
func (*ConsumerGroupDescribeResponse) Kind() string  { return "ConsumerGroupDescribeResponse" }

// Summary names the group, member and epoch (for traces).
func (r *ConsumerGroupHeartbeatRequest) Summary() string {
	return fmt.Sprintf("group %s member %s epoch %d", r.GroupID, r.MemberID, r.MemberEpoch)
}

// Summary names the error and the member's epoch.
func (r *ConsumerGroupHeartbeatResponse) Summary() string {
	if r.Assignment == nil {
		return fmt.Sprintf("%s epoch %d", r.ErrorCode, r.MemberEpoch)
	}
	n := 0
	for _, tp := range r.Assignment.TopicPartitions {
		n += len(tp.Partitions)
	}
	return fmt.Sprintf("%s epoch %d, %d partitions", r.ErrorCode, r.MemberEpoch, n)
}
