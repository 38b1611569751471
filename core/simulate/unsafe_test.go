package simulate

import "testing"

// Known-unsafe configurations must fail: each finds a violation within a
// few seeds, and the failing seed replays to the same violation.
func TestKnownUnsafeConfigsFail(t *testing.T) {
	for _, c := range []struct {
		key, value       string
		minSeed, maxSeed uint64
		zooKeeper        bool // on 2.8, the ZooKeeper era, instead of 3.8
	}{
		// Pre-KIP-101 (inter.broker.protocol.version < 0.11): a restarted
		// follower truncates to its HW before fetching (first in seeds
		// 1-16: seed 13).
		{"inter.broker.protocol.version", "0.10", 1, 16, false},
		// An out-of-sync replica may lead, cutting committed records.
		{"unclean.leader.election.enable", "true", 1, 12, false},
		// acks=all is acknowledged by the leader alone: a power loss of
		// that one copy loses it (first in seeds 1-12: seed 9).
		{"min.insync.replicas", "1", 1, 12, false},
		// The same two on ZooKeeper (first in seeds 1-6: seeds 3 and 1).
		{"unclean.leader.election.enable", "true", 1, 6, true},
		{"min.insync.replicas", "1", 1, 6, true},
	} {
		name := c.key + "=" + c.value
		version := kafka38
		if c.zooKeeper {
			name, version = name+" on 2.8", kafka28
		}
		t.Run(name, func(t *testing.T) {
			opts := Options{Overrides: map[string]string{c.key: c.value}, Version: version}
			for seed := c.minSeed; seed <= c.maxSeed; seed++ {
				run := mustSimulate(t, seed, opts)
				if len(run.Violations) == 0 {
					continue
				}
				first := run.FailureLine()
				t.Logf("%s", first)
				if again := mustSimulate(t, seed, opts); len(again.Violations) == 0 || again.FailureLine() != first {
					t.Fatalf("seed %d does not replay:\n%s\n%v", seed, first, again.Violations)
				}
				return
			}
			t.Fatalf("no violation in seeds %d-%d", c.minSeed, c.maxSeed)
		})
	}
}
