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

// NewPartitions derives the start index and shift from partition 0's
// first replica; ValidateReplicaAssignment names absolute partition ids.
func TestNewPartitionsAndValidation(t *testing.T) {
	if got, _ := NewPartitions([]int32{1, 2, 3}, make([]string, 3), []int32{2, 3}, 2, 2); !reflect.DeepEqual(got, [][]int32{{1, 3}, {2, 3}}) {
		t.Errorf("NewPartitions: %v, want [[1 3] [2 3]]", got)
	}
	// No broker id at least 9: the start index is 0.
	if got, want := first(NewPartitions([]int32{1, 2, 3}, make([]string, 3), []int32{9, 1}, 3, 1)), [][]int32{{1, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("NewPartitions from a gone broker: %v, want %v", got, want)
	}
	for _, c := range []struct {
		asg  [][]int32
		want string
	}{
		{[][]int32{{1, 2}, {}}, "InvalidReplicaAssignmentException: Cannot have replication factor of 0 for partition id 5."},
		{[][]int32{{1, 1}}, "InvalidReplicaAssignmentException: Duplicate brokers not allowed in replica assignment: 1, 1 for partition id 4."},
		{[][]int32{{1, 7}}, "BrokerNotAvailableException: Some brokers specified for partition id 4 are not available. Specified brokers: 1, 7, available brokers: 1, 2, 3."},
		{[][]int32{{1, 2}, {1, 2, 3}, {3}}, "InvalidReplicaAssignmentException: Inconsistent replication factor between partitions, partition 0 has 2 while partitions [5, 6] have replication factors [3, 1], respectively."},
	} {
		e := ValidateReplicaAssignment(c.asg, 4, 2, []int32{1, 2, 3})
		if e == nil || e.Class+": "+e.Message != c.want {
			t.Errorf("%v: %+v, want %s", c.asg, e, c.want)
		}
	}
	if e := ValidateReplicaAssignment([][]int32{{1, 2}, {3, 1}}, 4, 2, []int32{1, 2, 3}); e != nil {
		t.Errorf("a valid assignment: %+v", e)
	}
}

// AdminUtils.assignReplicasToBrokersRackAware worked by hand. Six brokers
// in racks a, b, c, a, b, c alternate as 1-6; rf 3 from start index 0 and
// shift 0 gives each partition three racks, and at the wrap (partition 6)
// the shift grows by the number of racks. Brokers 1 and 4 in rack a, 2 in
// b, 3 in c alternate as 1, 2, 3, 4; with shift 1, partition 2's third
// replica skips broker 1 (rack a has a replica, rack b none yet).
func TestRackAwareByHand(t *testing.T) {
	six, sixRacks := []int32{1, 2, 3, 4, 5, 6}, []string{"a", "b", "c", "a", "b", "c"}
	got := RackAwareFrom(six, sixRacks, 7, 3, 0, 0, 0)
	if want := [][]int32{{1, 2, 3}, {2, 3, 4}}; !reflect.DeepEqual(got[:2], want) {
		t.Errorf("partitions 0-1: %v, want %v", got[:2], want)
	}
	if want := []int32{1, 5, 6}; !reflect.DeepEqual(got[6], want) {
		t.Errorf("partition 6: %v, want %v", got[6], want)
	}
	four, fourRacks := []int32{1, 2, 3, 4}, []string{"a", "b", "c", "a"}
	if got, want := RackAlternated(four, fourRacks), []int32{1, 2, 3, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("alternated: %v, want %v", got, want)
	}
	if got := RackAwareFrom(four, fourRacks, 3, 3, 0, 1, 0); !reflect.DeepEqual(got[2], []int32{3, 4, 2}) || !reflect.DeepEqual(got[0], []int32{1, 2, 3}) {
		t.Errorf("with skips: %v, want partition 0 [1 2 3], partition 2 [3 4 2]", got)
	}
	// Without racks AdminUtils is the rack-unaware placement; with some
	// racks it refuses.
	if got, ok := AdminUtils(six, make([]string, 6), 6, 2, 0, 0, 0); !ok || !reflect.DeepEqual(got, RackUnaware(six, 6, 2, 0, 0)) {
		t.Errorf("no racks: %v %v", got, ok)
	}
	if _, ok := AdminUtils(four, []string{"a", "", "b", "b"}, 1, 1, 0, 0, 0); ok {
		t.Error("some racks: placed")
	}
}

func first(out [][]int32, _ bool) [][]int32 { return out }
