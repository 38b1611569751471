package protocol

import "fmt"

// Group membership APIs of Kafka's classic group protocol (KIP-62 era
// JoinGroup/SyncGroup/Heartbeat/LeaveGroup), shaped after the highest
// versions Kafka 3.8 speaks. Member metadata and assignments are opaque bytes
// here, as on the wire; for consumers they hold ConsumerProtocolSubscription
// and ConsumerProtocolAssignment (consumerprotocol.go in this package).

// Coordinator key types of FindCoordinator.
const (
	CoordinatorKeyTypeGroup       int8 = 0
	CoordinatorKeyTypeTransaction int8 = 1
)

// FindCoordinatorRequest (API key 10, v4+) asks any broker which broker
// coordinates each key (a group id when KeyType is 0).
type FindCoordinatorRequest struct {
	RequestHeader
	KeyType         int8
	CoordinatorKeys []string
}

// FindCoordinatorResponse answers it, one Coordinator per key.
type FindCoordinatorResponse struct {
	ResponseHeader
	Coordinators []Coordinator
}

// Coordinator is one key's coordinator, or the error finding it (NodeID -1).
type Coordinator struct {
	Key          string
	NodeID       int32
	Host         string
	Port         int32
	ErrorCode    ErrorCode
	ErrorMessage string
	Cause        *Cause // the simulator's account of the error or of the answer, not on the wire (cause.go)
}

// JoinGroupRequest (API key 11) asks to join a group. MemberID is "" on a
// member's first join; since KIP-394 the coordinator answers that with
// MEMBER_ID_REQUIRED and the id to come back with.
type JoinGroupRequest struct {
	RequestHeader
	GroupID            string
	SessionTimeoutMs   int32
	RebalanceTimeoutMs int32
	MemberID           string
	GroupInstanceID    string // "" = dynamic member (Kafka: null)
	ProtocolType       string // "consumer" for consumers
	Protocols          []JoinGroupRequestProtocol
	Reason             string
}

// JoinGroupRequestProtocol is one protocol (assignor) the member supports, in
// the member's order of preference, with its metadata for that protocol.
type JoinGroupRequestProtocol struct {
	Name     string
	Metadata []byte
}

// JoinGroupResponse ends a rebalance's join phase. Only the leader's
// response lists Members (with their metadata) so it can compute the
// assignment.
type JoinGroupResponse struct {
	ResponseHeader
	ErrorCode      ErrorCode
	GenerationID   int32
	ProtocolType   string
	ProtocolName   string
	Leader         string
	SkipAssignment bool
	MemberID       string
	Members        []JoinGroupResponseMember
}

// JoinGroupResponseMember is one member as the leader sees it.
type JoinGroupResponseMember struct {
	MemberID        string
	GroupInstanceID string
	Metadata        []byte
}

// SyncGroupRequest (API key 14) fetches the member's assignment; the
// leader's request carries every member's assignment.
type SyncGroupRequest struct {
	RequestHeader
	GroupID         string
	GenerationID    int32
	MemberID        string
	GroupInstanceID string
	ProtocolType    string
	ProtocolName    string
	Assignments     []SyncGroupRequestAssignment
}

// SyncGroupRequestAssignment is one member's assignment from the leader.
type SyncGroupRequestAssignment struct {
	MemberID   string
	Assignment []byte
}

// SyncGroupResponse carries the member's assignment.
type SyncGroupResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ProtocolType string
	ProtocolName string
	Assignment   []byte
}

// HeartbeatRequest (API key 12) keeps a member alive; the answer tells it
// when a rebalance has begun (REBALANCE_IN_PROGRESS).
type HeartbeatRequest struct {
	RequestHeader
	GroupID         string
	GenerationID    int32
	MemberID        string
	GroupInstanceID string
}

// HeartbeatResponse answers it.
type HeartbeatResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
}

// LeaveGroupRequest (API key 13, v3+) removes members (a consumer leaving
// on close or on a poll timeout sends itself).
type LeaveGroupRequest struct {
	RequestHeader
	GroupID string
	Members []MemberIdentity
}

// MemberIdentity is one member leaving, and why.
type MemberIdentity struct {
	MemberID        string
	GroupInstanceID string
	Reason          string
}

// LeaveGroupResponse answers it, per member.
type LeaveGroupResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Members   []LeaveGroupMemberResponse
}

// LeaveGroupMemberResponse is one member's result.
type LeaveGroupMemberResponse struct {
	MemberID        string
	GroupInstanceID string
	ErrorCode       ErrorCode
}

func (*FindCoordinatorRequest) Kind() string  { return "FindCoordinator" }
func (*FindCoordinatorResponse) Kind() string { return "FindCoordinatorResponse" }
func (*JoinGroupRequest) Kind() string        { return "JoinGroup" }
func (*JoinGroupResponse) Kind() string       { return "JoinGroupResponse" }
func (*SyncGroupRequest) Kind() string        { return "SyncGroup" }
func (*SyncGroupResponse) Kind() string       { return "SyncGroupResponse" }
func (*HeartbeatRequest) Kind() string        { return "Heartbeat" }
func (*HeartbeatResponse) Kind() string       { return "HeartbeatResponse" }
func (*LeaveGroupRequest) Kind() string       { return "LeaveGroup" }
func (*LeaveGroupResponse) Kind() string      { return "LeaveGroupResponse" }

// Summary names the group and member (for traces).
func (r *JoinGroupRequest) Summary() string {
	return fmt.Sprintf("group %s member %q", r.GroupID, r.MemberID)
}

// Summary names the group and generation.
func (r *SyncGroupRequest) Summary() string {
	return fmt.Sprintf("group %s gen %d member %s", r.GroupID, r.GenerationID, r.MemberID)
}

// Summary names the group and generation.
func (r *HeartbeatRequest) Summary() string {
	return fmt.Sprintf("group %s gen %d member %s", r.GroupID, r.GenerationID, r.MemberID)
}

// Summary names the error and generation.
func (r *JoinGroupResponse) Summary() string {
	return fmt.Sprintf("%s gen %d leader %s", r.ErrorCode, r.GenerationID, r.Leader)
}
