package raft

import (
	"fmt"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// The KRaft APIs (KIP-595, KIP-630) for the single partition
// __cluster_metadata-0, flattened: Kafka nests each in topics[] and
// partitions[] but KafkaRaftClient only ever sends one of each. Every
// response carries a top-level ErrorCode (the request as a whole failed:
// INCONSISTENT_CLUSTER_ID, or BROKER_NOT_AVAILABLE when the connection
// broke) and a partition-level error. CurrentLeader/LeaderID+LeaderEpoch in
// every response tell the sender who leads which epoch, which is how
// observers and stale voters find the leader.
//
// These types deliberately do not implement protocol.Request/Response, so
// a host's rpc.Client never mistakes a raft response for its own; a host
// hands every envelope to Node.Handle first (see doc.go).
//
// Messages are immutable once sent.

// API keys, for the trace and the UI.
const (
	APIKeyFetch            = 1
	APIKeyVote             = 52
	APIKeyBeginQuorumEpoch = 53
	APIKeyEndQuorumEpoch   = 54
	APIKeyDescribeQuorum   = 55
	APIKeyFetchSnapshot    = 59
	APIKeyAddRaftVoter     = 80
	APIKeyRemoveRaftVoter  = 81
)

// VoteRequest (API key 52): a candidate asks for a voter's vote in its
// epoch, stating its log's last epoch and end offset. With PreVote (Kafka
// 4.0+, KIP-996: VoteRequest v2) a prospective asks whether it would win,
// in its current epoch, and nothing is recorded by the voters that answer.
// Kafka 4 renamed the Candidate fields ReplicaEpoch and ReplicaId
// (VoteRequest.json v2); their meaning and place on the wire are the same.
type VoteRequest struct {
	CorrelationID   int32
	ClusterID       string
	CandidateEpoch  int32
	CandidateID     int32
	LastOffsetEpoch int32
	LastOffset      int64 // the candidate's log end offset
	PreVote         bool
}

// VoteResponse says whether the vote was granted, and the voter's epoch and
// known leader.
type VoteResponse struct {
	CorrelationID  int32
	ErrorCode      protocol.ErrorCode
	PartitionError protocol.ErrorCode
	LeaderID       int32
	LeaderEpoch    int32
	VoteGranted    bool
}

// BeginQuorumEpochRequest (API key 53): a new leader tells a voter it won
// the epoch. Needed because replication is pull-based: without it voters
// would only learn the result from their own timeouts.
type BeginQuorumEpochRequest struct {
	CorrelationID int32
	ClusterID     string
	LeaderID      int32
	LeaderEpoch   int32
}

// BeginQuorumEpochResponse acknowledges it.
type BeginQuorumEpochResponse struct {
	CorrelationID  int32
	ErrorCode      protocol.ErrorCode
	PartitionError protocol.ErrorCode
	LeaderID       int32
	LeaderEpoch    int32
}

// EndQuorumEpochRequest (API key 54): a resigning leader tells a voter to
// start an election now, most caught-up successors first.
type EndQuorumEpochRequest struct {
	CorrelationID       int32
	ClusterID           string
	LeaderID            int32
	LeaderEpoch         int32
	PreferredSuccessors []int32
}

// EndQuorumEpochResponse acknowledges it.
type EndQuorumEpochResponse struct {
	CorrelationID  int32
	ErrorCode      protocol.ErrorCode
	PartitionError protocol.ErrorCode
	LeaderID       int32
	LeaderEpoch    int32
}

// FetchRequest (API key 1) on __cluster_metadata-0: a follower or observer
// pulls from FetchOffset (its log end offset), stating the epoch of its last
// entry so the leader can detect a diverging log.
type FetchRequest struct {
	CorrelationID      int32
	ClusterID          string
	ReplicaID          int32
	MaxWaitMs          int32
	MaxBytes           int32
	CurrentLeaderEpoch int32
	FetchOffset        int64
	LastFetchedEpoch   int32
}

// EpochEndOffset is a diverging epoch: the fetcher's log diverges from the
// leader's after EndOffset in Epoch, so it must truncate there.
type EpochEndOffset struct {
	Epoch     int32
	EndOffset int64
}

// FetchResponse carries records from FetchOffset, or tells the fetcher to
// truncate (DivergingEpoch) or to fetch a snapshot (SnapshotID) first.
type FetchResponse struct {
	CorrelationID  int32
	ErrorCode      protocol.ErrorCode
	PartitionError protocol.ErrorCode
	HighWatermark  int64 // -1 while the leader's is unknown
	LogStartOffset int64
	CurrentLeader  LeaderAndEpoch
	DivergingEpoch EpochEndOffset // Epoch -1 when none
	SnapshotID     SnapshotID     // Epoch -1 when none
	Records        []byte         // whole record batches, as stored
}

// FetchSnapshotRequest (API key 59): fetch bytes of a snapshot from Position.
type FetchSnapshotRequest struct {
	CorrelationID      int32
	ClusterID          string
	ReplicaID          int32
	MaxBytes           int32
	CurrentLeaderEpoch int32
	SnapshotID         SnapshotID
	Position           int64
}

// FetchSnapshotResponse carries a slice of the snapshot file: bytes
// [Position, Position+len(UnalignedRecords)) of Size. The slice may cut a
// batch in two ("unaligned records").
type FetchSnapshotResponse struct {
	CorrelationID    int32
	ErrorCode        protocol.ErrorCode
	PartitionError   protocol.ErrorCode
	CurrentLeader    LeaderAndEpoch
	SnapshotID       SnapshotID
	Size             int64
	Position         int64
	UnalignedRecords []byte
}

// DescribeQuorumRequest (API key 55): the leader's view of the quorum.
type DescribeQuorumRequest struct {
	CorrelationID int32
}

// DescribeQuorumResponse answers it; only the leader answers without error.
type DescribeQuorumResponse struct {
	CorrelationID  int32
	ErrorCode      protocol.ErrorCode
	PartitionError protocol.ErrorCode
	Quorum         QuorumInfo
}

// AddRaftVoterRequest (API key 80, KIP-853): an admin client asks the
// leader to add a voter, keyed by its id and the directory id of its
// metadata log directory, reachable on Listeners
// (AddRaftVoterRequest.json). ClusterID "" stands for null, which every
// receiver accepts; kafka-metadata-quorum.sh never sets it.
type AddRaftVoterRequest struct {
	CorrelationID    int32
	ClusterID        string
	TimeoutMs        int32
	VoterID          int32
	VoterDirectoryID metadata.Uuid
	Listeners        []RaftVoterListener
	AckWhenCommitted bool // version 1; true by default
}

// RaftVoterListener is one endpoint of a voter: a listener name and where
// it listens.
type RaftVoterListener struct {
	Name string
	Host string
	Port uint16
}

// AddRaftVoterResponse answers it: an error code and, when the leader says
// why, a message (AddRaftVoterResponse.json).
type AddRaftVoterResponse struct {
	CorrelationID int32
	ErrorCode     protocol.ErrorCode
	ErrorMessage  *string // nil: none
}

// RemoveRaftVoterRequest (API key 81, KIP-853): an admin client asks the
// leader to remove the voter with this id and directory id
// (RemoveRaftVoterRequest.json). ClusterID "" stands for null.
type RemoveRaftVoterRequest struct {
	CorrelationID    int32
	ClusterID        string
	VoterID          int32
	VoterDirectoryID metadata.Uuid
}

// RemoveRaftVoterResponse answers it (RemoveRaftVoterResponse.json).
type RemoveRaftVoterResponse struct {
	CorrelationID int32
	ErrorCode     protocol.ErrorCode
	ErrorMessage  *string // nil: none
}

// Kind implements sim.Message.
func (*VoteRequest) Kind() string              { return "Vote" }
func (*VoteResponse) Kind() string             { return "VoteResponse" }
func (*BeginQuorumEpochRequest) Kind() string  { return "BeginQuorumEpoch" }
func (*BeginQuorumEpochResponse) Kind() string { return "BeginQuorumEpochResponse" }
func (*EndQuorumEpochRequest) Kind() string    { return "EndQuorumEpoch" }
func (*EndQuorumEpochResponse) Kind() string   { return "EndQuorumEpochResponse" }
func (*FetchRequest) Kind() string             { return "Fetch(__cluster_metadata)" }
func (*FetchResponse) Kind() string            { return "FetchResponse(__cluster_metadata)" }
func (*FetchSnapshotRequest) Kind() string     { return "FetchSnapshot" }
func (*FetchSnapshotResponse) Kind() string    { return "FetchSnapshotResponse" }
func (*DescribeQuorumRequest) Kind() string    { return "DescribeQuorum" }
func (*DescribeQuorumResponse) Kind() string   { return "DescribeQuorumResponse" }
func (*AddRaftVoterRequest) Kind() string      { return "AddRaftVoter" }
func (*AddRaftVoterResponse) Kind() string     { return "AddRaftVoterResponse" }
func (*RemoveRaftVoterRequest) Kind() string   { return "RemoveRaftVoter" }
func (*RemoveRaftVoterResponse) Kind() string  { return "RemoveRaftVoterResponse" }

// Summary implements sim.Summarizer: one line for the trace and the feed.
func (r *VoteRequest) Summary() string {
	return fmt.Sprintf("candidate=%d epoch=%d last=(%d,%d)", r.CandidateID, r.CandidateEpoch, r.LastOffset, r.LastOffsetEpoch)
}
func (r *VoteResponse) Summary() string {
	return fmt.Sprintf("%s granted=%t leader=%d epoch=%d", errs(r.ErrorCode, r.PartitionError), r.VoteGranted, r.LeaderID, r.LeaderEpoch)
}
func (r *BeginQuorumEpochRequest) Summary() string {
	return fmt.Sprintf("leader=%d epoch=%d", r.LeaderID, r.LeaderEpoch)
}
func (r *BeginQuorumEpochResponse) Summary() string {
	return fmt.Sprintf("%s leader=%d epoch=%d", errs(r.ErrorCode, r.PartitionError), r.LeaderID, r.LeaderEpoch)
}
func (r *EndQuorumEpochRequest) Summary() string {
	return fmt.Sprintf("leader=%d epoch=%d successors=%v", r.LeaderID, r.LeaderEpoch, r.PreferredSuccessors)
}
func (r *EndQuorumEpochResponse) Summary() string {
	return fmt.Sprintf("%s leader=%d epoch=%d", errs(r.ErrorCode, r.PartitionError), r.LeaderID, r.LeaderEpoch)
}
func (r *FetchRequest) Summary() string {
	return fmt.Sprintf("replica=%d epoch=%d offset=%d lastFetchedEpoch=%d", r.ReplicaID, r.CurrentLeaderEpoch, r.FetchOffset, r.LastFetchedEpoch)
}
func (r *FetchResponse) Summary() string {
	s := fmt.Sprintf("%s leader=%d epoch=%d hw=%d bytes=%d", errs(r.ErrorCode, r.PartitionError), r.CurrentLeader.LeaderID, r.CurrentLeader.Epoch, r.HighWatermark, len(r.Records))
	if r.DivergingEpoch.Epoch >= 0 {
		s += fmt.Sprintf(" diverging=(%d,%d)", r.DivergingEpoch.EndOffset, r.DivergingEpoch.Epoch)
	}
	if r.SnapshotID.Epoch >= 0 {
		s += " snapshot=" + r.SnapshotID.String()
	}
	return s
}
func (r *FetchSnapshotRequest) Summary() string {
	return fmt.Sprintf("replica=%d snapshot=%s position=%d", r.ReplicaID, r.SnapshotID, r.Position)
}
func (r *FetchSnapshotResponse) Summary() string {
	return fmt.Sprintf("%s snapshot=%s position=%d bytes=%d size=%d", errs(r.ErrorCode, r.PartitionError), r.SnapshotID, r.Position, len(r.UnalignedRecords), r.Size)
}
func (r *DescribeQuorumResponse) Summary() string {
	return fmt.Sprintf("%s leader=%d epoch=%d hw=%d", errs(r.ErrorCode, r.PartitionError), r.Quorum.LeaderID, r.Quorum.LeaderEpoch, r.Quorum.HighWatermark)
}

func (r *AddRaftVoterRequest) Summary() string {
	return fmt.Sprintf("voter=%d directory=%s listeners=%d", r.VoterID, r.VoterDirectoryID, len(r.Listeners))
}
func (r *AddRaftVoterResponse) Summary() string { return r.ErrorCode.String() }
func (r *RemoveRaftVoterRequest) Summary() string {
	return fmt.Sprintf("voter=%d directory=%s", r.VoterID, r.VoterDirectoryID)
}
func (r *RemoveRaftVoterResponse) Summary() string { return r.ErrorCode.String() }

func errs(top, part protocol.ErrorCode) string {
	if top != protocol.NONE {
		return top.String()
	}
	return part.String()
}

// isRaftRequest reports whether m is a request raft nodes send to each
// other, so a connection reset for it (sim.Disconnected) belongs to raft.
// DescribeQuorum, AddRaftVoter and RemoveRaftVoter are not: admin tools
// send them.
func isRaftRequest(m any) bool {
	switch m.(type) {
	case *VoteRequest, *BeginQuorumEpochRequest, *EndQuorumEpochRequest, *FetchRequest, *FetchSnapshotRequest:
		return true
	}
	return false
}

// ClientMessage is a request or response of the APIs admin clients send to
// a raft client (DescribeQuorum, AddRaftVoter, RemoveRaftVoter), directly
// to a controller listener or through a broker's forwarding. Senders match
// answers by its correlation id. (The method's name keeps these types off
// protocol.Response.)
type ClientMessage interface {
	sim.Message
	ClientCorrelation() int32
}

// ClientRequest is a ClientMessage request: the sender sets its
// correlation id before sending it.
type ClientRequest interface {
	ClientMessage
	SetClientCorrelation(corr int32)
}

func (r *DescribeQuorumRequest) ClientCorrelation() int32   { return r.CorrelationID }
func (r *DescribeQuorumResponse) ClientCorrelation() int32  { return r.CorrelationID }
func (r *AddRaftVoterRequest) ClientCorrelation() int32     { return r.CorrelationID }
func (r *AddRaftVoterResponse) ClientCorrelation() int32    { return r.CorrelationID }
func (r *RemoveRaftVoterRequest) ClientCorrelation() int32  { return r.CorrelationID }
func (r *RemoveRaftVoterResponse) ClientCorrelation() int32 { return r.CorrelationID }

func (r *DescribeQuorumRequest) SetClientCorrelation(corr int32)  { r.CorrelationID = corr }
func (r *AddRaftVoterRequest) SetClientCorrelation(corr int32)    { r.CorrelationID = corr }
func (r *RemoveRaftVoterRequest) SetClientCorrelation(corr int32) { r.CorrelationID = corr }
