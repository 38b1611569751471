package groupcoordinator

import (
	"encoding/binary"
	"errors"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// The records the group coordinator writes to __consumer_offsets, in
// Kafka's schemas (OffsetCommitKey/Value, GroupMetadataKey/Value): the key
// starts with its version, which says what it is (0 and 1 an offset commit,
// 2 a group's metadata), the value with its own version. A null value is a
// tombstone: the offset or group is gone, and compaction drops it.

const (
	offsetCommitKeyVersion   int16 = 1
	groupMetadataKeyVersion  int16 = 2
	offsetCommitValueVersion int16 = 3 // written when no expire timestamp is given (IBP >= 2.1), up to Kafka 4.0
	// offsetCommitValueFlexible is the version Kafka 4.1 and later write
	// (GroupCoordinatorRecordHelpers.offsetCommitValueVersion,
	// KAFKA-19141): the first flexible one, with the topic id tagged.
	offsetCommitValueFlexible int16 = 4
	groupMetadataValueVersion int16 = 3 // IBP >= 2.3
)

// offsetKey is OffsetCommitKey: which group's offset of which partition.
type offsetKey struct {
	group     string
	topic     string
	partition int32
}

// offsetValue is OffsetCommitValue v3 or v4.
type offsetValue struct {
	offset          int64
	leaderEpoch     int32
	metadata        string
	commitTimestamp int64
	// topicID is v4's tagged topicId (tag 0), written only when it is not
	// the zero Uuid.
	topicID metadata.Uuid
}

// groupValue is GroupMetadataValue v3: the group as of its last completed
// rebalance (or its emptying).
type groupValue struct {
	protocolType          string
	generation            int32
	protocol              string // "" = null
	leader                string // "" = null
	currentStateTimestamp int64
	members               []memberValue
}

// memberValue is one member in GroupMetadataValue.
type memberValue struct {
	memberID         string
	groupInstanceID  string // "" = null
	clientID         string
	clientHost       string
	rebalanceTimeout int32
	sessionTimeout   int32
	subscription     []byte
	assignment       []byte
}

func encodeOffsetKey(k offsetKey) []byte {
	var w binWriter
	w.i16(offsetCommitKeyVersion)
	w.str(k.group)
	w.str(k.topic)
	w.i32(k.partition)
	return w.b
}

// encodeOffsetValue writes v as OffsetCommitValue version 3 or 4 (v4:
// a compact metadata string and a tagged-field section).
func encodeOffsetValue(v offsetValue, version int16) []byte {
	var w binWriter
	w.i16(version)
	w.i64(v.offset)
	w.i32(v.leaderEpoch)
	if version < offsetCommitValueFlexible {
		w.str(v.metadata)
		w.i64(v.commitTimestamp)
		return w.b
	}
	w.cstr(v.metadata)
	w.i64(v.commitTimestamp)
	var id []byte
	if v.topicID != (metadata.Uuid{}) {
		id = v.topicID[:]
	}
	w.tag0(id)
	return w.b
}

func encodeGroupKey(group string) []byte {
	var w binWriter
	w.i16(groupMetadataKeyVersion)
	w.str(group)
	return w.b
}

func encodeGroupValue(v groupValue) []byte {
	var w binWriter
	w.i16(groupMetadataValueVersion)
	w.str(v.protocolType)
	w.i32(v.generation)
	w.nstr(v.protocol)
	w.nstr(v.leader)
	w.i64(v.currentStateTimestamp)
	w.i32(int32(len(v.members)))
	for _, m := range v.members {
		w.str(m.memberID)
		w.nstr(m.groupInstanceID)
		w.str(m.clientID)
		w.str(m.clientHost)
		w.i32(m.rebalanceTimeout)
		w.i32(m.sessionTimeout)
		w.bytes(m.subscription)
		w.bytes(m.assignment)
	}
	return w.b
}

var errBadGroupRecord = errors.New("unknown __consumer_offsets record")

// decodeCoordinatorKey reads a key: an offset key (isOffset) or a group id.
func decodeCoordinatorKey(b []byte) (k offsetKey, isOffset bool, err error) {
	r := protocol.NewReader(b, errBadGroupRecord)
	switch v := r.Int16(); v {
	case 0, 1:
		k = offsetKey{group: r.String(), topic: r.String(), partition: r.Int32()}
		return k, true, r.Err()
	case 2:
		k.group = r.String()
		return k, false, r.Err()
	}
	return k, false, errBadGroupRecord
}

// decodeOffsetValue reads OffsetCommitValue versions 0-4 (v1 carries an
// expire timestamp, v3 a leader epoch, v4 is flexible with a tagged topic
// id).
func decodeOffsetValue(b []byte) (offsetValue, error) {
	r := protocol.NewReader(b, errBadGroupRecord)
	ver := r.Int16()
	v := offsetValue{offset: r.Int64(), leaderEpoch: -1}
	if ver >= 3 {
		v.leaderEpoch = r.Int32()
	}
	if ver >= offsetCommitValueFlexible {
		f := flexReader{r}
		v.metadata = f.cstr()
		v.commitTimestamp = r.Int64()
		f.tags(func(tag uint64, field flexReader) {
			if tag == 0 {
				v.topicID = field.uuid()
			}
		})
		return v, r.Err()
	}
	v.metadata = r.String()
	v.commitTimestamp = r.Int64()
	return v, r.Err()
}

// decodeGroupValue reads GroupMetadataValue versions 0-3.
func decodeGroupValue(b []byte) (groupValue, error) {
	r := protocol.NewReader(b, errBadGroupRecord)
	ver := r.Int16()
	v := groupValue{protocolType: r.String(), generation: r.Int32(), protocol: r.NullableString(), leader: r.NullableString()}
	if ver >= 2 {
		v.currentStateTimestamp = r.Int64()
	}
	n := r.Int32()
	for i := int32(0); i < n && r.Err() == nil; i++ {
		m := memberValue{memberID: r.String()}
		if ver >= 3 {
			m.groupInstanceID = r.NullableString()
		}
		m.clientID, m.clientHost = r.String(), r.String()
		if ver >= 1 {
			m.rebalanceTimeout = r.Int32()
		}
		m.sessionTimeout = r.Int32()
		if ver == 0 {
			m.rebalanceTimeout = m.sessionTimeout
		}
		m.subscription, m.assignment = r.Bytes(), r.Bytes()
		v.members = append(v.members, m)
	}
	return v, r.Err()
}

type binWriter struct{ b []byte }

func (w *binWriter) i16(v int16) { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *binWriter) i32(v int32) { w.b = binary.BigEndian.AppendUint32(w.b, uint32(v)) }
func (w *binWriter) i64(v int64) { w.b = binary.BigEndian.AppendUint64(w.b, uint64(v)) }
func (w *binWriter) str(s string) {
	w.i16(int16(len(s)))
	w.b = append(w.b, s...)
}
func (w *binWriter) nstr(s string) {
	if s == "" {
		w.i16(-1)
		return
	}
	w.str(s)
}
func (w *binWriter) bytes(b []byte) {
	w.i32(int32(len(b)))
	w.b = append(w.b, b...)
}
