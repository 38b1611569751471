package protocol

import "kafkascope/core/metadata"

// CreateTopicsRequest (API key 19). Brokers forward it to the active
// controller, which decides.
type CreateTopicsRequest struct {
	RequestHeader
	Topics       []CreatableTopic
	TimeoutMs    int32
	ValidateOnly bool
}

// CreatableTopic is one topic to create. NumPartitions and ReplicationFactor
// are -1 to take the broker defaults, and must be -1 when Assignments is set.
type CreatableTopic struct {
	Name              string
	NumPartitions     int32
	ReplicationFactor int16
	Assignments       [][]int32 // partition i's replicas, in order; nil for automatic placement
	Configs           []ConfigEntry
}

// ConfigEntry is a config name and value (Value nil = null).
type ConfigEntry struct {
	Name  string
	Value *string
}

// CreateTopicsResponse answers CreateTopicsRequest.
type CreateTopicsResponse struct {
	ResponseHeader
	Topics []CreatableTopicResult
}

// CreatableTopicResult is one topic's outcome.
type CreatableTopicResult struct {
	Name              string
	TopicID           metadata.Uuid
	ErrorCode         ErrorCode
	ErrorMessage      string
	NumPartitions     int32
	ReplicationFactor int16
}

// DeleteTopicsRequest (API key 20).
type DeleteTopicsRequest struct {
	RequestHeader
	TopicNames []string
	TimeoutMs  int32
}

// DeleteTopicsResponse answers it.
type DeleteTopicsResponse struct {
	ResponseHeader
	Responses []DeletableTopicResult
}

// DeletableTopicResult is one topic's outcome.
type DeletableTopicResult struct {
	Name         string
	TopicID      metadata.Uuid
	ErrorCode    ErrorCode
	ErrorMessage string
}

// CreatePartitionsRequest (API key 37) raises partition counts.
type CreatePartitionsRequest struct {
	RequestHeader
	Topics       []CreatePartitionsTopic
	TimeoutMs    int32
	ValidateOnly bool
}

// CreatePartitionsTopic asks for Count partitions in total.
type CreatePartitionsTopic struct {
	Name        string
	Count       int32
	Assignments [][]int32 // replicas of each new partition; nil for automatic placement
}

// CreatePartitionsResponse answers it.
type CreatePartitionsResponse struct {
	ResponseHeader
	Results []CreatePartitionsTopicResult
}

// CreatePartitionsTopicResult is one topic's outcome.
type CreatePartitionsTopicResult struct {
	Name         string
	ErrorCode    ErrorCode
	ErrorMessage string
}

func (*CreateTopicsRequest) Kind() string      { return "CreateTopics" }
func (*CreateTopicsResponse) Kind() string     { return "CreateTopicsResponse" }
func (*DeleteTopicsRequest) Kind() string      { return "DeleteTopics" }
func (*DeleteTopicsResponse) Kind() string     { return "DeleteTopicsResponse" }
func (*CreatePartitionsRequest) Kind() string  { return "CreatePartitions" }
func (*CreatePartitionsResponse) Kind() string { return "CreatePartitionsResponse" }

// Election types of ElectLeaders.
const (
	ElectPreferred int8 = 0
	ElectUnclean   int8 = 1
)

// ElectLeadersRequest (API key 43) asks the controller to elect leaders:
// the preferred replica, or uncleanly any live replica. Partitions nil
// means every partition.
type ElectLeadersRequest struct {
	RequestHeader
	ElectionType    int8
	TopicPartitions []ElectTopicPartitions // nil: all partitions
	TimeoutMs       int32
}

// ElectTopicPartitions names partitions of one topic.
type ElectTopicPartitions struct {
	Topic      string
	Partitions []int32
}

// ElectLeadersResponse answers it, per partition.
type ElectLeadersResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Results   []ElectTopicResult
}

// ElectTopicResult is one topic's outcomes.
type ElectTopicResult struct {
	Topic      string
	Partitions []ElectPartitionResult
}

// ElectPartitionResult is one partition's outcome (NONE: elected).
type ElectPartitionResult struct {
	PartitionID  int32
	ErrorCode    ErrorCode
	ErrorMessage string
}

func (*ElectLeadersRequest) Kind() string  { return "ElectLeaders" }
func (*ElectLeadersResponse) Kind() string { return "ElectLeadersResponse" }
