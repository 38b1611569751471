package groupcoordinator

import (
	"slices"
	"testing"
	"time"

	kgroup "kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Consumer groups (KIP-848) driven by heartbeats. The expected values
// follow Kafka 4.3's rules (4.1's where a test says so): a new group
// starts at group and assignment epoch 1 (ModernGroup's constructor,
// KAFKA-20268), a join with a subscription bumps the group epoch, the
// uniform assignor gives a joining member what the others hold beyond
// their quota, and each member moves to its target one heartbeat at a
// time (CurrentAssignmentBuilder).

var topicT = metadata.Uuid{0x11, 1}

func newConsumerTest(t *testing.T, rel release.Version) *groupTest {
	return newGroupTestOn(t, &testHost{release: rel,
		topics: []kgroup.TopicMetadata{{ID: topicT, Name: "t", NumPartitions: 3}}})
}

// hb sends a heartbeat and returns its answer once written.
func (gt *groupTest) hb(from string, req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
	gt.t.Helper()
	gt.corr++
	req.CorrelationID = gt.corr
	if req.GroupID == "" {
		req.GroupID = "g"
	}
	req.ClientID = from
	gt.call(func(env *sim.Env) { gt.c.Handle(env, sim.Addr(from+":50001"), req) })
	gt.run(2 * time.Millisecond)
	for _, s := range gt.host.sent {
		if r, ok := s.msg.(*protocol.ConsumerGroupHeartbeatResponse); ok && r.CorrelationID == req.CorrelationID {
			return r
		}
	}
	gt.t.Fatalf("heartbeat %d of %s unanswered", req.CorrelationID, from)
	return nil
}

// join is a full joining heartbeat subscribing to t.
func join(member, instance string) *protocol.ConsumerGroupHeartbeatRequest {
	return &protocol.ConsumerGroupHeartbeatRequest{MemberID: member, InstanceID: instance, MemberEpoch: 0, RebalanceTimeoutMs: 300000,
		SubscribedTopicNames: []string{"t"}, TopicPartitions: []protocol.ConsumerGroupTopicPartitions{}}
}

// beat is a regular heartbeat: nothing changed, owned partitions not sent
// (nil) or sent.
func beat(member string, epoch int32, owned ...int32) *protocol.ConsumerGroupHeartbeatRequest {
	r := &protocol.ConsumerGroupHeartbeatRequest{MemberID: member, MemberEpoch: epoch, RebalanceTimeoutMs: -1}
	if owned != nil {
		r.TopicPartitions = []protocol.ConsumerGroupTopicPartitions{{TopicID: topicT, Partitions: owned}}
	}
	return r
}

func ack(member string, epoch int32, owned ...int32) *protocol.ConsumerGroupHeartbeatRequest {
	r := beat(member, epoch)
	r.TopicPartitions = []protocol.ConsumerGroupTopicPartitions{}
	if len(owned) > 0 {
		r.TopicPartitions = append(r.TopicPartitions, protocol.ConsumerGroupTopicPartitions{TopicID: topicT, Partitions: owned})
	}
	return r
}

// assigned is the response's partitions of t (nil: no Assignment).
func assigned(r *protocol.ConsumerGroupHeartbeatResponse) []int32 {
	if r.Assignment == nil {
		return nil
	}
	out := []int32{}
	for _, tp := range r.Assignment.TopicPartitions {
		out = append(out, tp.Partitions...)
	}
	slices.Sort(out)
	return out
}

func (gt *groupTest) describe848() protocol.DescribedConsumerGroup {
	gt.t.Helper()
	gt.corr++
	corr := gt.corr
	gt.call(func(env *sim.Env) {
		gt.c.Handle(env, "admin:1", &protocol.ConsumerGroupDescribeRequest{RequestHeader: protocol.RequestHeader{CorrelationID: corr}, GroupIDs: []string{"g"}})
	})
	for _, s := range gt.host.sent {
		if r, ok := s.msg.(*protocol.ConsumerGroupDescribeResponse); ok && r.CorrelationID == corr {
			return r.Groups[0]
		}
	}
	gt.t.Fatal("describe unanswered")
	return protocol.DescribedConsumerGroup{}
}

func memberOf(d protocol.DescribedConsumerGroup, id string) protocol.DescribedConsumerGroupMember {
	for _, m := range d.Members {
		if m.MemberID == id {
			return m
		}
	}
	return protocol.DescribedConsumerGroupMember{MemberID: "(absent)", MemberEpoch: -99}
}

func parts(tps []protocol.ConsumerGroupTopicPartitions) []int32 {
	out := []int32{}
	for _, tp := range tps {
		out = append(out, tp.Partitions...)
	}
	slices.Sort(out)
	return out
}

func expectEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func expectParts(t *testing.T, what string, got, want []int32) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// recordTypes are the record types of the log's batches from index from.
func (gt *groupTest) recordTypes(from int) [][]int16 {
	var out [][]int16
	for _, b := range gt.host.log[from:] {
		var types []int16
		for _, r := range b.Records {
			types = append(types, int16(r.Key[0])<<8|int16(r.Key[1]))
		}
		out = append(out, types)
	}
	return out
}

// The worked timeline of two dynamic consumers on t (3 partitions), C2
// joining after 4.3's assignment interval (1 s): C1 gets everything at
// epoch 2, C2's join makes target epoch 3 {C1: 0,1; C2: 2}; C2 waits for
// partition 2 (UNRELEASED), C1 is asked to revoke it (UNREVOKED, still at
// epoch 2), acknowledges, and only then C2 gets it.
func TestConsumerGroupTwoMemberTimeline(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})

	r := gt.hb("c1", join("c1", ""))
	expectEq(t, "c1 join error", r.ErrorCode, protocol.NONE)
	expectEq(t, "c1 join epoch", r.MemberEpoch, 2)
	expectEq(t, "heartbeat interval", r.HeartbeatIntervalMs, 5000)
	expectParts(t, "c1 join assignment", assigned(r), []int32{0, 1, 2})
	// MemberMetadata, GroupMetadata, TargetAssignmentMember,
	// TargetAssignmentMetadata, CurrentMemberAssignment (§GMM:2303-2457).
	if got := gt.recordTypes(0); len(got) != 1 || !slices.Equal(got[0], []int16{5, 3, 7, 6, 8}) {
		t.Errorf("join records %v, want [[5 3 7 6 8]]", got)
	}
	d := gt.describe848()
	expectEq(t, "state after c1", d.GroupState, "Stable")
	expectEq(t, "group epoch after c1", d.GroupEpoch, 2)

	// The ack: owned {0,1,2}, nothing changes, no assignment in the answer.
	logLen := len(gt.host.log)
	r = gt.hb("c1", ack("c1", 2, 0, 1, 2))
	expectEq(t, "c1 ack epoch", r.MemberEpoch, 2)
	if r.Assignment != nil {
		t.Errorf("c1 ack carries an assignment %v", assigned(r))
	}
	expectEq(t, "records of an idle heartbeat", len(gt.host.log), logLen)

	gt.run(2 * time.Second)
	r = gt.hb("c2", join("c2", ""))
	expectEq(t, "c2 join epoch", r.MemberEpoch, 3)
	expectParts(t, "c2 join assignment", assigned(r), []int32{})
	d = gt.describe848()
	expectEq(t, "state after c2 joins", d.GroupState, "Reconciling")
	expectEq(t, "assignment epoch", d.AssignmentEpoch, 3)
	expectParts(t, "c1 target", parts(memberOf(d, "c1").TargetAssignment), []int32{0, 1})
	expectParts(t, "c2 target", parts(memberOf(d, "c2").TargetAssignment), []int32{2})

	// C1's next regular heartbeat: revoke 2, stay at epoch 2.
	r = gt.hb("c1", beat("c1", 2))
	expectEq(t, "c1 revoking epoch", r.MemberEpoch, 2)
	expectParts(t, "c1 revoking assignment", assigned(r), []int32{0, 1})
	d = gt.describe848()
	expectParts(t, "c1 current while revoking", parts(memberOf(d, "c1").Assignment), []int32{0, 1, 2})

	// C2 heartbeats before C1 acked: still waiting.
	r = gt.hb("c2", ack("c2", 3))
	expectEq(t, "c2 waiting epoch", r.MemberEpoch, 3)
	if r.Assignment != nil && len(assigned(r)) != 0 {
		t.Errorf("c2 got %v before c1 released partition 2", assigned(r))
	}

	// C1 acks without 2: epoch 3, assignment unchanged so not sent.
	r = gt.hb("c1", ack("c1", 2, 0, 1))
	expectEq(t, "c1 after ack epoch", r.MemberEpoch, 3)
	if r.Assignment != nil {
		t.Errorf("c1 after ack carries an assignment %v", assigned(r))
	}
	r = gt.hb("c2", ack("c2", 3))
	expectEq(t, "c2 epoch", r.MemberEpoch, 3)
	expectParts(t, "c2 assignment", assigned(r), []int32{2})
	d = gt.describe848()
	expectEq(t, "final state", d.GroupState, "Stable")
	expectEq(t, "final group epoch", d.GroupEpoch, 3)
	expectEq(t, "assignor", d.AssignorName, "uniform")

	// Describe lists members in the members TimelineHashMap's order.
	order := jdk.NewBaseHashTable(0)
	order.PutString("c1")
	order.PutString("c2")
	var got []string
	for _, m := range d.Members {
		got = append(got, m.MemberID)
		expectEq(t, m.MemberID+" member type", m.MemberType, 1)
		expectEq(t, m.MemberID+" client host", m.ClientHost, "/"+m.MemberID)
	}
	if !slices.Equal(got, order.Keys()) {
		t.Errorf("describe order %v, want %v", got, order.Keys())
	}
}

