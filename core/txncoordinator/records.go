package txncoordinator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/scalacoll"
	"kafkascope/core/storage"
)

// The records of __transaction_state (TransactionLog.scala and the
// TransactionLogKey and TransactionLogValue schemas of
// core/src/main/resources/common/message/, 3.8.0): the key is the
// transactional id, the value the transaction's metadata after a
// transition, or null (a tombstone) once the id expired. Both are
// prefixed with their version as an int16; 3.8 writes version 0 of each,
// the non-flexible encoding (int16-length strings, int32-count arrays,
// -1 for a null array).

// State is TransactionState, with Kafka's ids (the TransactionStatus byte).
type State int8

const (
	Empty             State = 0
	Ongoing           State = 1
	PrepareCommit     State = 2
	PrepareAbort      State = 3
	CompleteCommit    State = 4
	CompleteAbort     State = 5
	Dead              State = 6
	PrepareEpochFence State = 7
)

func (s State) String() string {
	switch s {
	case Empty:
		return "Empty"
	case Ongoing:
		return "Ongoing"
	case PrepareCommit:
		return "PrepareCommit"
	case PrepareAbort:
		return "PrepareAbort"
	case CompleteCommit:
		return "CompleteCommit"
	case CompleteAbort:
		return "CompleteAbort"
	case Dead:
		return "Dead"
	case PrepareEpochFence:
		return "PrepareEpochFence"
	}
	return fmt.Sprintf("State(%d)", s)
}

// validPrevious are the states a transition to s may start from
// (TransactionState.validPreviousStates, 3.8.0).
func (s State) validPrevious() []State {
	switch s {
	case Empty:
		return []State{Empty, CompleteCommit, CompleteAbort}
	case Ongoing:
		return []State{Ongoing, Empty, CompleteCommit, CompleteAbort}
	case PrepareCommit:
		return []State{Ongoing}
	case PrepareAbort:
		return []State{Ongoing, PrepareEpochFence}
	case CompleteCommit:
		return []State{PrepareCommit}
	case CompleteAbort:
		return []State{PrepareAbort}
	case Dead:
		return []State{Empty, CompleteAbort, CompleteCommit}
	case PrepareEpochFence:
		return []State{Ongoing}
	}
	return nil
}

// LogValue is a TransactionLogValue: the metadata a transition leaves.
// Partitions are in the order Kafka writes them (partitionsInLogOrder).
type LogValue struct {
	ProducerID    int64
	ProducerEpoch int16
	TimeoutMs     int32
	State         State
	Partitions    []storage.TopicPartition // nil for Empty (a null array)
	LastUpdateMs  int64
	TxnStartMs    int64 // -1 before the transaction's first partition
}

// KeyBytes is TransactionLog.keyToBytes: version 0, then the id.
func KeyBytes(transactionalID string) []byte {
	b := binary.BigEndian.AppendUint16(nil, 0)
	return appendString(b, transactionalID)
}

// ValueBytes is TransactionLog.valueToBytes at version 0. An Empty
// transaction writes a null partition list, the others a list (empty for
// the Complete states), one entry per topic.
func (v LogValue) ValueBytes() ([]byte, error) {
	if v.State == Empty && len(v.Partitions) > 0 {
		return nil, fmt.Errorf("Transaction is not expected to have any partitions since its state is %s", v.State)
	}
	b := binary.BigEndian.AppendUint16(nil, 0)
	b = binary.BigEndian.AppendUint64(b, uint64(v.ProducerID))
	b = binary.BigEndian.AppendUint16(b, uint16(v.ProducerEpoch))
	b = binary.BigEndian.AppendUint32(b, uint32(v.TimeoutMs))
	b = append(b, byte(v.State))
	if v.State == Empty {
		b = binary.BigEndian.AppendUint32(b, 0xffffffff) // null
	} else {
		groups := partitionsInLogOrder(v.Partitions)
		b = binary.BigEndian.AppendUint32(b, uint32(len(groups)))
		for _, g := range groups {
			b = appendString(b, g.topic)
			b = binary.BigEndian.AppendUint32(b, uint32(len(g.partitions)))
			for _, p := range g.partitions {
				b = binary.BigEndian.AppendUint32(b, uint32(p))
			}
		}
	}
	b = binary.BigEndian.AppendUint64(b, uint64(v.LastUpdateMs))
	return binary.BigEndian.AppendUint64(b, uint64(v.TxnStartMs)), nil
}

