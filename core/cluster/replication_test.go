package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Replication rules (Partition.scala, KIP-101 and KIP-279), driven through
// real brokers over the simulated network. Node 1 hosts the only controller,
// so scenarios that cut or kill brokers use brokers 2 and 3 for that and
// keep node 1 reachable.

const lat = sim.DefaultLatency // one network hop between two hosts

// §3.1/§3.2: the leader's HW is the smallest LEO in the ISR; followers learn
// it one fetch later, i.e. after the long poll they are parked in
// (replica.fetch.wait.max.ms) returns.
func TestHWIsMinISRLogEndAndFollowersLearnItOneFetchLater(t *testing.T) {
	const fetchWait = 800 * time.Millisecond // not the default, to show the delay follows the config
	c := newCluster(t, config.Static{
		"replica.fetch.wait.max.ms": fmt.Sprint(fetchWait.Milliseconds()),
		// A follower cut off below retries its fetch after this, well before
		// replica.lag.time.max.ms could take it out of the ISR.
		"replica.socket.timeout.ms": "5000",
	})
	createAssigned(t, c, "hw", [][]int32{{2, 3, 1}}, nil)
	rc := newRawClient(t, c, 1)
	leader, f3, f1 := replica(t, c, 2, "hw"), replica(t, c, 3, "hw"), replica(t, c, 1, "hw")

	pr, _ := rc.produce(t, 2, "hw", -1, 30000, "m0")
	if pr.ErrorCode != protocol.NONE || pr.BaseOffset != 0 {
		t.Fatalf("acks=all produce: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}
	// acks=all completed: the HW passed the record, so every ISR member has it.
	if got := leader.Log().HighWatermark(); got != 1 {
		t.Fatalf("leader HW after acks=all = %d, want 1", got)
	}
	for _, id := range []int32{3, 1} {
		if got := leader.FollowerLogEndOffset(id); got != 1 {
			t.Fatalf("leader's view of follower %d LEO = %d, want 1", id, got)
		}
	}
	for id, f := range map[int32]*storage.Log{3: f3.Log(), 1: f1.Log()} {
		if f.LogEndOffset() != 1 || f.HighWatermark() != 0 {
			t.Fatalf("follower %d right after the ack: LEO %d HW %d, want LEO 1 and the old HW 0", id, f.LogEndOffset(), f.HighWatermark())
		}
	}
	// The followers' next fetches (at offset 1) are parked: nothing new to
	// read. They get the new HW when the long poll expires.
	advance(t, c, fetchWait-100*time.Millisecond)
	if f3.Log().HighWatermark() != 0 || f1.Log().HighWatermark() != 0 {
		t.Fatalf("followers learned the HW before replica.fetch.wait.max.ms: %d %d", f3.Log().HighWatermark(), f1.Log().HighWatermark())
	}
	advance(t, c, 200*time.Millisecond)
	if f3.Log().HighWatermark() != 1 || f1.Log().HighWatermark() != 1 {
		t.Fatalf("followers' HW after the long poll: %d %d, want 1", f3.Log().HighWatermark(), f1.Log().HighWatermark())
	}

	// Broker 3 cannot fetch (cut from the leader, not from the controller).
	// An acks=1 write reaches the leader and broker 1 only: the HW stays at
	// broker 3's LEO although two of three replicas have the record.
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}
	pr, _ = rc.produce(t, 2, "hw", 1, 30000, "m1")
	if pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		t.Fatalf("acks=1 produce: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}
	advance(t, c, time.Second)
	if got := leader.ISR(); !eqISR(got, 2, 3, 1) {
		t.Fatalf("ISR %v, want 2,3,1 (broker 3 lags for less than replica.lag.time.max.ms)", got)
	}
	if leader.Log().LogEndOffset() != 2 || leader.FollowerLogEndOffset(1) != 2 || leader.FollowerLogEndOffset(3) != 1 {
		t.Fatalf("LEOs leader %d, follower 1 %d, follower 3 %d; want 2, 2, 1", leader.Log().LogEndOffset(), leader.FollowerLogEndOffset(1), leader.FollowerLogEndOffset(3))
	}
	if got := leader.Log().HighWatermark(); got != 1 {
		t.Fatalf("leader HW = %d, want min ISR LEO = 1", got)
	}
	if f1.Log().HighWatermark() != 1 {
		t.Fatalf("follower 1 HW = %d, want 1 (follower HW = min(leader HW, own LEO))", f1.Log().HighWatermark())
	}

	// Heal: the HW moves exactly when broker 3's fetch shows it has offset 1,
	// and broker 3 is still in the ISR then (it was not dropped instead).
	if err := c.Heal(2, 3, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return leader.Log().HighWatermark() != 1 }, time.Minute, "HW advance")
	if hw, f := leader.Log().HighWatermark(), leader.FollowerLogEndOffset(3); hw != 2 || f != 2 {
		t.Fatalf("HW moved to %d with follower 3 at LEO %d; want both 2", hw, f)
	}
	if got := leader.ISR(); !eqISR(got, 2, 3, 1) {
		t.Fatalf("ISR %v, want 2,3,1", got)
	}
}

// §3.1 rule 1 and §3.3 (KIP-966): with min.insync.replicas=2 and the ISR
// shrunk to the leader, acks=1 writes are appended but not committed, and
// acks=all is refused before the append.
func TestMinISRGate(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "gate", [][]int32{{1, 2, 3}}, map[string]string{"min.insync.replicas": "2"})
	rc := newRawClient(t, c, 1)
	leader := replica(t, c, 1, "gate")

	if pr, _ := rc.produce(t, 1, "gate", -1, 30000, "g0"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 0 {
		t.Fatalf("acks=all with a full ISR: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}
	advance(t, c, time.Second)

	// Crash both followers. The controller fences each broker.session.timeout.ms
	// (9 s) after its last heartbeat; heartbeats come every 2 s, so for at
	// least 7 s nothing changes.
	killAt := c.World.Now()
	for _, id := range []int32{2, 3} {
		if err := c.Kill(id, false); err != nil {
			t.Fatal(err)
		}
	}
	advance(t, c, 6900*time.Millisecond)
	if st := ctlPartition(t, c, "gate"); !eqISR(st.ISR, 1, 2, 3) {
		t.Fatalf("ISR changed %s after the crash: %v", c.World.Now().Sub(killAt), st.ISR)
	}
	runUntil(t, c, func() bool { return eqISR(leader.ISR(), 1) }, 5*time.Second, "ISR shrink to the leader")
	if since := c.World.Now().Sub(killAt); since > 9*time.Second+10*time.Millisecond {
		t.Fatalf("ISR reached [1] %s after the crash, later than the session timeout", since)
	}
	st := ctlPartition(t, c, "gate")
	// Two ISR changes (one per fenced broker), no leader change: the partition
	// epoch moves twice, the leader epoch not at all (KRaft, MV >= 3.6).
	if st.Leader != 1 || st.LeaderEpoch != 0 || st.PartitionEpoch != 2 || !eqISR(st.ISR, 1) {
		t.Fatalf("controller state %+v, want leader 1, leader epoch 0, partition epoch 2, ISR [1]", st)
	}

	// acks=1: appended and acknowledged; the HW does not move (gate), even
	// though no ISR member lags.
	pr, _ := rc.produce(t, 1, "gate", 1, 30000, "g1")
	if pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		t.Fatalf("acks=1 under min ISR: %s base %d, want NONE at 1", pr.ErrorCode, pr.BaseOffset)
	}
	advance(t, c, 5*time.Second)
	if leo, hw := leader.Log().LogEndOffset(), leader.Log().HighWatermark(); leo != 2 || hw != 1 {
		t.Fatalf("after acks=1 under min ISR: LEO %d HW %d, want LEO 2 HW 1", leo, hw)
	}

	// acks=all: NOT_ENOUGH_REPLICAS at once, nothing appended.
	pr, call := rc.produce(t, 1, "gate", -1, 30000, "g2")
	if pr.ErrorCode != protocol.NOT_ENOUGH_REPLICAS || pr.BaseOffset != -1 {
		t.Fatalf("acks=all under min ISR: %s base %d, want NOT_ENOUGH_REPLICAS, -1", pr.ErrorCode, pr.BaseOffset)
	}
	if rtt := call.at.Sub(call.sentAt); rtt != 2*lat {
		t.Fatalf("NOT_ENOUGH_REPLICAS took %s, want an immediate answer (%s round trip)", rtt, 2*lat)
	}
	if leo, hw := leader.Log().LogEndOffset(), leader.Log().HighWatermark(); leo != 2 || hw != 1 {
		t.Fatalf("after the refused acks=all: LEO %d HW %d, want 2 and 1", leo, hw)
	}
	if got := values(t, leader); !slices.Equal(got, []string{"g0", "g1"}) {
		t.Fatalf("leader log %v", got)
	}

	// Bring the followers back: they catch up, rejoin, and the HW passes g1.
	for _, id := range []int32{2, 3} {
		if err := c.Start(id); err != nil {
			t.Fatal(err)
		}
	}
	runUntil(t, c, func() bool { return len(leader.ISR()) == 3 && leader.Log().HighWatermark() == 2 }, time.Minute, "rejoin and commit")
	if got := leader.ISR(); !eqISR(got, 1, 2, 3) && !eqISR(got, 1, 3, 2) {
		t.Fatalf("ISR after rejoin %v", got)
	}
	advance(t, c, time.Second)
	for _, id := range []int32{2, 3} {
		p := replica(t, c, id, "gate")
		if got := values(t, p); !slices.Equal(got, []string{"g0", "g1"}) || p.Log().HighWatermark() != 2 {
			t.Fatalf("broker %d: log %v HW %d, want [g0 g1] HW 2", id, got, p.Log().HighWatermark())
		}
	}
}

// §3.4: a follower leaves the ISR only at an isr-expiration tick (every
// replica.lag.time.max.ms / 2 = 15 s) once it has not caught up for more
// than replica.lag.time.max.ms (30 s); "caught up" includes having the
// leader's LEO. §3.5: it comes back at the end of the ISR list once it has
// reached the HW.
func TestISRShrinkAfterLagAtTickAndExpandAtEnd(t *testing.T) {
	const lag, tick = 30 * time.Second, 15 * time.Second
	c := newCluster(t, nil)
	createAssigned(t, c, "isr", [][]int32{{2, 3, 1}}, nil)
	rc := newRawClient(t, c, 1)
	leader := replica(t, c, 2, "isr")
	if pr, _ := rc.produce(t, 2, "isr", -1, 30000, "a"); pr.ErrorCode != protocol.NONE {
		t.Fatal(pr.ErrorCode)
	}
	advance(t, c, 2*time.Second)

	cutAt := c.World.Now()
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}
	// Broker 3's last fetch before the cut was at offset 1 = the leader's LEO:
	// that is when it was last caught up.
	lastFetch := lastDelivery(c, Host(3), BrokerAddr(2), "Fetch")
	if lastFetch < 0 || cutAt.Sub(lastFetch) > time.Second {
		t.Fatalf("follower 3's last fetch at %s, cut at %s", lastFetch, cutAt)
	}
	if leader.FollowerLogEndOffset(3) != leader.Log().LogEndOffset() {
		t.Fatalf("follower 3 was not caught up before the cut")
	}

	advance(t, c, time.Second)
	if pr, _ := rc.produce(t, 2, "isr", 1, 30000, "b"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		t.Fatalf("acks=1 during the cut: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}

	// The removal comes at the first tick more than 30 s after the last time
	// broker 3 was caught up.
	want := nextTick(lastFetch.Add(lag), tick)
	if want.Sub(cutAt) < 25*time.Second || want.Sub(cutAt) > 50*time.Second {
		t.Fatalf("test setup: expected removal at %s, cut at %s", want, cutAt)
	}
	advance(t, c, cutAt.Add(25*time.Second).Sub(c.World.Now()))
	if got := leader.ISR(); !eqISR(got, 2, 3, 1) {
		t.Fatalf("ISR at cut+25s = %v, want 2,3,1", got)
	}
	if st := ctlPartition(t, c, "isr"); !eqISR(st.ISR, 2, 3, 1) {
		t.Fatalf("controller ISR at cut+25s = %v", st.ISR)
	}
	if got := leader.Log().HighWatermark(); got != 1 {
		t.Fatalf("HW at cut+25s = %d, want 1 (broker 3 still in the ISR at LEO 1)", got)
	}

	runUntil(t, c, func() bool { return leader.PendingISR() != nil }, 30*time.Second, "shrink proposal")
	if now := c.World.Now(); now != want {
		t.Fatalf("shrink proposed at %s, want the tick at %s (last caught up %s)", now, want, lastFetch)
	}
	if got := leader.PendingISR(); !eqISR(got, 2, 1) {
		t.Fatalf("proposed ISR %v, want 2,1", got)
	}
	// A pending removal does not count yet: the HW waits for the commit.
	if got := leader.Log().HighWatermark(); got != 1 {
		t.Fatalf("HW moved to %d before the shrink was committed", got)
	}
	runUntil(t, c, func() bool { return !slices.Contains(ctlPartition(t, c, "isr").ISR, 3) }, time.Second, "controller commit")
	if d := c.World.Now().Sub(want); d != lat {
		t.Fatalf("controller committed %s after the proposal, want one hop (%s)", d, lat)
	}
	runUntil(t, c, func() bool { return eqISR(leader.ISR(), 2, 1) }, time.Second, "leader learns the shrink")
	if got := leader.Log().HighWatermark(); got != 2 {
		t.Fatalf("HW after the shrink = %d, want 2", got)
	}
	if c.World.Now().Sub(cutAt) > 50*time.Second {
		t.Fatalf("broker 3 left the ISR only %s after the cut", c.World.Now().Sub(cutAt))
	}
	st := ctlPartition(t, c, "isr")
	if st.LeaderEpoch != 0 || st.PartitionEpoch != 1 {
		t.Fatalf("after the shrink: leader epoch %d partition epoch %d, want 0 and 1", st.LeaderEpoch, st.PartitionEpoch)
	}

	// Heal. Broker 3 must first fetch up to the HW (2) before the leader
	// proposes to add it back; it goes at the end of the list.
	if err := c.Heal(2, 3, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool {
		return leader.FollowerLogEndOffset(3) >= 2 || leader.PendingISR() != nil || slices.Contains(leader.ISR(), 3)
	}, time.Minute, "broker 3 catching up")
	if f := leader.FollowerLogEndOffset(3); f != 2 {
		t.Fatalf("leader proposed ISR %v / committed %v while follower 3 was at LEO %d < HW 2", leader.PendingISR(), leader.ISR(), f)
	}
	runUntil(t, c, func() bool { return slices.Contains(leader.ISR(), 3) }, time.Second, "expansion")
	if got := leader.ISR(); !eqISR(got, 2, 1, 3) {
		t.Fatalf("ISR after expansion %v, want 2,1,3", got)
	}
	st = ctlPartition(t, c, "isr")
	if !eqISR(st.ISR, 2, 1, 3) || st.LeaderEpoch != 0 || st.PartitionEpoch != 2 {
		t.Fatalf("controller after expansion: %+v; want ISR 2,1,3, leader epoch 0 (expansion never bumps it), partition epoch 2", st)
	}
}

// §3.4: a follower whose LEO equals the leader's is caught up however long
// it has not fetched, so an idle partition keeps it in the ISR. The first
// write makes it lag, and the next tick removes it.
func TestIdleFollowerStaysInISRUntilLeaderMovesAhead(t *testing.T) {
	const tick = 15 * time.Second
	c := newCluster(t, nil)
	createAssigned(t, c, "idle", [][]int32{{2, 3, 1}}, nil)
	rc := newRawClient(t, c, 1)
	leader := replica(t, c, 2, "idle")
	if pr, _ := rc.produce(t, 2, "idle", -1, 30000, "a"); pr.ErrorCode != protocol.NONE {
		t.Fatal(pr.ErrorCode)
	}
	advance(t, c, 2*time.Second)
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}
	advance(t, c, 100*time.Second)
	if got := leader.ISR(); !eqISR(got, 2, 3, 1) || leader.PendingISR() != nil {
		t.Fatalf("ISR %v (pending %v) after 100 s of an idle cut; want 2,3,1", got, leader.PendingISR())
	}
	if st := ctlPartition(t, c, "idle"); !eqISR(st.ISR, 2, 3, 1) {
		t.Fatalf("controller ISR %v", st.ISR)
	}

	_, call := rc.produce(t, 2, "idle", 1, 30000, "b")
	runUntil(t, c, func() bool { return leader.PendingISR() != nil }, 20*time.Second, "shrink proposal")
	if now := c.World.Now(); now != nextTick(call.at.Add(-lat), tick) {
		t.Fatalf("shrink proposed at %s, want the first tick after the write (%s)", now, call.at)
	}
	if got := leader.PendingISR(); !eqISR(got, 2, 1) {
		t.Fatalf("proposed ISR %v, want 2,1", got)
	}
}

// §9/§4: the leader crashes. It keeps the leadership in the metadata until
// its session expires; then the controller elects the first ISR replica in
// assignment order (not the one with the longest log), bumping the leader
// and partition epochs. Replicas that hold records the new leader never had
// truncate them through the diverging-epoch answer of the fetch.
func TestLeaderFailoverElectionAndDivergentTruncation(t *testing.T) {
	failoverScenario(t, 1, true)
}

// failoverScenario runs the failover sequence and returns the trace hash.
// With check, it asserts every step.
func failoverScenario(t testing.TB, seed uint64, check bool) uint64 {
	return failoverScenarioWith(t, seed, check, 0)
}

// failoverScenarioWith waits an extra moment before the crash (to perturb
// the run).
func failoverScenarioWith(t testing.TB, seed uint64, check bool, extra time.Duration) uint64 {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		if check {
			t.Fatalf(format, args...)
		}
	}
	c, err := New(Config{Brokers: 3, Controllers: 1, Seed: seed, Stepped: true})
	if err != nil {
		t.Fatal(err)
	}
	createAssigned(t, c, "fo", [][]int32{{2, 3, 1}}, nil)
	rc := newRawClient(t, c, 1)
	if pr, _ := rc.produce(t, 2, "fo", -1, 30000, "a"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 0 {
		fail("acks=all: %s", pr.ErrorCode)
	}
	advance(t, c, 2*time.Second)

	// x reaches the leader (2) and broker 1, not broker 3.
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}
	if pr, _ := rc.produce(t, 2, "fo", 1, 30000, "x"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		fail("acks=1: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}
	advance(t, c, 100*time.Millisecond)
	b1, b2, b3 := replica(t, c, 1, "fo"), replica(t, c, 2, "fo"), replica(t, c, 3, "fo")
	if b2.Log().LogEndOffset() != 2 || b1.Log().LogEndOffset() != 2 || b3.Log().LogEndOffset() != 1 || b2.Log().HighWatermark() != 1 {
		fail("before the crash: LEO 1:%d 2:%d 3:%d, leader HW %d", b1.Log().LogEndOffset(), b2.Log().LogEndOffset(), b3.Log().LogEndOffset(), b2.Log().HighWatermark())
	}
	if !eqISR(b2.ISR(), 2, 3, 1) {
		fail("ISR before the crash %v", b2.ISR())
	}

	advance(t, c, extra)
	lastHeartbeat := lastDelivery(c, Host(2), ControllerAddr(c.Controller().NodeID()), "BrokerHeartbeat")
	killAt := c.World.Now()
	if err := c.Kill(2, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Heal(2, 3, false); err != nil {
		t.Fatal(err)
	}
	if lastHeartbeat < 0 || killAt.Sub(lastHeartbeat) > 2100*time.Millisecond {
		fail("last heartbeat of broker 2 at %s, killed at %s", lastHeartbeat, killAt)
	}
	// The session expires broker.session.timeout.ms (9 s) after the last
	// heartbeat; until then broker 2 still leads in the metadata.
	expire := lastHeartbeat.Add(9 * time.Second)
	advance(t, c, expire.Sub(c.World.Now()))
	if st := ctlPartition(t, c, "fo"); st.Leader != 2 || st.LeaderEpoch != 0 {
		fail("at the session timeout the leader is %d (epoch %d), want still 2", st.Leader, st.LeaderEpoch)
	}
	runUntil(t, c, func() bool { return ctlPartition(t, c, "fo").Leader != 2 }, 2*time.Second, "election")
	if d := c.World.Now().Sub(expire); d > 2*time.Millisecond {
		fail("elected %s after the session timeout", d)
	}
	st := ctlPartition(t, c, "fo")
	// Broker 1 has the longer log, but broker 3 comes first in the
	// assignment 2,3,1 and is in the ISR.
	if st.Leader != 3 || st.LeaderEpoch != 1 || st.PartitionEpoch != 1 || !eqISR(st.ISR, 3, 1) {
		fail("after the election %+v; want leader 3, leader epoch 1, partition epoch 1, ISR 3,1", st)
	}
	runUntil(t, c, func() bool { return b3.IsLeader() }, time.Second, "broker 3 leading")
	if b3.LeaderEpoch() != 1 {
		fail("broker 3 leads at epoch %d", b3.LeaderEpoch())
	}
	if got := b3.Log().Epochs().Entries(); !slices.Equal(got, []storage.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}}) {
		fail("new leader's epoch cache %v, want [(0,0) (1,1)]: the new epoch starts at its LEO", got)
	}

	// Broker 1 follows 3: its x (epoch 0, offset 1) is beyond where epoch 0
	// ends on the leader (1), so it truncates.
	runUntil(t, c, func() bool { return b1.Log().LogEndOffset() == 1 }, 5*time.Second, "broker 1 truncation")
	if got := values(t, b1); !slices.Equal(got, []string{"a"}) {
		fail("broker 1 after truncation %v", got)
	}

	// A write to the new leader.
	if pr, _ := rc.produce(t, 3, "fo", -1, 30000, "b"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		fail("acks=all to the new leader: %s base %d", pr.ErrorCode, pr.BaseOffset)
	}

	// The old leader restarts with x still in its log (a crash loses nothing
	// from the page cache, and recovery does not truncate to the HW).
	seq := messagesFrom(c)
	if err := c.Start(2); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return c.Node(2).Broker.Partition(tpOf("fo", 0)) != nil }, time.Second, "broker 2 loads its log")
	nb2 := replica(t, c, 2, "fo")
	if got := values(t, nb2); !slices.Equal(got, []string{"a", "x"}) {
		fail("restarted broker 2 log %v, want [a x]", got)
	}
	runUntil(t, c, func() bool { return slices.Contains(ctlPartition(t, c, "fo").ISR, 2) }, time.Minute, "broker 2 rejoining")
	advance(t, c, time.Second)

	// The truncation came from a fetch answer naming the diverging epoch
	// (epoch 0 ends at offset 1 on the leader).
	diverged := false
	for _, e := range traceSince(c, seq) {
		if e.Kind != sim.TraceDeliver || e.Env.To.Host() != Host(2) {
			continue
		}
		if r, ok := e.Env.Msg.(*protocol.FetchResponse); ok {
			for _, tr := range r.Topics {
				for _, p := range tr.Partitions {
					if tr.Name == "fo" && p.DivergingEpoch == (protocol.EpochEndOffset{Epoch: 0, EndOffset: 1}) {
						diverged = true
					}
				}
			}
		}
	}
	if !diverged {
		fail("broker 2 never got a diverging epoch (0, 1) from the new leader")
	}

	want := logBytes(t, b3)
	for _, id := range []int32{1, 2, 3} {
		p := replica(t, c, id, "fo")
		if got := values(t, p); !slices.Equal(got, []string{"a", "b"}) {
			fail("broker %d log %v, want [a b]", id, got)
		}
		if got := batchEpochs(t, p); !slices.Equal(got, []int32{0, 1}) {
			fail("broker %d batch epochs %v, want [0 1]", id, got)
		}
		if got := p.Log().Epochs().Entries(); !slices.Equal(got, []storage.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}}) {
			fail("broker %d epoch cache %v", id, got)
		}
		if !sameBytes(logBytes(t, p), want) {
			fail("broker %d log bytes differ from the leader's", id)
		}
		if p.Log().HighWatermark() != 2 {
			fail("broker %d HW %d, want 2", id, p.Log().HighWatermark())
		}
	}
	if st := ctlPartition(t, c, "fo"); !eqISR(st.ISR, 3, 1, 2) || st.Leader != 3 || st.LeaderEpoch != 1 {
		fail("final state %+v; want ISR 3,1,2 led by 3 at epoch 1", st)
	}
	return c.World.Trace().Hash()
}

