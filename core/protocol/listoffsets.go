package protocol

// Special timestamps of ListOffsets.
const (
	LatestTimestamp       int64 = -1 // the log end offset (high watermark for consumers)
	EarliestTimestamp     int64 = -2 // the log start offset
	MaxTimestampTimestamp int64 = -3 // the offset of the record with the largest timestamp
)

// ListOffsetsRequest (API key 2) asks a leader for offsets by time.
type ListOffsetsRequest struct {
	RequestHeader
	ReplicaID int32
	// IsolationLevel: ReadCommitted makes latest the last stable offset.
	IsolationLevel int8
	Topics         []ListOffsetsTopic
}

// ListOffsetsTopic is one topic of the request.
type ListOffsetsTopic struct {
	Name       string
	Partitions []ListOffsetsPartition
}

// ListOffsetsPartition asks for one partition's offset at Timestamp.
type ListOffsetsPartition struct {
	Index              int32
	CurrentLeaderEpoch int32
	Timestamp          int64
}

// ListOffsetsResponse answers it.
type ListOffsetsResponse struct {
	ResponseHeader
	Topics []ListOffsetsTopicResponse
}

// ListOffsetsTopicResponse is one topic's answers.
type ListOffsetsTopicResponse struct {
	Name       string
	Partitions []ListOffsetsPartitionResponse
}

// ListOffsetsPartitionResponse is one partition's answer; Offset -1 means none.
type ListOffsetsPartitionResponse struct {
	Index       int32
	ErrorCode   ErrorCode
	Timestamp   int64
	Offset      int64
	LeaderEpoch int32
}

func (*ListOffsetsRequest) Kind() string  { return "ListOffsets" }
func (*ListOffsetsResponse) Kind() string { return "ListOffsetsResponse" }
