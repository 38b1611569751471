package raft

import (
	"fmt"
	"path"
	"slices"
	"testing"
	"time"

	"kafkascope/core/sim"
)

func quorumStateOf(t *testing.T, c *cluster, id int32) string {
	t.Helper()
	b, err := c.hosts[id].disk.ReadFile(path.Join(testLogDir, "__cluster_metadata-0", QuorumStateFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRestartRecovery: every node crashes and restarts. Each recovers its
// log and quorum-state from disk: the old leader comes back Resigned in its
// epoch, the others as its followers; a new epoch is elected and every
// committed entry is delivered again, identically. Then every machine loses
// power: voters fsynced what they acknowledged, so nothing committed is lost.
func TestRestartRecovery(t *testing.T) {
	c := newCluster(t, 8, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	epoch := c.node(l).LeaderAndEpoch().Epoch
	var want []string
	for i := 0; i < 5; i++ {
		p, err := c.appendOn(l, 2)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	if !c.runUntil(func() bool {
		for _, id := range c.ids {
			if !slices.Equal(c.committedData(id), want) {
				return false
			}
		}
		return true
	}, 3*time.Second) {
		t.Fatalf("not committed everywhere: %s", c.describe())
	}
	leaderFile := fmt.Sprintf(`{"clusterId":"","leaderId":%d,"leaderEpoch":%d,"votedId":-1,"appliedOffset":0,"currentVoters":[{"voterId":1},{"voterId":2},{"voterId":3}],"data_version":0}`, l, epoch)
	for _, id := range c.ids {
		if got := quorumStateOf(t, c, id); got != leaderFile {
			t.Fatalf("node %d quorum-state:\n got %s\nwant %s", id, got, leaderFile)
		}
	}
	leos := map[int32]int64{}
	for _, id := range c.ids {
		leos[id] = c.node(id).LogEndOffset()
		c.kill(id, false)
	}
	c.runFor(100 * time.Millisecond)
	c.startAll()
	c.runUntil(func() bool { return c.running(1) && c.running(2) && c.running(3) }, time.Second)
	for _, id := range c.ids {
		n := c.node(id)
		if n.LogEndOffset() != leos[id] {
			t.Fatalf("node %d recovered LEO %d, had %d", id, n.LogEndOffset(), leos[id])
		}
		wantRole := RoleFollower
		if id == l {
			wantRole = RoleResigned
		}
		if n.Role() != wantRole || n.LeaderAndEpoch() != (LeaderAndEpoch{LeaderID: l, Epoch: epoch}) {
			t.Fatalf("node %d restarted as %s %s, want %s of epoch %d led by %d", id, n.Role(), n.LeaderAndEpoch(), wantRole, epoch, l)
		}
	}
	l2 := c.waitLeader(10 * time.Second)
	if e := c.node(l2).LeaderAndEpoch().Epoch; e <= epoch {
		t.Fatalf("new leader's epoch %d not above %d", e, epoch)
	}
	if !c.runUntil(func() bool {
		for _, id := range c.ids {
			if !slices.Equal(c.committedData(id), want) {
				return false
			}
		}
		return true
	}, 3*time.Second) {
		t.Fatalf("committed entries not replayed after restart: %s", c.describe())
	}
	// Power loss everywhere.
	p, err := c.appendOn(l2, 3)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, p...)
	c.runFor(time.Second)
	for _, id := range c.ids {
		c.kill(id, true)
	}
	c.runFor(100 * time.Millisecond)
	c.startAll()
	c.waitLeader(10 * time.Second)
	if !c.runUntil(func() bool {
		for _, id := range c.ids {
			if !slices.Equal(c.committedData(id), want) {
				return false
			}
		}
		return true
	}, 5*time.Second) {
		t.Fatalf("committed entries lost in a power loss: %s", c.describe())
	}
	c.checkConverged(10 * time.Second)
}

// probe is a bare process that sends raft requests and keeps the answers.
type probe struct {
	addr sim.Addr
	got  []sim.Message
}

func (p *probe) Start(*sim.Env) {}
func (p *probe) Receive(env *sim.Env, e *sim.Envelope) {
	p.got = append(p.got, e.Msg)
}

// TestVoteSurvivesRestart: a vote is made durable before it is answered,
// so a voter that restarts still refuses a second candidate in the epoch.
func TestVoteSurvivesRestart(t *testing.T) {
	c := newCluster(t, 9, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) {
		cfg.ElectionTimeout = time.Hour // keep voter 2 waiting: only the probes act
	}})
	c.start(2)
	c.runFor(10 * time.Millisecond)
	pr := &probe{}
	if err := c.w.Spawn("kafka-1", pr); err != nil {
		t.Fatal(err)
	}
	ask := func(candidate int32, corr int32) *VoteResponse {
		from := sim.Addr(fmt.Sprintf("kafka-1:%d", 9093))
		if err := c.w.Call("kafka-1", "vote", func(env *sim.Env) {
			env.Send(from, c.voters[2], &VoteRequest{CorrelationID: corr, ClusterID: c.hosts[2].cfg.ClusterID,
				CandidateEpoch: 5, CandidateID: candidate, LastOffsetEpoch: 0, LastOffset: 0})
		}); err != nil {
			t.Fatal(err)
		}
		n := len(pr.got)
		c.runUntil(func() bool { return len(pr.got) > n }, time.Second)
		return pr.got[len(pr.got)-1].(*VoteResponse)
	}
	if r := ask(1, 1); !r.VoteGranted || r.LeaderEpoch != 5 {
		t.Fatalf("first vote not granted: %+v", r)
	}
	if got := quorumStateOf(t, c, 2); got != `{"clusterId":"","leaderId":-1,"leaderEpoch":5,"votedId":1,"appliedOffset":0,"currentVoters":[{"voterId":1},{"voterId":2},{"voterId":3}],"data_version":0}` {
		t.Fatalf("quorum-state after voting: %s", got)
	}
	c.kill(2, true) // even a power loss keeps it: quorum-state is fsynced
	c.runFor(10 * time.Millisecond)
	c.start(2)
	c.runFor(10 * time.Millisecond)
	if c.node(2).Role() != RoleVoted {
		t.Fatalf("restarted as %s", c.node(2).Role())
	}
	if r := ask(3, 2); r.VoteGranted {
		t.Fatalf("a second candidate got the vote of epoch 5 after a restart: %+v", r)
	}
	if r := ask(1, 3); !r.VoteGranted {
		t.Fatalf("the same candidate's retry was refused: %+v", r)
	}
}

// TestObserverFlushPolicy: voters fsync what they fetch before fetching
// again (the leader counts them); observers do not, so a power loss takes
// their unflushed tail, which they fetch again. Close flushes, as
// KafkaRaftClient.close does on a clean shutdown.
func TestObserverFlushPolicy(t *testing.T) {
	c := newCluster(t, 13, clusterOpts{voters: 3, observers: 1})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	obs := c.ids[3]
	for i := 0; i < 5; i++ {
		if _, err := c.appendOn(l, 2); err != nil {
			t.Fatal(err)
		}
	}
	leo := c.node(l).LogEndOffset()
	caughtUp := func() bool { return c.running(obs) && c.node(obs).LogEndOffset() == leo }
	if !c.runUntil(caughtUp, 3*time.Second) {
		t.Fatalf("observer behind: %s", c.describe())
	}
	c.kill(obs, true)
	c.start(obs)
	c.runUntil(func() bool { return c.running(obs) }, time.Second)
	if got := c.node(obs).LogEndOffset(); got >= leo {
		t.Fatalf("observer kept %d of %d entries through a power loss without flushing", got, leo)
	}
	for _, id := range c.ids[:3] {
		if id != l && c.node(id).LogEndOffset() != leo {
			t.Fatalf("voter %d at %d", id, c.node(id).LogEndOffset())
		}
	}
	if !c.runUntil(caughtUp, 3*time.Second) {
		t.Fatalf("observer did not fetch its lost tail again: %s", c.describe())
	}
	c.call(obs, func(env *sim.Env) {
		if err := c.node(obs).Close(); err != nil {
			t.Error(err)
		}
	})
	c.kill(obs, true)
	c.start(obs)
	c.runUntil(func() bool { return c.running(obs) }, time.Second)
	if got := c.node(obs).LogEndOffset(); got != leo {
		t.Fatalf("after Close and a power loss the observer has %d of %d", got, leo)
	}
	c.checkConverged(10 * time.Second)
}
