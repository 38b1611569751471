package protocol

import (
	"fmt"

	"kafkascope/core/metadata"
)

// The ZooKeeper era's controller APIs (Kafka 2.8.0, IBP 2.8-IV1): the
// controller broker tells the others what to lead and follow
// (LeaderAndIsr v5), what the cluster looks like (UpdateMetadata v7) and
// what to stop (StopReplica v3); brokers ask it to shut them down
// (ControlledShutdown v3) and to change an ISR (AlterIsr v0, KIP-497).
// Shapes follow clients/src/main/resources/common/message/*.json at tag
// 2.8.0. Every controller request carries the controller's epoch, which a
// broker compares with the highest it has seen (a zombie controller gets
// STALE_CONTROLLER_EPOCH), and the broker epoch (the czxid of the target's
// /brokers/ids znode) of the incarnation it was meant for.

// ControllerHeader is what every controller-to-broker request starts with.
type ControllerHeader struct {
	ControllerID    int32
	ControllerEpoch int32
	BrokerEpoch     int64
}

// LeaderAndIsrPartitionState is one partition's state as the controller
// wrote it to its /brokers/topics/T/partitions/P/state znode; ZkVersion is
// that znode's version, which a leader's AlterIsr quotes back.
type LeaderAndIsrPartitionState struct {
	TopicName        string
	PartitionIndex   int32
	ControllerEpoch  int32
	Leader           int32
	LeaderEpoch      int32
	ISR              []int32
	ZkVersion        int32
	Replicas         []int32
	AddingReplicas   []int32
	RemovingReplicas []int32
	IsNew            bool
}

// LeaderAndIsrTopicState is one topic's partitions and its id (v5).
type LeaderAndIsrTopicState struct {
	TopicName       string
	TopicID         metadata.Uuid
	PartitionStates []LeaderAndIsrPartitionState
}

// LeaderAndIsrLiveLeader is a leader named in the request and its endpoint.
type LeaderAndIsrLiveLeader struct {
	BrokerID int32
	HostName string
	Port     int32
}

// LeaderAndIsrRequest (API key 4) makes the target lead or follow the
// partitions it names.
type LeaderAndIsrRequest struct {
	RequestHeader
	ControllerHeader
	TopicStates []LeaderAndIsrTopicState
	LiveLeaders []LeaderAndIsrLiveLeader
}

// LeaderAndIsrPartitionError is one partition's outcome.
type LeaderAndIsrPartitionError struct {
	TopicName      string
	PartitionIndex int32
	ErrorCode      ErrorCode
}

// LeaderAndIsrResponse answers it: a top-level error (a stale controller
// or broker epoch) or one error per partition.
type LeaderAndIsrResponse struct {
	ResponseHeader
	ErrorCode       ErrorCode
	PartitionErrors []LeaderAndIsrPartitionError
}

// UpdateMetadataPartitionState is one partition's state for the brokers'
// metadata caches; OfflineReplicas are replicas on brokers that are not
// alive.
type UpdateMetadataPartitionState struct {
	TopicName       string
	PartitionIndex  int32
	ControllerEpoch int32
	Leader          int32
	LeaderEpoch     int32
	ISR             []int32
	ZkVersion       int32
	Replicas        []int32
	OfflineReplicas []int32
}

// UpdateMetadataTopicState is one topic's partitions and its id (v7).
type UpdateMetadataTopicState struct {
	TopicName       string
	TopicID         metadata.Uuid
	PartitionStates []UpdateMetadataPartitionState
}

// UpdateMetadataBroker is one live broker and its listeners.
type UpdateMetadataBroker struct {
	ID        int32
	Endpoints []metadata.Endpoint
	Rack      string
}

// UpdateMetadataRequest (API key 6) refreshes the target's metadata cache:
// the live brokers (all of them, every time) and the partitions named.
type UpdateMetadataRequest struct {
	RequestHeader
	ControllerHeader
	TopicStates []UpdateMetadataTopicState
	LiveBrokers []UpdateMetadataBroker
}

// UpdateMetadataResponse answers it.
type UpdateMetadataResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
}

// StopReplicaPartitionState is one partition to stop: LeaderEpoch is the
// epoch the controller knows (-2 when the topic is being deleted, so the
// check is skipped); DeletePartition removes the replica's log too.
type StopReplicaPartitionState struct {
	PartitionIndex  int32
	LeaderEpoch     int32
	DeletePartition bool
}

// StopReplicaTopicState is one topic's partitions to stop.
type StopReplicaTopicState struct {
	TopicName       string
	PartitionStates []StopReplicaPartitionState
}

// StopReplicaRequest (API key 5) makes the target stop fetching (and
// maybe delete) replicas.
type StopReplicaRequest struct {
	RequestHeader
	ControllerHeader
	TopicStates []StopReplicaTopicState
}