// §3.3: an acks=all produce waits in purgatory until the HW passes it; if a
// follower in the ISR cannot fetch, it answers REQUEST_TIMED_OUT after the
// request's TimeoutMs. Meanwhile the connection is muted: a later request on
// it is handled only after the produce is answered. Other connections are
// not affected.
func TestDelayedProduceTimesOutAndMutesItsConnection(t *testing.T) {
	const timeout = 2 * time.Second
	c := newCluster(t, nil)
	createAssigned(t, c, "slow", [][]int32{{2, 3}}, nil)
	rc := newRawClient(t, c, 2)
	leader := replica(t, c, 2, "slow")
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}

	produce, sameConn, otherConn := &call{}, &call{}, &call{}
	meta := func(*sim.Env) protocol.Request { return &protocol.MetadataRequest{Topics: []string{"slow"}} }
	rc.sendAll(t,
		outgoing{conn: 0, to: 2, c: produce, build: buildProduce("slow", 0, -1, int32(timeout.Milliseconds()), "p")},
		outgoing{conn: 0, to: 2, c: sameConn, build: meta},
		outgoing{conn: 1, to: 2, c: otherConn, build: meta},
	)
	rc.wait(t, otherConn, time.Second)
	if d := otherConn.at.Sub(otherConn.sentAt); d != 2*lat {
		t.Fatalf("a request on another connection took %s, want %s", d, 2*lat)
	}
	if produce.done || sameConn.done {
		t.Fatal("the produce or the request queued behind it was answered early")
	}
	if leader.Log().LogEndOffset() != 1 || leader.Log().HighWatermark() != 0 {
		t.Fatalf("leader LEO %d HW %d, want the record appended (1) and not committed (0)", leader.Log().LogEndOffset(), leader.Log().HighWatermark())
	}
	advance(t, c, timeout-10*time.Millisecond)
	if produce.done || sameConn.done {
		t.Fatal("answered before TimeoutMs")
	}
	rc.wait(t, sameConn, time.Second)
	if !produce.done {
		t.Fatal("the queued request was answered before the produce")
	}
	if pr := producePart(t, produce); pr.ErrorCode != protocol.REQUEST_TIMED_OUT {
		t.Fatalf("produce answered %s, want REQUEST_TIMED_OUT", pr.ErrorCode)
	}
	if d := produce.at.Sub(produce.sentAt); d != timeout+2*lat {
		t.Fatalf("produce answered after %s, want TimeoutMs + round trip = %s", d, timeout+2*lat)
	}
	if produce.order > sameConn.order || sameConn.at < produce.at {
		t.Fatalf("answer order: produce #%d at %s, queued request #%d at %s", produce.order, produce.at, sameConn.order, sameConn.at)
	}
	if _, ok := sameConn.resp.(*protocol.MetadataResponse); !ok {
		t.Fatalf("queued request got %T", sameConn.resp)
	}
	// Broker 3 is still in the ISR (30 s have not passed), which is why the
	// produce could not complete.
	if got := leader.ISR(); !eqISR(got, 2, 3) {
		t.Fatalf("ISR %v, want 2,3", got)
	}
}

