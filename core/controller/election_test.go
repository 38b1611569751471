package controller

import (
	"testing"

	"kafkascope/core/metadata"
)

// Vectors from Kafka's PartitionChangeBuilderTest.testElectLeader.
func TestElectLeaderVectors(t *testing.T) {
	foo := func() *metadata.PartitionState {
		return &metadata.PartitionState{Replicas: []int32{2, 1, 3}, ISR: []int32{2, 1, 3}, Leader: 1, LeaderEpoch: 100, PartitionEpoch: 200}
	}
	baz := func() *metadata.PartitionState {
		return &metadata.PartitionState{Replicas: []int32{2, 1, 3}, ISR: []int32{1, 3}, Leader: 3}
	}
	fooAcceptable := func(id int32) bool { return id != 3 }
	all := func(int32) bool { return true }
	cases := []struct {
		name       string
		p          *metadata.PartitionState
		isr        []int32
		et         ElectionType
		acceptable func(int32) bool
		leader     int32
		unclean    bool
	}{
		{"FOO preferred", foo(), nil, ElectionPreferred, fooAcceptable, 2, false},
		{"FOO online", foo(), nil, ElectionOnline, fooAcceptable, 1, false},
		{"FOO unclean", foo(), nil, ElectionUnclean, fooAcceptable, 1, false},
		{"FOO online [1,3]", foo(), []int32{1, 3}, ElectionOnline, fooAcceptable, 1, false},
		{"FOO online [3]", foo(), []int32{3}, ElectionOnline, fooAcceptable, -1, false},
		{"FOO unclean [3]", foo(), []int32{3}, ElectionUnclean, fooAcceptable, 2, true},
		{"BAZ preferred", baz(), nil, ElectionPreferred, all, 3, false},
		{"BAZ online", baz(), nil, ElectionOnline, all, 3, false},
	}
	for _, c := range cases {
		rec := partitionChange(metadata.Uuid{1}, 0, c.p, c.isr, c.et, c.acceptable, nil)
		leader := c.p.Leader
		unclean := false
		if rec != nil {
			if rec.Leader != metadata.NoLeaderChange {
				leader = rec.Leader
			}
			unclean = rec.LeaderRecoveryState == metadata.LeaderRecovering
		}
		if leader != c.leader || unclean != c.unclean {
			t.Errorf("%s: leader %d unclean %v, want %d %v", c.name, leader, unclean, c.leader, c.unclean)
		}
	}
}

func TestLastISRMemberStaysRecorded(t *testing.T) {
	p := &metadata.PartitionState{Replicas: []int32{2}, ISR: []int32{2}, Leader: 2}
	rec := partitionChange(metadata.Uuid{1}, 0, p, []int32{}, ElectionOnline, func(id int32) bool { return id != 2 }, nil)
	if rec == nil || rec.Leader != metadata.NoLeader || rec.ISR != nil {
		t.Fatalf("got %+v; want leader -1 and the ISR left as [2]", rec)
	}
	if rec := partitionChange(metadata.Uuid{1}, 0, p, nil, ElectionOnline, func(int32) bool { return true }, nil); rec != nil {
		t.Fatalf("a no-op change was emitted: %+v", rec)
	}
}
