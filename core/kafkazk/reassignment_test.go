package kafkazk

import (
	"slices"
	"testing"
)

// /admin/reassign_partitions as the 2.8 tool writes it and the controller
// reads it: a partition named twice keeps its first place and its last
// replicas; five or more come back in the order of the Scala Map the
// controller builds (CHAMP, by TopicPartition.hashCode).
func TestReassignmentZNode(t *testing.T) {
	es := []ReassignmentEntry{{TopicPartition{"t", 0}, []int32{4, 2, 3}}, {TopicPartition{"t", 1}, []int32{1, 2}}}
	data := EncodeReassignment(es)
	want := `{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[4,2,3]},{"topic":"t","partition":1,"replicas":[1,2]}]}`
	if string(data) != want {
		t.Fatalf("encoded %s", data)
	}
	got, err := DecodeReassignment([]byte(`{"version":1,"partitions":[{"topic":"t","partition":1,"replicas":[1]},{"topic":"t","partition":0,"replicas":[2]},{"topic":"t","partition":1,"replicas":[3]}]}`))
	if err != nil || len(got) != 2 || got[0].Partition != 1 || !slices.Equal(got[0].Replicas, []int32{3}) || got[1].Partition != 0 {
		t.Fatalf("decoded %+v, %v", got, err)
	}
	if _, err := DecodeReassignment([]byte(`{"version":1}`)); err == nil {
		t.Error("no partitions: no error")
	}
	var five []ReassignmentEntry
	for p := int32(0); p < 5; p++ {
		five = append(five, ReassignmentEntry{TopicPartition{"t", p}, []int32{1}})
	}
	var order []int32
	for _, e := range InMapOrder(five) {
		order = append(order, e.Partition)
	}
	// t-0..t-4 hash to 1077 + 31p; improved, their low five bits put
	// them in branches in reverse order.
	if !slices.Equal(order, []int32{4, 3, 2, 1, 0}) {
		t.Errorf("five partitions in order %v, want the HashMap's 4 3 2 1 0", order)
	}
	if TopicPartitionHash(TopicPartition{"t", 0}) != 31*31+116 {
		t.Errorf("hash of t-0: %d", TopicPartitionHash(TopicPartition{"t", 0}))
	}
}
