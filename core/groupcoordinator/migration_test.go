package groupcoordinator

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Online migration between classic and consumer groups (migration.go),
// checked against Kafka 4.3's GroupMetadataManager: the upgrade of
// convertToConsumerGroup, classic members served from the consumer
// group's reconciliation, and the downgrade of convertToClassicGroup.

// stableClassicGroup has dynamic classic members a (the leader,
// partitions 0 and 1 of t) and b (partition 2), Stable in generation 1,
// in a 4.3 coordinator that knows topic t; it returns their ids.
func stableClassicGroup(t *testing.T) (gt *groupTest, a, b string) {
	gt = newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	ida := answer[*protocol.JoinGroupResponse](gt, gt.join("client-a", "", "")).MemberID
	idb := answer[*protocol.JoinGroupResponse](gt, gt.join("client-b", "", "")).MemberID
	ja, jb := gt.join("client-a", ida, ""), gt.join("client-b", idb, "")
	gt.run(7 * time.Second)
	ra, rb := answer[*protocol.JoinGroupResponse](gt, ja), answer[*protocol.JoinGroupResponse](gt, jb)
	if ra == nil || rb == nil || ra.GenerationID != 1 || ra.Leader != ida {
		t.Fatalf("classic join: %+v %+v", ra, rb)
	}
	gt.sync("client-a", ida, "", 1, protocol.SyncGroupRequestAssignment{MemberID: ida, Assignment: assignment(0, 1)},
		protocol.SyncGroupRequestAssignment{MemberID: idb, Assignment: assignment(2)})
	gt.sync("client-b", idb, "", 1)
	gt.run(10 * time.Millisecond)
	if g := gt.group(); g.state != groupStable || g.generation != 1 || g.consumer != nil {
		t.Fatalf("group %s generation %d, want a Stable classic group in generation 1", g.state, g.generation)
	}
	return gt, ida, idb
}

// rejoin is a classic member's JoinGroup with its id after an eager
// revocation: it owns nothing.
func (gt *groupTest) rejoin(from, id string) *protocol.JoinGroupResponse {
	gt.t.Helper()
	corr := gt.join(from, id, "")
	gt.run(2 * time.Millisecond)
	r := answer[*protocol.JoinGroupResponse](gt, corr)
	if r == nil {
		gt.t.Fatalf("JoinGroup of %s unanswered", from)
	}
	return r
}

func (gt *groupTest) syncAnswer(from, id string, gen int32) *protocol.SyncGroupResponse {
	gt.t.Helper()
	r := answer[*protocol.SyncGroupResponse](gt, gt.sync(from, id, "", gen))
	if r == nil {
		gt.t.Fatalf("SyncGroup of %s unanswered", from)
	}
	return r
}

func assignedOf(t *testing.T, b []byte) []int32 {
	t.Helper()
	a, err := protocol.DecodeConsumerProtocolAssignment(b)
	if err != nil {
		t.Fatal(err)
	}
	out := []int32{}
	for _, tp := range a.AssignedPartitions {
		out = append(out, tp.Partitions...)
	}
	slices.Sort(out)
	return out
}

