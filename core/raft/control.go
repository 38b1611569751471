package raft

import (
	"encoding/binary"
	"errors"
	"fmt"

	"kafkascope/core/record"
)

// ControlType is record.ControlType: the type in a control record's key.
type ControlType = record.ControlType

// The control record types KRaft writes (record's names).
const (
	ControlAbort          = record.ControlAbort
	ControlCommit         = record.ControlCommit
	ControlLeaderChange   = record.ControlLeaderChange
	ControlSnapshotHeader = record.ControlSnapshotHeader
	ControlSnapshotFooter = record.ControlSnapshotFooter
	ControlKRaftVersion   = record.ControlKRaftVersion
	ControlKRaftVoters    = record.ControlKRaftVoters
)

// The record values below are the messages' flexible-version encodings
// (MessageUtil.toByteBuffer, which writes no version prefix: Version is the
// message's own first field). "flexibleVersions": "0+" means compact arrays
// (unsigned varint length+1), and a tagged-field count (0) after every
// struct and at the end.
//
// LeaderChangeMessage.json, version 0:
//
//	Version int16, LeaderId int32, Voters []Voter, GrantingVoters []Voter
//	Voter: VoterId int32
//
// SnapshotHeaderRecord.json, version 0: Version int16, LastContainedLogTimestamp int64
// SnapshotFooterRecord.json, version 0: Version int16
// (all under clients/src/main/resources/common/message/; the current
// versions are 0 in ControlRecordUtils.java:32-36).

// LeaderChangeMessage is written by every new leader as the first entry of
// its epoch (LeaderState.appendLeaderChangeMessage).
type LeaderChangeMessage struct {
	Version        int16
	LeaderID       int32
	Voters         []int32
	GrantingVoters []int32
}

// SnapshotHeaderRecord opens a snapshot.
type SnapshotHeaderRecord struct {
	Version                   int16
	LastContainedLogTimestamp int64
}

// SnapshotFooterRecord closes a snapshot.
type SnapshotFooterRecord struct {
	Version int16
}

func appendInt16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }
func appendInt32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }
func appendInt64(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

// appendVoters writes a compact array of Voter structs, each followed by
// its (empty) tagged fields.
func appendVoters(b []byte, ids []int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(ids))+1)
	for _, id := range ids {
		b = appendInt32(b, id)
		b = binary.AppendUvarint(b, 0)
	}
	return b
}

// Encode renders the record value.
func (m LeaderChangeMessage) Encode() []byte {
	b := appendInt16(nil, m.Version)
	b = appendInt32(b, m.LeaderID)
	b = appendVoters(b, m.Voters)
	b = appendVoters(b, m.GrantingVoters)
	return binary.AppendUvarint(b, 0)
}

// Encode renders the record value.
func (m SnapshotHeaderRecord) Encode() []byte {
	b := appendInt16(nil, m.Version)
	b = appendInt64(b, m.LastContainedLogTimestamp)
	return binary.AppendUvarint(b, 0)
}

// Encode renders the record value.
func (m SnapshotFooterRecord) Encode() []byte {
	return binary.AppendUvarint(appendInt16(nil, m.Version), 0)
}

// msgReader reads a flexible-version message; the first error sticks.
type msgReader struct {
	b   []byte
	err error
}

var errShort = errors.New("message ends early")

func (r *msgReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.err = errShort
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *msgReader) int16() int16 {
	if p := r.take(2); p != nil {
		return int16(binary.BigEndian.Uint16(p))
	}
	return 0
}

func (r *msgReader) int32() int32 {
	if p := r.take(4); p != nil {
		return int32(binary.BigEndian.Uint32(p))
	}
	return 0
}

func (r *msgReader) int64() int64 {
	if p := r.take(8); p != nil {
		return int64(binary.BigEndian.Uint64(p))
	}
	return 0
}

func (r *msgReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

// skipTags skips a tagged-field section (count, then tag, size, bytes).
func (r *msgReader) skipTags() {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errShort
		return
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.uvarint()
		r.take(int(min(r.uvarint(), uint64(len(r.b)+1))))
	}
}

func (r *msgReader) voters() []int32 {
	n := r.uvarint()
	if n == 0 || n-1 > uint64(len(r.b)) {
		if r.err == nil && n != 0 {
			r.err = errShort
		}
		return nil // a null array
	}
	out := make([]int32, 0, n-1)
	for i := uint64(0); i < n-1 && r.err == nil; i++ {
		out = append(out, r.int32())
		r.skipTags()
	}
	return out
}

func (r *msgReader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the message", len(r.b))
	}
	return r.err
}

// DecodeLeaderChangeMessage reads a LEADER_CHANGE record value.
func DecodeLeaderChangeMessage(b []byte) (LeaderChangeMessage, error) {
	r := &msgReader{b: b}
	m := LeaderChangeMessage{Version: r.int16(), LeaderID: r.int32()}
	m.Voters = r.voters()
	m.GrantingVoters = r.voters()
	r.skipTags()
	return m, r.done()
}

// DecodeSnapshotHeaderRecord reads a SNAPSHOT_HEADER record value.
func DecodeSnapshotHeaderRecord(b []byte) (SnapshotHeaderRecord, error) {
	r := &msgReader{b: b}
	m := SnapshotHeaderRecord{Version: r.int16(), LastContainedLogTimestamp: r.int64()}
	r.skipTags()
	return m, r.done()
}

// DecodeSnapshotFooterRecord reads a SNAPSHOT_FOOTER record value.
func DecodeSnapshotFooterRecord(b []byte) (SnapshotFooterRecord, error) {
	r := &msgReader{b: b}
	m := SnapshotFooterRecord{Version: r.int16()}
	r.skipTags()
	return m, r.done()
}

// controlBatch encodes a control batch holding one control record, as
// MemoryRecordsBuilder does for a control batch: magic 2, CreateTime, the
// control attribute bit, no producer (-1, -1, -1), the record with the
// control key, the value, no headers, and base and max timestamp equal to
// the record's.
func controlBatch(baseOffset int64, epoch int32, timestampMs int64, t ControlType, value []byte) []byte {
	b := record.Batch{
		BaseOffset:           baseOffset,
		PartitionLeaderEpoch: epoch,
		Magic:                record.MagicV2,
		Attributes:           record.ControlFlagMask,
		BaseTimestamp:        timestampMs,
		MaxTimestamp:         timestampMs,
		ProducerID:           record.NoProducerID,
		ProducerEpoch:        record.NoProducerEpoch,
		BaseSequence:         record.NoSequence,
		Records:              []record.Record{{Offset: baseOffset, Timestamp: timestampMs, Key: record.ControlKey(t), Value: value}},
	}
	return b.AppendTo(nil)
}

// dataBatch encodes one batch of opaque payloads as KRaft's BatchBuilder
// writes them (raft/internals/BatchBuilder.java:236-311): null keys, no
// headers, timestamp delta 0 with base and max timestamp the append time,
// CreateTime, no producer.
func dataBatch(baseOffset int64, epoch int32, timestampMs int64, payloads [][]byte) []byte {
	recs := make([]record.Record, len(payloads))
	for i, p := range payloads {
		v := p
		if v == nil {
			v = []byte{} // a payload is never null: Kafka writes its serialized size
		}
		recs[i] = record.Record{Timestamp: timestampMs, Value: v}
	}
	return record.Build(baseOffset, epoch, record.NoProducer(), recs)
}
