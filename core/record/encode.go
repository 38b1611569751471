package record

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Build encodes recs as one uncompressed CreateTime batch, the way a
// producer (Kafka's MemoryRecordsBuilder) would: record i gets offset
// baseOffset+i (recs' own Offset fields are ignored and not modified),
// BaseTimestamp is the first record's timestamp, MaxTimestamp the largest,
// LastOffsetDelta len(recs)-1.
//
// With no records there is no batch and Build returns nil, as Kafka's
// MemoryRecords.withRecords returns EMPTY; an empty batch (which only
// compaction creates) can be written with AppendTo.
func Build(baseOffset int64, partitionLeaderEpoch int32, p ProducerInfo, recs []Record) []byte {
	if len(recs) == 0 {
		return nil
	}
	if int64(len(recs))-1 > math.MaxInt32 {
		panic("record: Build: too many records for one batch")
	}
	b := Batch{
		BaseOffset:           baseOffset,
		PartitionLeaderEpoch: partitionLeaderEpoch,
		Magic:                MagicV2,
		LastOffsetDelta:      int32(len(recs) - 1),
		BaseTimestamp:        recs[0].Timestamp,
		MaxTimestamp:         recs[0].Timestamp,
		ProducerID:           p.ID,
		ProducerEpoch:        p.Epoch,
		BaseSequence:         p.BaseSequence,
		Records:              make([]Record, len(recs)),
	}
	if p.Transactional {
		b.Attributes |= TransactionalFlagMask
	}
	for i, r := range recs {
		r.Offset = baseOffset + int64(i)
		b.Records[i] = r
		b.MaxTimestamp = max(b.MaxTimestamp, r.Timestamp)
	}
	return b.AppendTo(make([]byte, 0, b.encodedSize()))
}

// AppendTo appends b, encoded, to dst and returns the extended slice. Header
// fields are written as given, except that Magic is always MagicV2, and
// batchLength, recordCount and the CRC are computed (b.CRC is ignored).
// Each record's offsetDelta and timestampDelta come from its Offset and
// Timestamp relative to b.BaseOffset and b.BaseTimestamp.
//
// AppendTo panics on caller bugs that would otherwise produce a batch that
// silently means something else: compression bits in Attributes (records are
// always written uncompressed), a record Offset whose delta does not fit an
// int32, or a batch larger than MaxInt32 bytes.
func (b *Batch) AppendTo(dst []byte) []byte {
	if codecOf(b.Attributes) != CompressionNone {
		panic(fmt.Sprintf("record: AppendTo: attributes 0x%x ask for compression; records are written uncompressed", b.Attributes))
	}
	start := len(dst)
	var zero [HeaderSize]byte // placeholder; header fields are filled in once the size is known
	dst = append(dst, zero[:]...)
	for i := range b.Records {
		dst = appendRecord(dst, b.BaseOffset, b.BaseTimestamp, &b.Records[i])
	}
	size := len(dst) - start
	if size-LogOverhead > math.MaxInt32 {
		panic("record: AppendTo: batch larger than MaxInt32 bytes")
	}
	if len(b.Records) > math.MaxInt32 {
		panic("record: AppendTo: too many records")
	}

	h := dst[start:]
	be := binary.BigEndian
	be.PutUint64(h[baseOffsetOffset:], uint64(b.BaseOffset))
	be.PutUint32(h[lengthOffset:], uint32(size-LogOverhead))
	be.PutUint32(h[partitionLeaderEpochOffset:], uint32(b.PartitionLeaderEpoch))
	h[magicOffset] = MagicV2
	be.PutUint16(h[attributesOffset:], uint16(b.Attributes))
	be.PutUint32(h[lastOffsetDeltaOffset:], uint32(b.LastOffsetDelta))
	be.PutUint64(h[baseTimestampOffset:], uint64(b.BaseTimestamp))
	be.PutUint64(h[maxTimestampOffset:], uint64(b.MaxTimestamp))
	be.PutUint64(h[producerIDOffset:], uint64(b.ProducerID))
	be.PutUint16(h[producerEpochOffset:], uint16(b.ProducerEpoch))
	be.PutUint32(h[baseSequenceOffset:], uint32(b.BaseSequence))
	be.PutUint32(h[recordsCountOffset:], uint32(len(b.Records)))
	// The CRC goes last: it covers every field from attributes on.
	be.PutUint32(h[crcOffset:], ComputeCRC(h))
	return dst
}

// encodedSize is the exact size AppendTo will produce, for preallocation.
func (b *Batch) encodedSize() int {
	n := HeaderSize
	for i := range b.Records {
		body := recordBodySize(b.BaseOffset, b.BaseTimestamp, &b.Records[i])
		n += SizeOfVarint(int32(body)) + body
	}
	return n
}

// offsetDelta is r.Offset-baseOffset, which must fit the int32 on the wire.
func offsetDelta(baseOffset int64, r *Record) int32 {
	d := r.Offset - baseOffset
	if d < math.MinInt32 || d > math.MaxInt32 {
		panic(fmt.Sprintf("record: offset %d is %d from base offset %d; deltas must fit int32", r.Offset, d, baseOffset))
	}
	return int32(d)
}

// recordBodySize is the size of everything after a record's length varint
// (Kafka's DefaultRecord.sizeOfBodyInBytes).
func recordBodySize(baseOffset, baseTimestamp int64, r *Record) int {
	n := 1 // attributes
	n += SizeOfVarlong(r.Timestamp - baseTimestamp)
	n += SizeOfVarint(offsetDelta(baseOffset, r))
	n += sizeOfNullableBytes(r.Key)
	n += sizeOfNullableBytes(r.Value)
	n += SizeOfVarint(int32(len(r.Headers)))
	for i := range r.Headers {
		h := &r.Headers[i]
		n += SizeOfVarint(int32(len(h.Key))) + len(h.Key)
		n += sizeOfNullableBytes(h.Value)
	}
	return n
}

func sizeOfNullableBytes(p []byte) int {
	if p == nil {
		return 1 // varint -1
	}
	return SizeOfVarint(int32(len(p))) + len(p)
}

// appendRecord writes one record (Kafka's DefaultRecord.writeTo). Timestamp
// deltas use wrapping int64 arithmetic, which Decode undoes exactly.
func appendRecord(dst []byte, baseOffset, baseTimestamp int64, r *Record) []byte {
	body := recordBodySize(baseOffset, baseTimestamp, r)
	if body > math.MaxInt32 {
		panic("record: AppendTo: record larger than MaxInt32 bytes")
	}
	dst = AppendVarint(dst, int32(body))
	dst = append(dst, 0) // record attributes: unused, always 0
	dst = AppendVarlong(dst, r.Timestamp-baseTimestamp)
	dst = AppendVarint(dst, offsetDelta(baseOffset, r))
	dst = appendNullableBytes(dst, r.Key)
	dst = appendNullableBytes(dst, r.Value)
	dst = AppendVarint(dst, int32(len(r.Headers)))
	for i := range r.Headers {
		h := &r.Headers[i]
		dst = AppendVarint(dst, int32(len(h.Key)))
		dst = append(dst, h.Key...)
		dst = appendNullableBytes(dst, h.Value)
	}
	return dst
}

// appendNullableBytes writes a varint length then the bytes; nil is length
// -1 with no bytes, which is how Kafka tells null from empty.
func appendNullableBytes(dst, p []byte) []byte {
	if p == nil {
		return AppendVarint(dst, -1)
	}
	dst = AppendVarint(dst, int32(len(p)))
	return append(dst, p...)
}