// A consumer-protocol member joining a Stable classic group of two
// converts it: the classic group's tombstone, then the consumer group at
// epoch 1 (the generation) with both members STABLE at epoch 1 holding
// what they held, then the new member's join, which bumps the epoch to 2
// and computes a target over all three. The classic members learn of it
// by REBALANCE_IN_PROGRESS, rejoin (generation = their new epoch), sync
// (their current partitions) and the new member then gets the partition
// that was freed.
func TestMigrationUpgradeFromStableClassicGroup(t *testing.T) {
	gt, a, b := stableClassicGroup(t)
	logLen := len(gt.host.log)

	r := gt.hb("c3", join("c3", ""))
	expectEq(t, "c3 join error", r.ErrorCode, protocol.NONE)
	expectEq(t, "c3 epoch", r.MemberEpoch, 2)
	types := gt.recordTypes(logLen)
	if len(types) != 1 {
		t.Fatalf("one batch for the upgrade and the join, got %v", types)
	}
	// GroupMetadata tombstone (key version 2), then createConsumerGroupRecords
	// (CG:1288-1310): 5 5 3 7 7 6 8 8, then the join: 5 3 7.. 6 8.
	want := []int16{2, 5, 5, 3, 7, 7, 6, 8, 8, 5, 3}
	if got := types[0]; len(got) < len(want) || !slices.Equal(got[:len(want)], want) || got[len(got)-2] != 6 || got[len(got)-1] != 8 {
		t.Errorf("upgrade records %v, want prefix %v then targets, 6, 8", got, want)
	}
	if rec := gt.host.log[logLen].Records[0]; rec.Value != nil {
		t.Errorf("the first record is not the classic group's tombstone")
	}
	d := gt.describe848()
	expectEq(t, "group epoch", d.GroupEpoch, 2)
	expectEq(t, "assignment epoch", d.AssignmentEpoch, 2)
	expectEq(t, "members", len(d.Members), 3)
	expectEq(t, "a member type", memberOf(d, a).MemberType, 0)
	expectEq(t, "b member type", memberOf(d, b).MemberType, 0)
	expectEq(t, "c3 member type", memberOf(d, "c3").MemberType, 1)
	expectEq(t, "a epoch", memberOf(d, a).MemberEpoch, 1)
	expectParts(t, "a current", parts(memberOf(d, a).Assignment), []int32{0, 1})
	expectParts(t, "b current", parts(memberOf(d, b).Assignment), []int32{2})
	expectEq(t, "a client host", memberOf(d, a).ClientHost, "/client-a")
	expectParts(t, "c3 has nothing yet", assigned(r), []int32{})
	expectEq(t, "c3 target size", len(parts(memberOf(d, "c3").TargetAssignment)), 1)
	// A classic member keeps its generation as its epoch; the target epoch
	// passed it, so it must rejoin.
	expectEq(t, "b heartbeat", gt.heartbeat("client-b", b, "", 1), protocol.REBALANCE_IN_PROGRESS)
	expectEq(t, "a heartbeat with a wrong generation", gt.heartbeat("client-a", a, "", 7), protocol.ILLEGAL_GENERATION)

	// a rejoins owning nothing (eager): it moves to epoch 2 with its target.
	ra := gt.rejoin("client-a", a)
	expectEq(t, "a rejoin error", ra.ErrorCode, protocol.NONE)
	expectEq(t, "a generation", ra.GenerationID, 2)
	expectEq(t, "a protocol", ra.ProtocolName, "range")
	expectEq(t, "a leader", ra.Leader, "")
	sa := gt.syncAnswer("client-a", a, 2)
	expectEq(t, "a sync error", sa.ErrorCode, protocol.NONE)
	aParts := assignedOf(t, sa.Assignment)
	expectEq(t, "a keeps one partition", len(aParts), 1)
	rb := gt.rejoin("client-b", b)
	expectEq(t, "b generation", rb.GenerationID, 2)
	sb := gt.syncAnswer("client-b", b, 2)
	expectParts(t, "b keeps 2", assignedOf(t, sb.Assignment), []int32{2})
	expectEq(t, "a heartbeat when settled", gt.heartbeat("client-a", a, "", 2), protocol.NONE)

	r = gt.hb("c3", ack("c3", 2))
	got := assigned(r)
	if len(got) != 1 || slices.Contains(aParts, got[0]) || got[0] == 2 {
		t.Errorf("c3 got %v; a holds %v, b holds [2]", got, aParts)
	}
	d = gt.describe848()
	expectEq(t, "state", d.GroupState, "Stable")

	// A classic member's commit with an older generation is checked per
	// partition, with ILLEGAL_GENERATION.
	expectEq(t, "offsets stay", len(gt.group().offsets), 0)
}

