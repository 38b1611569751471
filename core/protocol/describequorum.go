package protocol

// DescribeQuorumRequest (API key 55) asks for the KRaft quorum's state of
// __cluster_metadata-0, as Admin.describeMetadataQuorum sends it to a
// broker. A broker does not answer it itself: it forwards it to the active
// controller, whose raft client answers (KafkaApis' forwardToControllerOrFail).
// Sent straight to a controller listener (--bootstrap-controller) the
// request is the raft package's own DescribeQuorumRequest.
type DescribeQuorumRequest struct {
	RequestHeader
}

// DescribeQuorumResponse answers it: ErrorCode is the top-level error (a
// broker's forwarding gave up: REQUEST_TIMED_OUT), PartitionError the raft
// client's (NOT_LEADER_OR_FOLLOWER from a voter that is not the leader).
type DescribeQuorumResponse struct {
	ResponseHeader
	ErrorCode      ErrorCode
	PartitionError ErrorCode
	LeaderID       int32
	LeaderEpoch    int32
	HighWatermark  int64 // -1 until the leader has established one
	CurrentVoters  []QuorumReplicaState
	Observers      []QuorumReplicaState
}

// QuorumReplicaState is one replica of the metadata log as the leader sees
// it. Timestamps are wall-clock milliseconds, -1 when unknown; the leader's
// own entry has both at the time of the answer.
type QuorumReplicaState struct {
	ReplicaID             int32
	LogEndOffset          int64 // -1 until the replica has fetched
	LastFetchTimestamp    int64
	LastCaughtUpTimestamp int64
}

func (*DescribeQuorumRequest) Kind() string  { return "DescribeQuorum" }
func (*DescribeQuorumResponse) Kind() string { return "DescribeQuorumResponse" }
