package groupcoordinator

import (
	"encoding/binary"
	kgroup "kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// The consumer group records of __consumer_offsets (Kafka 4.3's
// group-coordinator/src/main/resources/common/message/ConsumerGroup*.json,
// made by GroupCoordinatorRecordHelpers). A key is the record type as an
// int16 then the key struct at version 0, not flexible
// (MessageUtil.toCoordinatorTypePrefixedBytes); these bytes equal 3.8's,
// whose key version was the type. A value is its version (always 0) then
// the flexible encoding: compact strings and arrays, a tagged-field
// section. A null value is a tombstone.

// The record types (the schemas' apiKey).
const (
	recConsumerGroupMetadata           int16 = 3
	recConsumerGroupPartitionMetadata  int16 = 4
	recConsumerGroupMemberMetadata     int16 = 5
	recConsumerGroupTargetMetadata     int16 = 6
	recConsumerGroupTargetMember       int16 = 7
	recConsumerGroupCurrentMemberAssig int16 = 8
)

// cgRecord is one consumer group record; tombstone: its value is null.
type cgRecord struct {
	kind      int16
	group     string
	member    string // types 5, 7, 8
	tombstone bool
	// 3: ConsumerGroupMetadataValue.
	epoch        int32
	metadataHash int64
	// 5: ConsumerGroupMemberMetadataValue (member.id is the key's).
	meta cgMember
	// 6: ConsumerGroupTargetAssignmentMetadataValue.
	assignmentEpoch     int32
	assignmentTimestamp int64
	// 7: ConsumerGroupTargetAssignmentMemberValue.
	target kgroup.MemberAssignment
	// 8: ConsumerGroupCurrentMemberAssignmentValue (in meta: epoch,
	// prevEpoch, state, assigned, pending).
}

// The records GroupCoordinatorRecordHelpers makes (RH:82-302).
func epochRecord(g string, epoch int32, hash int64) cgRecord {
	return cgRecord{kind: recConsumerGroupMetadata, group: g, epoch: epoch, metadataHash: hash}
}
func memberMetadataRecord(g string, m cgMember) cgRecord {
	return cgRecord{kind: recConsumerGroupMemberMetadata, group: g, member: m.id, meta: m}
}
func targetMemberRecord(g, member string, a kgroup.MemberAssignment) cgRecord {
	return cgRecord{kind: recConsumerGroupTargetMember, group: g, member: member, target: a}
}
func targetMetadataRecord(g string, epoch int32, ts int64) cgRecord {
	return cgRecord{kind: recConsumerGroupTargetMetadata, group: g, assignmentEpoch: epoch, assignmentTimestamp: ts}
}
func currentAssignmentRecord(g string, m cgMember) cgRecord {
	return cgRecord{kind: recConsumerGroupCurrentMemberAssig, group: g, member: m.id, meta: m}
}
func tombstone(kind int16, g, member string) cgRecord {
	return cgRecord{kind: kind, group: g, member: member, tombstone: true}
}

// removeMemberRecords is GroupMetadataManager.removeMember (GMM:4514-4518):
// the current assignment, target and member metadata tombstones.
func removeMemberRecords(g, member string) []cgRecord {
	return []cgRecord{
		tombstone(recConsumerGroupCurrentMemberAssig, g, member),
		tombstone(recConsumerGroupTargetMember, g, member),
		tombstone(recConsumerGroupMemberMetadata, g, member),
	}
}

// recordFormat: Kafka 4.3 writes two tagged fields 4.1 does not have:
// AssignmentTimestamp (KIP-1263) and AssignmentEpochs (KIP-1251).
type recordFormat struct{ v43 bool }

func (f recordFormat) encodeKey(r cgRecord) []byte {
	var w binWriter
	w.i16(r.kind)
	w.str(r.group)
	switch r.kind {
	case recConsumerGroupMemberMetadata, recConsumerGroupTargetMember, recConsumerGroupCurrentMemberAssig:
		w.str(r.member)
	}
	return w.b
}

func (f recordFormat) encodeValue(r cgRecord) []byte {
	if r.tombstone {
		return nil
	}
	var w binWriter
	w.i16(0)
	switch r.kind {
	case recConsumerGroupMetadata:
		w.i32(r.epoch)
		// MetadataHash is tag 0, written when not its default 0.
		w.taggedI64(r.metadataHash != 0, r.metadataHash)
	case recConsumerGroupMemberMetadata:
		m := r.meta
		w.cnstr(m.instanceID)
		w.cnstr(m.rackID)
		w.cstr(m.clientID)
		w.cstr(m.clientHost)
		names := sortedCopy(m.subscribed) // RH:86-87
		w.uvarint(uint64(len(names) + 1))
		for _, n := range names {
			w.cstr(n)
		}
		w.cnstr(m.regex)
		w.i32(m.rebalanceTimeoutMs)
		w.cnstr(m.serverAssignor)
		f.classicMetadata(&w, m.classic)
	case recConsumerGroupTargetMetadata:
		w.i32(r.assignmentEpoch)
		w.taggedI64(f.v43 && r.assignmentTimestamp != 0, r.assignmentTimestamp)
	case recConsumerGroupTargetMember:
		w.uvarint(uint64(len(r.target) + 1))
		for _, tp := range r.target {
			w.uuid(tp.TopicID)
			w.int32s(tp.Partitions)
			w.uvarint(0)
		}
		w.uvarint(0)
	case recConsumerGroupCurrentMemberAssig:
		m := r.meta
		w.i32(m.epoch)
		w.i32(m.prevEpoch)
		w.b = append(w.b, byte(m.state))
		f.partitionEpochs(&w, m.assigned)
		f.partitionEpochs(&w, m.pending)
		w.uvarint(0)
	}
	return w.b
}

// classicMetadata writes the tagged-field section of a member metadata
// value: ClassicMemberMetadata (tag 0, a nullable struct whose default is
// null) only for a classic member. A tagged nullable struct is its size
// + 1, a presence varint 1, then the struct (Kafka's generator,
// generator/.../MessageDataGenerator.java:835-841).
func (f recordFormat) classicMetadata(w *binWriter, c *classicMemberMetadata) {
	if c == nil {
		w.uvarint(0)
		return
	}
	var sub binWriter
	sub.b = append(sub.b, 1)
	sub.i32(c.sessionTimeoutMs)
	sub.uvarint(uint64(len(c.protocols) + 1))
	for _, p := range c.protocols {
		sub.cstr(p.Name)
		sub.uvarint(uint64(len(p.Metadata) + 1))
		sub.b = append(sub.b, p.Metadata...)
		sub.uvarint(0)
	}
	sub.uvarint(0)
	w.uvarint(1)
	w.uvarint(0)
	w.uvarint(uint64(len(sub.b)))
	w.b = append(w.b, sub.b...)
}

// partitionEpochs writes a TopicPartitions array; 4.3 adds each topic's
// AssignmentEpochs as tag 0 (always set, RH:812-827).
func (f recordFormat) partitionEpochs(w *binWriter, ps []kgroup.PartitionEpoch) {
	topics := partitionsOf(ps)
	w.uvarint(uint64(len(topics) + 1))
	i := 0
	for _, tp := range topics {
		w.uuid(tp.TopicID)
		w.int32s(tp.Partitions)
		if !f.v43 {
			w.uvarint(0)
			i += len(tp.Partitions)
			continue
		}
		var sub binWriter
		sub.uvarint(uint64(len(tp.Partitions) + 1))
		for range tp.Partitions {
			sub.i32(ps[i].Epoch)
			i++
		}
		w.uvarint(1)
		w.uvarint(0)
		w.uvarint(uint64(len(sub.b)))
		w.b = append(w.b, sub.b...)
	}
}

// decodeConsumerRecord reads a key of types 3-8 (ok false for another
// type) and its value.
func decodeConsumerRecord(key, value []byte) (cgRecord, bool, error) {
	r := protocol.NewReader(key, errBadGroupRecord)
	rec := cgRecord{kind: r.Int16()}
	if rec.kind < recConsumerGroupMetadata || rec.kind > recConsumerGroupCurrentMemberAssig {
		return rec, false, nil
	}
	rec.group = r.String()
	switch rec.kind {
	case recConsumerGroupMemberMetadata, recConsumerGroupTargetMember, recConsumerGroupCurrentMemberAssig:
		rec.member = r.String()
	}
	if r.Err() != nil {
		return rec, true, r.Err()
	}
	if value == nil {
		rec.tombstone = true
		return rec, true, nil
	}
	v := flexReader{protocol.NewReader(value, errBadGroupRecord)}
	v.Int16() // version 0
	switch rec.kind {
	case recConsumerGroupMetadata:
		rec.epoch = v.Int32()
		v.tags(func(tag uint64, b flexReader) {
			if tag == 0 {
				rec.metadataHash = b.Int64()
			}
		})
	case recConsumerGroupPartitionMetadata:
		// Deprecated since 4.1: only its presence matters.
	case recConsumerGroupMemberMetadata:
		m := newCGMember(rec.member)
		m.instanceID, m.rackID, m.clientID, m.clientHost = v.cnstr(), v.cnstr(), v.cstr(), v.cstr()
		for n := v.count(); n > 0; n-- {
			m.subscribed = append(m.subscribed, v.cstr())
		}
		m.regex = v.cnstr()
		m.rebalanceTimeoutMs = v.Int32()
		m.serverAssignor = v.cnstr()
		v.tags(func(tag uint64, b flexReader) {
			if pb := b.Take(1); tag == 0 && len(pb) == 1 && int8(pb[0]) >= 0 {
				c := &classicMemberMetadata{sessionTimeoutMs: b.Int32()}
				for n := b.count(); n > 0 && b.Err() == nil; n-- {
					p := protocol.JoinGroupRequestProtocol{Name: b.cstr()}
					if k := b.uvarint(); k > 0 {
						p.Metadata = append([]byte{}, b.Take(int(k-1))...)
					}
					b.tags(func(uint64, flexReader) {})
					c.protocols = append(c.protocols, p)
				}
				m.classic = c
			}
		})
		rec.meta = m
	case recConsumerGroupTargetMetadata:
		rec.assignmentEpoch = v.Int32()
		v.tags(func(tag uint64, b flexReader) {
			if tag == 0 {
				rec.assignmentTimestamp = b.Int64()
			}
		})
	case recConsumerGroupTargetMember:
		for n := v.count(); n > 0 && v.Err() == nil; n-- {
			tp := kgroup.TopicPartitions{TopicID: v.uuid(), Partitions: v.int32s()}
			v.tags(func(uint64, flexReader) {})
			rec.target = append(rec.target, tp)
		}
		v.tags(func(uint64, flexReader) {})
	case recConsumerGroupCurrentMemberAssig:
		m := cgMember{id: rec.member}
		m.epoch, m.prevEpoch = v.Int32(), v.Int32()
		m.state = kgroup.MemberState(int8(v.Take(1)[0]))
		m.assigned = v.partitionEpochs(m.epoch)
		m.pending = v.partitionEpochs(m.epoch)
		v.tags(func(uint64, flexReader) {})
		rec.meta = m
	}
	return rec, true, v.Err()
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// The flexible encoding's parts.

// taggedI64 writes a flexible version's tagged-field section holding, when
// present, one int64 field with tag 0 (the only tagged field these
// records have); else an empty section.
func (w *binWriter) taggedI64(present bool, v int64) {
	if !present {
		w.tag0(nil)
		return
	}
	w.tag0(binary.BigEndian.AppendUint64(nil, uint64(v)))
}

// tag0 writes a tagged-field section with field b under tag 0, or an
// empty section when b is nil.
func (w *binWriter) tag0(b []byte) {
	if b == nil {
		w.uvarint(0)
		return
	}
	w.uvarint(1) // one tagged field
	w.uvarint(0) // its tag
	w.uvarint(uint64(len(b)))
	w.b = append(w.b, b...)
}

func (w *binWriter) uvarint(v uint64) {
	for v >= 0x80 {
		w.b = append(w.b, byte(v)|0x80)
		v >>= 7
	}
	w.b = append(w.b, byte(v))
}
func (w *binWriter) cstr(s string) {
	w.uvarint(uint64(len(s) + 1))
	w.b = append(w.b, s...)
}
func (w *binWriter) cnstr(s string) { // "" = null
	if s == "" {
		w.uvarint(0)
		return
	}
	w.cstr(s)
}
func (w *binWriter) uuid(u metadata.Uuid) { w.b = append(w.b, u[:]...) }
func (w *binWriter) int32s(v []int32) {
	w.uvarint(uint64(len(v) + 1))
	for _, x := range v {
		w.i32(x)
	}
}

type flexReader struct{ *protocol.Reader }

func (r flexReader) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		b := r.Take(1)
		if len(b) == 0 {
			return 0
		}
		v |= uint64(b[0]&0x7f) << shift
		if b[0] < 0x80 {
			return v
		}
	}
	r.Fail()
	return 0
}

