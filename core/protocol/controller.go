package protocol

import (
	"fmt"

	"kafkascope/core/metadata"
)

// BrokerRegistrationRequest (API key 62): a starting broker asks the
// controller for a broker epoch.
type BrokerRegistrationRequest struct {
	RequestHeader
	BrokerID            int32
	ClusterID           string
	IncarnationID       metadata.Uuid
	Listeners           []metadata.Endpoint
	Rack                string
	PreviousBrokerEpoch int64
	LogDirs             []metadata.Uuid // the directory.id of each online log directory
	// Features is the broker's supported feature ranges (nil: Kafka 3.8's
	// default, metadata.version 1-20).
	Features []metadata.BrokerFeature
}

// BrokerRegistrationResponse carries the new broker epoch.
type BrokerRegistrationResponse struct {
	ResponseHeader
	ErrorCode   ErrorCode
	BrokerEpoch int64
}

// BrokerHeartbeatRequest (API key 63), sent every broker.heartbeat.interval.ms.
// It keeps the broker's session alive and reports how far it has replayed the
// metadata log.
type BrokerHeartbeatRequest struct {
	RequestHeader
	BrokerID              int32
	BrokerEpoch           int64
	CurrentMetadataOffset int64
	WantFence             bool
	WantShutDown          bool
	// CordonedLogDirs (v2, Kafka 4.3): the broker's cordoned directories,
	// nil when it does not report them.
	CordonedLogDirs []metadata.Uuid
}

// BrokerHeartbeatResponse tells the broker its state.
type BrokerHeartbeatResponse struct {
	ResponseHeader
	ErrorCode      ErrorCode
	IsCaughtUp     bool
	IsFenced       bool
	ShouldShutDown bool
}

// AlterPartitionRequest (API key 56): a leader asks the controller to change
// a partition's ISR.
type AlterPartitionRequest struct {
	RequestHeader
	BrokerID    int32
	BrokerEpoch int64
	Topics      []AlterPartitionTopic
}

// AlterPartitionTopic is one topic of the request.
type AlterPartitionTopic struct {
	TopicID    metadata.Uuid
	Partitions []AlterPartitionPartition
}

// AlterPartitionPartition proposes a new ISR for one partition, stamped with
// the leader and partition epochs it was computed from.
type AlterPartitionPartition struct {
	PartitionIndex      int32
	LeaderEpoch         int32
	NewISR              []int32
	LeaderRecoveryState int8
	PartitionEpoch      int32
}

// AlterPartitionResponse answers it with the partition's state after the
// change (or the error).
type AlterPartitionResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Topics    []AlterPartitionTopicResponse
}

// AlterPartitionTopicResponse is one topic's results.
type AlterPartitionTopicResponse struct {
	TopicID    metadata.Uuid
	Partitions []AlterPartitionPartitionResponse
}

// AlterPartitionPartitionResponse is one partition's state after the change.
type AlterPartitionPartitionResponse struct {
	PartitionIndex      int32
	ErrorCode           ErrorCode
	LeaderID            int32
	LeaderEpoch         int32
	ISR                 []int32
	LeaderRecoveryState int8
	PartitionEpoch      int32
}

func (*BrokerRegistrationRequest) Kind() string  { return "BrokerRegistration" }
func (*BrokerRegistrationResponse) Kind() string { return "BrokerRegistrationResponse" }
func (*BrokerHeartbeatRequest) Kind() string     { return "BrokerHeartbeat" }
func (*BrokerHeartbeatResponse) Kind() string    { return "BrokerHeartbeatResponse" }
func (*AlterPartitionRequest) Kind() string      { return "AlterPartition" }
func (*AlterPartitionResponse) Kind() string     { return "AlterPartitionResponse" }

func (r *BrokerHeartbeatRequest) Summary() string {
	return fmt.Sprintf("broker=%d epoch=%d metadataOffset=%d", r.BrokerID, r.BrokerEpoch, r.CurrentMetadataOffset)
}

func (r *AlterPartitionRequest) Summary() string {
	s := fmt.Sprintf("broker=%d", r.BrokerID)
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			s += fmt.Sprintf(" p%d isr=%v", p.PartitionIndex, p.NewISR)
		}
	}
	return s
}
