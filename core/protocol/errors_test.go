package protocol

import "testing"

func TestErrorTableMatchesKafka(t *testing.T) {
	// Codes and classes checked against Kafka's Errors.java.
	cases := []struct {
		code      ErrorCode
		num       int16
		name, exc string
		retriable bool
	}{
		{OFFSET_OUT_OF_RANGE, 1, "OFFSET_OUT_OF_RANGE", "OffsetOutOfRangeException", false},
		{NOT_LEADER_OR_FOLLOWER, 6, "NOT_LEADER_OR_FOLLOWER", "NotLeaderOrFollowerException", true},
		{REQUEST_TIMED_OUT, 7, "REQUEST_TIMED_OUT", "TimeoutException", true},
		{NOT_ENOUGH_REPLICAS, 19, "NOT_ENOUGH_REPLICAS", "NotEnoughReplicasException", true},
		{NOT_ENOUGH_REPLICAS_AFTER_APPEND, 20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "NotEnoughReplicasAfterAppendException", true},
		{INVALID_REQUIRED_ACKS, 21, "INVALID_REQUIRED_ACKS", "InvalidRequiredAcksException", false},
		{INVALID_REPLICATION_FACTOR, 38, "INVALID_REPLICATION_FACTOR", "InvalidReplicationFactorException", false},
		{OUT_OF_ORDER_SEQUENCE_NUMBER, 45, "OUT_OF_ORDER_SEQUENCE_NUMBER", "OutOfOrderSequenceException", false},
		{DUPLICATE_SEQUENCE_NUMBER, 46, "DUPLICATE_SEQUENCE_NUMBER", "DuplicateSequenceException", false},
		{INVALID_PRODUCER_EPOCH, 47, "INVALID_PRODUCER_EPOCH", "InvalidProducerEpochException", false},
		{FENCED_LEADER_EPOCH, 74, "FENCED_LEADER_EPOCH", "FencedLeaderEpochException", true},
		{TOPIC_ALREADY_EXISTS, 36, "TOPIC_ALREADY_EXISTS", "TopicExistsException", false},
	}
	for _, c := range cases {
		if int16(c.code) != c.num || c.code.String() != c.name || c.code.ExceptionName() != c.exc || c.code.Retriable() != c.retriable {
			t.Errorf("%s: got code %d name %s exception %s retriable %v", c.name, c.code, c.code, c.code.ExceptionName(), c.code.Retriable())
		}
	}
	if NONE.Err() != nil {
		t.Error("NONE is an error")
	}
	if CodeOf(NOT_ENOUGH_REPLICAS.Err()) != NOT_ENOUGH_REPLICAS {
		t.Error("CodeOf lost the code")
	}
	if ErrorCode(9999).String() != "UNKNOWN_SERVER_ERROR" {
		t.Error("unknown codes must read as UNKNOWN_SERVER_ERROR")
	}
}
