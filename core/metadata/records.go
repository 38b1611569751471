package metadata

import (
	"fmt"
	"strings"
)

// Record is one entry of the __cluster_metadata log. The types and field
// names are Kafka's (metadata/src/main/resources/common/metadata/*.json).
type Record interface {
	// RecordType is Kafka's record name, e.g. "PartitionChangeRecord".
	RecordType() string
	// Describe renders the fields the way a metadata dump shows them.
	Describe() string
}

// Sentinels used in partition records.
const (
	NoLeader       int32 = -1 // Leader: the partition has no leader
	NoLeaderChange int32 = -2 // PartitionChangeRecord.Leader: unchanged

	LeaderRecovered   int8 = 0  // elected from the ISR, or recovered
	LeaderRecovering  int8 = 1  // elected uncleanly and still recovering
	NoRecoveryChange  int8 = -1 // PartitionChangeRecord: unchanged
	FencingFence      int8 = 1  // BrokerRegistrationChangeRecord.Fenced
	FencingUnfence    int8 = -1 //
	FencingNone       int8 = 0  //
	ShutdownNone      int8 = 0  // BrokerRegistrationChangeRecord.InControlledShutdown
	ShutdownRequested int8 = 1  //
)

// Config resource types as ConfigRecord stores them.
const (
	ResourceTopic  int8 = 2
	ResourceBroker int8 = 4
)

// Endpoint is a listener a broker registers.
type Endpoint struct {
	Name string // e.g. "PLAINTEXT"
	Host string
	Port int32
}

// RegisterBrokerRecord: a broker (re)registered; it starts fenced.
//
// The fields after InControlledShutdown exist for the on-disk form (codec.go)
// and are ignored by Image.Apply; their zero values encode what a Kafka 3.8
// broker with this package's defaults sends.
type RegisterBrokerRecord struct {
	BrokerID             int32
	IncarnationID        Uuid
	BrokerEpoch          int64
	Endpoints            []Endpoint
	Rack                 string // "" is written as null (no broker.rack)
	Fenced               bool
	InControlledShutdown bool

	// IsMigratingZkBroker is true only for a ZooKeeper-mode broker during a
	// migration; KRaft brokers leave it false.
	IsMigratingZkBroker bool
	// SecurityProtocols holds each endpoint's security protocol id
	// (PLAINTEXT=0, SSL=1, SASL_PLAINTEXT=2, SASL_SSL=3), parallel to
	// Endpoints. nil: derived from each listener's name, as Kafka's default
	// listener.security.protocol.map does (see SecurityProtocolFor).
	SecurityProtocols []int16
	// Features is the broker's supported feature ranges. nil: what a 3.8
	// broker sends by default (DefaultBrokerFeatures: metadata.version 1-20).
	Features []BrokerFeature
	// LogDirs is the broker's online log directory ids (each log dir's
	// meta.properties directory.id), sorted as CompareUuids orders them.
	// A 3.8 controller at metadata.version 3.8-IV0 requires at least one;
	// nil writes none.
	LogDirs []Uuid
	// CordonedLogDirs (version 4, Kafka 4.3): the directories that take no
	// new partitions. nil is null: a registration never carries it; a
	// snapshot restates what a heartbeat set.
	CordonedLogDirs []Uuid
}

// BrokerFeature is one feature range a broker supports.
type BrokerFeature struct {
	Name                string
	MinSupportedVersion int16
	MaxSupportedVersion int16
}

// BrokerRegistrationChangeRecord: a broker was fenced, unfenced, or began a
// controlled shutdown.
type BrokerRegistrationChangeRecord struct {
	BrokerID             int32
	BrokerEpoch          int64
	Fenced               int8 // FencingFence, FencingUnfence or FencingNone
	InControlledShutdown int8
	// LogDirs, when non-empty, replaces the broker's online log directories
	// (Kafka writes it, at record version 2, when directories go offline).
	// Ignored by Image.Apply.
	LogDirs []Uuid
	// CordonedLogDirs (version 3, Kafka 4.3), when non-nil, replaces the
	// broker's cordoned directories: a 4.3 broker reports them (none, by
	// default) in its first heartbeat after it caught up.
	CordonedLogDirs []Uuid
}

// UnregisterBrokerRecord: a broker was removed from the cluster.
type UnregisterBrokerRecord struct {
	BrokerID    int32
	BrokerEpoch int64
}

// TopicRecord: a topic was created.
type TopicRecord struct {
	Name    string
	TopicID Uuid
}

