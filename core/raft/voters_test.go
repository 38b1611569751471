package raft

import (
	"testing"
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// TestVoterChangeChecks: AddRaftVoter and RemoveRaftVoter on a static
// quorum end in one of the errors KafkaRaftClient and Add/RemoveVoterHandler
// check for, in their order; each is reachable, and a request failing two
// checks gets the first one's error.
func TestVoterChangeChecks(t *testing.T) {
	c := newCluster(t, 11, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	if !c.runUntil(func() bool { return c.node(l).quorum.state.highWatermark() >= 0 }, 2*time.Second) {
		t.Fatal("the leader established no high watermark")
	}
	var f int32
	for _, id := range c.ids {
		if id != l {
			f = id
			break
		}
	}
	dir := metadata.Uuid{15: 7}
	ctrl := []RaftVoterListener{{Name: "CONTROLLER", Host: "kafka-4", Port: 9093}}
	type result struct {
		code protocol.ErrorCode
		msg  string
	}
	remove := func(id int32, r *RemoveRaftVoterRequest) (out result) {
		c.call(id, func(env *sim.Env) {
			resp := c.node(id).handleRemoveRaftVoterRequest(env, r)
			out.code = resp.ErrorCode
			if resp.ErrorMessage != nil {
				out.msg = *resp.ErrorMessage
			}
		})
		return out
	}
	add := func(id int32, r *AddRaftVoterRequest) (out result) {
		c.call(id, func(env *sim.Env) {
			resp := c.node(id).handleAddRaftVoterRequest(env, r)
			out.code = resp.ErrorCode
			if resp.ErrorMessage != nil {
				out.msg = *resp.ErrorMessage
			}
		})
		return out
	}
	leader := c.node(l)
	// withState runs fn while the leader is in a state a test cannot wait
	// for: shutting down before its next poll, or before its epoch's first
	// entry is committed.
	withState := func(shutdown, noHWM bool, fn func()) {
		s := leader.quorum.state.(*leaderState)
		hw, sd := s.hw, leader.shutdown
		if noHWM {
			s.hw = -1
		}
		if shutdown {
			leader.shutdown = &gracefulShutdown{deadline: sim.Time(1 << 62)}
		}
		fn()
		s.hw, leader.shutdown = hw, sd
	}
	check := func(name string, got result, code protocol.ErrorCode, msg string) {
		t.Helper()
		if got.code != code || got.msg != msg {
			t.Errorf("%s: got %s %q, want %s %q", name, got.code, got.msg, code, msg)
		}
	}

	// 1. The cluster id comes first, even on a follower; none is fine.
	check("wrong cluster id", remove(f, &RemoveRaftVoterRequest{ClusterID: "other", VoterID: 2}),
		protocol.INCONSISTENT_CLUSTER_ID, `The given id "other" doesn't match the cluster id "MkU3OEVBNTcwNTJENDM2Qk"`)
	check("wrong cluster id (add)", add(l, &AddRaftVoterRequest{ClusterID: "other", VoterID: 4}),
		protocol.INCONSISTENT_CLUSTER_ID, `The given id "other" doesn't match the cluster id "MkU3OEVBNTcwNTJENDM2Qk"`)
	// 2. Only the leader, and not while it shuts down; no message.
	check("follower", remove(f, &RemoveRaftVoterRequest{VoterID: 2}), protocol.NOT_LEADER_OR_FOLLOWER, "")
	check("follower (add)", add(f, &AddRaftVoterRequest{ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", VoterID: 4}), protocol.NOT_LEADER_OR_FOLLOWER, "")
	withState(true, false, func() {
		check("shutting down", remove(l, &RemoveRaftVoterRequest{VoterID: 2}), protocol.BROKER_NOT_AVAILABLE, "")
	})
	// 3. A voter key with a directory id.
	check("zero directory id", remove(l, &RemoveRaftVoterRequest{VoterID: 2}),
		protocol.INVALID_REQUEST, "Remove voter request didn't include a valid voter")
	check("negative id", remove(l, &RemoveRaftVoterRequest{VoterID: -1, VoterDirectoryID: dir}),
		protocol.INVALID_REQUEST, "Remove voter request didn't include a valid voter")
	check("zero directory id (add)", add(l, &AddRaftVoterRequest{VoterID: 4, Listeners: ctrl}),
		protocol.INVALID_REQUEST, "Add voter request didn't include a valid voter")
	// 4. AddRaftVoter only: an endpoint on the leader's listener. The
	// message prints the listeners in HashMap order.
	check("no default listener", add(l, &AddRaftVoterRequest{VoterID: 4, VoterDirectoryID: dir,
		Listeners: []RaftVoterListener{{Name: "ctl", Host: "kafka-4", Port: 9093}, {Name: "INTERNAL", Host: "kafka-4", Port: 9094}}}),
		protocol.INVALID_REQUEST, "Add voter request didn't include the endpoint (Endpoints(endpoints={ListenerName(INTERNAL)=kafka-4/<unresolved>:9094, "+
			"ListenerName(CTL)=kafka-4/<unresolved>:9093})) for the default listener ListenerName(CONTROLLER)")
	check("no listeners", add(l, &AddRaftVoterRequest{VoterID: 4, VoterDirectoryID: dir}),
		protocol.INVALID_REQUEST, "Add voter request didn't include the endpoint (Endpoints(endpoints={})) for the default listener ListenerName(CONTROLLER)")
	withState(false, true, func() {
		check("no listeners before the HWM", add(l, &AddRaftVoterRequest{VoterID: 4, VoterDirectoryID: dir}),
			protocol.INVALID_REQUEST, "Add voter request didn't include the endpoint (Endpoints(endpoints={})) for the default listener ListenerName(CONTROLLER)")
		// 5. A high watermark.
		check("no HWM", remove(l, &RemoveRaftVoterRequest{VoterID: 2, VoterDirectoryID: dir}),
			protocol.REQUEST_TIMED_OUT, "Request timed out waiting for leader to establish HWM and fence previous voter changes")
		check("no HWM (add)", add(l, &AddRaftVoterRequest{VoterID: 4, VoterDirectoryID: dir, Listeners: ctrl}),
			protocol.REQUEST_TIMED_OUT, "Request timed out waiting for leader to establish HWM and fence previous voter changes")
	})
	// 6. kraft.version 0: the end of the road on a static quorum, for a
	// voter, an unknown replica, or a new one alike.
	for _, id := range []int32{l, f, 9} {
		check("kraft.version 0", remove(l, &RemoveRaftVoterRequest{ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", VoterID: id, VoterDirectoryID: dir}),
			protocol.UNSUPPORTED_VERSION, "Cluster doesn't support removing voter because the kraft.version feature is 0")
	}
	check("kraft.version 0 (add)", add(l, &AddRaftVoterRequest{VoterID: 4, VoterDirectoryID: dir, Listeners: ctrl}),
		protocol.UNSUPPORTED_VERSION, "Cluster doesn't support adding voter because the kraft.version feature is 0")

	// Over the network, as an admin client (or a broker forwarding for one)
	// sends them: the answer carries the request's correlation id.
	pr := &probe{}
	if err := c.w.Spawn("admin", pr); err != nil {
		t.Fatal(err)
	}
	c.runFor(time.Millisecond)
	if err := c.w.Call("admin", "voters", func(env *sim.Env) {
		env.Send("admin:1", c.voters[l], &RemoveRaftVoterRequest{CorrelationID: 5, VoterID: 2, VoterDirectoryID: dir})
		env.Send("admin:1", c.voters[f], &AddRaftVoterRequest{CorrelationID: 6, VoterID: 4, VoterDirectoryID: dir, Listeners: ctrl})
	}); err != nil {
		t.Fatal(err)
	}
	c.runUntil(func() bool { return len(pr.got) == 2 }, time.Second)
	for _, m := range pr.got {
		switch r := m.(type) {
		case *RemoveRaftVoterResponse:
			if r.CorrelationID != 5 || r.ErrorCode != protocol.UNSUPPORTED_VERSION {
				t.Errorf("remove over the network: %+v", r)
			}
		case *AddRaftVoterResponse:
			if r.CorrelationID != 6 || r.ErrorCode != protocol.NOT_LEADER_OR_FOLLOWER || r.ErrorMessage != nil {
				t.Errorf("add over the network: %+v", r)
			}
		default:
			t.Errorf("unexpected %T", m)
		}
	}
	if len(pr.got) != 2 {
		t.Fatalf("got %d answers", len(pr.got))
	}
	c.checkConverged(5 * time.Second)
}
