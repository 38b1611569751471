package zkcontroller

import (
	"slices"

	"kafkascope/core/storage"
)

// assignment is ReplicaAssignment (ControllerContext.scala, 2.8.0): a
// partition's replicas and, while it is being reassigned, which of them
// are being added and which removed. During a move replicas is the full
// set, the target replicas first in the order asked for and then the
// original ones that are leaving (RS = TRS + ORS).
//
// Invariant: adding and removing are disjoint subsets of replicas.
type assignment struct {
	replicas, adding, removing []int32
}

// origin is ORS, the replicas before the move (replicas − adding).
func (a assignment) origin() []int32 { return without(a.replicas, a.adding) }

// target is TRS, the replicas after it (replicas − removing).
func (a assignment) target() []int32 { return without(a.replicas, a.removing) }

// moving is isBeingReassigned.
func (a assignment) moving() bool { return len(a.adding) > 0 || len(a.removing) > 0 }

// reassignTo is ReplicaAssignment.reassignTo: the full set is the target
// followed by the original replicas not in it; adding is what the origin
// lacks, removing what the target lacks. Reassigning to the origin (a
// cancellation) gives the origin, not moving.
func (a assignment) reassignTo(target []int32) assignment {
	origin := a.origin()
	var full []int32
	for _, r := range append(slices.Clone(target), origin...) {
		if !slices.Contains(full, r) {
			full = append(full, r)
		}
	}
	return assignment{replicas: full, adding: without(full, origin), removing: without(full, target)}
}

func (a assignment) equal(b assignment) bool {
	return slices.Equal(a.replicas, b.replicas) && slices.Equal(a.adding, b.adding) && slices.Equal(a.removing, b.removing)
}

// without is Seq.diff for lists without repeats: xs in order, minus ys.
func without(xs, ys []int32) []int32 {
	var out []int32
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			out = append(out, x)
		}
	}
	return out
}

// full is partitionFullReplicaAssignment (the zero assignment if the
// partition is unknown).
func (x *context) full(tp storage.TopicPartition) assignment {
	t := x.topics[tp.Topic]
	if t == nil || int(tp.Partition) >= len(t.assignment) {
		return assignment{}
	}
	return assignment{replicas: t.assignment[tp.Partition], adding: t.adding[tp.Partition], removing: t.removing[tp.Partition]}
}

// setFull is updatePartitionFullReplicaAssignment for a known partition.
func (x *context) setFull(tp storage.TopicPartition, a assignment) {
	t := x.topics[tp.Topic]
	if t == nil || int(tp.Partition) >= len(t.assignment) {
		return
	}
	t.assignment[tp.Partition] = slices.Clone(a.replicas)
	t.setMoving(tp.Partition, a.adding, a.removing)
}

// setMoving records a partition's adding and removing replicas (none:
// not moving).
func (t *topicInfo) setMoving(p int32, adding, removing []int32) {
	if t.adding == nil {
		t.adding, t.removing = map[int32][]int32{}, map[int32][]int32{}
	}
	if len(adding) > 0 {
		t.adding[p] = slices.Clone(adding)
	} else {
		delete(t.adding, p)
	}
	if len(removing) > 0 {
		t.removing[p] = slices.Clone(removing)
	} else {
		delete(t.removing, p)
	}
}
