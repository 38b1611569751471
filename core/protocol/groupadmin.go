package protocol

// Group administration APIs (what kafka-consumer-groups.sh and the admin
// client send to coordinators).

// ListGroupsRequest (API key 16) lists the groups a broker coordinates,
// optionally only those in the given states ("Stable", "Empty", ...).
type ListGroupsRequest struct {
	RequestHeader
	StatesFilter []string
	TypesFilter  []string
}

// ListGroupsResponse answers it.
type ListGroupsResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Groups    []ListedGroup
}

// ListedGroup is one group. GroupType is "classic" for these groups.
type ListedGroup struct {
	GroupID      string
	ProtocolType string
	GroupState   string
	GroupType    string
}

// DescribeGroupsRequest (API key 15) describes groups on their coordinator.
type DescribeGroupsRequest struct {
	RequestHeader
	Groups                      []string
	IncludeAuthorizedOperations bool
}

// DescribeGroupsResponse answers it.
type DescribeGroupsResponse struct {
	ResponseHeader
	Groups []DescribedGroup
}

// DescribedGroup is one group: GroupState is Kafka's state name ("Dead" for
// a group the coordinator does not know), ProtocolData the chosen assignor.
type DescribedGroup struct {
	ErrorCode    ErrorCode
	GroupID      string
	GroupState   string
	ProtocolType string
	ProtocolData string
	Members      []DescribedGroupMember
}

// DescribedGroupMember is one member with its subscription metadata and
// assignment bytes (ConsumerProtocolSubscription/Assignment for consumers).
type DescribedGroupMember struct {
	MemberID         string
	GroupInstanceID  string
	ClientID         string
	ClientHost       string
	MemberMetadata   []byte
	MemberAssignment []byte
}

// DeleteGroupsRequest (API key 42) deletes empty groups and their offsets.
type DeleteGroupsRequest struct {
	RequestHeader
	GroupsNames []string
}

// DeleteGroupsResponse answers it, per group (NON_EMPTY_GROUP,
// GROUP_ID_NOT_FOUND, NOT_COORDINATOR, ...).
type DeleteGroupsResponse struct {
	ResponseHeader
	Results []DeletableGroupResult
}

// DeletableGroupResult is one group's result.
type DeletableGroupResult struct {
	GroupID   string
	ErrorCode ErrorCode
}

func (*ListGroupsRequest) Kind() string      { return "ListGroups" }
func (*ListGroupsResponse) Kind() string     { return "ListGroupsResponse" }
func (*DescribeGroupsRequest) Kind() string  { return "DescribeGroups" }
func (*DescribeGroupsResponse) Kind() string { return "DescribeGroupsResponse" }
func (*DeleteGroupsRequest) Kind() string    { return "DeleteGroups" }
func (*DeleteGroupsResponse) Kind() string   { return "DeleteGroupsResponse" }