// A new classic member joining a consumer group gets MEMBER_ID_REQUIRED
// with a Uuid id, then joins at the group's new epoch through the
// consumer group's reconciliation; its LeaveGroup fences it.
func TestMigrationClassicMemberJoinsConsumerGroup(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	r := gt.hb("c1", join("c1", ""))
	expectEq(t, "c1 epoch", r.MemberEpoch, 2)
	gt.hb("c1", ack("c1", 2, 0, 1, 2))
	gt.run(2 * time.Second)

	first := gt.rejoin("client-x", "")
	expectEq(t, "first join", first.ErrorCode, protocol.MEMBER_ID_REQUIRED)
	x := first.MemberID
	expectEq(t, "Uuid member id length", len(x), 22)
	rx := gt.rejoin("client-x", x)
	expectEq(t, "x join error", rx.ErrorCode, protocol.NONE)
	expectEq(t, "x generation", rx.GenerationID, 3)
	// Its target's partition is still c1's: it waits (UNRELEASED).
	sx := gt.syncAnswer("client-x", x, 3)
	expectParts(t, "x assignment while c1 holds its target", assignedOf(t, sx.Assignment), []int32{})
	expectEq(t, "x heartbeat while waiting", gt.heartbeat("client-x", x, "", 3), protocol.NONE)
	d := gt.describe848()
	expectEq(t, "x member type", memberOf(d, x).MemberType, 0)

	// c1 revokes and acknowledges; x's heartbeat then asks it to rejoin.
	r = gt.hb("c1", beat("c1", 2))
	kept := assigned(r)
	gt.hb("c1", ack("c1", 2, kept...))
	expectEq(t, "x heartbeat once free", gt.heartbeat("client-x", x, "", 3), protocol.REBALANCE_IN_PROGRESS)
	rx = gt.rejoin("client-x", x)
	expectEq(t, "x generation after rejoin", rx.GenerationID, 3)
	sx = gt.syncAnswer("client-x", x, 3)
	expectEq(t, "x gets its partition", len(assignedOf(t, sx.Assignment)), 1)

	// SyncGroup with a stale generation, and from a consumer-protocol member.
	expectEq(t, "stale sync", gt.syncAnswer("client-x", x, 1).ErrorCode, protocol.ILLEGAL_GENERATION)
	expectEq(t, "consumer member's sync", gt.syncAnswer("c1", "c1", 3).ErrorCode, protocol.UNKNOWN_MEMBER_ID)

	// x leaves: fenced, no downgrade (c1 uses the consumer protocol).
	corr := gt.send("client-x", &protocol.LeaveGroupRequest{GroupID: "g", Members: []protocol.MemberIdentity{{MemberID: x}}})
	gt.run(2 * time.Millisecond)
	lr := answer[*protocol.LeaveGroupResponse](gt, corr)
	if lr == nil || lr.ErrorCode != protocol.NONE || len(lr.Members) != 1 || lr.Members[0].ErrorCode != protocol.NONE {
		t.Fatalf("leave: %+v", lr)
	}
	d = gt.describe848()
	expectEq(t, "members after x left", len(d.Members), 1)
	expectEq(t, "group epoch after x left", d.GroupEpoch, 4)
	if gt.group().consumer == nil {
		t.Errorf("the group was downgraded with a consumer-protocol member left")
	}
}

