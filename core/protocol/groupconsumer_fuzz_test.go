package protocol

import (
	"reflect"
	"testing"
)

// Consumer protocol bytes arrive from other members (JoinGroup metadata,
// SyncGroup assignments): any bytes decode or fail cleanly, and what
// decodes as version 3 re-encodes to a message that decodes the same.
func FuzzConsumerProtocol(f *testing.F) {
	sub := ConsumerProtocolSubscription{Topics: []string{"a", "b"}, UserData: []byte{1, 2}, OwnedPartitions: []TopicPartitions{{Topic: "a", Partitions: []int32{0, 2}}}, GenerationID: 4, RackID: "r1"}
	f.Add(sub.Encode())
	f.Add((&ConsumerProtocolSubscription{Topics: []string{"t"}, GenerationID: -1}).Encode())
	f.Add((&ConsumerProtocolAssignment{AssignedPartitions: []TopicPartitions{{Topic: "a", Partitions: []int32{1}}}}).Encode())
	f.Add([]byte{0, 0, 0, 0, 0, 1, 0, 1, 't', 0xff, 0xff, 0xff, 0xff}) // version 0
	f.Add([]byte{0, 3, 0x7f, 0xff, 0xff, 0xff})                        // a huge count, no data
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := DecodeConsumerProtocolSubscription(b); err == nil && len(b) >= 2 && b[0] == 0 && b[1] == 3 {
			again, err := DecodeConsumerProtocolSubscription(s.Encode())
			if err != nil || !reflect.DeepEqual(normSub(again), normSub(s)) {
				t.Fatalf("subscription does not round-trip: %+v vs %+v (%v)", again, s, err)
			}
		}
		if a, err := DecodeConsumerProtocolAssignment(b); err == nil && len(b) >= 2 {
			again, err := DecodeConsumerProtocolAssignment(a.Encode())
			if err != nil || len(again.AssignedPartitions) != len(a.AssignedPartitions) {
				t.Fatalf("assignment does not round-trip: %+v vs %+v (%v)", again, a, err)
			}
		}
	})
}

// normSub treats an empty and a missing list alike (the wire has no
// difference).
func normSub(s ConsumerProtocolSubscription) ConsumerProtocolSubscription {
	if len(s.Topics) == 0 {
		s.Topics = nil
	}
	if len(s.OwnedPartitions) == 0 {
		s.OwnedPartitions = nil
	}
	for i := range s.OwnedPartitions {
		if len(s.OwnedPartitions[i].Partitions) == 0 {
			s.OwnedPartitions[i].Partitions = nil
		}
	}
	return s
}
