package protocol

// Offset APIs of the group coordinator: a group's committed positions,
// stored by the coordinator as records in __consumer_offsets.

// OffsetCommitRequest (API key 8) commits offsets for a group. A member of
// an active group sends its generation and member id; a standalone client
// (assign() with a group id, or the admin tools) sends generation -1 and "".
type OffsetCommitRequest struct {
	RequestHeader
	GroupID                   string
	GenerationIDOrMemberEpoch int32
	MemberID                  string
	GroupInstanceID           string
	RetentionTimeMs           int64 // -1: the broker's offsets.retention.minutes
	Topics                    []OffsetCommitRequestTopic
}

// OffsetCommitRequestTopic is one topic's offsets.
type OffsetCommitRequestTopic struct {
	Name       string
	Partitions []OffsetCommitRequestPartition
}

// OffsetCommitRequestPartition is one partition's committed offset: the
// offset of the next record the group will read.
type OffsetCommitRequestPartition struct {
	PartitionIndex       int32
	CommittedOffset      int64
	CommittedLeaderEpoch int32 // -1 if unknown
	CommittedMetadata    string
}

// OffsetCommitResponse answers it, per partition.
type OffsetCommitResponse struct {
	ResponseHeader
	Topics []OffsetCommitResponseTopic
}

// OffsetCommitResponseTopic is one topic's results.
type OffsetCommitResponseTopic struct {
	Name       string
	Partitions []OffsetCommitResponsePartition
}

// OffsetCommitResponsePartition is one partition's result.
type OffsetCommitResponsePartition struct {
	PartitionIndex int32
	ErrorCode      ErrorCode
}

// OffsetFetchRequest (API key 9, v8+ batched by group) reads committed
// offsets. Topics nil means every partition the group has offsets for.
type OffsetFetchRequest struct {
	RequestHeader
	Groups        []OffsetFetchRequestGroup
	RequireStable bool
}

// OffsetFetchRequestGroup is one group's request.
type OffsetFetchRequestGroup struct {
	GroupID     string
	MemberID    string
	MemberEpoch int32
	Topics      []OffsetFetchRequestTopics // nil = all
}

// OffsetFetchRequestTopics names partitions of one topic.
type OffsetFetchRequestTopics struct {
	Name             string
	PartitionIndexes []int32
}

// OffsetFetchResponse answers it, per group.
type OffsetFetchResponse struct {
	ResponseHeader
	Groups []OffsetFetchResponseGroup
}

// OffsetFetchResponseGroup is one group's offsets, or its group-level error
// (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, ...).
type OffsetFetchResponseGroup struct {
	GroupID   string
	Topics    []OffsetFetchResponseTopics
	ErrorCode ErrorCode
}

// OffsetFetchResponseTopics is one topic's offsets.
type OffsetFetchResponseTopics struct {
	Name       string
	Partitions []OffsetFetchResponsePartitions
}

// OffsetFetchResponsePartitions is one partition's committed offset; -1
// when the group has none for it.
type OffsetFetchResponsePartitions struct {
	PartitionIndex       int32
	CommittedOffset      int64
	CommittedLeaderEpoch int32
	Metadata             string
	ErrorCode            ErrorCode
}

// OffsetDeleteRequest (API key 47) deletes a group's committed offsets for
// partitions the group is not subscribed to.
type OffsetDeleteRequest struct {
	RequestHeader
	GroupID string
	Topics  []OffsetDeleteRequestTopic
}

// OffsetDeleteRequestTopic names partitions of one topic.
type OffsetDeleteRequestTopic struct {
	Name       string
	Partitions []int32
}

// OffsetDeleteResponse answers it: a group-level error, else per partition
// (GROUP_SUBSCRIBED_TO_TOPIC for topics the group still consumes).
type OffsetDeleteResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Topics    []OffsetDeleteResponseTopic
}

// OffsetDeleteResponseTopic is one topic's results.
type OffsetDeleteResponseTopic struct {
	Name       string
	Partitions []OffsetDeleteResponsePartition
}

// OffsetDeleteResponsePartition is one partition's result.
type OffsetDeleteResponsePartition struct {
	PartitionIndex int32
	ErrorCode      ErrorCode
}

func (*OffsetCommitRequest) Kind() string  { return "OffsetCommit" }
func (*OffsetCommitResponse) Kind() string { return "OffsetCommitResponse" }
func (*OffsetFetchRequest) Kind() string   { return "OffsetFetch" }
func (*OffsetFetchResponse) Kind() string  { return "OffsetFetchResponse" }
func (*OffsetDeleteRequest) Kind() string  { return "OffsetDelete" }
func (*OffsetDeleteResponse) Kind() string { return "OffsetDeleteResponse" }

// Add appends a partition's offset, grouping consecutive partitions of one
// topic (see FetchRequest.Add).
func (r *OffsetCommitRequest) Add(topic string, p OffsetCommitRequestPartition) {
	if n := len(r.Topics); n > 0 && r.Topics[n-1].Name == topic {
		r.Topics[n-1].Partitions = append(r.Topics[n-1].Partitions, p)
		return
	}
	r.Topics = append(r.Topics, OffsetCommitRequestTopic{Name: topic, Partitions: []OffsetCommitRequestPartition{p}})
}