// With 4.3's assignment interval, a member joining within 1 s of the last
// target bumps the epoch but gets no target: it is STABLE at the old
// target epoch with nothing, and the group is Assigning until a heartbeat
// after the interval computes epoch 3.
func TestConsumerGroupAssignmentInterval(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	gt.hb("c1", join("c1", ""))
	gt.run(100 * time.Millisecond)
	r := gt.hb("c2", join("c2", ""))
	expectEq(t, "c2 epoch (old target epoch)", r.MemberEpoch, 2)
	expectParts(t, "c2 assignment", assigned(r), []int32{})
	d := gt.describe848()
	expectEq(t, "state", d.GroupState, "Assigning")
	expectEq(t, "group epoch", d.GroupEpoch, 3)
	expectEq(t, "assignment epoch", d.AssignmentEpoch, 2)

	gt.run(time.Second)
	r = gt.hb("c1", beat("c1", 2))
	expectParts(t, "c1 revoking", assigned(r), []int32{0, 1})
	d = gt.describe848()
	expectEq(t, "assignment epoch after the interval", d.AssignmentEpoch, 3)
	expectEq(t, "state after the interval", d.GroupState, "Reconciling")
}

// 4.1 has no interval and starts groups at epoch 0: the second join
// computes its target at once.
func TestConsumerGroup41ComputesAtOnce(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 1})
	r := gt.hb("c1", join("c1", ""))
	expectEq(t, "c1 epoch", r.MemberEpoch, 1)
	gt.run(100 * time.Millisecond)
	r = gt.hb("c2", join("c2", ""))
	expectEq(t, "c2 epoch", r.MemberEpoch, 2)
	d := gt.describe848()
	expectEq(t, "assignment epoch", d.AssignmentEpoch, 2)
	expectParts(t, "c2 target", parts(memberOf(d, "c2").TargetAssignment), []int32{2})
	// 4.1 writes no AssignmentTimestamp nor AssignmentEpochs.
	for _, b := range gt.host.log {
		for _, rec := range b.Records {
			cr, ok, err := decodeConsumerRecord(rec.Key, rec.Value)
			if ok && err == nil && cr.kind == recConsumerGroupTargetMetadata && cr.assignmentTimestamp != 0 {
				t.Errorf("4.1 wrote an assignment timestamp %d", cr.assignmentTimestamp)
			}
		}
	}
}

