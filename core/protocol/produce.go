package protocol

import (
	"fmt"
	"slices"

	"kafkascope/core/sim"
)

// ProduceRequest (API key 0) carries record batches for partition leaders.
type ProduceRequest struct {
	RequestHeader
	// Version is the request's version where it changes what the leader
	// does: from ProduceVersionTransactionV2 a transactional batch's
	// leader adds its partition to the transaction itself (KIP-890 part
	// 2); below it, the version says which errors the producer knows
	// (ProduceVersionTransactionAbortable). The simulator's requests carry
	// topic names whatever the version.
	Version int16
	// TransactionalID is the producer's transactional.id ("" for null).
	TransactionalID string
	Acks            int16 // -1 (all), 0 or 1
	TimeoutMs       int32 // how long the leader may wait for the ISR (acks=-1)
	Topics          []ProduceTopic
}

// ProduceVersionTransactionV2 is the first Produce version a producer
// using transactions v2 sends (ProduceRequest.json: "Version 12 is the
// same as version 11 but adds support for the transaction V2 protocol");
// a leader takes any later one as v2 too (the version, not the cluster's
// transaction.version, decides: AddPartitionsToTxnManager.
// produceRequestVersionToTransactionSupportedOperation).
const ProduceVersionTransactionV2 = 12

// ProduceVersionTransactionAbortable is the first Produce version whose
// sender takes TRANSACTION_ABORTABLE (KIP-890 part 1); an older one is
// answered INVALID_TXN_STATE instead.
const ProduceVersionTransactionAbortable = 11

// ProduceTopic is one topic's data in a ProduceRequest.
type ProduceTopic struct {
	Name       string
	Partitions []ProducePartition
}

// ProducePartition is one partition's batches (each batch's baseOffset is
// assigned by the leader).
type ProducePartition struct {
	Index   int32
	Records []byte
}

// ProduceResponse answers a ProduceRequest (never sent for acks=0).
type ProduceResponse struct {
	ResponseHeader
	Topics []ProduceTopicResponse
}

// ProduceTopicResponse is one topic's results.
type ProduceTopicResponse struct {
	Name       string
	Partitions []ProducePartitionResponse
}

// ProducePartitionResponse is one partition's result.
type ProducePartitionResponse struct {
	Index          int32
	ErrorCode      ErrorCode
	ErrorMessage   string
	BaseOffset     int64
	LogAppendTime  int64
	LogStartOffset int64
	CurrentLeader  LeaderIDAndEpoch // set with NOT_LEADER_OR_FOLLOWER when known (KIP-951)
	// RecordErrors name the records that failed validation (KIP-467), with
	// ErrorCode INVALID_RECORD or INVALID_TIMESTAMP.
	RecordErrors []RecordError
	Cause        *Cause // the simulator's account of ErrorCode, not on the wire (cause.go)
}

// RecordError is one record a broker refused: its index in its batch and
// why (Message "" is null).
type RecordError struct {
	BatchIndex int32
	Message    string
}

// String is Kafka's ProduceResponse.RecordError.toString.
func (e RecordError) String() string {
	msg := "null"
	if e.Message != "" {
		msg = "'" + e.Message + "'"
	}
	return fmt.Sprintf("RecordError(batchIndex=%d, message=%s)", e.BatchIndex, msg)
}

// LeaderIDAndEpoch names a leader; LeaderID -1 means unknown.
type LeaderIDAndEpoch struct {
	LeaderID    int32
	LeaderEpoch int32
}

func (*ProduceRequest) Kind() string  { return "Produce" }
func (*ProduceResponse) Kind() string { return "ProduceResponse" }

func (r *ProduceRequest) Summary() string {
	n := 0
	for _, t := range r.Topics {
		n += len(t.Partitions)
	}
	return fmt.Sprintf("acks=%d partitions=%d", r.Acks, n)
}

func (r *ProduceResponse) Summary() string {
	s := ""
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			s += fmt.Sprintf(" %s-%d:%s@%d", t.Name, p.Index, p.ErrorCode, p.BaseOffset)
		}
	}
	return s
}

// Corrupted is the request as it arrives after one bit of its first
// partition's record data flipped on the wire (the batch's CRC no longer
// matches; the leader answers CORRUPT_MESSAGE). The sender's request is
// not changed. Nil if the request carries no records.
func (r *ProduceRequest) Corrupted() sim.Message {
	for ti, t := range r.Topics {
		for pi, p := range t.Partitions {
			if len(p.Records) == 0 {
				continue
			}
			c := *r
			c.Topics = slices.Clone(r.Topics)
			c.Topics[ti].Partitions = slices.Clone(t.Partitions)
			data := slices.Clone(p.Records)
			data[len(data)-1] ^= 0x01 // the last record's last byte: inside the CRC's range
			c.Topics[ti].Partitions[pi].Records = data
			return &c
		}
	}
	return nil
}
