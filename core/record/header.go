package record

import (
	"encoding/binary"
	"fmt"
)

// BatchHeader is the fixed 61-byte header of a batch, read without looking
// at the records or checking the CRC. It is what a broker needs to index,
// fetch or recover a log without decoding records.
type BatchHeader struct {
	BaseOffset           int64
	BatchLength          int32 // bytes after this field; the batch is BatchLength+LogOverhead bytes
	PartitionLeaderEpoch int32
	Magic                int8
	CRC                  uint32
	Attributes           int16
	LastOffsetDelta      int32
	BaseTimestamp        int64
	MaxTimestamp         int64
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	RecordCount          int32
}

// ParseHeader reads the batch header at the front of buf. It does not check
// the CRC or that the whole batch is present. It fails with ErrTruncated if
// buf is shorter than HeaderSize, ErrCorrupt if batchLength is below
// MinBatchLength, and ErrMagic (also ErrCorrupt) if magic is not 2; the
// length is checked before the magic, as Kafka's log reader does.
func ParseHeader(buf []byte) (BatchHeader, error) {
	if err := checkPrefix(buf); err != nil {
		return BatchHeader{}, err
	}
	if len(buf) < HeaderSize {
		return BatchHeader{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrTruncated, len(buf), HeaderSize)
	}
	be := binary.BigEndian
	return BatchHeader{
		BaseOffset:           int64(be.Uint64(buf[baseOffsetOffset:])),
		BatchLength:          int32(be.Uint32(buf[lengthOffset:])),
		PartitionLeaderEpoch: int32(be.Uint32(buf[partitionLeaderEpochOffset:])),
		Magic:                int8(buf[magicOffset]),
		CRC:                  be.Uint32(buf[crcOffset:]),
		Attributes:           int16(be.Uint16(buf[attributesOffset:])),
		LastOffsetDelta:      int32(be.Uint32(buf[lastOffsetDeltaOffset:])),
		BaseTimestamp:        int64(be.Uint64(buf[baseTimestampOffset:])),
		MaxTimestamp:         int64(be.Uint64(buf[maxTimestampOffset:])),
		ProducerID:           int64(be.Uint64(buf[producerIDOffset:])),
		ProducerEpoch:        int16(be.Uint16(buf[producerEpochOffset:])),
		BaseSequence:         int32(be.Uint32(buf[baseSequenceOffset:])),
		RecordCount:          int32(be.Uint32(buf[recordsCountOffset:])),
	}, nil
}

// checkPrefix judges whatever part of the first 17 bytes (up to and
// including magic) buf holds, so that a short buffer whose visible fields
// are already impossible is reported as corrupt rather than truncated.
// It returns nil when nothing present is wrong.
func checkPrefix(buf []byte) error {
	if len(buf) < LogOverhead {
		return nil
	}
	if l := int32(binary.BigEndian.Uint32(buf[lengthOffset:])); l < MinBatchLength {
		return fmt.Errorf("%w: batchLength %d below minimum %d", ErrCorrupt, l, MinBatchLength)
	}
	if len(buf) > magicOffset && buf[magicOffset] != MagicV2 {
		return fmt.Errorf("%w: %w: magic %d", ErrCorrupt, ErrMagic, int8(buf[magicOffset]))
	}
	return nil
}

// LastOffset is BaseOffset + LastOffsetDelta.
func (h BatchHeader) LastOffset() int64 { return h.BaseOffset + int64(h.LastOffsetDelta) }

// NextOffset is LastOffset + 1, the offset the next batch in a log gets.
func (h BatchHeader) NextOffset() int64 { return h.LastOffset() + 1 }

// SizeInBytes is the whole batch's size: BatchLength + LogOverhead.
func (h BatchHeader) SizeInBytes() int { return int(h.BatchLength) + LogOverhead }

// IsTransactional reports the transactional attribute bit.
func (h BatchHeader) IsTransactional() bool { return h.Attributes&TransactionalFlagMask != 0 }

// IsControl reports the control attribute bit.
func (h BatchHeader) IsControl() bool { return h.Attributes&ControlFlagMask != 0 }

// TimestampType is CreateTime or LogAppendTime.
func (h BatchHeader) TimestampType() string { return timestampTypeName(h.Attributes) }

// CompressionCodec is "none", "gzip", "snappy", "lz4", "zstd" or "unknown".
func (h BatchHeader) CompressionCodec() string { return codecName(h.Attributes) }

// DeleteHorizonMs is the delete horizon stored in BaseTimestamp when the
// batch has the delete-horizon attribute, and whether it has it.
func (h BatchHeader) DeleteHorizonMs() (int64, bool) {
	if h.Attributes&DeleteHorizonFlagMask == 0 {
		return 0, false
	}
	return h.BaseTimestamp, true
}

// LastSequence is the sequence number of the batch's last record, or
// NoSequence if the batch has none. Sequences wrap from MaxInt32 to 0, as in
// Kafka's DefaultRecordBatch.incrementSequence.
func (h BatchHeader) LastSequence() int32 {
	if h.BaseSequence == NoSequence {
		return NoSequence
	}
	return IncrementSequence(h.BaseSequence, h.LastOffsetDelta)
}

// IncrementSequence is Kafka's DefaultRecordBatch.incrementSequence:
// sequence + increment, wrapping past MaxInt32 to 0 (not to MinInt32).
// increment must be non-negative.
func IncrementSequence(sequence, increment int32) int32 {
	if int64(sequence)+int64(increment) > 1<<31-1 {
		return int32(int64(sequence) + int64(increment) - (1 << 31))
	}
	return sequence + increment
}
