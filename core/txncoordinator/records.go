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
// TransactionLogKey and TransactionLogValue schemas, under
// core/src/main/resources/common/message/ in 3.8.0 and
// transaction-coordinator/src/main/resources/common/message/ from 4.0):
// the key is the transactional id, the value the transaction's metadata
// after a transition, or null (a tombstone) once the id expired. Both are
// prefixed with their version as an int16. The key is always version 0.
// The value is version 0, the non-flexible encoding (int16-length
// strings, int32-count arrays, -1 for a null array), up to 3.9; from 4.0
// valueToBytes writes TransactionVersion.transactionLogValueVersion: 1
// once the finalized transaction.version is at least 1, else 0. Version 1
// (readable since 3.5, KIP-915) is the flexible encoding: compact strings
// and arrays (unsigned varint length or count plus one, 0 for null) and a
// tagged-field section (unsigned varint count, then each field's unsigned
// varint tag and size and its data) after each PartitionsSchema entry and
// at the end of the value.

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
// Of the schema's tagged fields (version 1 only) it keeps
// ClientTransactionVersion, the one 4.0 and 4.1 set; PreviousProducerId,
// NextProducerId and NextProducerEpoch stay at their default -1 there, so
// valueToBytes never writes them.
type LogValue struct {
	// Version is the TransactionLogValue version written (0 or 1) or read.
	Version       int16
	ProducerID    int64
	ProducerEpoch int16
	TimeoutMs     int32
	State         State
	Partitions    []storage.TopicPartition // nil for Empty (a null array); read back non-nil otherwise
	LastUpdateMs  int64
	TxnStartMs    int64 // -1 before the transaction's first partition
	// ClientTransactionVersion is tagged field 2 (int16, default 0): the
	// transaction version the client uses. Version 0 cannot hold it.
	ClientTransactionVersion int16
}

// clientTransactionVersionTag is ClientTransactionVersion's tag in the
// TransactionLogValue schema.
const clientTransactionVersionTag = 2

// KeyBytes is TransactionLog.keyToBytes: version 0, then the id.
func KeyBytes(transactionalID string) []byte {
	b := binary.BigEndian.AppendUint16(nil, 0)
	return appendString(b, transactionalID)
}

// ValueBytes is TransactionLog.valueToBytes at version v.Version. An
// Empty transaction writes a null partition list, the others a list
// (empty for the Complete states), one entry per topic. Version 1 writes
// the flexible encoding, with ClientTransactionVersion as a tagged field
// only when it is not its default 0 (the generated writer skips tagged
// fields at their default); version 0 has no room for it, so a non-zero
// one is refused there, as is any other version.
func (v LogValue) ValueBytes() ([]byte, error) {
	if v.State == Empty && len(v.Partitions) > 0 {
		return nil, fmt.Errorf("Transaction is not expected to have any partitions since its state is %s", v.State)
	}
	switch {
	case v.Version != 0 && v.Version != 1:
		return nil, fmt.Errorf("txncoordinator: cannot write version %d of TransactionLogValue", v.Version)
	case v.Version == 0 && v.ClientTransactionVersion != 0:
		return nil, fmt.Errorf("txncoordinator: version 0 of TransactionLogValue cannot hold ClientTransactionVersion %d", v.ClientTransactionVersion)
	}
	flexible := v.Version == 1
	b := binary.BigEndian.AppendUint16(nil, uint16(v.Version))
	b = binary.BigEndian.AppendUint64(b, uint64(v.ProducerID))
	b = binary.BigEndian.AppendUint16(b, uint16(v.ProducerEpoch))
	b = binary.BigEndian.AppendUint32(b, uint32(v.TimeoutMs))
	b = append(b, byte(v.State))
	if v.State == Empty {
		if flexible {
			b = append(b, 0) // null: count+1 = 0
		} else {
			b = binary.BigEndian.AppendUint32(b, 0xffffffff) // null
		}
	} else {
		groups := partitionsInLogOrder(v.Partitions)
		b = appendCount(b, flexible, len(groups))
		for _, g := range groups {
			if flexible {
				b = binary.AppendUvarint(b, uint64(len(g.topic))+1)
				b = append(b, g.topic...)
			} else {
				b = appendString(b, g.topic)
			}
			b = appendCount(b, flexible, len(g.partitions))
			for _, p := range g.partitions {
				b = binary.BigEndian.AppendUint32(b, uint32(p))
			}
			if flexible {
				b = append(b, 0) // the entry's tagged fields: none
			}
		}
	}
	b = binary.BigEndian.AppendUint64(b, uint64(v.LastUpdateMs))
	b = binary.BigEndian.AppendUint64(b, uint64(v.TxnStartMs))
	if flexible {
		if v.ClientTransactionVersion == 0 {
			b = append(b, 0) // no tagged fields
		} else {
			b = append(b, 1, clientTransactionVersionTag, 2) // one field: tag 2, 2 bytes
			b = binary.BigEndian.AppendUint16(b, uint16(v.ClientTransactionVersion))
		}
	}
	return b, nil
}

