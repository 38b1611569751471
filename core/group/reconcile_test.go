package group

import (
	"errors"
	"reflect"
	"testing"

	"kafkascope/core/metadata"
)

// The cases of Kafka 4.3's CurrentAssignmentBuilderTest with the
// expectations it states. Kafka draws the two topic ids at random; the
// builder does not depend on them.

var (
	cabT1 = metadata.Uuid{0: 1}
	cabT2 = metadata.Uuid{0: 2}
)

// pe is toAssignmentWithEpochs / mkTopicAssignmentWithEpochs: the
// partitions of one topic at one assignment epoch.
func pe(topic metadata.Uuid, epoch int32, partitions ...int32) []PartitionEpoch {
	var out []PartitionEpoch
	for _, p := range partitions {
		out = append(out, PartitionEpoch{topic, p, epoch})
	}
	return out
}

func pes(groups ...[]PartitionEpoch) []PartitionEpoch {
	var out []PartitionEpoch
	for _, g := range groups {
		out = append(out, g...)
	}
	return toAssignmentEpochs(out).list()
}

func epochAlways(e int32) func(metadata.Uuid, int32) int32 {
	return func(metadata.Uuid, int32) int32 { return e }
}

func owned(tps ...TopicPartitions) []TopicPartitions {
	if tps == nil {
		return []TopicPartitions{}
	}
	return tps
}

func bothTopics() []metadata.Uuid { return ids(cabT1, cabT2) }

func checkMember(t *testing.T, name string, got, want ReconcileMember) {
	t.Helper()
	want.Assigned = pes(want.Assigned)
	want.PendingRevocation = pes(want.PendingRevocation)
	got.Assigned = pes(got.Assigned)
	got.PendingRevocation = pes(got.PendingRevocation)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %+v\n want %+v", name, got, want)
	}
}

