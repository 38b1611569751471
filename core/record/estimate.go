package record

// MaxRecordOverhead is DefaultRecord.MAX_RECORD_OVERHEAD: the most a
// record's length, attributes, timestamp delta and offset delta can take
// (5 + 1 + 10 + 5 bytes of varints).
const MaxRecordOverhead = 21

// EstimateSizeInBytesUpperBound is Kafka's
// AbstractRecords.estimateSizeInBytesUpperBound for magic v2 without
// compression (DefaultRecordBatch.estimateBatchSizeUpperBound): the batch
// header, MaxRecordOverhead, and the exact size of the key, the value and
// the headers with their varint lengths (a nil key or value takes the one
// byte of length -1). KafkaProducer compares it with max.request.size and
// buffer.memory before it queues a record, and RecordAccumulator sizes a
// new batch's buffer as the larger of it and batch.size.
func EstimateSizeInBytesUpperBound(key, value []byte, headers []Header) int {
	n := HeaderSize + MaxRecordOverhead + sizeOfNullableBytes(key) + sizeOfNullableBytes(value)
	n += SizeOfVarint(int32(len(headers)))
	for i := range headers {
		h := &headers[i]
		n += SizeOfVarint(int32(len(h.Key))) + len(h.Key) + sizeOfNullableBytes(h.Value)
	}
	return n
}
