package client

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// fakeBroker answers Metadata (naming itself as the only broker and the
// controller) and, if answer is set, everything else; other requests it
// keeps (a broker forwarding to a controller that does not exist).
type fakeBroker struct {
	id       int32
	self     sim.Addr
	answer   func(req sim.Message) sim.Message
	requests []string
}

func (b *fakeBroker) Start(*sim.Env) {}

func (b *fakeBroker) Receive(env *sim.Env, e *sim.Envelope) {
	b.requests = append(b.requests, e.Msg.Kind())
	if md, ok := e.Msg.(*protocol.MetadataRequest); ok {
		env.Send(b.self, e.From, &protocol.MetadataResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: md.CorrelationID},
			ClusterID: "test-cluster", ControllerID: b.id,
			Brokers: []protocol.MetadataBroker{{NodeID: b.id, Host: b.self.Host(), Port: 9092}}})
		return
	}
	if b.answer != nil {
		if resp := b.answer(e.Msg); resp != nil {
			env.Send(b.self, e.From, resp)
		}
	}
}

type adminRig struct {
	t     *testing.T
	w     *sim.World
	admin *Admin
	proc  *Process
}

func newAdminRig(t *testing.T, cfg AdminConfig, bootstrap []sim.Addr, brokers ...*fakeBroker) *adminRig {
	t.Helper()
	w := sim.NewWorld(7)
	r := &adminRig{t: t, w: w, admin: NewAdmin("tool:50000", bootstrap, cfg)}
	r.proc = &Process{Handlers: []Handler{r.admin}}
	for _, b := range brokers {
		if err := w.Spawn(b.self.Host(), b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Spawn("tool", r.proc); err != nil {
		t.Fatal(err)
	}
	r.run(time.Second) // as the JVM starts
	return r
}

func (r *adminRig) run(d time.Duration) {
	r.t.Helper()
	if err := r.w.RunFor(d); err != nil {
		r.t.Fatal(err)
	}
}

func (r *adminRig) do(fn func(env *sim.Env)) {
	r.t.Helper()
	if err := r.w.Call("tool", "test", fn); err != nil {
		r.t.Fatal(err)
	}
}

type outcome struct {
	at   sim.Time
	resp protocol.Response
	err  *Error
}

func (r *adminRig) call(name string) *outcome {
	o := &outcome{at: -1}
	r.do(func(env *sim.Env) {
		r.admin.Call(env, name, func() protocol.Request {
			return &protocol.CreateTopicsRequest{Topics: []protocol.CreatableTopic{{Name: "t", NumPartitions: -1, ReplicationFactor: -1}}}
		}, func(env *sim.Env, resp protocol.Response, err *Error) {
			o.at, o.resp, o.err = env.Now(), resp, err
		})
	})
	return o
}

var timedOutRe = regexp.MustCompile(`^Call\(callName=createTopics, deadlineMs=(\d+), tries=2, nextAllowedTryMs=(\d+)\) timed out at (\d+) after 2 attempt\(s\)$`)

// A call whose requests are never answered: each attempt waits at most
// request.timeout.ms, a timed-out request closes the connection (a
// DisconnectException), and at the deadline the last failure becomes the
// cause of Call(...) timed out.
func TestAdminCallTimesOutAfterTwoAttempts(t *testing.T) {
	b := &fakeBroker{id: 1, self: "kafka-1:9092"}
	r := newAdminRig(t, DefaultAdminConfig(), []sim.Addr{b.self}, b)
	start := r.w.Now()
	o := r.call("createTopics")
	r.run(70 * time.Second)
	if o.err == nil {
		t.Fatalf("no failure; requests %v", b.requests)
	}
	m := timedOutRe.FindStringSubmatch(o.err.Message)
	if o.err.Class != classTimeout || m == nil {
		t.Fatalf("failure %q", o.err.Error())
	}
	deadline, _ := strconv.ParseInt(m[1], 10, 64)
	next, _ := strconv.ParseInt(m[2], 10, 64)
	at, _ := strconv.ParseInt(m[3], 10, 64)
	if deadline != start.UnixMilli()+60000 || at != deadline+1 || o.at.UnixMilli() != at {
		t.Fatalf("deadline %d (start %d), timed out at %d (now %d)", deadline, start.UnixMilli(), at, o.at.UnixMilli())
	}
	if d := next - at; d < 160 || d > 240 { // retry.backoff 100 ms doubled once, ±20 %
		t.Fatalf("nextAllowedTryMs %d is %d ms after the failure", next, d)
	}
	// Correlation ids: 0 ApiVersions and 1 Metadata on the bootstrap
	// connection (node -1), 2 ApiVersions and 3 CreateTopics on node 1's;
	// after the timeout node 1's connection is opened again.
	c := o.err.Cause
	want := regexp.MustCompile(`^Cancelled createTopics request with correlation id (\d+) due to node 1 being disconnected$`)
	if c == nil || c.Class != classDisconnect || !want.MatchString(c.Message) || c.Cause != nil {
		t.Fatalf("cause %+v", c)
	}
	if id, _ := strconv.Atoi(want.FindStringSubmatch(c.Message)[1]); id < 5 {
		t.Fatalf("the second attempt has correlation id %d", id)
	}
	creates := 0
	for _, k := range b.requests {
		if k == "CreateTopics" {
			creates++
		}
	}
	if creates != 2 {
		t.Fatalf("%d CreateTopics sent: %v", creates, b.requests)
	}
}

// With no node reachable the call never leaves the pending list: it fails
// with Kafka's "Timed out waiting for a node assignment".
func TestAdminNoNodeReachable(t *testing.T) {
	b := &fakeBroker{id: 1, self: "kafka-1:9092"}
	r := newAdminRig(t, DefaultAdminConfig(), []sim.Addr{b.self}, b)
	if err := r.w.Kill("kafka-1", false); err != nil {
		t.Fatal(err)
	}
	start := r.w.Now()
	o := r.call("createTopics")
	r.run(70 * time.Second)
	if o.err == nil || o.err.Error() != "org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: createTopics" || o.err.Cause != nil {
		t.Fatalf("failure %+v", o.err)
	}
	if o.at.Sub(start) != 60*time.Second+time.Millisecond {
		t.Fatalf("failed after %v", o.at.Sub(start))
	}
}

// One call at a time per node: a call queued behind one that hangs fails
// with "Timed out waiting to send the call" when its own deadline passes.
func TestAdminOneCallPerNode(t *testing.T) {
	b := &fakeBroker{id: 1, self: "kafka-1:9092"}
	r := newAdminRig(t, DefaultAdminConfig(), []sim.Addr{b.self}, b)
	first := r.call("createTopics")
	second := &outcome{at: -1}
	r.do(func(env *sim.Env) {
		r.admin.CallTarget(env, "deleteTopics", ControllerTarget(), 20*time.Second, func(int32) protocol.Request {
			return &protocol.DeleteTopicsRequest{TopicNames: []string{"t"}}
		}, func(env *sim.Env, resp protocol.Response, err *Error) { second.at, second.err = env.Now(), err })
	})
	r.run(25 * time.Second)
	if second.err == nil || second.err.Message != "Timed out waiting to send the call. Call: deleteTopics" {
		t.Fatalf("second call: %+v", second.err)
	}
	if first.err != nil {
		t.Fatalf("first call ended early: %v", first.err)
	}
}

// A retriable error in the answer (NOT_LEADER_OR_FOLLOWER from a voter that
// no longer leads) sends the call again after the backoff.
func TestAdminDescribeQuorumRetriesNotLeader(t *testing.T) {
	answers := 0
	b := &fakeBroker{id: 1, self: "kafka-1:9092", answer: func(m sim.Message) sim.Message {
		req, ok := m.(*protocol.DescribeQuorumRequest)
		if !ok {
			return nil
		}
		answers++
		resp := &protocol.DescribeQuorumResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, LeaderID: 2, LeaderEpoch: 4, HighWatermark: 10,
			CurrentVoters: []protocol.QuorumReplicaState{{ReplicaID: 2, LogEndOffset: 11}}}
		if answers == 1 {
			resp.PartitionError = protocol.NOT_LEADER_OR_FOLLOWER
		}
		return resp
	}}
	r := newAdminRig(t, DefaultAdminConfig(), []sim.Addr{b.self}, b)
	var got *protocol.DescribeQuorumResponse
	r.do(func(env *sim.Env) {
		r.admin.DescribeMetadataQuorum(env, func(env *sim.Env, q *protocol.DescribeQuorumResponse, err *Error) {
			if err != nil {
				t.Errorf("failed: %v", err)
			}
			got = q
		})
	})
	r.run(5 * time.Second)
	if answers != 2 || got == nil || got.LeaderEpoch != 4 {
		t.Fatalf("answers %d, result %+v", answers, got)
	}
}

// With bootstrap controllers the client learns the leader from a voter and
// sends DescribeQuorum to it.
func TestAdminBootstrapControllers(t *testing.T) {
	leader := &fakeBroker{id: 2, self: "kafka-2:9093", answer: func(m sim.Message) sim.Message {
		req := m.(*raft.DescribeQuorumRequest)
		return &raft.DescribeQuorumResponse{CorrelationID: req.CorrelationID,
			Quorum: raft.QuorumInfo{LeaderID: 2, LeaderEpoch: 5, HighWatermark: 30, CurrentVoters: []raft.ReplicaInfo{{ReplicaID: 2, LogEndOffset: 31}}}}
	}}
	follower := &fakeBroker{id: 1, self: "kafka-1:9093", answer: func(m sim.Message) sim.Message {
		req := m.(*raft.DescribeQuorumRequest)
		return &raft.DescribeQuorumResponse{CorrelationID: req.CorrelationID, PartitionError: protocol.NOT_LEADER_OR_FOLLOWER,
			Quorum: raft.QuorumInfo{LeaderID: 2, LeaderEpoch: 5, HighWatermark: -1}}
	}}
	cfg := DefaultAdminConfig()
	cfg.BootstrapControllers, cfg.ClusterID = true, "cid"
	cfg.ControllerNodes = []Node{{ID: 1, Addr: follower.self}, {ID: 2, Addr: leader.self}}
	r := newAdminRig(t, cfg, []sim.Addr{follower.self}, leader, follower)
	var got *protocol.DescribeQuorumResponse
	var cid string
	r.do(func(env *sim.Env) {
		r.admin.DescribeCluster(env, func(env *sim.Env, clusterID string, _ []Node, err *Error) {
			cid = clusterID
			r.admin.DescribeMetadataQuorum(env, func(env *sim.Env, q *protocol.DescribeQuorumResponse, err *Error) { got = q })
		})
	})
	r.run(5 * time.Second)
	if cid != "cid" || got == nil || got.LeaderID != 2 || got.HighWatermark != 30 || len(leader.requests) != 2 {
		t.Fatalf("cluster %q, quorum %+v, leader saw %v", cid, got, leader.requests)
	}
}

func TestExponentialBackoff(t *testing.T) {
	b := newExponentialBackoff(100*time.Millisecond, time.Second, 0.2, nil)
	var got []string
	for i := 0; i < 6; i++ {
		got = append(got, b.backoff(i).String())
	}
	if fmt.Sprint(got) != "[100ms 200ms 400ms 800ms 1s 1s]" {
		t.Fatalf("no jitter: %v", got)
	}
	j := newExponentialBackoff(100*time.Millisecond, time.Second, 0.2, sim.NewRand(1, "x"))
	for i := 0; i < 50; i++ {
		if d := j.backoff(1); d < 160*time.Millisecond || d >= 240*time.Millisecond {
			t.Fatalf("jittered backoff(1) = %v", d)
		}
	}
	if c := newExponentialBackoff(100*time.Millisecond, 50*time.Millisecond, 0.2, sim.NewRand(1, "x")); c.backoff(3) != 100*time.Millisecond {
		t.Fatalf("max below initial: %v", c.backoff(3))
	}
}
