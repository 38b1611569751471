package protocol

import (
	"fmt"
	"slices"
)

// The transaction APIs (KIP-98; schemas in clients/src/main/resources/
// common/message/ at 3.8.0). A transactional producer finds its
// transaction coordinator (FindCoordinator, key type TRANSACTION), gets
// its producer id and epoch (InitProducerId with a TransactionalID), adds
// each partition before its first record goes there (AddPartitionsToTxn)
// and each consumer group whose offsets it commits (AddOffsetsToTxn, then
// TxnOffsetCommit to the group coordinator), and ends with EndTxn; the
// coordinator then writes the COMMIT or ABORT marker to every partition
// through their leaders (WriteTxnMarkers).

// AddPartitionsToTxnRequest (API key 24). Clients send version 3 and
// below: one transaction (the V3AndBelow fields). Brokers send version 4
// and above, several transactions, possibly VerifyOnly (KIP-890 part 1).
type AddPartitionsToTxnRequest struct {
	RequestHeader
	Transactions []AddPartitionsToTxnTransaction // v4+
	// A client's one transaction (v0-3).
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	Topics          []TxnTopic
}

// AddPartitionsToTxnTransaction is one transaction of a v4+ request.
type AddPartitionsToTxnTransaction struct {
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	VerifyOnly      bool
	Topics          []TxnTopic
}

// TxnTopic names partitions of one topic.
type TxnTopic struct {
	Name       string
	Partitions []int32
}

// AddPartitionsToTxnResponse answers it: per partition (v0-3), or per
// transaction (v4+).
type AddPartitionsToTxnResponse struct {
	ResponseHeader
	ThrottleTimeMs       int32
	ErrorCode            ErrorCode // v4+
	ResultsByTransaction []AddPartitionsToTxnResult
	Results              []TxnTopicResult // v0-3
}

// AddPartitionsToTxnResult is one transaction's results (v4+).
type AddPartitionsToTxnResult struct {
	TransactionalID string
	TopicResults    []TxnTopicResult
}

// TxnTopicResult is one topic's partition results.
type TxnTopicResult struct {
	Name       string
	Partitions []TxnPartitionResult
}

// TxnPartitionResult is one partition's error.
type TxnPartitionResult struct {
	PartitionIndex int32
	ErrorCode      ErrorCode
}

// AddOffsetsToTxnRequest (API key 25) adds a group's __consumer_offsets
// partition to the transaction.
type AddOffsetsToTxnRequest struct {
	RequestHeader
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	GroupID         string
}

// AddOffsetsToTxnResponse answers it.
type AddOffsetsToTxnResponse struct {
	ResponseHeader
	ThrottleTimeMs int32
	ErrorCode      ErrorCode
}

// EndTxnRequest (API key 26) commits or aborts the transaction.
type EndTxnRequest struct {
	RequestHeader
	// Version: from EndTxnVersionTransactionV2 the coordinator bumps the
	// producer epoch at every end and answers the new one (KIP-890 part 2).
	Version         int16
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	Committed       bool
}

// EndTxnResponse answers it. ProducerID and ProducerEpoch (v5+) are the
// producer's id and epoch after a transactions-v2 end; -1 otherwise.
type EndTxnResponse struct {
	ResponseHeader
	ThrottleTimeMs int32
	ErrorCode      ErrorCode
	ProducerID     int64
	ProducerEpoch  int16
}

// The first versions of EndTxn and TxnOffsetCommit that belong to
// transactions v2 (KIP-890 part 2): the request builders cap them one
// below unless the producer uses v2 (EndTxnRequest and
// TxnOffsetCommitRequest.LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2).
const (
	EndTxnVersionTransactionV2          = 5
	TxnOffsetCommitVersionTransactionV2 = 5
	// TxnOffsetCommitVersionTransactionAbortable is the first version
	// whose sender takes TRANSACTION_ABORTABLE (KIP-890 part 1).
	TxnOffsetCommitVersionTransactionAbortable = 4
)

// WriteTxnMarkersRequest (API key 27): a transaction coordinator asks a
// partition leader to append transaction markers.
type WriteTxnMarkersRequest struct {
	RequestHeader
	Markers []WritableTxnMarker
}