// PartitionRecord: a partition was created (or fully restated).
//
// The fields after PartitionEpoch exist for the on-disk form (codec.go) and
// are ignored by Image.Apply.
type PartitionRecord struct {
	PartitionID         int32
	TopicID             Uuid
	Replicas            []int32
	ISR                 []int32
	Leader              int32
	LeaderRecoveryState int8
	LeaderEpoch         int32
	PartitionEpoch      int32

	// RemovingReplicas and AddingReplicas restate a reassignment in progress
	// (a snapshot's PartitionRecord); nil when none.
	RemovingReplicas []int32
	AddingReplicas   []int32
	// Directories holds the log directory id of each replica, parallel to
	// Replicas: the broker's only log dir when it has exactly one,
	// DirectoryUnassigned when it is not registered (or has several),
	// DirectoryMigrating when it registered none.
	Directories []Uuid
	// EligibleLeaderReplicas and LastKnownElr (KIP-966) are nil below
	// metadata.version 3.9-IV0; non-nil needs record version 2.
	EligibleLeaderReplicas []int32
	LastKnownElr           []int32
}

// PartitionChangeRecord: part of a partition's state changed. Nil slices and
// the NoLeaderChange / NoRecoveryChange sentinels mean "unchanged". Replaying
// it bumps the partition epoch, and the leader epoch when Leader is set.
type PartitionChangeRecord struct {
	PartitionID         int32
	TopicID             Uuid
	ISR                 []int32
	Leader              int32
	Replicas            []int32
	RemovingReplicas    []int32 // nil: unchanged; empty: cleared
	AddingReplicas      []int32 // nil: unchanged; empty: cleared
	LeaderRecoveryState int8

	// The fields below exist for the on-disk form (codec.go) and are ignored
	// by Image.Apply. nil: unchanged.
	//
	// Directories holds the log directory id of each replica of the new
	// replica list (see PartitionRecord.Directories); Kafka sets it whenever
	// that list differs from the partition's current directories.
	Directories []Uuid
	// EligibleLeaderReplicas and LastKnownElr (KIP-966) stay nil below
	// metadata.version 3.9-IV0; non-nil needs record version 2.
	EligibleLeaderReplicas []int32
	LastKnownElr           []int32
}

// NewPartitionChange returns a change that changes nothing yet: its
// sentinels are set (a zero Leader would mean "broker 0 leads").
func NewPartitionChange(topicID Uuid, partition int32) *PartitionChangeRecord {
	return &PartitionChangeRecord{PartitionID: partition, TopicID: topicID, Leader: NoLeaderChange, LeaderRecoveryState: NoRecoveryChange}
}

// RemoveTopicRecord: a topic was deleted.
type RemoveTopicRecord struct {
	TopicID Uuid
}

// ConfigRecord: a dynamic config was set (Value non-nil) or removed.
type ConfigRecord struct {
	ResourceType int8
	ResourceName string
	Name         string
	Value        *string
}

// FeatureLevelRecord: a feature (metadata.version) was set.
type FeatureLevelRecord struct {
	Name         string
	FeatureLevel int16
}

// ProducerIdsRecord: the controller gave broker BrokerID a block of
// producer ids (AllocateProducerIds); NextProducerID is the first id of
// the next block. A snapshot states it with BrokerID and BrokerEpoch -1.
type ProducerIdsRecord struct {
	BrokerID       int32
	BrokerEpoch    int64
	NextProducerID int64
}

// NoOpRecord: written by the active controller to show it is alive.
type NoOpRecord struct{}

// BeginTransactionRecord opens a metadata transaction: the records up to
// the matching EndTransactionRecord take effect together (KIP-868). Kafka
// 3.8 wraps the bootstrap records of an empty log in one.
type BeginTransactionRecord struct {
	Name *string // an optional description; nil is null
}

// EndTransactionRecord closes a metadata transaction.
type EndTransactionRecord struct{}

// ZkMigrationStateRecord marks the ZooKeeper-to-KRaft migration state;
// a cluster born in KRaft writes ZkMigrationNone once, at bootstrap.
type ZkMigrationStateRecord struct {
	State int8
}

// ClearElrRecord (Kafka 4.1+, KIP-966): min.insync.replicas changed, so
// the eligible leader replicas, which were chosen against the old value,
// no longer mean anything. Replaying it empties ELR and LastKnownElr of
// every partition of TopicName ("": of every topic) that has either.
type ClearElrRecord struct {
	TopicName string
}

// ZkMigrationNone is the migration state of a cluster that never ran on
// ZooKeeper.
const ZkMigrationNone int8 = 0

