package raft

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// TestLaggingVoterAndObserverCatchUp: a voter is down while the others
// commit, and an observer (a broker-only node, fetching from its broker
// address) starts late; both catch up and deliver the same entries.
func TestLaggingVoterAndObserverCatchUp(t *testing.T) {
	c := newCluster(t, 5, clusterOpts{voters: 3, observers: 1})
	for _, id := range c.ids[:3] {
		c.start(id)
	}
	l := c.waitLeader(5 * time.Second)
	var lag int32
	for _, id := range c.ids[:3] {
		if id != l {
			lag = id
			break
		}
	}
	c.kill(lag, false)
	var want []string
	for i := 0; i < 20; i++ {
		p, err := c.appendOn(l, 3)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
		c.runFor(20 * time.Millisecond)
	}
	if !c.runUntil(func() bool { return slices.Equal(c.committedData(l), want) }, 2*time.Second) {
		t.Fatalf("leader did not commit with 2 of 3 voters: %s", c.describe())
	}
	obs := c.ids[3]
	c.start(lag)
	c.start(obs)
	if !c.runUntil(func() bool {
		return slices.Equal(c.committedData(lag), want) && slices.Equal(c.committedData(obs), want)
	}, 5*time.Second) {
		t.Fatalf("lagging voter or observer did not catch up: %s", c.describe())
	}
	if c.node(obs).Role() != RoleFollower || c.node(obs).LeaderAndEpoch().LeaderID != l {
		t.Fatalf("observer is %s of %s", c.node(obs).Role(), c.node(obs).LeaderAndEpoch())
	}
	// The leader sees the observer in DescribeQuorum (once its next fetch,
	// from the new end offset, arrived).
	c.runFor(100 * time.Millisecond)
	q, err := c.node(l).DescribeQuorum(c.w.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(q.CurrentVoters) != 3 || len(q.Observers) != 1 || q.Observers[0].ReplicaID != obs {
		t.Fatalf("describe quorum: %+v", q)
	}
	for _, r := range append(q.CurrentVoters, q.Observers...) {
		if r.LogEndOffset != c.node(l).LogEndOffset() || r.LastFetchTimestamp < 0 || r.LastCaughtUpTimestamp < 0 {
			t.Fatalf("replica %+v not caught up to %d", r, c.node(l).LogEndOffset())
		}
	}
	if _, err := c.node(lag).DescribeQuorum(c.w.Now()); err != ErrNotLeader {
		t.Fatalf("a follower answered DescribeQuorum: %v", err)
	}
	// Over the network (an admin tool's DescribeQuorum): the leader answers,
	// a follower says NOT_LEADER_OR_FOLLOWER and names the leader.
	pr := &probe{}
	if err := c.w.Spawn("admin", pr); err != nil {
		t.Fatal(err)
	}
	c.runFor(time.Millisecond)
	for i, to := range []int32{l, lag} {
		if err := c.w.Call("admin", "describe", func(env *sim.Env) {
			env.Send("admin:1", c.voters[to], &DescribeQuorumRequest{CorrelationID: int32(i)})
		}); err != nil {
			t.Fatal(err)
		}
	}
	c.runUntil(func() bool { return len(pr.got) == 2 }, time.Second)
	byCorr := map[int32]*DescribeQuorumResponse{}
	for _, m := range pr.got {
		r := m.(*DescribeQuorumResponse)
		byCorr[r.CorrelationID] = r
	}
	if r := byCorr[0]; r == nil || r.PartitionError != protocol.NONE || r.Quorum.LeaderID != l || len(r.Quorum.Observers) != 1 {
		t.Fatalf("leader's DescribeQuorum answer %+v", r)
	}
	if r := byCorr[1]; r == nil || r.PartitionError != protocol.NOT_LEADER_OR_FOLLOWER || r.Quorum.LeaderID != l {
		t.Fatalf("follower's DescribeQuorum answer %+v", r)
	}
	c.checkConverged(10 * time.Second)
}

// TestDivergingFollowerTruncates: a leader cut off from the others appends
// entries no one else gets; the others elect a new leader that writes
// different entries at the same offsets. When the old leader rejoins, the
// new leader's Fetch answer names the diverging epoch, and it truncates to
// the new leader's log.
func TestDivergingFollowerTruncates(t *testing.T) {
	c := newCluster(t, 6, clusterOpts{voters: 3})
	c.startAll()
	old := c.waitLeader(5 * time.Second)
	if _, err := c.appendOn(old, 2); err != nil {
		t.Fatal(err)
	}
	c.runFor(time.Second)
	committed := c.node(old).HighWatermark()
	c.isolate(old)
	for i := 0; i < 3; i++ {
		if _, err := c.appendOn(old, 2); err != nil {
			t.Fatal(err)
		}
	}
	oldLEO := c.node(old).LogEndOffset()
	if c.node(old).HighWatermark() != committed {
		t.Fatalf("isolated leader committed: hw %d, was %d", c.node(old).HighWatermark(), committed)
	}
	if !c.runUntil(func() bool { l := c.leader(); return l >= 0 && l != old }, 10*time.Second) {
		t.Fatalf("no new leader: %s", c.describe())
	}
	nl := c.leader()
	want := slices.Clone(c.committedData(nl))
	for i := 0; i < 4; i++ {
		p, err := c.appendOn(nl, 1)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	c.runFor(time.Second)
	c.heal()
	if !c.runUntil(func() bool {
		return c.node(old).Role() == RoleFollower && slices.Equal(c.committedData(old)[:len(want)-4], want[:len(want)-4]) &&
			c.node(old).LogEndOffset() == c.node(nl).LogEndOffset()
	}, 5*time.Second) {
		t.Fatalf("old leader did not rejoin: %s", c.describe())
	}
	truncated := false
	for _, e := range c.w.Trace().Recent(0) {
		if tr, ok := e.Note.(event.RaftTruncated); ok && tr.Node == old && tr.To < tr.From {
			truncated = true
			t.Logf("truncation: %s", e)
		}
	}
	if !truncated {
		t.Fatalf("old leader (leo was %d) never truncated", oldLEO)
	}
	// The uncommitted entries of the old epoch are gone from its log.
	batches, err := c.node(old).Log().Batches(0, c.node(old).LogEndOffset())
	if err != nil {
		t.Fatal(err)
	}
	nb, _ := c.node(nl).Log().Batches(0, c.node(nl).LogEndOffset())
	if len(batches) != len(nb) {
		t.Fatalf("old leader has %d batches, new leader %d", len(batches), len(nb))
	}
	for i := range batches {
		if batches[i].PartitionLeaderEpoch != nb[i].PartitionLeaderEpoch || batches[i].BaseOffset != nb[i].BaseOffset {
			t.Fatalf("batch %d differs: %d@%d vs %d@%d", i, batches[i].BaseOffset, batches[i].PartitionLeaderEpoch, nb[i].BaseOffset, nb[i].PartitionLeaderEpoch)
		}
	}
	c.checkConverged(10 * time.Second)
}

// TestNoCommitWithoutMajority: with 1 of 3 voters alive nothing commits.
// The leader keeps accepting appends (they stay uncommitted), then resigns
// when check-quorum expires; no one can win an election alone. Once a
// second voter returns, a leader is elected and commits.
func TestNoCommitWithoutMajority(t *testing.T) {
	c := newCluster(t, 7, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	if _, err := c.appendOn(l, 1); err != nil {
		t.Fatal(err)
	}
	c.runFor(time.Second)
	hw := c.node(l).HighWatermark()
	before := slices.Clone(c.committedData(l))
	var others []int32
	for _, id := range c.ids {
		if id != l {
			others = append(others, id)
			c.kill(id, false)
		}
	}
	for i := 0; i < 5; i++ {
		if _, err := c.appendOn(l, 2); err != nil {
			t.Fatal(err)
		}
	}
	if c.node(l).LogEndOffset() <= hw {
		t.Fatal("appends did not reach the log")
	}
	c.runFor(10 * time.Second)
	if got := c.node(l).HighWatermark(); got > hw {
		t.Fatalf("high watermark moved from %d to %d with 1 of 3 voters", hw, got)
	}
	if !slices.Equal(c.committedData(l), before) {
		t.Fatalf("entries were delivered without a majority: %v", c.committedData(l)[len(before):])
	}
	if r := c.node(l).Role(); r == RoleLeader {
		t.Fatalf("a lone voter is still leader after check-quorum: %s", c.describe())
	}
	if _, _, err := c.node(l).Append(nil, [][]byte{[]byte("x")}); err != ErrNotLeader {
		t.Fatalf("append on a non-leader: %v", err)
	}
	c.start(others[0])
	l2 := c.waitLeader(10 * time.Second)
	p, err := c.appendOn(l2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !c.runUntil(func() bool { d := c.committedData(l2); return len(d) > 0 && d[len(d)-1] == p[0] }, 2*time.Second) {
		t.Fatalf("no commit with 2 of 3 voters: %s", c.describe())
	}
	c.checkConverged(10 * time.Second)
}