// WritableTxnMarker is one producer's marker for some partitions; Commit
// is the TransactionResult (false: ABORT).
type WritableTxnMarker struct {
	ProducerID       int64
	ProducerEpoch    int16
	Commit           bool
	Topics           []TxnTopic
	CoordinatorEpoch int32
}

// WriteTxnMarkersResponse answers it, per producer and partition.
type WriteTxnMarkersResponse struct {
	ResponseHeader
	Markers []WritableTxnMarkerResult
}

// WritableTxnMarkerResult is one producer's results.
type WritableTxnMarkerResult struct {
	ProducerID int64
	Topics     []TxnTopicResult
}

// TxnOffsetCommitRequest (API key 28) commits offsets inside a
// transaction, to the group's coordinator.
type TxnOffsetCommitRequest struct {
	RequestHeader
	// Version: from TxnOffsetCommitVersionTransactionV2 the group
	// coordinator's broker adds the group's __consumer_offsets partition
	// to the transaction itself (no AddOffsetsToTxn before it).
	Version         int16
	TransactionalID string
	GroupID         string
	ProducerID      int64
	ProducerEpoch   int16
	GenerationID    int32  // v3+, -1 by default
	MemberID        string // v3+
	GroupInstanceID string // v3+, "" for null
	Topics          []TxnOffsetCommitTopic
}

// TxnOffsetCommitTopic is one topic's offsets.
type TxnOffsetCommitTopic struct {
	Name       string
	Partitions []TxnOffsetCommitPartition
}

// TxnOffsetCommitPartition is one partition's offset.
type TxnOffsetCommitPartition struct {
	PartitionIndex       int32
	CommittedOffset      int64
	CommittedLeaderEpoch int32 // -1 unknown
	CommittedMetadata    string
}

// TxnOffsetCommitResponse answers it, per partition.
type TxnOffsetCommitResponse struct {
	ResponseHeader
	ThrottleTimeMs int32
	Topics         []TxnTopicResult
}

func (*AddPartitionsToTxnRequest) Kind() string  { return "AddPartitionsToTxn" }
func (*AddPartitionsToTxnResponse) Kind() string { return "AddPartitionsToTxnResponse" }
func (*AddOffsetsToTxnRequest) Kind() string     { return "AddOffsetsToTxn" }
func (*AddOffsetsToTxnResponse) Kind() string    { return "AddOffsetsToTxnResponse" }
func (*EndTxnRequest) Kind() string              { return "EndTxn" }
func (*EndTxnResponse) Kind() string             { return "EndTxnResponse" }
func (*WriteTxnMarkersRequest) Kind() string     { return "WriteTxnMarkers" }
func (*WriteTxnMarkersResponse) Kind() string    { return "WriteTxnMarkersResponse" }
func (*TxnOffsetCommitRequest) Kind() string     { return "TxnOffsetCommit" }
func (*TxnOffsetCommitResponse) Kind() string    { return "TxnOffsetCommitResponse" }

func (r *EndTxnRequest) Summary() string {
	what := "abort"
	if r.Committed {
		what = "commit"
	}
	return fmt.Sprintf("%s %s (producerId %d, epoch %d)", what, r.TransactionalID, r.ProducerID, r.ProducerEpoch)
}

func (r *EndTxnResponse) Summary() string {
	if r.ErrorCode == NONE && r.ProducerID >= 0 {
		return fmt.Sprintf("NONE (producerId %d, epoch %d)", r.ProducerID, r.ProducerEpoch)
	}
	return r.ErrorCode.String()
}

// AppendTxnPartition adds a partition to its topic's entry of topics
// (made, last, for a topic not there yet): requests list partitions by
// topic, topics in the order first met.
func AppendTxnPartition(topics []TxnTopic, topic string, partition int32) []TxnTopic {
	i := slices.IndexFunc(topics, func(t TxnTopic) bool { return t.Name == topic })
	if i < 0 {
		topics = append(topics, TxnTopic{Name: topic})
		i = len(topics) - 1
	}
	topics[i].Partitions = append(topics[i].Partitions, partition)
	return topics
}
