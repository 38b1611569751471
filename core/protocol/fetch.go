package protocol

import (
	"fmt"
	"slices"
)

// ConsumerReplicaID is the ReplicaID of a Fetch from a consumer (not a
// follower).
const ConsumerReplicaID int32 = -1

// FetchRequest (API key 1) reads from partition leaders. A follower's fetch
// offset doubles as its acknowledgement: it tells the leader which offsets it
// already has.
type FetchRequest struct {
	RequestHeader
	ReplicaID    int32 // the follower's broker id, or ConsumerReplicaID
	ReplicaEpoch int64 // the follower's broker epoch, -1 for consumers
	MaxWaitMs    int32
	MinBytes     int32
	MaxBytes     int32
	// IsolationLevel is ReadUncommitted (up to the high watermark) or
	// ReadCommitted (up to the last stable offset, with the aborted
	// transactions in range).
	IsolationLevel int8
	Topics         []FetchTopic
	// RackID is the consumer's client.rack ("": none; Fetch v11+,
	// KIP-392): the leader may name a replica in that rack to fetch from.
	RackID string
}

// Isolation levels (IsolationLevel.java: its id; read_uncommitted is the
// consumer's default).
const (
	ReadUncommitted int8 = 0
	ReadCommitted   int8 = 1
)

// AbortedTransaction is one aborted transaction a read_committed fetch
// overlaps: the consumer skips the producer's records from FirstOffset up
// to its ABORT marker.
type AbortedTransaction struct {
	ProducerID  int64
	FirstOffset int64
}

// FetchTopic is one topic of a FetchRequest.
type FetchTopic struct {
	Name       string
	TopicID    [16]byte
	Partitions []FetchPartition
}

// FetchPartition asks for one partition from FetchOffset.
type FetchPartition struct {
	Index              int32
	CurrentLeaderEpoch int32 // the epoch the fetcher believes current; -1 to skip the check
	FetchOffset        int64
	LastFetchedEpoch   int32 // epoch of the last batch the follower has; -1 if none
	LogStartOffset     int64 // the follower's log start offset; -1 for consumers
	PartitionMaxBytes  int32
}

// FetchResponse answers a FetchRequest.
type FetchResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Topics    []FetchTopicResponse
}

// FetchTopicResponse is one topic's data.
type FetchTopicResponse struct {
	Name       string
	Partitions []FetchPartitionResponse
}

// EpochEndOffset is an (epoch, end offset) pair; -1/-1 means undefined.
type EpochEndOffset struct {
	Epoch     int32
	EndOffset int64
}

// FetchPartitionResponse is one partition's data and the leader's view.
type FetchPartitionResponse struct {
	Index            int32
	ErrorCode        ErrorCode
	HighWatermark    int64
	LastStableOffset int64
	LogStartOffset   int64
	// DivergingEpoch is set (Epoch >= 0) when the follower's log diverges from
	// the leader's: it must truncate before fetching again.
	DivergingEpoch EpochEndOffset
	CurrentLeader  LeaderIDAndEpoch
	// AbortedTransactions is nil for a read_uncommitted fetch.
	AbortedTransactions []AbortedTransaction
	Records             []byte // whole record batches, as stored
	// PreferredReadReplica is the replica the consumer should fetch this
	// partition from instead of the leader (-1: none; KIP-392). The
	// answer then carries no records.
	PreferredReadReplica int32
}

func (*FetchRequest) Kind() string  { return "Fetch" }
func (*FetchResponse) Kind() string { return "FetchResponse" }

func (r *FetchRequest) Summary() string {
	s := fmt.Sprintf("replica=%d", r.ReplicaID)
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			s += fmt.Sprintf(" %s-%d@%d", t.Name, p.Index, p.FetchOffset)
		}
	}
	return s
}

func (r *FetchResponse) Summary() string {
	s := ""
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			s += fmt.Sprintf(" %s-%d:%s hw=%d bytes=%d", t.Name, p.Index, p.ErrorCode, p.HighWatermark, len(p.Records))
		}
	}
	return s
}

// SameAs reports whether r asks for exactly what o asks for: every field
// but the header, which the client stamps (a leap recognizes a follower's
// repeated long poll by it).
func (r *FetchRequest) SameAs(o *FetchRequest) bool {
	if r.ReplicaID != o.ReplicaID || r.ReplicaEpoch != o.ReplicaEpoch ||
		r.MaxWaitMs != o.MaxWaitMs || r.MinBytes != o.MinBytes || r.MaxBytes != o.MaxBytes || len(r.Topics) != len(o.Topics) {
		return false
	}
	for i := range r.Topics {
		a, b := &r.Topics[i], &o.Topics[i]
		if a.Name != b.Name || a.TopicID != b.TopicID || !slices.Equal(a.Partitions, b.Partitions) {
			return false
		}
	}
	return true
}