func TestCurrentAssignmentBuilderKafkaCases(t *testing.T) {
	target := func(a ...TopicPartitions) MemberAssignment { return mkAssignment(a...) }
	cases := []struct {
		name string
		in   ReconcileInput
		want ReconcileMember
	}{
		{"StableToStable", ReconcileInput{
			Member:      ReconcileMember{MemberStable, 10, 10, pes(pe(cabT1, 5, 1, 2, 3), pe(cabT2, 5, 4, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6)),
			CurrentPartitionEpoch: epochAlways(10),
		}, ReconcileMember{MemberStable, 11, 10, pes(pe(cabT1, 5, 1, 2, 3), pe(cabT2, 5, 4, 5, 6)), nil, bothTopics()}},

		{"StableToStableWithNewPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberStable, 10, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 1, 2, 3, 4), mkTopicAssignment(cabT2, 4, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(-1),
		}, ReconcileMember{MemberStable, 11, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT1, 11, 4), pe(cabT2, 10, 4, 5, 6), pe(cabT2, 11, 7)), nil, bothTopics()}},

		{"StableToUnrevokedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberStable, 10, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 2, 3, 4), mkTopicAssignment(cabT2, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(-1),
		}, ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), bothTopics()}},

		{"StableToUnreleasedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberStable, 10, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 1, 2, 3, 4), mkTopicAssignment(cabT2, 4, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(10),
		}, ReconcileMember{MemberUnreleasedPartitions, 11, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5, 6)), nil, bothTopics()}},

		{"StableToUnreleasedPartitionsWithOwnedPartitionsNotHavingRevokedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberStable, 10, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 7)),
			CurrentPartitionEpoch: func(topic metadata.Uuid, _ int32) int32 {
				if topic == cabT2 {
					return 10
				}
				return -1
			},
			Owned: owned(),
		}, ReconcileMember{MemberUnreleasedPartitions, 11, 10, pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4, 5)), nil, bothTopics()}},

		{"UnrevokedPartitionsToStable", ReconcileInput{
			Member:      ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
			CurrentPartitionEpoch: epochAlways(-1),
			Owned:                 owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
		}, ReconcileMember{MemberStable, 11, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), nil, bothTopics()}},

		{"UnrevokedPartitionsToUnrevokedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), bothTopics()},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 3), mkTopicAssignment(cabT2, 6)),
			CurrentPartitionEpoch: epochAlways(-1),
			Owned:                 owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
		}, ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 3), pe(cabT2, 10, 6)), pes(pe(cabT1, 10, 2), pe(cabT2, 10, 5)), bothTopics()}},

		{"UnrevokedPartitionsToUnreleasedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberUnrevokedPartitions, 11, 10, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 2, 3, 4), mkTopicAssignment(cabT2, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(10),
			Owned:                 owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
		}, ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()}},

		{"UnrevokedPartitionsToStableWithReturnedPartitionsPendingRevocation", ReconcileInput{
			Member:      ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 4)), bothTopics()},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 2, 3, 4), mkTopicAssignment(cabT2, 5, 6, 7)),
			CurrentPartitionEpoch: func(topic metadata.Uuid, p int32) int32 {
				if (topic == cabT1 && p >= 2 && p <= 4) || (topic == cabT2 && (p == 5 || p == 6)) {
					return 10
				}
				return -1
			},
			Owned: owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
		}, ReconcileMember{MemberStable, 12, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT1, 12, 4), pe(cabT2, 10, 5, 6), pe(cabT2, 12, 7)), nil, bothTopics()}},

		{"UnreleasedPartitionsToStable", ReconcileInput{
			Member:      ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
			CurrentPartitionEpoch: epochAlways(10),
		}, ReconcileMember{MemberStable, 12, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()}},

		{"UnreleasedPartitionsToStableWithNewPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 2, 3, 4), mkTopicAssignment(cabT2, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(-1),
		}, ReconcileMember{MemberStable, 11, 11, pes(pe(cabT1, 11, 2, 3, 4), pe(cabT2, 11, 5, 6, 7)), nil, bothTopics()}},

		{"UnreleasedPartitionsToUnreleasedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()},
			TargetEpoch: 11, Target: target(mkTopicAssignment(cabT1, 2, 3, 4), mkTopicAssignment(cabT2, 5, 6, 7)),
			CurrentPartitionEpoch: epochAlways(10),
		}, ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()}},

		{"UnreleasedPartitionsToUnrevokedPartitions", ReconcileInput{
			Member:      ReconcileMember{MemberUnreleasedPartitions, 11, 11, pes(pe(cabT1, 11, 2, 3), pe(cabT2, 11, 5, 6)), nil, bothTopics()},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 3), mkTopicAssignment(cabT2, 6)),
			CurrentPartitionEpoch: epochAlways(10),
		}, ReconcileMember{MemberUnrevokedPartitions, 11, 11, pes(pe(cabT1, 11, 3), pe(cabT2, 11, 6)), pes(pe(cabT1, 11, 2), pe(cabT2, 11, 5)), bothTopics()}},

		{"UnknownStateRejoinsWithNothingOwned", ReconcileInput{
			Member:      ReconcileMember{MemberUnknownState, 11, 11, pes(pe(cabT1, 11, 3), pe(cabT2, 11, 6)), pes(pe(cabT1, 11, 2), pe(cabT2, 11, 5)), bothTopics()},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 3), mkTopicAssignment(cabT2, 6)),
			CurrentPartitionEpoch: epochAlways(11),
			Owned:                 owned(),
		}, ReconcileMember{MemberStable, 12, 11, pes(pe(cabT1, 11, 3), pe(cabT2, 11, 6)), nil, bothTopics()}},

		{"RemainsInUnrevokedPartitionsWithAssignmentTopicsNoLongerInSubscription", ReconcileInput{
			Member:      ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), ids(cabT2)},
			TargetEpoch: 12, Target: target(mkTopicAssignment(cabT1, 1, 3, 4), mkTopicAssignment(cabT2, 6, 7)),
			HasSubscriptionChanged: true,
			CurrentPartitionEpoch:  epochAlways(-1),
			Owned:                  owned(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6)),
		}, ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1, 2, 3), pe(cabT2, 10, 4)), ids(cabT2)}},
	}
	for _, c := range cases {
		got, err := BuildCurrentAssignment(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		checkMember(t, c.name, got, c.want)
	}
}

// testRemainsInUnrevokedPartitions: no owned list, or one that still
// lists a partition pending revocation, leaves the member as it is.
func TestCurrentAssignmentBuilderRemainsInUnrevokedPartitions(t *testing.T) {
	m := ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), bothTopics()}
	for _, o := range [][]TopicPartitions{
		nil,
		owned(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 5, 6)),
		owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6)),
	} {
		got, err := BuildCurrentAssignment(ReconcileInput{Member: m, TargetEpoch: 12,
			Target: mkAssignment(mkTopicAssignment(cabT1, 3), mkTopicAssignment(cabT2, 6)), CurrentPartitionEpoch: epochAlways(-1), Owned: o})
		if err != nil {
			t.Fatal(err)
		}
		checkMember(t, "remains", got, m)
	}
}