// When the last consumer-protocol member leaves, the classic members left
// make the group a classic one again: the consumer group's tombstones and
// the classic group's record (generation = the group epoch, the targets
// as assignments), then a rebalance.
func TestMigrationDowngradeOnLastConsumerMemberLeave(t *testing.T) {
	gt, a, b := stableClassicGroup(t)
	gt.hb("c3", join("c3", ""))
	for _, m := range []struct{ from, id string }{{"client-a", a}, {"client-b", b}} {
		gt.rejoin(m.from, m.id)
		gt.syncAnswer(m.from, m.id, 2)
	}
	gt.hb("c3", ack("c3", 2))
	logLen := len(gt.host.log)

	r := gt.hb("c3", &protocol.ConsumerGroupHeartbeatRequest{MemberID: "c3", MemberEpoch: protocol.LeaveGroupMemberEpoch, RebalanceTimeoutMs: -1})
	expectEq(t, "leave error", r.ErrorCode, protocol.NONE)
	expectEq(t, "leave epoch", r.MemberEpoch, -1)
	g := gt.group()
	if g.consumer != nil {
		t.Fatal("the group is still a consumer group")
	}
	expectEq(t, "classic state", g.state, groupPreparingRebalance)
	expectEq(t, "generation", g.generation, 2)
	expectEq(t, "protocol", g.protocolName, "range")
	expectEq(t, "members", len(g.members), 2)
	expectEq(t, "leader", g.leader, g.order[0])
	types := gt.recordTypes(logLen)
	if len(types) != 1 || types[0][len(types[0])-1] != 2 {
		t.Fatalf("downgrade records %v, want the tombstones then the group record", types)
	}
	if want := []int16{8, 8, 8, 7, 7, 7, 6, 5, 5, 5, 4, 3, 2}; !slices.Equal(types[0], want) {
		t.Errorf("downgrade records %v, want %v", types[0], want)
	}
	last := gt.host.log[len(gt.host.log)-1].Records
	v, err := decodeGroupValue(last[len(last)-1].Value)
	if err != nil {
		t.Fatal(err)
	}
	expectEq(t, "stored generation", v.generation, 2)
	var total []int32
	for _, mv := range v.members {
		total = append(total, assignedOf(t, mv.assignment)...)
	}
	// The leaving member's target goes with it: its partition waits for
	// the rebalance.
	if slices.Sort(total); len(total) != 2 || total[1] != 2 {
		t.Errorf("stored assignments (a's and b's targets) = %v", total)
	}

	// The classic members rejoin the classic group's rebalance.
	expectEq(t, "a heartbeat", gt.heartbeat("client-a", a, "", 2), protocol.REBALANCE_IN_PROGRESS)
	ja, jb := gt.join("client-a", a, ""), gt.join("client-b", b, "")
	gt.run(time.Millisecond)
	ra, rb := answer[*protocol.JoinGroupResponse](gt, ja), answer[*protocol.JoinGroupResponse](gt, jb)
	if ra == nil || rb == nil || ra.GenerationID != 3 || rb.GenerationID != 3 {
		t.Fatalf("rejoin after the downgrade: %+v %+v", ra, rb)
	}

	// A reload reads the classic group back, not the consumer group.
	gt.call(func(env *sim.Env) { gt.c.OnElection(env, gt.c.PartitionFor("g")) })
	gt.run(time.Millisecond)
	if g := gt.group(); g == nil || g.consumer != nil || len(g.members) != 2 {
		t.Fatalf("after reload: %+v", g)
	}
}

// group.consumer.migration.policy=disabled (or downgrade) refuses the
// upgrade with Kafka's message, and the classic group stays.
func TestMigrationPolicyDisabledRefusesUpgrade(t *testing.T) {
	for _, policy := range []string{"disabled", "DOWNGRADE"} {
		gt, _, _ := stableClassicGroup(t)
		gt.host.strs = map[string]string{"group.consumer.migration.policy": policy}
		r := gt.hb("c3", join("c3", ""))
		expectEq(t, policy+" error", r.ErrorCode, protocol.GROUP_ID_NOT_FOUND)
		expectEq(t, policy+" message", r.ErrorMessage, "Cannot upgrade classic group g to consumer group because online upgrade is disabled.")
		if g := gt.group(); g.consumer != nil || g.state != groupStable || len(g.members) != 2 {
			t.Errorf("%s: the classic group changed: %s consumer=%v", policy, g.state, g.consumer != nil)
		}
	}
}

// A classic member's ClassicMemberMetadata (tag 0 of the member metadata
// value) survives encoding and decoding; a consumer-protocol member's
// value has an empty tagged-field section.
func TestClassicMemberMetadataRoundTrip(t *testing.T) {
	f := recordFormat{v43: true}
	m := newCGMember("m1")
	m.clientID, m.clientHost, m.subscribed, m.rebalanceTimeoutMs = "k1", "/h", []string{"t"}, 300000
	plain := f.encodeValue(memberMetadataRecord("g", m))
	if plain[len(plain)-1] != 0 {
		t.Errorf("consumer member: tagged section %x, want empty", plain[len(plain)-1:])
	}
	m.classic = &classicMemberMetadata{sessionTimeoutMs: 45000, protocols: subscription()}
	rec := memberMetadataRecord("g", m)
	got, ok, err := decodeConsumerRecord(f.encodeKey(rec), f.encodeValue(rec))
	if !ok || err != nil {
		t.Fatalf("decode: %v %v", ok, err)
	}
	if !got.meta.classic.equal(m.classic) || !got.meta.sameMetadata(m) {
		t.Errorf("round trip: %+v, want %+v", got.meta.classic, m.classic)
	}
}
