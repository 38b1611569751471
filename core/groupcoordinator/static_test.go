package groupcoordinator

import (
	"math"
	"strings"
	"testing"
	"time"

	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// testHost is a Host whose appends succeed a millisecond later and stay in
// a log ReadLog returns; it records every response.
type testHost struct {
	sent []sentResponse
	log  []record.Batch
	fail protocol.ErrorCode // what the next append reports (then NONE again)
	// For consumer groups (consumer848_test.go): the release, configs
	// besides the classic ones, and the topics.
	release release.Version
	conf    map[string]int64
	strs    map[string]string
	topics  []kgroup.TopicMetadata
}

type sentResponse struct {
	to  sim.Addr
	msg sim.Message
}

func (h *testHost) Respond(_ *sim.Env, to sim.Addr, m sim.Message) {
	h.sent = append(h.sent, sentResponse{to, m})
}
func (h *testHost) Done(*sim.Env, sim.Addr) {}
func (h *testHost) Config(name string) int64 {
	switch name {
	case "offsets.topic.num.partitions":
		return 50
	case "group.min.session.timeout.ms":
		return 6000
	case "group.max.session.timeout.ms":
		return 1800000
	case "group.max.size":
		return math.MaxInt32
	case "group.initial.rebalance.delay.ms":
		return 3000
	}
	if v, ok := h.conf[name]; ok {
		return v
	}
	return consumerDefaults[name]
}
func (h *testHost) Append(env *sim.Env, _ int32, recs []record.Record, done func(*sim.Env, protocol.ErrorCode)) {
	code := h.fail
	h.fail = protocol.NONE
	if code == protocol.NONE {
		h.log = append(h.log, record.Batch{BaseOffset: int64(len(h.log)), Records: recs})
	}
	env.After(time.Millisecond, "test-append", func(env *sim.Env) { done(env, code) })
}
func (h *testHost) AppendTransactional(env *sim.Env, _ int32, pid int64, epoch int16, recs []record.Record, done func(*sim.Env, protocol.ErrorCode)) {
	code := h.fail
	h.fail = protocol.NONE
	if code == protocol.NONE {
		h.log = append(h.log, record.Batch{BaseOffset: int64(len(h.log)), ProducerID: pid, ProducerEpoch: epoch, Attributes: record.TransactionalFlagMask, Records: recs})
	}
	env.After(time.Millisecond, "test-append", func(env *sim.Env) { done(env, code) })
}
func (h *testHost) ReadLog(int32) []record.Batch { return h.log }
func (h *testHost) AwaitCommitted(env *sim.Env, _ int32, _ int64, done func(*sim.Env, protocol.ErrorCode)) {
	done(env, protocol.NONE)
}

type idle struct{}

func (idle) Start(*sim.Env)                  {}
func (idle) Receive(*sim.Env, *sim.Envelope) {}

// groupTest drives one coordinator that leads every __consumer_offsets
// partition, in a world of its own.
type groupTest struct {
	t    *testing.T
	w    *sim.World
	host *testHost
	c    *Coordinator
	corr int32
}

func newGroupTest(t *testing.T) *groupTest { return newGroupTestOn(t, &testHost{}) }

// newGroupTestOn starts a coordinator on host that leads g's partition.
func newGroupTestOn(t *testing.T, host *testHost) *groupTest {
	gt := &groupTest{t: t, w: sim.NewWorld(7), host: host}
	gt.c = New(1, gt.host)
	if err := gt.w.Spawn("kafka-1", idle{}); err != nil {
		t.Fatal(err)
	}
	gt.call(func(env *sim.Env) { gt.c.OnElection(env, gt.c.PartitionFor("g")) })
	gt.run(time.Millisecond)
	return gt
}

func (gt *groupTest) call(fn func(env *sim.Env)) {
	gt.t.Helper()
	if err := gt.w.Call("kafka-1", "test", fn); err != nil {
		gt.t.Fatal(err)
	}
	gt.run(0)
}

func (gt *groupTest) run(d time.Duration) {
	gt.t.Helper()
	if err := gt.w.RunFor(d); err != nil {
		gt.t.Fatal(err)
	}
}

// send hands the coordinator a request from client `from` and returns its
// correlation id.
func (gt *groupTest) send(from string, req sim.Message) int32 {
	gt.corr++
	corr := gt.corr
	switch r := req.(type) {
	case *protocol.JoinGroupRequest:
		r.CorrelationID = corr
	case *protocol.SyncGroupRequest:
		r.CorrelationID = corr
	case *protocol.HeartbeatRequest:
		r.CorrelationID = corr
	case *protocol.OffsetCommitRequest:
		r.CorrelationID = corr
	case *protocol.TxnOffsetCommitRequest:
		r.CorrelationID = corr
	case *protocol.OffsetFetchRequest:
		r.CorrelationID = corr
	case *protocol.LeaveGroupRequest:
		r.CorrelationID = corr
	}
	gt.call(func(env *sim.Env) { gt.c.Handle(env, sim.Addr(from+":50001"), req) })
	return corr
}

// answer is the response with correlation id corr (nil while unanswered).
func answer[T sim.Message](gt *groupTest, corr int32) T {
	var zero T
	for _, s := range gt.host.sent {
		if r, ok := s.msg.(T); ok && corrOf(s.msg) == corr {
			return r
		}
	}
	return zero
}

func corrOf(m sim.Message) int32 {
	switch r := m.(type) {
	case *protocol.JoinGroupResponse:
		return r.CorrelationID
	case *protocol.SyncGroupResponse:
		return r.CorrelationID
	case *protocol.HeartbeatResponse:
		return r.CorrelationID
	case *protocol.OffsetCommitResponse:
		return r.CorrelationID
	case *protocol.TxnOffsetCommitResponse:
		return r.CorrelationID
	case *protocol.OffsetFetchResponse:
		return r.CorrelationID
	case *protocol.LeaveGroupResponse:
		return r.CorrelationID
	}
	return -1
}

func subscription() []protocol.JoinGroupRequestProtocol {
	s := protocol.ConsumerProtocolSubscription{Topics: []string{"t"}, GenerationID: -1}
	return []protocol.JoinGroupRequestProtocol{{Name: "range", Metadata: s.Encode()}}
}

func assignment(parts ...int32) []byte {
	a := protocol.ConsumerProtocolAssignment{AssignedPartitions: []protocol.TopicPartitions{{Topic: "t", Partitions: parts}}}
	return a.Encode()
}

func (gt *groupTest) join(from, memberID, instanceID string) int32 {
	return gt.send(from, &protocol.JoinGroupRequest{RequestHeader: protocol.RequestHeader{ClientID: from}, GroupID: "g",
		SessionTimeoutMs: 45000, RebalanceTimeoutMs: 300000, MemberID: memberID, GroupInstanceID: instanceID,
		ProtocolType: protocol.ConsumerProtocolType, Protocols: subscription()})
}

func (gt *groupTest) sync(from, memberID, instanceID string, gen int32, assignments ...protocol.SyncGroupRequestAssignment) int32 {
	return gt.send(from, &protocol.SyncGroupRequest{GroupID: "g", GenerationID: gen, MemberID: memberID, GroupInstanceID: instanceID,
		ProtocolType: protocol.ConsumerProtocolType, ProtocolName: "range", Assignments: assignments})
}

func (gt *groupTest) heartbeat(from, memberID, instanceID string, gen int32) protocol.ErrorCode {
	corr := gt.send(from, &protocol.HeartbeatRequest{GroupID: "g", GenerationID: gen, MemberID: memberID, GroupInstanceID: instanceID})
	return answer[*protocol.HeartbeatResponse](gt, corr).ErrorCode
}

func (gt *groupTest) group() *group { return gt.c.groups["g"] }

// stableStaticGroup has static members a (the leader, partitions 0 and 1)
// and b (partition 2), Stable in generation 1; it returns their ids.
func stableStaticGroup(t *testing.T) (gt *groupTest, a, b string) {
	gt = newGroupTest(t)
	ja, jb := gt.join("client-a", "", "host-a"), gt.join("client-b", "", "host-b")
	gt.run(7 * time.Second) // the initial rebalance delay (3 s), twice: b came during the first
	ra, rb := answer[*protocol.JoinGroupResponse](gt, ja), answer[*protocol.JoinGroupResponse](gt, jb)
	if ra == nil || rb == nil || ra.ErrorCode != protocol.NONE || rb.ErrorCode != protocol.NONE {
		t.Fatalf("static members join at once, without MEMBER_ID_REQUIRED: %+v %+v", ra, rb)
	}
	a, b = ra.MemberID, rb.MemberID
	if !strings.HasPrefix(a, "host-a-") || !strings.HasPrefix(b, "host-b-") || len(a) != len("host-a-")+36 {
		t.Fatalf("a static member's id is <group.instance.id>-<UUID>: %q %q", a, b)
	}
	if ra.GenerationID != 1 || ra.Leader != a || len(ra.Members) != 2 || ra.Members[1].GroupInstanceID != "host-b" {
		t.Fatalf("leader's answer: %+v", ra)
	}
	gt.sync("client-a", a, "host-a", 1, protocol.SyncGroupRequestAssignment{MemberID: a, Assignment: assignment(0, 1)},
		protocol.SyncGroupRequestAssignment{MemberID: b, Assignment: assignment(2)})
	gt.sync("client-b", b, "host-b", 1)
	gt.run(10 * time.Millisecond)
	if g := gt.group(); g.state != groupStable || g.generation != 1 {
		t.Fatalf("group %s generation %d, want Stable 1", g.state, g.generation)
	}
	return gt, a, b
}

// A static member that comes back with no member id (a restart) takes a
// new id and keeps its partitions: a Stable group does not rebalance, the
// generation stays, the group's record stores the new id with the
// instance id, and every request with the old id is fenced.
func TestStaticMemberRejoinReplacesWithoutRebalance(t *testing.T) {
	gt, a, b := stableStaticGroup(t)
	j := gt.join("client-b2", "", "host-b")
	gt.run(10 * time.Millisecond)
	r := answer[*protocol.JoinGroupResponse](gt, j)
	if r == nil || r.ErrorCode != protocol.NONE || r.GenerationID != 1 || r.Leader != a || r.SkipAssignment || len(r.Members) != 0 {
		t.Fatalf("the returning follower gets the current generation: %+v", r)
	}
	b2 := r.MemberID
	if b2 == b || !strings.HasPrefix(b2, "host-b-") {
		t.Fatalf("new member id %q (old %q)", b2, b)
	}
	g := gt.group()
	if g.state != groupStable || g.generation != 1 || g.static["host-b"] != b2 || g.members[b] != nil || g.order[1] != b2 {
		t.Fatalf("group %s gen %d static %v order %v", g.state, g.generation, g.static, g.order)
	}
	s := gt.sync("client-b2", b2, "host-b", 1)
	if sr := answer[*protocol.SyncGroupResponse](gt, s); sr == nil || string(sr.Assignment) != string(assignment(2)) {
		t.Fatalf("the replacement gets the old member's assignment: %+v", sr)
	}
	// The stored group names the new id and the instance id.
	last := gt.host.log[len(gt.host.log)-1].Records[0]
	v, err := decodeGroupValue(last.Value)
	if err != nil || v.generation != 1 || len(v.members) != 2 || v.members[1].memberID != b2 || v.members[1].groupInstanceID != "host-b" ||
		string(v.members[1].assignment) != string(assignment(2)) {
		t.Fatalf("stored group %+v (%v)", v, err)
	}

	// The old id is fenced everywhere it shows with its instance id.
	if code := gt.heartbeat("client-b", b, "host-b", 1); code != protocol.FENCED_INSTANCE_ID {
		t.Errorf("old id's Heartbeat: %s", code)
	}
	if sr := answer[*protocol.SyncGroupResponse](gt, gt.sync("client-b", b, "host-b", 1)); sr.ErrorCode != protocol.FENCED_INSTANCE_ID {
		t.Errorf("old id's SyncGroup: %s", sr.ErrorCode)
	}
	oc := &protocol.OffsetCommitRequest{GroupID: "g", GenerationIDOrMemberEpoch: 1, MemberID: b, GroupInstanceID: "host-b", RetentionTimeMs: -1}
	oc.Add("t", protocol.OffsetCommitRequestPartition{PartitionIndex: 2, CommittedOffset: 5, CommittedLeaderEpoch: -1})
	if cr := answer[*protocol.OffsetCommitResponse](gt, gt.send("client-b", oc)); cr.Topics[0].Partitions[0].ErrorCode != protocol.FENCED_INSTANCE_ID {
		t.Errorf("old id's OffsetCommit: %s", cr.Topics[0].Partitions[0].ErrorCode)
	}
	if jr := answer[*protocol.JoinGroupResponse](gt, gt.join("client-b", b, "host-b")); jr.ErrorCode != protocol.FENCED_INSTANCE_ID {
		t.Errorf("old id's JoinGroup: %s", jr.ErrorCode)
	}
	lr := answer[*protocol.LeaveGroupResponse](gt, gt.send("client-b", &protocol.LeaveGroupRequest{GroupID: "g",
		Members: []protocol.MemberIdentity{{MemberID: b, GroupInstanceID: "host-b"}}}))
	if lr.Members[0].ErrorCode != protocol.FENCED_INSTANCE_ID {
		t.Errorf("old id's LeaveGroup: %s", lr.Members[0].ErrorCode)
	}
	// An instance the group does not have is an unknown member.
	if code := gt.heartbeat("client-c", b2, "host-c", 1); code != protocol.UNKNOWN_MEMBER_ID {
		t.Errorf("unknown instance's Heartbeat: %s", code)
	}
	// Nothing of that moved the group; the new id heartbeats fine.
	if code := gt.heartbeat("client-b2", b2, "host-b", 1); code != protocol.NONE || g.state != groupStable || g.generation != 1 {
		t.Errorf("new id's Heartbeat %s; group %s gen %d", code, g.state, g.generation)
	}
}

// A returning static leader is told it leads, with the members, and to
// skip the assignment (JoinGroup v9, KIP-814).
func TestStaticLeaderRejoinSkipsAssignment(t *testing.T) {
	gt, a, b := stableStaticGroup(t)
	j := gt.join("client-a2", "", "host-a")
	gt.run(10 * time.Millisecond)
	r := answer[*protocol.JoinGroupResponse](gt, j)
	if r == nil || r.ErrorCode != protocol.NONE || r.Leader != r.MemberID || !r.SkipAssignment || len(r.Members) != 2 || r.Members[1].MemberID != b {
		t.Fatalf("returning leader: %+v", r)
	}
	if gt.group().leader == a || gt.group().state != groupStable {
		t.Fatalf("the leadership moves to the new id; state %s", gt.group().state)
	}
}

// A failed store of the replacement puts the old id back and answers the
// newcomer with the error.
func TestStaticRejoinStoreFailureReverts(t *testing.T) {
	gt, _, b := stableStaticGroup(t)
	gt.host.fail = protocol.NOT_ENOUGH_REPLICAS
	j := gt.join("client-b2", "", "host-b")
	gt.run(10 * time.Millisecond)
	r := answer[*protocol.JoinGroupResponse](gt, j)
	if r == nil || r.ErrorCode != protocol.COORDINATOR_NOT_AVAILABLE || r.MemberID != "" {
		t.Fatalf("answer %+v", r)
	}
	if g := gt.group(); g.static["host-b"] != b || g.members[b] == nil {
		t.Fatalf("old id not restored: %v", g.static)
	}
	if code := gt.heartbeat("client-b", b, "host-b", 1); code != protocol.NONE {
		t.Fatalf("old id's heartbeat: %s", code)
	}
}

// In CompletingRebalance the replacement rebalances (the leader may have
// assigned with the old id) and the old id's parked SyncGroup is fenced;
// in PreparingRebalance the replacement simply joins the round.
func TestStaticRejoinDuringRebalance(t *testing.T) {
	gt, a, b := stableStaticGroup(t)
	// The leader rejoins: PreparingRebalance; b's old process is gone, so
	// its replacement joins the round in its place.
	ja := gt.join("client-a", a, "host-a")
	if g := gt.group(); g.state != groupPreparingRebalance {
		t.Fatalf("state %s", g.state)
	}
	jb := gt.join("client-b2", "", "host-b")
	gt.run(10 * time.Millisecond)
	ra, rb := answer[*protocol.JoinGroupResponse](gt, ja), answer[*protocol.JoinGroupResponse](gt, jb)
	if ra == nil || rb == nil || ra.GenerationID != 2 || rb.GenerationID != 2 || len(ra.Members) != 2 || ra.Members[1].MemberID != rb.MemberID {
		t.Fatalf("the round completes with the replacement: %+v %+v", ra, rb)
	}
	b2 := rb.MemberID
	if gt.group().members[b] != nil || b2 == b {
		t.Fatalf("old id %s still a member", b)
	}
	// CompletingRebalance: b2 waits in SyncGroup; a third process takes
	// host-b: b2's SyncGroup is fenced and the group rebalances again.
	s := gt.sync("client-b2", b2, "host-b", 2)
	gt.join("client-b3", "", "host-b")
	if sr := answer[*protocol.SyncGroupResponse](gt, s); sr == nil || sr.ErrorCode != protocol.FENCED_INSTANCE_ID {
		t.Fatalf("parked SyncGroup of the replaced id: %+v", sr)
	}
	if g := gt.group(); g.state != groupPreparingRebalance || g.generation != 2 {
		t.Fatalf("state %s gen %d", g.state, g.generation)
	}
}

// A static member that does not rejoin a rebalance stays in the group
// (only its session timeout removes it); its partitions are the leader's
// to keep assigning to it meanwhile.
func TestStaticMemberStaysUntilSessionTimeout(t *testing.T) {
	gt, a, b := stableStaticGroup(t)
	start := gt.w.Now()
	// b stops heartbeating; a keeps going and rejoins (a rebalance).
	ja := gt.join("client-a", a, "host-a")
	for gt.w.Now().Sub(start) < 30*time.Second {
		gt.run(3 * time.Second)
		gt.heartbeat("client-a", a, "host-a", 1)
	}
	if g := gt.group(); g.state != groupPreparingRebalance || g.members[b] == nil {
		t.Fatalf("the absent static member holds the round: %s", g.state)
	}
	gt.run(16 * time.Second) // b's session (45 s) expires
	ra := answer[*protocol.JoinGroupResponse](gt, ja)
	if ra == nil || ra.GenerationID != 2 || len(ra.Members) != 1 {
		t.Fatalf("after b's session timeout the round completes without it: %+v", ra)
	}
	if g := gt.group(); g.members[b] != nil || len(g.static) != 1 {
		t.Fatalf("b still in the group: %v", g.static)
	}
}

// A static member that misses a rebalance's join phase is kept: the
// generation goes on with it and the leader still sees it.
func TestCompleteJoinKeepsStaticMembers(t *testing.T) {
	gt, a, b := stableStaticGroup(t)
	g := gt.group()
	g.members[b].rebalanceTimeout = 10 * time.Second
	ja := gt.send("client-a", &protocol.JoinGroupRequest{GroupID: "g", SessionTimeoutMs: 45000, RebalanceTimeoutMs: 10000,
		MemberID: a, GroupInstanceID: "host-a", ProtocolType: protocol.ConsumerProtocolType, Protocols: subscription()})
	for range 4 {
		gt.run(3 * time.Second)
		gt.heartbeat("client-a", a, "host-a", 1)
		gt.heartbeat("client-b", b, "host-b", 1)
	}
	ra := answer[*protocol.JoinGroupResponse](gt, ja)
	if ra == nil || ra.GenerationID != 2 || len(ra.Members) != 2 || g.members[b] == nil {
		t.Fatalf("the rebalance timeout ends the round with b still a member: %+v", ra)
	}
}

// A new coordinator replays the stored group with its instance ids, so a
// returning static member replaces its old id there too.
func TestStaticMembersSurviveLoad(t *testing.T) {
	gt, _, b := stableStaticGroup(t)
	c2 := New(2, gt.host)
	gt.c = c2
	gt.call(func(env *sim.Env) { c2.OnElection(env, c2.PartitionFor("g")) })
	gt.run(time.Millisecond)
	g := gt.group()
	if g == nil || g.static["host-b"] != b || g.state != groupStable {
		t.Fatalf("loaded group: %+v", g)
	}
	j := gt.join("client-b2", "", "host-b")
	gt.run(10 * time.Millisecond)
	if r := answer[*protocol.JoinGroupResponse](gt, j); r == nil || r.ErrorCode != protocol.NONE || r.GenerationID != 1 || g.state != groupStable {
		t.Fatalf("replacement after load: %+v (%s)", r, g.state)
	}
}

// The admin removes a static member by its instance id alone.
func TestLeaveGroupByInstanceID(t *testing.T) {
	gt, _, b := stableStaticGroup(t)
	lr := answer[*protocol.LeaveGroupResponse](gt, gt.send("admin", &protocol.LeaveGroupRequest{GroupID: "g",
		Members: []protocol.MemberIdentity{{GroupInstanceID: "host-b"}, {GroupInstanceID: "host-x"}}}))
	if lr.Members[0].ErrorCode != protocol.NONE || lr.Members[1].ErrorCode != protocol.UNKNOWN_MEMBER_ID {
		t.Fatalf("answer %+v", lr.Members)
	}
	if g := gt.group(); g.members[b] != nil || g.state != groupPreparingRebalance {
		t.Fatalf("b not removed: %s", g.state)
	}
}