// StopReplicaPartitionError is one partition's outcome.
type StopReplicaPartitionError struct {
	TopicName      string
	PartitionIndex int32
	ErrorCode      ErrorCode
}

// StopReplicaResponse answers it.
type StopReplicaResponse struct {
	ResponseHeader
	ErrorCode       ErrorCode
	PartitionErrors []StopReplicaPartitionError
}

// ControlledShutdownRequest (API key 7): a broker about to stop asks the
// controller to move its leaderships away first.
type ControlledShutdownRequest struct {
	RequestHeader
	BrokerID    int32
	BrokerEpoch int64
}

// TopicPartitionName names one partition.
type TopicPartitionName struct {
	TopicName      string
	PartitionIndex int32
}

// ControlledShutdownResponse lists the partitions the broker still leads
// (those with no other replica to move to).
type ControlledShutdownResponse struct {
	ResponseHeader
	ErrorCode           ErrorCode
	RemainingPartitions []TopicPartitionName
}

// AlterIsrPartition proposes a new ISR, stamped with the leader epoch and
// the state znode's version it was computed from.
type AlterIsrPartition struct {
	PartitionIndex    int32
	LeaderEpoch       int32
	NewISR            []int32
	CurrentIsrVersion int32
}

// AlterIsrTopic is one topic's proposals.
type AlterIsrTopic struct {
	Name       string
	Partitions []AlterIsrPartition
}

// AlterIsrRequest (API key 56, v0, KIP-497): a leader asks the controller
// to write a new ISR to ZooKeeper.
type AlterIsrRequest struct {
	RequestHeader
	BrokerID    int32
	BrokerEpoch int64
	Topics      []AlterIsrTopic
}

// AlterIsrPartitionResponse is one partition's state after the change.
type AlterIsrPartitionResponse struct {
	PartitionIndex    int32
	ErrorCode         ErrorCode
	LeaderID          int32
	LeaderEpoch       int32
	ISR               []int32
	CurrentIsrVersion int32
}

// AlterIsrTopicResponse is one topic's results.
type AlterIsrTopicResponse struct {
	Name       string
	Partitions []AlterIsrPartitionResponse
}

// AlterIsrResponse answers it.
type AlterIsrResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Topics    []AlterIsrTopicResponse
}

func (*LeaderAndIsrRequest) Kind() string        { return "LeaderAndIsr" }
func (*LeaderAndIsrResponse) Kind() string       { return "LeaderAndIsrResponse" }
func (*UpdateMetadataRequest) Kind() string      { return "UpdateMetadata" }
func (*UpdateMetadataResponse) Kind() string     { return "UpdateMetadataResponse" }
func (*StopReplicaRequest) Kind() string         { return "StopReplica" }
func (*StopReplicaResponse) Kind() string        { return "StopReplicaResponse" }
func (*ControlledShutdownRequest) Kind() string  { return "ControlledShutdown" }
func (*ControlledShutdownResponse) Kind() string { return "ControlledShutdownResponse" }
func (*AlterIsrRequest) Kind() string            { return "AlterIsr" }
func (*AlterIsrResponse) Kind() string           { return "AlterIsrResponse" }
func (r *LeaderAndIsrRequest) Summary() string   { return r.ControllerHeader.summary(r.partitions()) }
func (r *UpdateMetadataRequest) Summary() string { return r.ControllerHeader.summary(r.partitions()) }
func (r *StopReplicaRequest) Summary() string    { return r.ControllerHeader.summary(r.partitions()) }
func (r *ControlledShutdownRequest) Summary() string {
	return fmt.Sprintf("broker=%d epoch=%d", r.BrokerID, r.BrokerEpoch)
}

func (r *AlterIsrRequest) Summary() string {
	s := fmt.Sprintf("broker=%d", r.BrokerID)
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			s += fmt.Sprintf(" %s-%d isr=%v", t.Name, p.PartitionIndex, p.NewISR)
		}
	}
	return s
}

func (h ControllerHeader) summary(partitions int) string {
	return fmt.Sprintf("controller=%d epoch=%d partitions=%d", h.ControllerID, h.ControllerEpoch, partitions)
}

func (r *LeaderAndIsrRequest) partitions() (n int) {
	for _, t := range r.TopicStates {
		n += len(t.PartitionStates)
	}
	return n
}

func (r *UpdateMetadataRequest) partitions() (n int) {
	for _, t := range r.TopicStates {
		n += len(t.PartitionStates)
	}
	return n
}

func (r *StopReplicaRequest) partitions() (n int) {
	for _, t := range r.TopicStates {
		n += len(t.PartitionStates)
	}
	return n
}
