package console

import (
	"encoding/json"
	"strings"
	"testing"

	"kafkascope/core/protocol"
)

// kafka-dump-log.sh --offsets-decoder reads whatever a __consumer_offsets
// segment holds: any key and value give a line (a decoded record as JSON,
// or Kafka's skip message), never a panic.
func FuzzOffsetsRecord(f *testing.F) {
	sub := (&protocol.ConsumerProtocolSubscription{Topics: []string{"t"}, GenerationID: -1}).Encode()
	asg := (&protocol.ConsumerProtocolAssignment{AssignedPartitions: []protocol.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}}).Encode()
	member := []byte{0, 2, 'm', '1', 0xff, 0xff, 0, 1, 'c', 0, 2, '/', 'h', 0, 4, 0x93, 0xe0, 0, 0, 0xaf, 0xc8}
	member = append(append(member, 0, 0, 0, byte(len(sub))), sub...)
	member = append(append(member, 0, 0, 0, byte(len(asg))), asg...)
	group := append([]byte{0, 3, 0, 8}, "consumer"...)
	group = append(group, 0, 0, 0, 1, 0, 5, 'r', 'a', 'n', 'g', 'e', 0, 2, 'm', '1', 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 1)
	f.Add([]byte{0, 2, 0, 1, 'g'}, append(group, member...))
	f.Add([]byte{0, 1, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 2}, []byte{0, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 2}, []byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2})
	// OffsetCommitValue v4 (Kafka 4.1+) with its tagged topic id.
	f.Add([]byte{0, 1, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 2}, []byte{0, 4, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1,
		1, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7})
	f.Add([]byte{0, 2, 0, 1, 'g'}, []byte(nil))
	f.Add([]byte{0, 9}, []byte{0})
	f.Fuzz(func(t *testing.T, key, value []byte) {
		k, payload, ok := offsetsRecord(3, key, value)
		if k == "" || strings.Contains(k, "\n") || strings.Contains(payload, "\n") {
			t.Fatalf("bad line: %q %q", k, payload)
		}
		if !ok {
			return
		}
		if !json.Valid([]byte(k)) || payload != "<DELETE>" && !json.Valid([]byte(payload)) {
			t.Fatalf("not JSON: %s %s", k, payload)
		}
	})
}