// A static member leaving with -2 keeps its partitions and the group
// epoch; a new process with the same instance id takes them over with no
// epoch bump and gets them back in its first answer.
func TestConsumerGroupStaticLeaveAndRejoin(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	r := gt.hb("s1", join("m1", "i1"))
	expectEq(t, "m1 epoch", r.MemberEpoch, 2)

	// UNRELEASED_INSTANCE_ID while m1 holds the instance.
	r = gt.hb("s2", join("m2", "i1"))
	expectEq(t, "second instance error", r.ErrorCode, protocol.UNRELEASED_INSTANCE_ID)
	expectEq(t, "second instance message", r.ErrorMessage, "Static member m2 with instance id i1 cannot join the group because the instance id is owned by m1 member.")

	leave := &protocol.ConsumerGroupHeartbeatRequest{MemberID: "m1", InstanceID: "i1", MemberEpoch: -2, RebalanceTimeoutMs: -1}
	r = gt.hb("s1", leave)
	expectEq(t, "static leave epoch", r.MemberEpoch, -2)
	d := gt.describe848()
	expectEq(t, "group epoch after -2", d.GroupEpoch, 2)
	expectEq(t, "m1 epoch after -2", memberOf(d, "m1").MemberEpoch, -2)
	expectParts(t, "m1 keeps", parts(memberOf(d, "m1").Assignment), []int32{0, 1, 2})

	req := join("m2", "i1")
	req.ClientID = "s1"
	r = gt.hb("s1", req) // same client id and host: the same metadata
	expectEq(t, "rejoin error", r.ErrorCode, protocol.NONE)
	expectEq(t, "rejoin epoch", r.MemberEpoch, 2)
	expectParts(t, "rejoin assignment", assigned(r), []int32{0, 1, 2})
	d = gt.describe848()
	expectEq(t, "group epoch after rejoin", d.GroupEpoch, 2)
	expectEq(t, "members after rejoin", len(d.Members), 1)
	expectEq(t, "member after rejoin", d.Members[0].MemberID, "m2")
	expectParts(t, "m2 target", parts(d.Members[0].TargetAssignment), []int32{0, 1, 2})

	// The replaced id is fenced.
	r = gt.hb("s1", &protocol.ConsumerGroupHeartbeatRequest{MemberID: "m1", InstanceID: "i1", MemberEpoch: 2, RebalanceTimeoutMs: -1})
	expectEq(t, "old id error", r.ErrorCode, protocol.FENCED_INSTANCE_ID)
	expectEq(t, "old id message", r.ErrorMessage, "Static member m1 with instance id i1 was fenced by member m2.")
}