// count is a compact array's length (0 for null).
func (r flexReader) count() int {
	n := r.uvarint()
	if n == 0 {
		return 0
	}
	return int(n - 1)
}
func (r flexReader) cnstr() string {
	n := r.uvarint()
	if n == 0 {
		return ""
	}
	return string(r.Take(int(n - 1)))
}
func (r flexReader) cstr() string { return r.cnstr() }
func (r flexReader) uuid() metadata.Uuid {
	var u metadata.Uuid
	copy(u[:], r.Take(16))
	return u
}
func (r flexReader) int32s() []int32 {
	var out []int32 // not sized by the count: it is read from the record
	for n := r.count(); n > 0 && r.Err() == nil; n-- {
		out = append(out, r.Int32())
	}
	return out
}

// tags reads a tagged-field section, handing each field's bytes to fn.
func (r flexReader) tags(fn func(tag uint64, b flexReader)) {
	for n := r.uvarint(); n > 0 && r.Err() == nil; n-- {
		tag := r.uvarint()
		size := r.uvarint()
		fn(tag, flexReader{protocol.NewReader(r.Take(int(size)), errBadGroupRecord)})
	}
}

// partitionEpochs reads a TopicPartitions array; without AssignmentEpochs
// (4.1's records) every partition counts as assigned at the member epoch.
func (r flexReader) partitionEpochs(memberEpoch int32) []kgroup.PartitionEpoch {
	var out []kgroup.PartitionEpoch
	for n := r.count(); n > 0 && r.Err() == nil; n-- {
		topic := r.uuid()
		parts := r.int32s()
		var epochs []int32
		r.tags(func(tag uint64, b flexReader) {
			if tag == 0 {
				epochs = b.int32s()
			}
		})
		for i, p := range parts {
			e := memberEpoch
			if i < len(epochs) {
				e = epochs[i]
			}
			out = append(out, kgroup.PartitionEpoch{TopicID: topic, Partition: p, Epoch: e})
		}
	}
	return out
}
