package cluster

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/storage"
)

// Reproductions of what TestChaos found, each reduced to the few steps that
// matter.

// TestChaos seed 274: a replica that became leader and lost the leadership
// before appending anything kept an epoch-cache entry at its LEO. As a
// follower it named that epoch as its last fetched one; the new leader,
// which never had that epoch, answered with a diverging epoch whose end was
// the follower's LEO; the follower cut nothing, kept the entry, and asked
// again, forever: it never caught up or rejoined the ISR. Kafka's
// UnifiedLog.truncateTo drops epochs from the LEO even when it cuts nothing.
func TestReplicaThatLedWithoutAppendingFollowsAgain(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "led", [][]int32{{2, 3}}, nil)
	rc := newRawClient(t, c, 1)
	if pr, _ := rc.produce(t, 2, "led", -1, 30000, "a"); pr.ErrorCode != protocol.NONE {
		t.Fatal(pr.ErrorCode)
	}
	b3 := replica(t, c, 3, "led")

	// Broker 2 loses the controller: broker 3 leads epoch 1 from its LEO 1,
	// and nothing is written in that epoch.
	if err := c.Cut(1, 2, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return b3.IsLeader() && b3.LeaderEpoch() == 1 }, 15*time.Second, "broker 3 leading epoch 1")
	if err := c.Heal(1, 2, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return eqISR(ctlPartition(t, c, "led").ISR, 3, 2) }, 30*time.Second, "broker 2 rejoining")

	// Now broker 3 loses the controller while it leads: broker 2 leads epoch
	// 2 and takes a write. Broker 3 still has (1,1) in its epoch cache.
	if err := c.Cut(1, 3, false); err != nil {
		t.Fatal(err)
	}
	b2 := replica(t, c, 2, "led")
	runUntil(t, c, func() bool { return b2.IsLeader() && b2.LeaderEpoch() == 2 }, 15*time.Second, "broker 2 leading epoch 2")
	if pr, _ := rc.produce(t, 2, "led", 1, 30000, "b"); pr.ErrorCode != protocol.NONE || pr.BaseOffset != 1 {
		t.Fatalf("produce to the new leader: %s at %d", pr.ErrorCode, pr.BaseOffset)
	}
	if got := b3.Log().Epochs().Entries(); !slices.Equal(got, []storage.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}}) {
		t.Fatalf("setup: broker 3's epoch cache %v, want [(0,0) (1,1)]", got)
	}

	// Healed, broker 3 follows broker 2: it must drop epoch 1 (which has no
	// batch), fetch b and rejoin the ISR.
	if err := c.Heal(1, 3, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return slices.Contains(ctlPartition(t, c, "led").ISR, 3) }, 30*time.Second, "broker 3 rejoining the ISR")
	if got := values(t, b3); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("broker 3's log %v, want [a b]", got)
	}
	if got := b3.Log().Epochs().Entries(); !slices.Equal(got, []storage.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 1}}) {
		t.Fatalf("broker 3's epoch cache %v, want the leader's [(0,0) (2,1)]", got)
	}
}