// testUnknownState: fenced unless the heartbeat owns nothing.
func TestCurrentAssignmentBuilderUnknownStateIsFenced(t *testing.T) {
	m := ReconcileMember{MemberUnknownState, 11, 11, pes(pe(cabT1, 11, 3)), nil, bothTopics()}
	_, err := BuildCurrentAssignment(ReconcileInput{Member: m, TargetEpoch: 12, Target: mkAssignment(mkTopicAssignment(cabT1, 3)), CurrentPartitionEpoch: epochAlways(10)})
	if !errors.Is(err, ErrUnknownMemberState) {
		t.Errorf("err = %v", err)
	}
}

// testStableToStableWithAssignmentTopicsNoLongerInSubscription and
// testStableToUnrevokedPartitionsWithAssignmentTopicsNoLongerInSubscription,
// each with its three (memberEpoch, targetEpoch, expected, changed) rows.
func TestCurrentAssignmentBuilderTopicsNoLongerInSubscription(t *testing.T) {
	rows := []struct {
		memberEpoch, targetEpoch, expected int32
		changed                            bool
	}{{10, 11, 11, false}, {10, 11, 11, true}, {10, 10, 10, true}}
	for _, r := range rows {
		m := ReconcileMember{MemberStable, r.memberEpoch, r.memberEpoch - 1, pes(pe(cabT1, r.memberEpoch, 1, 2, 3), pe(cabT2, r.memberEpoch, 4, 5, 6)), nil, ids(cabT2)}
		in := ReconcileInput{Member: m, TargetEpoch: r.targetEpoch,
			Target:                 mkAssignment(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6)),
			HasSubscriptionChanged: r.changed, CurrentPartitionEpoch: epochAlways(-1),
			Owned: owned(mkTopicAssignment(cabT2, 4, 5, 6))}
		got, _ := BuildCurrentAssignment(in)
		checkMember(t, "to stable", got, ReconcileMember{MemberStable, r.expected, r.memberEpoch, pes(pe(cabT2, r.memberEpoch, 4, 5, 6)), nil, ids(cabT2)})
	}
	rows[0].expected, rows[1].expected = 10, 10 // the revoking member stays at its epoch
	for _, r := range rows {
		m := ReconcileMember{MemberStable, r.memberEpoch, r.memberEpoch - 1, pes(pe(cabT1, r.memberEpoch, 1, 2, 3), pe(cabT2, r.memberEpoch, 4, 5, 6)), nil, ids(cabT2)}
		in := ReconcileInput{Member: m, TargetEpoch: r.targetEpoch,
			Target:                 mkAssignment(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6)),
			HasSubscriptionChanged: r.changed, CurrentPartitionEpoch: epochAlways(-1),
			Owned: owned(mkTopicAssignment(cabT1, 1, 2, 3), mkTopicAssignment(cabT2, 4, 5, 6))}
		got, _ := BuildCurrentAssignment(in)
		checkMember(t, "to unrevoked", got, ReconcileMember{MemberUnrevokedPartitions, r.expected, r.memberEpoch,
			pes(pe(cabT2, r.expected, 4, 5, 6)), pes(pe(cabT1, r.memberEpoch, 1, 2, 3)), ids(cabT2)})
	}
}