// A member that stops heartbeating is fenced after
// group.consumer.session.timeout.ms (45 s): tombstones, a group epoch
// bump, and the other member gets its partitions at the next target.
func TestConsumerGroupSessionTimeoutFences(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	gt.hb("c1", join("c1", ""))
	gt.run(2 * time.Second)
	gt.hb("c2", join("c2", ""))
	r := gt.hb("c1", beat("c1", 2))
	gt.hb("c1", ack("c1", 2, 0, 1))
	r = gt.hb("c2", ack("c2", 3))
	expectParts(t, "c2 before", assigned(r), []int32{2})
	// c2 keeps heartbeating every 5 s; c1 goes silent.
	for i := 0; i < 10; i++ {
		gt.run(5 * time.Second)
		r = gt.hb("c2", beat("c2", r.MemberEpoch))
		if r.ErrorCode != protocol.NONE {
			t.Fatalf("c2 heartbeat: %v %s", r.ErrorCode, r.ErrorMessage)
		}
	}
	d := gt.describe848()
	expectEq(t, "members", len(d.Members), 1)
	expectEq(t, "group epoch after fencing", d.GroupEpoch, 4)
	expectParts(t, "c2 now", parts(d.Members[0].Assignment), []int32{0, 1, 2})
	r = gt.hb("c1", beat("c1", 3))
	expectEq(t, "fenced member error", r.ErrorCode, protocol.UNKNOWN_MEMBER_ID)
	expectEq(t, "fenced member message", r.ErrorMessage, "Member c1 is not a member of group g.")
}

