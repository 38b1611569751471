package protocol

import "kafkascope/core/metadata"

// AddRaftVoterRequest (API key 80, KIP-853) asks the KRaft quorum to add a
// voter, as Admin.addRaftVoter sends it (AddRaftVoterRequest.json). Like
// DescribeQuorum a broker forwards it to the active controller, whose raft
// client answers; sent to a controller listener (--bootstrap-controller) it
// is the raft package's AddRaftVoterRequest. ClusterID "" stands for null,
// which Admin.addRaftVoter sends unless its options name a cluster.
type AddRaftVoterRequest struct {
	RequestHeader
	ClusterID        string
	TimeoutMs        int32
	VoterID          int32
	VoterDirectoryID metadata.Uuid
	Listeners        []RaftVoterListener
}

// RaftVoterListener is one endpoint of a voter (RaftVoterEndpoint): an
// upper-case listener name, a host and a port.
type RaftVoterListener struct {
	Name string
	Host string
	Port uint16
}

// AddRaftVoterResponse answers it: an error code and an optional message.
type AddRaftVoterResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ErrorMessage *string // nil: null
}

// RemoveRaftVoterRequest (API key 81, KIP-853) asks the quorum to remove
// the voter with this id and metadata directory id
// (RemoveRaftVoterRequest.json), forwarded by a broker as AddRaftVoter is.
type RemoveRaftVoterRequest struct {
	RequestHeader
	ClusterID        string
	VoterID          int32
	VoterDirectoryID metadata.Uuid
}

// RemoveRaftVoterResponse answers it.
type RemoveRaftVoterResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ErrorMessage *string // nil: null
}

func (*AddRaftVoterRequest) Kind() string     { return "AddRaftVoter" }
func (*AddRaftVoterResponse) Kind() string    { return "AddRaftVoterResponse" }
func (*RemoveRaftVoterRequest) Kind() string  { return "RemoveRaftVoter" }
func (*RemoveRaftVoterResponse) Kind() string { return "RemoveRaftVoterResponse" }
