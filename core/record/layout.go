package record

// Field offsets within a batch, named as in Kafka's DefaultRecordBatch.
const (
	baseOffsetOffset           = 0
	lengthOffset               = 8
	partitionLeaderEpochOffset = 12
	magicOffset                = 16
	crcOffset                  = 17
	attributesOffset           = 21
	lastOffsetDeltaOffset      = 23
	baseTimestampOffset        = 27
	maxTimestampOffset         = 35
	producerIDOffset           = 43
	producerEpochOffset        = 51
	baseSequenceOffset         = 53
	recordsCountOffset         = 57
	recordsOffset              = 61
)

const (
	// HeaderSize is the size of a batch with no records (Kafka's
	// RECORD_BATCH_OVERHEAD).
	HeaderSize = recordsOffset

	// LogOverhead is the baseOffset and batchLength prefix, which batchLength
	// does not count: a batch occupies batchLength+LogOverhead bytes.
	LogOverhead = lengthOffset + 4

	// MinBatchLength is the smallest possible batchLength: a header with no
	// records.
	MinBatchLength = HeaderSize - LogOverhead

	// MagicV2 is the only magic this package reads or writes.
	MagicV2 = 2
)

// Sentinels Kafka writes when a field does not apply (RecordBatch.NO_*).
const (
	NoProducerID           = -1
	NoProducerEpoch        = -1
	NoSequence             = -1
	NoPartitionLeaderEpoch = -1
	NoTimestamp            = -1
)

// minRecordSize is the smallest encoded record: length, attributes,
// timestampDelta, offsetDelta, keyLength, valueLength and headerCount, one
// byte each. It bounds how many records a batch of a given size can hold,
// so a lying recordCount is caught before anything is allocated for it.
const minRecordSize = 7

// Compile-time check that the header layout adds up to 61 bytes.
var _ [HeaderSize - (recordsCountOffset + 4)]struct{} = [0]struct{}{}