// A new coordinator loading the partition rebuilds the consumer group
// from its records.
func TestConsumerGroupFailoverReloads(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	gt.hb("c1", join("c1", ""))
	gt.run(2 * time.Second)
	gt.hb("c2", join("c2", ""))
	gt.hb("c1", beat("c1", 2)) // c1 revoking
	before := gt.describe848()

	gt.c = New(1, gt.host)
	gt.call(func(env *sim.Env) { gt.c.OnElection(env, gt.c.PartitionFor("g")) })
	gt.run(time.Millisecond)
	after := gt.describe848()
	expectEq(t, "state", after.GroupState, before.GroupState)
	expectEq(t, "group epoch", after.GroupEpoch, before.GroupEpoch)
	expectEq(t, "assignment epoch", after.AssignmentEpoch, before.AssignmentEpoch)
	expectEq(t, "members", len(after.Members), len(before.Members))
	for _, m := range before.Members {
		a := memberOf(after, m.MemberID)
		expectEq(t, m.MemberID+" epoch", a.MemberEpoch, m.MemberEpoch)
		expectParts(t, m.MemberID+" current", parts(a.Assignment), parts(m.Assignment))
		expectParts(t, m.MemberID+" target", parts(a.TargetAssignment), parts(m.TargetAssignment))
		expectEq(t, m.MemberID+" client id", a.ClientID, m.ClientID)
	}
	// The reloaded group goes on: c1 acks, c2 gets partition 2.
	r := gt.hb("c1", ack("c1", 2, 0, 1))
	expectEq(t, "c1 epoch after reload", r.MemberEpoch, 3)
	r = gt.hb("c2", ack("c2", 3))
	expectParts(t, "c2 after reload", assigned(r), []int32{2})
}

// Leaving with -1 fences at once; the group is Empty and can be deleted.
func TestConsumerGroupLeaveAndDelete(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	gt.hb("c1", join("c1", ""))
	r := gt.hb("c1", &protocol.ConsumerGroupHeartbeatRequest{MemberID: "c1", MemberEpoch: -1, RebalanceTimeoutMs: -1})
	expectEq(t, "leave epoch", r.MemberEpoch, -1)
	d := gt.describe848()
	expectEq(t, "state", d.GroupState, "Empty")
	expectEq(t, "group epoch", d.GroupEpoch, 3)

	gt.corr++
	corr := gt.corr
	gt.call(func(env *sim.Env) {
		gt.c.Handle(env, "admin:1", &protocol.DeleteGroupsRequest{RequestHeader: protocol.RequestHeader{CorrelationID: corr}, GroupsNames: []string{"g"}})
	})
	gt.run(2 * time.Millisecond)
	d = gt.describe848()
	expectEq(t, "after delete", d.ErrorCode, protocol.GROUP_ID_NOT_FOUND)
	// ConsumerGroupDescribe reads the group with consumerGroup(groupId,
	// committedOffset), whose missing group is group()'s "Group G not
	// found." (4.3 GMM:615-620, 973-984), not the heartbeat's "Consumer
	// group G not found." (GMM:848).
	expectEq(t, "after delete message", d.ErrorMessage, "Group g not found.")
}

// GroupCoordinatorService's request checks answer before anything runs.
func TestConsumerGroupHeartbeatValidation(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	for _, c := range []struct {
		req  *protocol.ConsumerGroupHeartbeatRequest
		code protocol.ErrorCode
		msg  string
	}{
		{&protocol.ConsumerGroupHeartbeatRequest{MemberEpoch: 0}, protocol.INVALID_REQUEST, "MemberId can't be empty."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: 0, RebalanceTimeoutMs: -1}, protocol.INVALID_REQUEST, "RebalanceTimeoutMs must be provided in first request."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: 0, RebalanceTimeoutMs: 1, SubscribedTopicNames: []string{"t"}}, protocol.INVALID_REQUEST, "TopicPartitions must be empty when (re-)joining."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: 0, RebalanceTimeoutMs: 1, TopicPartitions: []protocol.ConsumerGroupTopicPartitions{}}, protocol.INVALID_REQUEST, "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: -2}, protocol.INVALID_REQUEST, "InstanceId can't be null."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: -3}, protocol.INVALID_REQUEST, "MemberEpoch is invalid."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: 5, ServerAssignor: "sticky"}, protocol.UNSUPPORTED_ASSIGNOR, "ServerAssignor sticky is not supported. Supported assignors: uniform, range."},
		{&protocol.ConsumerGroupHeartbeatRequest{MemberID: "m", MemberEpoch: 5, RebalanceTimeoutMs: -1}, protocol.GROUP_ID_NOT_FOUND, "Consumer group g not found."},
	} {
		r := gt.hb("x", c.req)
		if r.ErrorCode != c.code || r.ErrorMessage != c.msg {
			t.Errorf("%+v: got %v %q, want %v %q", c.req, r.ErrorCode, r.ErrorMessage, c.code, c.msg)
		}
	}
	gt.hb("c1", join("c1", ""))
	r := gt.hb("c1", beat("c1", 7))
	expectEq(t, "greater epoch", r.ErrorCode, protocol.FENCED_MEMBER_EPOCH)
	expectEq(t, "greater epoch message", r.ErrorMessage, "The consumer group member has a greater member epoch (7) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.")
}

