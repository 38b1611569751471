package record

import (
	"encoding/binary"
	"fmt"
)

// ControlType is the type in a control record's key
// (clients/src/main/java/org/apache/kafka/common/record/ControlRecordType.java):
// transaction markers (ABORT, COMMIT) in partition logs, and KRaft's own
// records in the metadata log and its snapshots.
type ControlType int16

// Control record types. KRaftVersion and KRaftVoters exist only from
// kraft.version 1 (Kafka 3.9).
const (
	ControlAbort          ControlType = 0
	ControlCommit         ControlType = 1
	ControlLeaderChange   ControlType = 2
	ControlSnapshotHeader ControlType = 3
	ControlSnapshotFooter ControlType = 4
	ControlKRaftVersion   ControlType = 5
	ControlKRaftVoters    ControlType = 6
)

func (t ControlType) String() string {
	switch t {
	case ControlAbort:
		return "ABORT"
	case ControlCommit:
		return "COMMIT"
	case ControlLeaderChange:
		return "LEADER_CHANGE"
	case ControlSnapshotHeader:
		return "SNAPSHOT_HEADER"
	case ControlSnapshotFooter:
		return "SNAPSHOT_FOOTER"
	case ControlKRaftVersion:
		return "KRAFT_VERSION"
	case ControlKRaftVoters:
		return "KRAFT_VOTERS"
	}
	return "UNKNOWN"
}

// ControlKey is the key of a control record: the key schema version
// (CURRENT_CONTROL_RECORD_KEY_VERSION = 0) and the type, both int16.
func ControlKey(t ControlType) []byte {
	k := make([]byte, 4)
	binary.BigEndian.PutUint16(k[0:], 0)
	binary.BigEndian.PutUint16(k[2:], uint16(t))
	return k
}

// ParseControlKey reads a control record key (ControlRecordType.parseTypeId:
// at least 4 bytes, a non-negative version, then the type; any version
// is read as version 0).
func ParseControlKey(k []byte) (ControlType, error) {
	if len(k) < 4 {
		return 0, fmt.Errorf("Invalid value size found for end control record key. Must have at least 4 bytes, but found only %d", len(k))
	}
	if v := int16(binary.BigEndian.Uint16(k)); v < 0 {
		return 0, fmt.Errorf("Invalid version found for control record: %d. May indicate data corruption", v)
	}
	return ControlType(int16(binary.BigEndian.Uint16(k[2:]))), nil
}

// EndTxnMarker is a transaction marker's value (EndTransactionMarker):
// version 0 and the epoch of the transaction coordinator that wrote it.
// Type is the record key's, ControlCommit or ControlAbort.
type EndTxnMarker struct {
	Type             ControlType
	CoordinatorEpoch int32
}

// endTxnMarkerValueSize is the value: version int16 and coordinator epoch
// int32.
const endTxnMarkerValueSize = 6

// Value encodes the marker's value.
func (m EndTxnMarker) Value() []byte {
	v := make([]byte, endTxnMarkerValueSize)
	binary.BigEndian.PutUint16(v[0:], 0)
	binary.BigEndian.PutUint32(v[2:], uint32(m.CoordinatorEpoch))
	return v
}

// ParseEndTxnMarker reads a marker from its control record's key and
// value (EndTransactionMarker.deserialize).
func ParseEndTxnMarker(key, value []byte) (EndTxnMarker, error) {
	t, err := ParseControlKey(key)
	if err != nil {
		return EndTxnMarker{}, err
	}
	if t != ControlCommit && t != ControlAbort {
		return EndTxnMarker{}, fmt.Errorf("Invalid control record type for end transaction marker: %s", t)
	}
	if len(value) < endTxnMarkerValueSize {
		return EndTxnMarker{}, fmt.Errorf("Invalid value size found for end transaction marker. Must have at least 6 bytes, but found only %d", len(value))
	}
	return EndTxnMarker{Type: t, CoordinatorEpoch: int32(binary.BigEndian.Uint32(value[2:]))}, nil
}

// BuildEndTxnMarker encodes a marker batch as a partition leader writes it
// (MemoryRecords.withEndTransactionMarker): one control record in a
// transactional control batch of the producer's id and epoch, with no
// sequence, stamped timestamp.
func BuildEndTxnMarker(baseOffset int64, partitionLeaderEpoch int32, producerID int64, producerEpoch int16, timestamp int64, m EndTxnMarker) []byte {
	b := Batch{
		BaseOffset: baseOffset, PartitionLeaderEpoch: partitionLeaderEpoch, Magic: MagicV2,
		Attributes:    TransactionalFlagMask | ControlFlagMask,
		BaseTimestamp: timestamp, MaxTimestamp: timestamp,
		ProducerID: producerID, ProducerEpoch: producerEpoch, BaseSequence: NoSequence,
		Records: []Record{{Offset: baseOffset, Timestamp: timestamp, Key: ControlKey(m.Type), Value: m.Value()}},
	}
	return b.AppendTo(make([]byte, 0, b.encodedSize()))
}
