package client

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// recordExceptions is what Kafka's Sender.failBatch gives each record of a
// batch the broker refused record by record (KIP-467): a named record gets
// its own message, as the partition error's exception if it is the only
// one named, else as an InvalidRecordException; the others get a
// KafkaException saying their batch had invalid records.
func recordExceptions(pr protocol.ProducePartitionResponse) func(index int) *Error {
	named := make(map[int]*Error, len(pr.RecordErrors))
	for _, re := range pr.RecordErrors {
		msg := re.Message
		if msg == "" {
			msg = pr.ErrorMessage
		}
		if msg == "" {
			msg = pr.ErrorCode.Message()
		}
		class := "org.apache.kafka.common.InvalidRecordException"
		if len(pr.RecordErrors) == 1 {
			class = pr.ErrorCode.Exception()
		}
		named[int(re.BatchIndex)] = &Error{Class: class, Message: msg}
	}
	return func(index int) *Error {
		if e, ok := named[index]; ok {
			return e
		}
		// Kafka's wording, typo included.
		return &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Failed to append record because it was part of a batch which had one more more invalid records"}
	}
}

// failRecords completes every record of b with its own error.
func (p *Producer) failRecords(env *sim.Env, b *producerBatch, errOf func(index int) *Error) {
	p.remove(b)
	p.batchFailed(b)
	for i, cb := range b.callbacks {
		cb(env, RecordMetadata{Topic: b.tp.topic, Partition: b.tp.partition, Offset: -1}, errOf(i))
	}
}
