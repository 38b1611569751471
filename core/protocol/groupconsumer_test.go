package protocol

import (
	"reflect"
	"testing"
)

func TestConsumerProtocolRoundTrip(t *testing.T) {
	s := ConsumerProtocolSubscription{Topics: []string{"a", "b"}, OwnedPartitions: []TopicPartitions{{Topic: "a", Partitions: []int32{0, 2}}}, GenerationID: 4, RackID: "r1"}
	got, err := DecodeConsumerProtocolSubscription(s.Encode())
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("subscription: %+v %v", got, err)
	}
	// Kafka's bytes for version 3, topics [t], no user data, no owned partitions, generation -1, rack null.
	want := []byte{0, 3, 0, 0, 0, 1, 0, 1, 't', 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if b := (&ConsumerProtocolSubscription{Topics: []string{"t"}, GenerationID: -1}).Encode(); !reflect.DeepEqual(b, want) {
		t.Fatalf("bytes % x", b)
	}
	a := ConsumerProtocolAssignment{AssignedPartitions: []TopicPartitions{{Topic: "a", Partitions: []int32{1}}}}
	ga, err := DecodeConsumerProtocolAssignment(a.Encode())
	if err != nil || !reflect.DeepEqual(ga, a) {
		t.Fatalf("assignment: %+v %v", ga, err)
	}
	if _, err := DecodeConsumerProtocolAssignment([]byte{0, 3, 0}); err == nil {
		t.Fatal("truncated assignment decoded")
	}
}
