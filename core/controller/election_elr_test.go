package controller

import (
	"reflect"
	"testing"

	"kafkascope/core/metadata"
)

// Vectors from Kafka 4.3's PartitionChangeBuilderTest
// (testEligibleLeaderReplicas_*), with min ISR 3: each starts from a
// partition, changes its ISR (nil: unchanged) with an election and the
// brokers that may lead, and expects one PartitionChangeRecord (nil: no
// change). Kafka's main code always keeps the last known leader in
// LastKnownElr; the vectors that switch that off are taken with it on,
// which changes one record: RemoveUncleanShutdownReplicasFromElr writes no
// LastKnownElr (with it off Kafka's vector also writes LastKnownElr [3]).
func TestElrVectors(t *testing.T) {
	not := func(ids ...int32) func(int32) bool {
		return func(id int32) bool {
			for _, x := range ids {
				if x == id {
					return false
				}
			}
			return true
		}
	}
	none := func(int32) bool { return false }
	type part = metadata.PartitionState
	change := func(f func(r *metadata.PartitionChangeRecord)) *metadata.PartitionChangeRecord {
		r := metadata.NewPartitionChange(metadata.Uuid{1}, 0)
		f(r)
		return r
	}
	type elrCase struct {
		name       string
		p          part
		isr        []int32
		et         ElectionType
		acceptable func(int32) bool
		unclean    []int32
		want       *metadata.PartitionChangeRecord
	}
	cases := []elrCase{
		{"IsrShrinkBelowMinISR", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1, 2, 3, 4}, Leader: 1}, []int32{1, 2}, ElectionPreferred, not(3), nil,
			change(func(r *metadata.PartitionChangeRecord) {
				r.ISR = []int32{1, 2}
				r.EligibleLeaderReplicas = []int32{3, 4}
			})},
		{"lastKnownElrShouldBePopulatedWhenNoLeader", part{Replicas: []int32{1, 2, 3}, ISR: []int32{1}, ELR: []int32{2}, Leader: 1}, nil, ElectionPreferred, none, nil,
			change(func(r *metadata.PartitionChangeRecord) { r.Leader = metadata.NoLeader; r.LastKnownElr = []int32{1} })},
		{"IsrExpandAboveMinISR", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1, 2}, ELR: []int32{3}, Leader: 1}, []int32{1, 2, 3}, ElectionPreferred, not(3), nil,
			change(func(r *metadata.PartitionChangeRecord) {
				r.ISR = []int32{1, 2, 3}
				r.EligibleLeaderReplicas = []int32{}
			})},
		{"IsrAddNewMemberNotInELR", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1}, ELR: []int32{3}, Leader: 1}, []int32{1, 4}, ElectionPreferred, not(3), nil,
			change(func(r *metadata.PartitionChangeRecord) { r.ISR = []int32{1, 4} })},
		{"RemoveUncleanShutdownReplicasFromElr", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1}, ELR: []int32{2, 3}, Leader: 1}, nil, ElectionPreferred, not(3), []int32{3},
			change(func(r *metadata.PartitionChangeRecord) { r.EligibleLeaderReplicas = []int32{2} })},
		{"ElrCanBeElected", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1}, ELR: []int32{3}, Leader: 1}, []int32{}, ElectionPreferred, not(1), nil,
			change(func(r *metadata.PartitionChangeRecord) {
				r.ISR = []int32{3}
				r.EligibleLeaderReplicas = []int32{1}
				r.Leader = 3
			})},
		{"IsrCanShrinkToZero", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{1, 2, 3, 4}, Leader: 1}, []int32{}, ElectionPreferred, none, nil,
			change(func(r *metadata.PartitionChangeRecord) {
				r.ISR = []int32{}
				r.Leader = metadata.NoLeader
				r.EligibleLeaderReplicas = []int32{1, 2, 3, 4}
				r.LastKnownElr = []int32{1}
			})},
		{"ElectLastKnownLeader", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{}, LastKnownElr: []int32{1}, Leader: metadata.NoLeader}, []int32{}, ElectionPreferred, not(), nil,
			change(func(r *metadata.PartitionChangeRecord) {
				r.ISR = []int32{1}
				r.Leader = 1
				r.LeaderRecoveryState = metadata.LeaderRecovering
				r.LastKnownElr = []int32{}
			})},
		{"ElectLastKnownLeaderShouldFail", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{}, ELR: []int32{3}, LastKnownElr: []int32{1}, Leader: metadata.NoLeader}, []int32{}, ElectionPreferred, not(3), nil, nil},
	}
	for _, et := range []ElectionType{ElectionOnline, ElectionPreferred, ElectionUnclean} {
		cases = append(cases, elrCase{"NotEligibleLastKnownLeader", part{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{}, LastKnownElr: []int32{1}, Leader: metadata.NoLeader}, []int32{}, et, none, nil, nil})
	}
	for _, c := range cases {
		got := partitionChange(metadata.Uuid{1}, 0, &c.p, c.isr, c.et, c.acceptable, &elrRules{minISR: 3, uncleanShutdown: c.unclean})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s (election %d):\n got %+v\nwant %+v", c.name, c.et, got, c.want)
		}
	}
}

