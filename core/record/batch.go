package record

// Header is a record header. Kafka header keys are non-null UTF-8 strings
// (kept here as the raw bytes, unvalidated); a nil Value is a null value,
// distinct from an empty one.
type Header struct {
	Key   string
	Value []byte
}

// Record is one record of a batch, with its offset and timestamp resolved to
// absolute values. A nil Key or Value is null, distinct from empty; a null
// Value is a tombstone to log compaction.
type Record struct {
	Offset    int64 // absolute; encoded as the int32 offsetDelta Offset-BaseOffset
	Timestamp int64 // absolute ms; encoded as the varlong timestampDelta Timestamp-BaseTimestamp
	Key       []byte
	Value     []byte
	Headers   []Header
}

// Batch is a decoded magic v2 record batch. Header fields are kept as found
// on the wire (not derived from Records), because compaction legitimately
// leaves them disagreeing: a cleaned batch keeps its original
// LastOffsetDelta, MaxTimestamp and BaseSequence while records are removed.
type Batch struct {
	BaseOffset           int64
	PartitionLeaderEpoch int32
	Magic                int8   // always MagicV2 after Decode; AppendTo writes MagicV2 regardless
	CRC                  uint32 // as found by Decode; AppendTo ignores it and computes the CRC
	Attributes           int16
	LastOffsetDelta      int32
	BaseTimestamp        int64 // a.k.a. firstTimestamp; the delete horizon if DeleteHorizonFlagMask is set
	MaxTimestamp         int64
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	Records              []Record
}

// ProducerInfo identifies the producer of a batch for idempotence and
// transactions. A non-idempotent producer is NoProducer().
type ProducerInfo struct {
	ID           int64
	Epoch        int16
	BaseSequence int32
	// Transactional sets the batch's transactional attribute (a
	// transactional producer's records).
	Transactional bool
}

// NoProducer is the ProducerInfo of a non-idempotent producer: {-1, -1, -1}.
func NoProducer() ProducerInfo {
	return ProducerInfo{ID: NoProducerID, Epoch: NoProducerEpoch, BaseSequence: NoSequence}
}

// LastOffset is the offset of the last record the batch was written with:
// BaseOffset + LastOffsetDelta.
func (b *Batch) LastOffset() int64 { return b.BaseOffset + int64(b.LastOffsetDelta) }

// NextOffset is the offset just past the batch.
func (b *Batch) NextOffset() int64 { return b.LastOffset() + 1 }

// IsTransactional reports the transactional attribute bit.
func (b *Batch) IsTransactional() bool { return b.Attributes&TransactionalFlagMask != 0 }

// IsControl reports the control attribute bit (transaction markers and
// other control records).
func (b *Batch) IsControl() bool { return b.Attributes&ControlFlagMask != 0 }

// DeleteHorizonMs is the delete horizon a log cleaner stored in
// BaseTimestamp (KIP-534), and whether the batch has one.
func (b *Batch) DeleteHorizonMs() (int64, bool) {
	if b.Attributes&DeleteHorizonFlagMask == 0 {
		return 0, false
	}
	return b.BaseTimestamp, true
}

// TimestampType is CreateTime or LogAppendTime.
func (b *Batch) TimestampType() string { return timestampTypeName(b.Attributes) }

// CompressionCodec is "none", "gzip", "snappy", "lz4", "zstd" or "unknown".
func (b *Batch) CompressionCodec() string { return codecName(b.Attributes) }

// RecordTimestamp is r's timestamp as Kafka reports it to consumers: the
// batch's MaxTimestamp for a LogAppendTime batch (the broker's append time
// overrides whatever the producer wrote), else r.Timestamp. This mirrors
// DefaultRecord.readFrom's logAppendTime override.
func (b *Batch) RecordTimestamp(r *Record) int64 {
	if b.Attributes&TimestampTypeMask != 0 {
		return b.MaxTimestamp
	}
	return r.Timestamp
}
