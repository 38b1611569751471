package placement

import (
	"reflect"
	"testing"
)

// AdminUtils.assignReplicasToBrokersRackUnaware worked by hand: six
// partitions on brokers 1-3, rf 2, start index 0 and shift 0 (the shift
// grows at partition 3, the first wrap); then two partitions added to a
// topic whose partition 0 is on [2 3] and which has two: the start index
// and first shift are 1 (broker 2 is the first id >= 2), partition ids
// start at 2, and the shift grows at partition 3.
func TestRackUnawareByHand(t *testing.T) {
	brokers := []int32{1, 2, 3}
	if got, want := RackUnaware(brokers, 6, 2, 0, 0), [][]int32{{1, 2}, {2, 3}, {3, 1}, {1, 3}, {2, 1}, {3, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("new topic: %v, want %v", got, want)
	}
	if got, want := RackUnawareFrom(brokers, 2, 2, 1, 1, 2), [][]int32{{1, 3}, {2, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("added partitions: %v, want %v", got, want)
	}
}
