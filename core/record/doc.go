// Package record owns Kafka's record batch format, magic v2 (Kafka's
// DefaultRecordBatch and DefaultRecord), byte for byte: the 61-byte batch
// header, the inner records, the zigzag varints they use, the CRC-32C that
// guards a batch, and the structural checks a broker makes before it trusts
// a batch (Validate) or when it recovers a segment after a crash (Scan).
//
// Byte layout, big-endian (offsets into a batch):
//
//	 0 baseOffset            int64  ┐ LOG_OVERHEAD (12 bytes): not counted
//	 8 batchLength           int32  ┘ in batchLength
//	12 partitionLeaderEpoch  int32  ┐ not covered by the CRC, so a leader can
//	16 magic                 int8   │ stamp offsets and its epoch in place
//	17 crc                   uint32 ┘ (SetBaseOffset, SetPartitionLeaderEpoch)
//	21 attributes            int16  ┐
//	23 lastOffsetDelta       int32  │
//	27 baseTimestamp         int64  │
//	35 maxTimestamp          int64  │ covered by the CRC-32C (Castagnoli),
//	43 producerId            int64  │ from attributes to the end of the batch
//	51 producerEpoch         int16  │
//	53 baseSequence          int32  │
//	57 recordCount           int32  │
//	61 records...                   ┘
//
// What this package must never do: read a clock or a random source
// (offsets and timestamps are always passed in), perform I/O, keep state
// between calls, or know about topics, partitions, logs, leaders or producer
// sequence rules; those belong to callers. It must never panic on bytes it
// did not produce: Decode, ParseHeader, Validate and Scan accept arbitrary
// input. Encoders (Build, AppendTo) panic only on caller bugs that would
// otherwise write a wrong batch silently.
//
// Canonical form. Decode accepts exactly the bytes AppendTo produces for the
// decoded Batch, so Decode then AppendTo reproduces the input byte for byte.
// Kafka's own readers are a little laxer; these inputs, which no Kafka
// client writes, are ErrCorrupt here:
//   - overlong varints (a redundant trailing 0x00 group, or bits beyond 32/64
//     in the last byte);
//   - a key, value or header value length below -1 (Kafka reads any
//     negative length as null);
//   - a non-zero record attributes byte (Kafka ignores it; it is unused).
//
// Compression. Only uncompressed batches (codec "none") can be decoded into
// records. A compressed batch still has a valid header and CRC: ParseHeader
// and Scan accept it, while Decode and Validate report
// ErrUnsupportedCompression after checking its CRC.
//
// Timestamps. Record.Timestamp is always baseTimestamp + timestampDelta, the
// value on the wire. For a LogAppendTime batch Kafka reports every record's
// timestamp as the batch's maxTimestamp instead; Batch.RecordTimestamp gives
// that view.
package record
