package record

// Batch attribute bits (Kafka's DefaultRecordBatch masks). Bits 7-15 are
// unused; Kafka reads only the low byte and so does this package, but the
// full int16 is preserved so batches re-encode byte for byte.
const (
	CompressionCodecMask  int16 = 0x07
	TimestampTypeMask     int16 = 0x08 // set: LogAppendTime, clear: CreateTime
	TransactionalFlagMask int16 = 0x10
	ControlFlagMask       int16 = 0x20
	DeleteHorizonFlagMask int16 = 0x40 // baseTimestamp holds the delete horizon
)

// Compression codec ids (attributes bits 0-2).
const (
	CompressionNone   = 0
	CompressionGzip   = 1
	CompressionSnappy = 2
	CompressionLz4    = 3
	CompressionZstd   = 4
)

// Timestamp type names as Kafka prints them (TimestampType.name).
const (
	CreateTime    = "CreateTime"
	LogAppendTime = "LogAppendTime"
)

func codecOf(attrs int16) int { return int(attrs & CompressionCodecMask) }

// codecName is Kafka's CompressionType.name for ids 0-4; ids 5-7 are not
// assigned, and Kafka refuses such batches.
func codecName(attrs int16) string {
	switch codecOf(attrs) {
	case CompressionNone:
		return "none"
	case CompressionGzip:
		return "gzip"
	case CompressionSnappy:
		return "snappy"
	case CompressionLz4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return "unknown"
}

func timestampTypeName(attrs int16) string {
	if attrs&TimestampTypeMask != 0 {
		return LogAppendTime
	}
	return CreateTime
}
