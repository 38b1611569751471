package zkcontroller

import (
	"slices"
	"testing"
)

// ReplicaAssignment.reassignTo, with the examples of KafkaController's
// comments (2.8.0): target first, then the original replicas leaving; a
// cancellation goes back to the origin, whose order is lost when the
// move overlapped it.
func TestReassignTo(t *testing.T) {
	for _, c := range []struct {
		from                       assignment
		target                     []int32
		replicas, adding, removing []int32
	}{
		{assignment{replicas: []int32{1, 2, 3}}, []int32{4, 5, 6}, []int32{4, 5, 6, 1, 2, 3}, []int32{4, 5, 6}, []int32{1, 2, 3}},
		{assignment{replicas: []int32{1, 2, 3}}, []int32{3, 4, 2}, []int32{3, 4, 2, 1}, []int32{4}, []int32{1}},
		// A new target while moving: from the origin, not the full set.
		{assignment{replicas: []int32{3, 4, 2, 1}, adding: []int32{4}, removing: []int32{1}}, []int32{5, 2, 3}, []int32{5, 2, 3, 1}, []int32{5}, []int32{1}},
		// Cancelled: the origin as the znode kept it (3,2,1, not 1,2,3).
		{assignment{replicas: []int32{3, 4, 2, 1}, adding: []int32{4}, removing: []int32{1}}, []int32{3, 2, 1}, []int32{3, 2, 1}, nil, nil},
	} {
		got := c.from.reassignTo(c.target)
		if !slices.Equal(got.replicas, c.replicas) || !slices.Equal(got.adding, c.adding) || !slices.Equal(got.removing, c.removing) {
			t.Errorf("%+v to %v: %+v, want %v %v %v", c.from, c.target, got, c.replicas, c.adding, c.removing)
		}
		if !slices.Equal(got.target(), c.target) {
			t.Errorf("%+v to %v: target %v", c.from, c.target, got.target())
		}
	}
	moving := assignment{replicas: []int32{3, 4, 2, 1}, adding: []int32{4}, removing: []int32{1}}
	if !slices.Equal(moving.origin(), []int32{3, 2, 1}) || !moving.moving() || (assignment{replicas: []int32{1}}).moving() {
		t.Errorf("origin %v", moving.origin())
	}
}