// OffsetCommit from a consumer group member: its epoch, or (4.3) an older
// one for partitions it got at or before that epoch.
func TestConsumerGroupOffsetCommitEpochs(t *testing.T) {
	commit := func(gt *groupTest, member string, epoch int32, p int32) protocol.ErrorCode {
		corr := gt.send("c", &protocol.OffsetCommitRequest{GroupID: "g", MemberID: member, GenerationIDOrMemberEpoch: epoch,
			Topics: []protocol.OffsetCommitRequestTopic{{Name: "t", Partitions: []protocol.OffsetCommitRequestPartition{{PartitionIndex: p, CommittedOffset: 5, CommittedLeaderEpoch: -1}}}}})
		gt.run(2 * time.Millisecond)
		r := answer[*protocol.OffsetCommitResponse](gt, corr)
		if r == nil {
			gt.t.Fatal("commit unanswered")
		}
		return r.Topics[0].Partitions[0].ErrorCode
	}
	for _, rel := range []release.Version{{Major: 4, Minor: 3}, {Major: 4, Minor: 1}} {
		gt := newConsumerTest(t, rel)
		first := gt.hb("c1", join("c1", "")).MemberEpoch
		gt.run(2 * time.Second)
		gt.hb("c2", join("c2", ""))
		gt.hb("c1", beat("c1", first))
		gt.hb("c1", ack("c1", first, 0, 1)) // c1 moves one epoch up, keeping 0 and 1
		expectEq(t, rel.String()+" current epoch", commit(gt, "c1", first+1, 0), protocol.NONE)
		want := protocol.NONE // 4.3: partition 0 was assigned at the first epoch
		if rel.Minor == 1 {
			want = protocol.STALE_MEMBER_EPOCH
		}
		expectEq(t, rel.String()+" older epoch", commit(gt, "c1", first, 0), want)
		expectEq(t, rel.String()+" newer epoch", commit(gt, "c1", first+2, 0), protocol.STALE_MEMBER_EPOCH)
		expectEq(t, rel.String()+" not a member", commit(gt, "zz", first, 0), protocol.UNKNOWN_MEMBER_ID)
		expectEq(t, rel.String()+" partition not held", commit(gt, "c1", first, 2), protocol.STALE_MEMBER_EPOCH)
	}
}

// Partitions added to a subscribed topic: the next heartbeat recomputes
// the metadata hash, bumps the group epoch and assigns the new partition
// (GMM.onMetadataUpdate, updateSubscriptionMetadata).
func TestConsumerGroupMetadataRefreshOnNewPartitions(t *testing.T) {
	gt := newConsumerTest(t, release.Version{Major: 4, Minor: 3})
	gt.hb("c1", join("c1", ""))
	gt.hb("c1", ack("c1", 2, 0, 1, 2))
	gt.host.topics = []kgroup.TopicMetadata{{ID: topicT, Name: "t", NumPartitions: 4}}
	gt.call(func(env *sim.Env) { gt.c.OnMetadataUpdate(env, []string{"t"}) })
	gt.run(2 * time.Second)
	r := gt.hb("c1", beat("c1", 2))
	expectEq(t, "epoch after the refresh", r.MemberEpoch, 3)
	expectParts(t, "assignment after the refresh", assigned(r), []int32{0, 1, 2, 3})
	// A heartbeat without a change neither bumps nor recomputes.
	gt.hb("c1", beat("c1", 3))
	expectEq(t, "group epoch stays", gt.describe848().GroupEpoch, 3)
}