// appendCount writes an array's count: an int32 (version 0) or an
// unsigned varint of count+1 (version 1, compact).
func appendCount(b []byte, flexible bool, n int) []byte {
	if flexible {
		return binary.AppendUvarint(b, uint64(n)+1)
	}
	return binary.BigEndian.AppendUint32(b, uint32(n))
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

// uvarint is ByteUtils.readUnsignedVarint: at most five bytes, seven bits
// each, least significant first.
func (r *reader) uvarint() uint32 {
	var v uint32
	for i := 0; i < 5; i++ {
		c := r.take(1)[0]
		if r.err != nil {
			return 0
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v
		}
	}
	r.fail(errors.New("txncoordinator: varint is too long"))
	return 0
}

// compactLen is a compact string's length or a compact array's count
// (the unsigned varint less one); -1 stands for null.
func (r *reader) compactLen() int64 { return int64(r.uvarint()) - 1 }

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// taggedFields reads a tagged-field section, passing each field's tag and
// data to keep (nil: skip them all).
func (r *reader) taggedFields(keep func(tag uint32, data []byte)) {
	n := r.uvarint()
	for i := uint32(0); i < n && r.err == nil; i++ {
		tag, size := r.uvarint(), r.uvarint()
		if r.err == nil && uint64(size) > uint64(len(r.b)) {
			r.fail(errShort)
		}
		if r.err != nil {
			return
		}
		if data := r.take(int(size)); keep != nil {
			keep(tag, data)
		}
	}
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

// ReadValue is readTxnRecordValue's decoding, for versions 0 and 1 (the
// generated TransactionLogValue reader); the result's Version is the
// version read. Of version 1's tagged fields it keeps
// ClientTransactionVersion (tag 2) and skips the others by their size,
// the tags this does not keep (0, 1 and 3) as well as unknown ones.
func ReadValue(value []byte) (LogValue, error) {
	r := &reader{b: value}
	version := r.int16()
	if r.err == nil && (version < 0 || version > 1) {
		return LogValue{}, fmt.Errorf("Unknown version %d from the transaction log message value", version)
	}
	v := LogValue{Version: version, ProducerID: r.int64(), ProducerEpoch: r.int16(), TimeoutMs: r.int32(), State: State(int8(r.take(1)[0]))}
	if version == 1 {
		readFlexiblePartitions(r, &v)
	} else {
		n := r.int32() // -1: null
		if n >= 0 {
			v.Partitions = []storage.TopicPartition{} // a list, even an empty one, is not null
		}
		for i := int32(0); i < n && r.err == nil; i++ {
			topic := r.string()
			m := r.int32()
			for j := int32(0); j < m && r.err == nil; j++ {
				v.Partitions = append(v.Partitions, storage.TopicPartition{Topic: topic, Partition: r.int32()})
			}
		}
	}
	v.LastUpdateMs, v.TxnStartMs = r.int64(), r.int64()
	if version == 1 {
		r.taggedFields(func(tag uint32, data []byte) {
			if tag != clientTransactionVersionTag {
				return
			}
			if len(data) != 2 {
				r.fail(fmt.Errorf("txncoordinator: ClientTransactionVersion of %d bytes", len(data)))
				return
			}
			v.ClientTransactionVersion = int16(binary.BigEndian.Uint16(data))
		})
	}
	return v, r.err
}

// readFlexiblePartitions reads version 1's TransactionPartitions: a
// compact nullable array of PartitionsSchema entries, each a compact
// string, a compact int32 array and the entry's tagged fields (skipped).
// Topic and PartitionIds are not nullable.
func readFlexiblePartitions(r *reader, v *LogValue) {
	n := r.compactLen() // -1: null
	if n >= 0 {
		v.Partitions = []storage.TopicPartition{} // a list, even an empty one, is not null
	}
	for i := int64(0); i < n && r.err == nil; i++ {
		l := r.compactLen()
		if l < 0 {
			r.fail(errors.New("txncoordinator: non-nullable field topic was serialized as null"))
			return
		}
		topic := string(r.take(int(min(l, int64(len(r.b))+1))))
		m := r.compactLen()
		if m < 0 && r.err == nil {
			r.fail(errors.New("txncoordinator: non-nullable field partitionIds was serialized as null"))
			return
		}
		for j := int64(0); j < m && r.err == nil; j++ {
			v.Partitions = append(v.Partitions, storage.TopicPartition{Topic: topic, Partition: r.int32()})
		}
		r.taggedFields(nil)
	}
}
