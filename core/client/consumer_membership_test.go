package client

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// topicID848 is topic t's id in these tests.
var topicID848 = metadata.Uuid{1, 2, 3}

// fakeCoordinator848 is one broker that leads every partition of topic t
// and coordinates the group: it answers Metadata, FindCoordinator,
// ListOffsets (offset 0), Fetch (nothing, after MaxWaitMs), OffsetFetch
// (no offsets) and OffsetCommit, and hands each ConsumerGroupHeartbeat to
// hb, which answers as a coordinator would in the case tested.
type fakeCoordinator848 struct {
	self       sim.Addr
	partitions int32
	hb         func(req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse
	heartbeats []*protocol.ConsumerGroupHeartbeatRequest
	commits    []*protocol.OffsetCommitRequest
	fetches    []protocol.OffsetFetchRequestGroup
	events     *[]string
}

func (b *fakeCoordinator848) Start(*sim.Env) {}

func (b *fakeCoordinator848) Receive(env *sim.Env, e *sim.Envelope) {
	hdr := func(req protocol.Request) protocol.ResponseHeader {
		return protocol.ResponseHeader{CorrelationID: req.Header().CorrelationID}
	}
	switch req := e.Msg.(type) {
	case *protocol.MetadataRequest:
		mt := protocol.MetadataTopic{Name: "t", TopicID: topicID848}
		for p := range b.partitions {
			mt.Partitions = append(mt.Partitions, protocol.MetadataPartition{Index: p, LeaderID: 1, Replicas: []int32{1}, ISR: []int32{1}})
		}
		env.Send(b.self, e.From, &protocol.MetadataResponse{ResponseHeader: hdr(req), ClusterID: "c", ControllerID: 1,
			Brokers: []protocol.MetadataBroker{{NodeID: 1, Host: b.self.Host(), Port: 9092}}, Topics: []protocol.MetadataTopic{mt}})
	case *protocol.FindCoordinatorRequest:
		env.Send(b.self, e.From, &protocol.FindCoordinatorResponse{ResponseHeader: hdr(req),
			Coordinators: []protocol.Coordinator{{Key: req.CoordinatorKeys[0], NodeID: 1, Host: b.self.Host(), Port: 9092}}})
	case *protocol.ListOffsetsRequest:
		resp := &protocol.ListOffsetsResponse{ResponseHeader: hdr(req)}
		for _, t := range req.Topics {
			rt := protocol.ListOffsetsTopicResponse{Name: t.Name}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, protocol.ListOffsetsPartitionResponse{Index: p.Index, Offset: 0, LeaderEpoch: 0})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		env.Send(b.self, e.From, resp)
	case *protocol.FetchRequest:
		from, resp := e.From, &protocol.FetchResponse{ResponseHeader: hdr(req)}
		env.After(time.Duration(req.MaxWaitMs)*time.Millisecond, "fetch-wait", func(env *sim.Env) { env.Send(b.self, from, resp) })
	case *protocol.OffsetFetchRequest:
		b.fetches = append(b.fetches, req.Groups[0])
		env.Send(b.self, e.From, &protocol.OffsetFetchResponse{ResponseHeader: hdr(req), Groups: []protocol.OffsetFetchResponseGroup{{GroupID: req.Groups[0].GroupID}}})
	case *protocol.OffsetCommitRequest:
		b.commits = append(b.commits, req)
		b.note(fmt.Sprintf("commit epoch %d", req.GenerationIDOrMemberEpoch))
		resp := &protocol.OffsetCommitResponse{ResponseHeader: hdr(req)}
		for _, t := range req.Topics {
			rt := protocol.OffsetCommitResponseTopic{Name: t.Name}
			for _, p := range t.Partitions {
				rt.Partitions = append(rt.Partitions, protocol.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		env.Send(b.self, e.From, resp)
	case *protocol.ConsumerGroupHeartbeatRequest:
		b.heartbeats = append(b.heartbeats, req)
		b.note(fmt.Sprintf("heartbeat epoch %d owned %s", req.MemberEpoch, ownedString(req.TopicPartitions)))
		if resp := b.hb(req); resp != nil {
			resp.ResponseHeader = hdr(req)
			env.Send(b.self, e.From, resp)
		}
	}
}

func (b *fakeCoordinator848) note(s string) {
	if b.events != nil {
		*b.events = append(*b.events, s)
	}
}

func ownedString(tps []protocol.ConsumerGroupTopicPartitions) string {
	if tps == nil {
		return "null"
	}
	var ps []int32
	for _, tp := range tps {
		ps = append(ps, tp.Partitions...)
	}
	return fmt.Sprint(ps)
}

func assignment848(ps ...int32) *protocol.ConsumerGroupAssignment {
	a := &protocol.ConsumerGroupAssignment{TopicPartitions: []protocol.ConsumerGroupTopicPartitions{}}
	if len(ps) > 0 {
		a.TopicPartitions = append(a.TopicPartitions, protocol.ConsumerGroupTopicPartitions{TopicID: topicID848, Partitions: ps})
	}
	return a
}

// rig848 runs one consumer-protocol consumer against a fake coordinator.
type rig848 struct {
	t      *testing.T
	w      *sim.World
	b      *fakeCoordinator848
	c      *Consumer
	events []string
	logs   []string
	err    *Error
}

func newRig848(t *testing.T, cfg ConsumerConfig, hb func(req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse) *rig848 {
	t.Helper()
	r := &rig848{t: t, w: sim.NewWorld(3)}
	r.b = &fakeCoordinator848{self: "kafka-1:9092", partitions: 3, hb: hb, events: &r.events}
	cfg.GroupProtocol = "consumer"
	if cfg.GroupID == "" {
		cfg.GroupID = "g"
	}
	cfg.ClientID = "c1"
	r.c = NewConsumer("app:50000", []sim.Addr{r.b.self}, cfg, func(level Level, msg, logger string) {
		r.logs = append(r.logs, fmt.Sprintf("%s %s (%s)", level, msg, logger))
	})
	name := func(tps []group.TopicPartition) string {
		var out []string
		for _, tp := range tps {
			out = append(out, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		}
		return "[" + strings.Join(out, " ") + "]"
	}
	r.c.OnRebalance(func(env *sim.Env, tps []group.TopicPartition) { r.events = append(r.events, "revoked "+name(tps)) },
		func(env *sim.Env, tps []group.TopicPartition) { r.events = append(r.events, "assigned "+name(tps)) },
		func(env *sim.Env, tps []group.TopicPartition) { r.events = append(r.events, "lost "+name(tps)) })
	r.c.OnError(func(env *sim.Env, err *Error) { r.err = err })
	if err := r.w.Spawn("kafka-1", r.b); err != nil {
		t.Fatal(err)
	}
	proc := &Process{Handlers: []Handler{r.c}, OnStart: func(env *sim.Env) { r.c.Subscribe(env, "app:50001", []string{"t"}) }}
	if err := r.w.Spawn("app", proc); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig848) run(d time.Duration) {
	r.t.Helper()
	if err := r.w.RunFor(d); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig848) do(fn func(env *sim.Env)) {
	r.t.Helper()
	if err := r.w.Call("app", "test", fn); err != nil {
		r.t.Fatal(err)
	}
}

// joinThenStable is a coordinator that gives the joining member epoch 1
// and partitions 0-2, then answers every heartbeat with the epoch and no
// assignment change (then, if set, decides instead).
func joinThenStable(then func(n int, req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse) func(req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
	n := 0
	return func(req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
		n++
		if req.MemberEpoch < 0 {
			return &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: req.MemberEpoch, HeartbeatIntervalMs: 5000}
		}
		if then != nil {
			if resp := then(n, req); resp != nil {
				return resp
			}
		}
		if req.MemberEpoch == 0 {
			return &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: 1, HeartbeatIntervalMs: 5000, Assignment: assignment848(0, 1, 2)}
		}
		return &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: req.MemberEpoch, HeartbeatIntervalMs: 5000}
	}
}

// Joining: a full heartbeat at once with epoch 0 and a 22-character
// member id; the assignment is reconciled (onPartitionsAssigned) and
// acknowledged at once with the owned partitions and nothing else that
// did not change; then one heartbeat every interval, with nothing but the
// ids and epoch.
func TestConsumerProtocolJoinAssignAck(t *testing.T) {
	r := newRig848(t, DefaultConsumerConfig(), joinThenStable(nil))
	r.run(12 * time.Second)
	hb := r.b.heartbeats
	if len(hb) < 3 {
		t.Fatalf("heartbeats %d; events %v", len(hb), r.events)
	}
	join, ack, next := hb[0], hb[1], hb[2]
	if len(join.MemberID) != 22 || join.MemberEpoch != 0 || join.RebalanceTimeoutMs != 300000 ||
		!slices.Equal(join.SubscribedTopicNames, []string{"t"}) || join.TopicPartitions == nil || len(join.TopicPartitions) != 0 {
		t.Errorf("join %+v", join)
	}
	if ack.MemberID != join.MemberID || ack.MemberEpoch != 1 || ack.RebalanceTimeoutMs != -1 || ack.SubscribedTopicNames != nil ||
		ownedString(ack.TopicPartitions) != "[0 1 2]" {
		t.Errorf("ack %+v", ack)
	}
	if next.MemberEpoch != 1 || next.TopicPartitions != nil || next.SubscribedTopicNames != nil || next.RebalanceTimeoutMs != -1 {
		t.Errorf("third %+v", next)
	}
	want := []string{"heartbeat epoch 0 owned []", "assigned [t-0 t-1 t-2]", "heartbeat epoch 1 owned [0 1 2]", "heartbeat epoch 1 owned null"}
	if !slices.Equal(r.events[:4], want) {
		t.Errorf("events %q", r.events)
	}
	if id, epoch, state := r.c.Member(); id != join.MemberID || epoch != 1 || state != "STABLE" {
		t.Errorf("member %s %d %s", id, epoch, state)
	}
	// Offsets are fetched with the member's id and epoch.
	if f := r.b.fetches; len(f) == 0 || f[0].MemberID != join.MemberID || f[0].MemberEpoch != 1 {
		t.Errorf("offset fetches %+v", f)
	}
}

// client.rack goes in the joining heartbeat only: it cannot change.
func TestConsumerProtocolRackSentWhenJoining(t *testing.T) {
	cfg := DefaultConsumerConfig()
	cfg.ClientRack = "b"
	r := newRig848(t, cfg, joinThenStable(nil))
	r.run(12 * time.Second)
	hb := r.b.heartbeats
	if len(hb) < 3 {
		t.Fatalf("heartbeats %d", len(hb))
	}
	if hb[0].RackID != "b" {
		t.Errorf("the joining heartbeat's rack %q, want b", hb[0].RackID)
	}
	for i, h := range hb[1:] {
		if h.RackID != "" {
			t.Errorf("heartbeat %d (epoch %d) sends rack %q again", i+1, h.MemberEpoch, h.RackID)
		}
	}
}

// A revocation: the member commits what it consumed with its member
// epoch, then runs onPartitionsRevoked, then acknowledges with what it
// still owns; the next assignment adds nothing but still calls
// onPartitionsAssigned.
func TestConsumerProtocolRevocationCommitsFirst(t *testing.T) {
	r := newRig848(t, DefaultConsumerConfig(), joinThenStable(func(n int, req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
		if n == 3 {
			return &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: 1, HeartbeatIntervalMs: 5000, Assignment: assignment848(0, 1)}
		}
		if n == 4 {
			return &protocol.ConsumerGroupHeartbeatResponse{MemberID: req.MemberID, MemberEpoch: 2, HeartbeatIntervalMs: 5000}
		}
		return nil
	}))
	r.run(8 * time.Second)
	i := slices.Index(r.events, "heartbeat epoch 1 owned null")
	if i < 0 {
		t.Fatalf("events %q", r.events)
	}
	want := []string{"heartbeat epoch 1 owned null", "commit epoch 1", "revoked [t-2]", "assigned []", "heartbeat epoch 1 owned [0 1]"}
	if got := r.events[i:]; len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("events %q", r.events)
	}
	if got := r.c.Assignment(); !slices.Equal(got, []string{"t-0", "t-1"}) {
		t.Errorf("assignment %v", got)
	}
	if _, epoch, state := r.c.Member(); epoch != 2 || state != "STABLE" {
		t.Errorf("member epoch %d state %s", epoch, state)
	}
}

// FENCED_MEMBER_EPOCH: the partitions are lost (no commit), and the member
// rejoins at once with epoch 0, the same id and a full request.
func TestConsumerProtocolFencedRejoins(t *testing.T) {
	r := newRig848(t, DefaultConsumerConfig(), joinThenStable(func(n int, req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
		if n == 3 {
			return &protocol.ConsumerGroupHeartbeatResponse{ErrorCode: protocol.FENCED_MEMBER_EPOCH, ErrorMessage: "fenced"}
		}
		return nil
	}))
	r.run(8 * time.Second)
	hb := r.b.heartbeats
	if len(hb) < 4 {
		t.Fatalf("heartbeats %d", len(hb))
	}
	rejoin := hb[3]
	if rejoin.MemberID != hb[0].MemberID || rejoin.MemberEpoch != 0 || rejoin.RebalanceTimeoutMs != 300000 || rejoin.SubscribedTopicNames == nil ||
		ownedString(rejoin.TopicPartitions) != "[]" {
		t.Errorf("rejoin %+v", rejoin)
	}
	i := slices.Index(r.events, "lost [t-0 t-1 t-2]")
	if i < 0 || r.events[i+1] != "heartbeat epoch 0 owned []" || slices.Contains(r.events, "commit epoch 1") {
		t.Errorf("events %q", r.events)
	}
	if r.err != nil || len(r.logs) != 0 {
		t.Errorf("error %v logs %q", r.err, r.logs)
	}
}

// Closing: a dynamic member leaves with -1; a static one sends its
// instance id in every heartbeat and leaves with -2. Both commit first.
func TestConsumerProtocolLeaveEpochs(t *testing.T) {
	for _, instance := range []string{"", "i1"} {
		cfg := DefaultConsumerConfig()
		cfg.GroupInstanceID = instance
		r := newRig848(t, cfg, joinThenStable(nil))
		r.run(3 * time.Second)
		closed := false
		r.do(func(env *sim.Env) { r.c.Close(env, func(*sim.Env) { closed = true }) })
		r.run(time.Second)
		hb := r.b.heartbeats
		last := hb[len(hb)-1]
		want := int32(-1)
		if instance != "" {
			want = -2
		}
		if !closed || last.MemberEpoch != want {
			t.Errorf("instance %q: closed %v, last heartbeat %+v", instance, closed, last)
		}
		for _, h := range hb {
			if h.InstanceID != instance {
				t.Errorf("instance %q: heartbeat with %q", instance, h.InstanceID)
			}
		}
		n := len(r.events)
		if n < 3 || r.events[n-3] != "commit epoch 1" || r.events[n-2] != "revoked [t-0 t-1 t-2]" {
			t.Errorf("instance %q: events %q", instance, r.events)
		}
	}
}

// Fatal errors end the consumer with the error poll would throw, after
// the heartbeat manager's and the membership's ERROR lines.
func TestConsumerProtocolFatalErrors(t *testing.T) {
	cases := []struct {
		rel      release.Version
		instance string
		code     protocol.ErrorCode
		msg      string
		logs     []string
		class    string
		message  string
	}{
		{release.Version{Major: 4, Minor: 3}, "i1", protocol.UNRELEASED_INSTANCE_ID, "Static member M with instance id i1 cannot join the group because the instance id is owned by O member.",
			[]string{"ERROR [Consumer instanceId=i1, clientId=c1, groupId=g] ConsumerGroupHeartbeatRequest failed due to unreleased instance id i1: Static member M with instance id i1 cannot join the group because the instance id is owned by O member. (" + loggerHeartbeat848 + ")",
				"ERROR [Consumer instanceId=i1, clientId=c1, groupId=g] Member {id} with epoch 0 transitioned to fatal state (" + loggerMembership848 + ")"},
			"org.apache.kafka.common.errors.UnreleasedInstanceIdException", "Static member M with instance id i1 cannot join the group because the instance id is owned by O member."},
		{release.Version{Major: 4, Minor: 3}, "", protocol.UNSUPPORTED_ASSIGNOR, "ServerAssignor x is not supported. Supported assignors: uniform, range.",
			[]string{"ERROR [Consumer clientId=c1, groupId=g] ConsumerGroupHeartbeatRequest failed due to UNSUPPORTED_ASSIGNOR: ServerAssignor x is not supported. Supported assignors: uniform, range. (" + loggerHeartbeat848 + ")",
				"ERROR [Consumer clientId=c1, groupId=g] Member {id} with epoch 0 transitioned to fatal state (" + loggerMembership848 + ")"},
			"org.apache.kafka.common.errors.UnsupportedAssignorException", "ServerAssignor x is not supported. Supported assignors: uniform, range."},
		{release.Version{Major: 4, Minor: 3}, "", protocol.UNSUPPORTED_VERSION, "",
			[]string{"ERROR [Consumer clientId=c1, groupId=g] ConsumerGroupHeartbeatRequest failed due to unsupported version response on broker side: " + consumerProtocolNotSupported + " (" + loggerHeartbeat848 + ")",
				"ERROR [Consumer clientId=c1, groupId=g] Member {id} with epoch 0 transitioned to fatal state (" + loggerMembership848 + ")"},
			"org.apache.kafka.common.errors.UnsupportedVersionException", consumerProtocolNotSupported},
		{release.Version{Major: 3, Minor: 8}, "", protocol.UNSUPPORTED_VERSION, "",
			[]string{"ERROR [Consumer clientId=c1, groupId=g] GroupHeartbeatRequest failed due to UNSUPPORTED_VERSION: null (" + loggerHeartbeat38 + ")",
				"ERROR [Consumer clientId=c1, groupId=g] Member  with epoch 0 transitioned to FATAL state (" + loggerMembership38 + ")"},
			"org.apache.kafka.common.errors.UnsupportedVersionException", "The version of API is not supported."},
	}
	for _, tc := range cases {
		cfg := DefaultConsumerConfig()
		cfg.Release, cfg.GroupInstanceID = tc.rel, tc.instance
		r := newRig848(t, cfg, func(req *protocol.ConsumerGroupHeartbeatRequest) *protocol.ConsumerGroupHeartbeatResponse {
			return &protocol.ConsumerGroupHeartbeatResponse{ErrorCode: tc.code, ErrorMessage: tc.msg}
		})
		r.run(5 * time.Second)
		name := fmt.Sprintf("%s %s", tc.rel, tc.code)
		if r.err == nil || r.err.Class != tc.class || r.err.Message != tc.message {
			t.Errorf("%s: error %+v", name, r.err)
		}
		id, _, state := r.c.Member()
		var want []string
		for _, l := range tc.logs {
			want = append(want, strings.ReplaceAll(l, "{id}", id))
		}
		if !slices.Equal(r.logs, want) || state != "FATAL" || len(r.b.heartbeats) != 1 {
			t.Errorf("%s: state %s, %d heartbeats, logs\n%s\nwant\n%s", name, state, len(r.b.heartbeats), strings.Join(r.logs, "\n"), strings.Join(want, "\n"))
		}
	}
}
