package protocol

// AlterPartitionReassignmentsRequest (API key 45) starts or cancels
// reassignments. Brokers forward it to the controller.
type AlterPartitionReassignmentsRequest struct {
	RequestHeader
	TimeoutMs int32
	// DisallowReplicationFactorChange is version 1's
	// AllowReplicationFactorChange (KIP-860, Kafka 4.1) negated, so that
	// the zero value is the field's default (true: changes allowed).
	DisallowReplicationFactorChange bool
	Topics                          []ReassignableTopic
}

// ReassignableTopic names partitions of one topic.
type ReassignableTopic struct {
	Name       string
	Partitions []ReassignablePartition
}

// ReassignablePartition is one partition's target replicas; nil cancels
// the reassignment in progress.
type ReassignablePartition struct {
	PartitionIndex int32
	Replicas       []int32
}

// AlterPartitionReassignmentsResponse answers it, per partition.
type AlterPartitionReassignmentsResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ErrorMessage string
	Responses    []ReassignableTopicResponse
}

// ReassignableTopicResponse is one topic's outcomes.
type ReassignableTopicResponse struct {
	Name       string
	Partitions []ReassignablePartitionResponse
}

// ReassignablePartitionResponse is one partition's outcome.
type ReassignablePartitionResponse struct {
	PartitionIndex int32
	ErrorCode      ErrorCode
	ErrorMessage   string
}

// ListPartitionReassignmentsRequest (API key 46) asks which reassignments
// are in progress; Topics nil means all.
type ListPartitionReassignmentsRequest struct {
	RequestHeader
	TimeoutMs int32
	Topics    []ListPartitionReassignmentsTopic
}

// ListPartitionReassignmentsTopic names partitions of one topic.
type ListPartitionReassignmentsTopic struct {
	Name             string
	PartitionIndexes []int32
}

// ListPartitionReassignmentsResponse lists the ongoing reassignments.
type ListPartitionReassignmentsResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ErrorMessage string
	Topics       []OngoingTopicReassignment
}

// OngoingTopicReassignment is one topic's partitions being reassigned.
type OngoingTopicReassignment struct {
	Name       string
	Partitions []OngoingPartitionReassignment
}

// OngoingPartitionReassignment is one partition's reassignment: Replicas is
// the full current list (target then removing).
type OngoingPartitionReassignment struct {
	PartitionIndex   int32
	Replicas         []int32
	AddingReplicas   []int32
	RemovingReplicas []int32
}

func (*AlterPartitionReassignmentsRequest) Kind() string { return "AlterPartitionReassignments" }
func (*AlterPartitionReassignmentsResponse) Kind() string {
	return "AlterPartitionReassignmentsResponse"
}
func (*ListPartitionReassignmentsRequest) Kind() string  { return "ListPartitionReassignments" }
func (*ListPartitionReassignmentsResponse) Kind() string { return "ListPartitionReassignmentsResponse" }