// topicPartitions is one PartitionsSchema: a topic and its partitions.
type topicPartitions struct {
	topic      string
	partitions []int32
}

// partitionsInLogOrder groups a transaction's partitions (distinct, in the
// order they were added) by topic as valueToBytes does:
// topicPartitions.groupBy(_.topic), each group's partitions mapped to a
// list. The metadata keeps them in a mutable.HashSet, made an immutable
// Set for the transition (up to four in the hash set's order, then a
// hash trie by TopicPartition.hashCode); groupBy gives a hash trie by
// topic; each group's partitions, a Set of Integers, keep their order up
// to four, then a hash trie by value.
func partitionsInLogOrder(tps []storage.TopicPartition) []topicPartitions {
	hashes := make([]int32, len(tps))
	for i, tp := range tps {
		hashes[i] = hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
	}
	order := scalacoll.ImmutableOrder(hashes)
	if len(tps) <= 4 {
		order = scalacoll.MutableOrder(hashes, 0)
	}
	ordered := make([]storage.TopicPartition, len(tps))
	for i, j := range order {
		ordered[i] = tps[j]
	}
	var topics []string
	for _, tp := range ordered {
		if !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	topicHashes := make([]int32, len(topics))
	for i, t := range topics {
		topicHashes[i] = jdk.StringHashCode(t)
	}
	var out []topicPartitions
	for _, ti := range scalacoll.HashTrieOrder(topicHashes) {
		g := topicPartitions{topic: topics[ti]}
		for _, tp := range ordered {
			if tp.Topic == g.topic {
				g.partitions = append(g.partitions, tp.Partition)
			}
		}
		if len(g.partitions) > 4 {
			byValue := make([]int32, len(g.partitions))
			for i, j := range scalacoll.ImmutableOrder(g.partitions) {
				byValue[i] = g.partitions[j]
			}
			g.partitions = byValue
		}
		out = append(out, g)
	}
	return out
}

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

var errShort = errors.New("txncoordinator: record too short")

// reader reads the big-endian fields of a record.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = errShort
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
func (r *reader) int16() int16 { return int16(binary.BigEndian.Uint16(r.take(2))) }
func (r *reader) int32() int32 { return int32(binary.BigEndian.Uint32(r.take(4))) }
func (r *reader) int64() int64 { return int64(binary.BigEndian.Uint64(r.take(8))) }
func (r *reader) string() string {
	n := r.int16()
	if n < 0 {
		return ""
	}
	return string(r.take(int(n)))
}

// ReadKey is readTxnRecordKey: the transactional id of a key of version
// 0; ok is false for another version (3.8 skips such records).
func ReadKey(key []byte) (id string, ok bool, err error) {
	r := &reader{b: key}
	if v := r.int16(); v != 0 {
		return "", false, r.err
	}
	id = r.string()
	return id, r.err == nil, r.err
}

// ReadValue is readTxnRecordValue for versions 0 and 1 (1 adds only
// tagged fields, which this does not keep).
func ReadValue(value []byte) (LogValue, error) {
	r := &reader{b: value}
	version := r.int16()
	if r.err == nil && (version < 0 || version > 1) {
		return LogValue{}, fmt.Errorf("Unknown version %d from the transaction log message value", version)
	}
	v := LogValue{ProducerID: r.int64(), ProducerEpoch: r.int16(), TimeoutMs: r.int32(), State: State(int8(r.take(1)[0]))}
	if version == 1 {
		return LogValue{}, errors.New("txncoordinator: version 1 transaction log values are not read here")
	}
	n := r.int32() // -1: null
	for i := int32(0); i < n && r.err == nil; i++ {
		topic := r.string()
		m := r.int32()
		for j := int32(0); j < m && r.err == nil; j++ {
			v.Partitions = append(v.Partitions, storage.TopicPartition{Topic: topic, Partition: r.int32()})
		}
	}
	v.LastUpdateMs, v.TxnStartMs = r.int64(), r.int64()
	return v, r.err
}