// TestElrAfterLastKnownLeaderStaysSet: once the last known leader is
// recorded, a further leaderless change does not write it again (the
// second half of testEligibleLeaderReplicas_IsrCanShrinkToZero).
func TestElrAfterLastKnownLeaderStaysSet(t *testing.T) {
	p := &metadata.PartitionState{Replicas: []int32{1, 2, 3, 4}, ISR: []int32{}, ELR: []int32{1, 2, 3, 4}, LastKnownElr: []int32{1}, Leader: metadata.NoLeader}
	rec := partitionChange(metadata.Uuid{1}, 0, p, nil, ElectionPreferred, func(int32) bool { return false }, &elrRules{minISR: 3, uncleanShutdown: []int32{2}})
	if rec == nil || rec.LastKnownElr != nil || !reflect.DeepEqual(rec.EligibleLeaderReplicas, []int32{1, 3, 4}) {
		t.Fatalf("got %+v; want the unclean replica 2 out of the ELR and LastKnownElr untouched", rec)
	}
}

// Kafka 4.1 keeps the last known leader when a change empties the ISR;
// 4.3 when the partition loses its leader (maybeUpdateLastKnownLeader at
// each release). A partition that lost its leader while its ISR still
// had members shows the difference when the ISR then empties: 4.1 writes
// the leader it has then (none, -1), 4.3 writes nothing.
func TestLastKnownLeaderRulePerRelease(t *testing.T) {
	p := func() *metadata.PartitionState {
		return &metadata.PartitionState{Replicas: []int32{1, 2, 3}, ISR: []int32{2, 3}, Leader: metadata.NoLeader}
	}
	none := func(int32) bool { return false }
	r41 := partitionChange(metadata.Uuid{1}, 0, p(), []int32{}, ElectionOnline, none, &elrRules{minISR: 2, lastKnownOnEmptyISR: true})
	if r41 == nil || !reflect.DeepEqual(r41.LastKnownElr, []int32{metadata.NoLeader}) {
		t.Errorf("4.1: got %+v, want LastKnownElr [-1]", r41)
	}
	r43 := partitionChange(metadata.Uuid{1}, 0, p(), []int32{}, ElectionOnline, none, &elrRules{minISR: 2})
	if r43 == nil || r43.LastKnownElr != nil {
		t.Errorf("4.3: got %+v, want LastKnownElr untouched", r43)
	}
	// Both keep the leader a partition loses with its last ISR member.
	q := func() *metadata.PartitionState {
		return &metadata.PartitionState{Replicas: []int32{1, 2}, ISR: []int32{1}, ELR: []int32{2}, Leader: 1}
	}
	for _, rules := range []*elrRules{{minISR: 2, lastKnownOnEmptyISR: true}, {minISR: 2}} {
		rec := partitionChange(metadata.Uuid{1}, 0, q(), []int32{}, ElectionOnline, none, rules)
		if rec == nil || !reflect.DeepEqual(rec.LastKnownElr, []int32{1}) {
			t.Errorf("4.1 rule %v: got %+v, want LastKnownElr [1]", rules.lastKnownOnEmptyISR, rec)
		}
	}
}
