package client

import (
	"testing"

	"kafkascope/core/protocol"
)

// Sender.failBatch's rules for a batch refused record by record.
func TestRecordExceptions(t *testing.T) {
	one := recordExceptions(protocol.ProducePartitionResponse{ErrorCode: protocol.INVALID_RECORD, ErrorMessage: "top",
		RecordErrors: []protocol.RecordError{{BatchIndex: 1, Message: "no key"}}})
	if got := one(1).Error(); got != "org.apache.kafka.common.InvalidRecordException: no key" {
		t.Fatalf("named record: %s", got)
	}
	if got := one(0).Error(); got != "org.apache.kafka.common.KafkaException: Failed to append record because it was part of a batch which had one more more invalid records" {
		t.Fatalf("other record: %s", got)
	}
	two := recordExceptions(protocol.ProducePartitionResponse{ErrorCode: protocol.INVALID_TIMESTAMP, ErrorMessage: "top",
		RecordErrors: []protocol.RecordError{{BatchIndex: 0}, {BatchIndex: 2, Message: "late"}}})
	if got := two(0).Error(); got != "org.apache.kafka.common.InvalidRecordException: top" {
		t.Fatalf("null message: %s", got)
	}
	if got := two(2).Error(); got != "org.apache.kafka.common.InvalidRecordException: late" {
		t.Fatalf("two named: %s", got)
	}
}