func (*RegisterBrokerRecord) RecordType() string           { return "RegisterBrokerRecord" }
func (*BrokerRegistrationChangeRecord) RecordType() string { return "BrokerRegistrationChangeRecord" }
func (*UnregisterBrokerRecord) RecordType() string         { return "UnregisterBrokerRecord" }
func (*TopicRecord) RecordType() string                    { return "TopicRecord" }
func (*PartitionRecord) RecordType() string                { return "PartitionRecord" }
func (*PartitionChangeRecord) RecordType() string          { return "PartitionChangeRecord" }
func (*RemoveTopicRecord) RecordType() string              { return "RemoveTopicRecord" }
func (*ConfigRecord) RecordType() string                   { return "ConfigRecord" }
func (*FeatureLevelRecord) RecordType() string             { return "FeatureLevelRecord" }
func (*BeginTransactionRecord) RecordType() string         { return "BeginTransactionRecord" }
func (*EndTransactionRecord) RecordType() string           { return "EndTransactionRecord" }
func (*ZkMigrationStateRecord) RecordType() string         { return "ZkMigrationStateRecord" }
func (*NoOpRecord) RecordType() string                     { return "NoOpRecord" }
func (*ClearElrRecord) RecordType() string                 { return "ClearElrRecord" }
func (r *ClearElrRecord) Describe() string                 { return "topicName=" + r.TopicName }

func ids(v []int32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func (r *RegisterBrokerRecord) Describe() string {
	return fmt.Sprintf("brokerId=%d, brokerEpoch=%d, incarnationId=%s, fenced=%t, inControlledShutdown=%t", r.BrokerID, r.BrokerEpoch, r.IncarnationID, r.Fenced, r.InControlledShutdown)
}
func (r *BrokerRegistrationChangeRecord) Describe() string {
	return fmt.Sprintf("brokerId=%d, brokerEpoch=%d, fenced=%d, inControlledShutdown=%d", r.BrokerID, r.BrokerEpoch, r.Fenced, r.InControlledShutdown)
}
func (r *UnregisterBrokerRecord) Describe() string {
	return fmt.Sprintf("brokerId=%d, brokerEpoch=%d", r.BrokerID, r.BrokerEpoch)
}
func (r *TopicRecord) Describe() string { return fmt.Sprintf("name=%s, topicId=%s", r.Name, r.TopicID) }
func (r *PartitionRecord) Describe() string {
	return fmt.Sprintf("partitionId=%d, topicId=%s, replicas=%s, isr=%s, leader=%d, leaderRecoveryState=%d, leaderEpoch=%d, partitionEpoch=%d",
		r.PartitionID, r.TopicID, ids(r.Replicas), ids(r.ISR), r.Leader, r.LeaderRecoveryState, r.LeaderEpoch, r.PartitionEpoch)
}
func (r *PartitionChangeRecord) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partitionId=%d, topicId=%s", r.PartitionID, r.TopicID)
	if r.ISR != nil {
		fmt.Fprintf(&b, ", isr=%s", ids(r.ISR))
	}
	if r.Leader != NoLeaderChange {
		fmt.Fprintf(&b, ", leader=%d", r.Leader)
	}
	if r.Replicas != nil {
		fmt.Fprintf(&b, ", replicas=%s", ids(r.Replicas))
	}
	if r.RemovingReplicas != nil {
		fmt.Fprintf(&b, ", removingReplicas=%s", ids(r.RemovingReplicas))
	}
	if r.AddingReplicas != nil {
		fmt.Fprintf(&b, ", addingReplicas=%s", ids(r.AddingReplicas))
	}
	if r.LeaderRecoveryState != NoRecoveryChange {
		fmt.Fprintf(&b, ", leaderRecoveryState=%d", r.LeaderRecoveryState)
	}
	return b.String()
}
func (r *RemoveTopicRecord) Describe() string { return fmt.Sprintf("topicId=%s", r.TopicID) }
func (r *ConfigRecord) Describe() string {
	v := "null"
	if r.Value != nil {
		v = *r.Value
	}
	return fmt.Sprintf("resourceType=%d, resourceName=%s, name=%s, value=%s", r.ResourceType, r.ResourceName, r.Name, v)
}
func (r *FeatureLevelRecord) Describe() string {
	return fmt.Sprintf("name=%s, featureLevel=%d", r.Name, r.FeatureLevel)
}
func (*NoOpRecord) Describe() string { return "" }
func (r *ProducerIdsRecord) Describe() string {
	return fmt.Sprintf("brokerId=%d, brokerEpoch=%d, nextProducerId=%d", r.BrokerID, r.BrokerEpoch, r.NextProducerID)
}
func (*ProducerIdsRecord) RecordType() string { return "ProducerIdsRecord" }

// Entry is a record at its offset in the metadata log.
type Entry struct {
	Offset int64
	Epoch  int32 // the controller (quorum) epoch that wrote it
	Record Record
}

func (r *BeginTransactionRecord) Describe() string {
	if r.Name == nil {
		return "name=null"
	}
	return "name=" + *r.Name
}
func (*EndTransactionRecord) Describe() string { return "" }
func (r *ZkMigrationStateRecord) Describe() string {
	return fmt.Sprintf("zkMigrationState=%d", r.State)
}
