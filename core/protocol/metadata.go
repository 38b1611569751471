package protocol

import "kafkascope/core/metadata"

// MetadataRequest (API key 3) asks a broker what it knows of the cluster.
// Topics nil means every topic.
type MetadataRequest struct {
	RequestHeader
	Topics                 []string
	AllowAutoTopicCreation bool
}

// MetadataResponse is the broker's view, from its own metadata image (which
// may lag the controller's).
type MetadataResponse struct {
	ResponseHeader
	Brokers      []MetadataBroker
	ClusterID    string
	ControllerID int32
	Topics       []MetadataTopic
	Cause        *Cause // CauseNoController when the broker knows no active controller; not on the wire (cause.go)
}

// MetadataBroker is a live (unfenced) broker.
type MetadataBroker struct {
	NodeID int32
	Host   string
	Port   int32
	Rack   string
}

// MetadataTopic is one topic's partitions.
type MetadataTopic struct {
	ErrorCode  ErrorCode
	Name       string
	TopicID    metadata.Uuid
	IsInternal bool
	Partitions []MetadataPartition
	Cause      *Cause // the simulator's account of ErrorCode, not on the wire (cause.go)
}

// MetadataPartition is one partition's leader and replicas.
type MetadataPartition struct {
	ErrorCode       ErrorCode
	Index           int32
	LeaderID        int32
	LeaderEpoch     int32
	Replicas        []int32
	ISR             []int32
	OfflineReplicas []int32
	// ELR and LastKnownElr (KIP-966) are what Kafka's
	// DescribeTopicPartitions answers and kafka-topics.sh --describe
	// prints; the simulator's Metadata carries them instead of adding that
	// API. Empty unless eligible leader replicas are on.
	ELR          []int32
	LastKnownElr []int32
}

func (*MetadataRequest) Kind() string  { return "Metadata" }
func (*MetadataResponse) Kind() string { return "MetadataResponse" }
