package client

import (
	"fmt"

	"kafkascope/core/record"
)

// recordTooLarge is org.apache.kafka.common.errors.RecordTooLargeException.
const recordTooLarge = "org.apache.kafka.common.errors.RecordTooLargeException"

// ensureValidRecordSize is KafkaProducer.ensureValidRecordSize: a record
// whose serialized size (the batch upper bound of
// AbstractRecords.estimateSizeInBytesUpperBound) is above max.request.size,
// or above buffer.memory, fails before it is queued. Kafka checks
// max.request.size first; the error is an ApiException, so send hands it
// to the callback instead of throwing.
func (p *Producer) ensureValidRecordSize(rec ProducerRecord) *Error {
	size := record.EstimateSizeInBytesUpperBound(rec.Key, rec.Value, rec.Headers)
	switch {
	case size > p.cfg.MaxRequestSize:
		return &Error{Class: recordTooLarge, Message: fmt.Sprintf("The message is %d bytes when serialized which is larger than %d, which is the value of the max.request.size configuration.", size, p.cfg.MaxRequestSize)}
	case int64(size) > p.cfg.BufferMemory:
		return &Error{Class: recordTooLarge, Message: fmt.Sprintf("The message is %d bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration.", size)}
	}
	return nil
}