// Kafka 4.1.0's builder (read at 13f70256db): a member that has revoked
// reconciles with epoch+1, so when the newer target asks for another
// revocation it waits at epoch+1; 4.3 keeps its epoch. A subscription
// change alone does not shrink a 4.1 member.
func TestCurrentAssignmentBuilder41Differences(t *testing.T) {
	m := ReconcileMember{MemberUnrevokedPartitions, 10, 10, pes(pe(cabT1, 10, 2, 3), pe(cabT2, 10, 5, 6)), pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), bothTopics()}
	in := ReconcileInput{Member: m, TargetEpoch: 12, Target: mkAssignment(mkTopicAssignment(cabT1, 3), mkTopicAssignment(cabT2, 6)),
		CurrentPartitionEpoch: epochAlways(-1), Owned: owned(mkTopicAssignment(cabT1, 2, 3), mkTopicAssignment(cabT2, 5, 6))}
	in.Rules = Reconcile41
	got, _ := BuildCurrentAssignment(in)
	checkMember(t, "4.1 revokes again", got, ReconcileMember{MemberUnrevokedPartitions, 11, 10,
		pes(pe(cabT1, 10, 3), pe(cabT2, 10, 6)), pes(pe(cabT1, 10, 2), pe(cabT2, 10, 5)), bothTopics()})

	stable := ReconcileMember{MemberStable, 10, 9, pes(pe(cabT1, 10, 1), pe(cabT2, 10, 4)), nil, ids(cabT2)}
	in = ReconcileInput{Member: stable, TargetEpoch: 10, Target: mkAssignment(mkTopicAssignment(cabT1, 1), mkTopicAssignment(cabT2, 4)),
		HasSubscriptionChanged: true, CurrentPartitionEpoch: epochAlways(-1), Rules: Reconcile41}
	got, _ = BuildCurrentAssignment(in)
	checkMember(t, "4.1 ignores the subscription change", got, stable)
	in.Rules = Reconcile43
	got, _ = BuildCurrentAssignment(in)
	checkMember(t, "4.3 shrinks on the subscription change", got, ReconcileMember{MemberUnrevokedPartitions, 10, 10,
		pes(pe(cabT2, 10, 4)), pes(pe(cabT1, 10, 1)), ids(cabT2)})
}

// The two-consumer timeline: C1 holds t {0,1,2} at epoch 1; the target at
// epoch 2 is C1 {0,1}, C2 {2}. C2 first waits for 2 (UNRELEASED@2), C1 is
// asked to revoke it (UNREVOKED@1 at its next heartbeat, whose owned list
// is null), acks, becomes STABLE@2; then C2 gets 2 at epoch 2.
func TestCurrentAssignmentBuilderTwoConsumerTimeline(t *testing.T) {
	owner := map[int32]int32{0: 1, 1: 1, 2: 1}
	epochOf := func(_ metadata.Uuid, p int32) int32 {
		if e, ok := owner[p]; ok {
			return e
		}
		return -1
	}
	sub := ids(cabT1)
	c2, _ := BuildCurrentAssignment(ReconcileInput{Member: ReconcileMember{MemberStable, 0, -1, nil, nil, sub}, TargetEpoch: 2,
		Target: mkAssignment(mkTopicAssignment(cabT1, 2)), CurrentPartitionEpoch: epochOf, Owned: owned()})
	checkMember(t, "C2 joins", c2, ReconcileMember{MemberUnreleasedPartitions, 2, 0, nil, nil, sub})

	c1 := ReconcileMember{MemberStable, 1, 0, pes(pe(cabT1, 1, 0, 1, 2)), nil, sub}
	c1, _ = BuildCurrentAssignment(ReconcileInput{Member: c1, TargetEpoch: 2, Target: mkAssignment(mkTopicAssignment(cabT1, 0, 1)), CurrentPartitionEpoch: epochOf})
	checkMember(t, "C1 asked to revoke", c1, ReconcileMember{MemberUnrevokedPartitions, 1, 1, pes(pe(cabT1, 1, 0, 1)), pes(pe(cabT1, 1, 2)), sub})

	c1, _ = BuildCurrentAssignment(ReconcileInput{Member: c1, TargetEpoch: 2, Target: mkAssignment(mkTopicAssignment(cabT1, 0, 1)),
		CurrentPartitionEpoch: epochOf, Owned: owned(mkTopicAssignment(cabT1, 0, 1))})
	checkMember(t, "C1 acked", c1, ReconcileMember{MemberStable, 2, 1, pes(pe(cabT1, 1, 0, 1)), nil, sub})
	delete(owner, 2)

	c2, _ = BuildCurrentAssignment(ReconcileInput{Member: c2, TargetEpoch: 2, Target: mkAssignment(mkTopicAssignment(cabT1, 2)), CurrentPartitionEpoch: epochOf})
	checkMember(t, "C2 gets 2", c2, ReconcileMember{MemberStable, 2, 2, pes(pe(cabT1, 2, 2)), nil, sub})
}
