package protocol

// OffsetForLeaderEpochRequest (API key 23): a follower asks the leader
// where a leader epoch ended, to truncate a log that may have diverged
// (KIP-101; replaced in the fetch path by Fetch's diverging epoch, KIP-595).
type OffsetForLeaderEpochRequest struct {
	RequestHeader
	ReplicaID int32
	Topics    []OffsetForLeaderTopic
}

// OffsetForLeaderTopic is one topic of the request.
type OffsetForLeaderTopic struct {
	Name       string
	Partitions []OffsetForLeaderPartition
}

// OffsetForLeaderPartition asks about one partition's LeaderEpoch.
type OffsetForLeaderPartition struct {
	Index              int32
	CurrentLeaderEpoch int32
	LeaderEpoch        int32
}

// OffsetForLeaderEpochResponse answers it.
type OffsetForLeaderEpochResponse struct {
	ResponseHeader
	Topics []OffsetForLeaderTopicResult
}

// OffsetForLeaderTopicResult is one topic's answers.
type OffsetForLeaderTopicResult struct {
	Name       string
	Partitions []EpochEndOffsetResult
}

// EpochEndOffsetResult says where the leader's log has epoch LeaderEpoch
// end (the leader's endOffsetFor), -1/-1 when unknown.
type EpochEndOffsetResult struct {
	Index       int32
	ErrorCode   ErrorCode
	LeaderEpoch int32
	EndOffset   int64
}

func (*OffsetForLeaderEpochRequest) Kind() string  { return "OffsetForLeaderEpoch" }
func (*OffsetForLeaderEpochResponse) Kind() string { return "OffsetForLeaderEpochResponse" }