// Same seed, same steps: the same trace, event for event. Crashing the
// leader one millisecond later changes it (the hash is not constant).
//
// (Another seed alone does not change this run's hash: with a manual
// assignment and no client retries, the seed only draws ids, and the trace
// hash covers times, kinds, addresses and notes, not ids or payloads.)
func TestFailoverIsDeterministic(t *testing.T) {
	a := failoverScenario(t, 7, false)
	b := failoverScenario(t, 7, false)
	if a != b {
		t.Fatalf("same seed, different traces: %x vs %x", a, b)
	}
	if d := failoverScenarioWith(t, 7, false, time.Millisecond); d == a {
		t.Fatalf("a crash 1 ms later gave the same trace hash %x", a)
	}
}

// BUG reproduction at cluster level (see the broker package's
// TestNonISRReplicaDoesNotHoldHWEarlyInTheRun). Broker 3 is down when the
// topic is created, so the ISR is 2,1; it comes back but cannot reach the
// leader. In Kafka it is not caught up (lastCaughtUpTimeMs = 0 = 1970) and
// does not hold the HW: an acks=all write completes as soon as broker 1 has
// it. In the engine, while the virtual clock is below 30 s, broker 3 counts
// as caught up and eligible, so the HW stays put and the write times out.
func TestOfflineAtCreationReplicaDoesNotHoldHW(t *testing.T) {
	c := newCluster(t, nil)
	if err := c.Kill(3, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { r := c.Controller().Image().Brokers[3]; return r != nil && r.Fenced }, 15*time.Second, "broker 3 fenced")
	createAssigned(t, c, "late", [][]int32{{2, 3, 1}}, nil)
	if st := ctlPartition(t, c, "late"); !eqISR(st.ISR, 2, 1) || st.Leader != 2 {
		t.Fatalf("created with %+v, want leader 2 ISR 2,1", st)
	}
	if err := c.Cut(2, 3, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(3); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, c.AllUnfenced, 15*time.Second, "broker 3 unfenced")
	if now := c.World.Now(); now >= sim.Time(25*time.Second) {
		t.Fatalf("test setup: the write must happen well before 30 s of virtual time (now %s)", now)
	}
	rc := newRawClient(t, c, 1)
	pr, call := rc.produce(t, 2, "late", -1, 5000, "v")
	leader := replica(t, c, 2, "late")
	if pr.ErrorCode != protocol.NONE {
		t.Fatalf("acks=all with ISR 2,1 healthy answered %s after %s at %s (leader LEO %d HW %d, follower 1 LEO %d, follower 3 LEO %d)",
			pr.ErrorCode, call.at.Sub(call.sentAt), call.at, leader.Log().LogEndOffset(), leader.Log().HighWatermark(), leader.FollowerLogEndOffset(1), leader.FollowerLogEndOffset(3))
	}
	if leader.Log().HighWatermark() != 1 {
		t.Fatalf("leader HW %d, want 1", leader.Log().HighWatermark())
	}
}
