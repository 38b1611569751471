package simulate

import (
	"strings"
	"testing"

	"kafkascope/core/release"
)

// Each exemption is what saves the seed that found it: off, the seed
// breaks the invariant the exemption relaxes; on, the seed passes.
func TestExemptionsArePinnedToTheirSeeds(t *testing.T) {
	for _, c := range []struct {
		name      string
		e         exemption
		seed      uint64
		invariant string
	}{
		{"power loss", exemptPowerLoss, 516, "acked-write-lost"},
		{"power loss (an ABORT marker)", exemptPowerLoss, 494, "txn-atomic"},
		{"power loss (copy-in's records, below the committed offset)", exemptPowerLoss, 5786, "liveness"},
		{"deposed coordinator", exemptDeposedCoordinator, 88, "committed-offset-monotonic"},
		{"deposed coordinator", exemptDeposedCoordinator, 214, "committed-offset-monotonic"},
		{"deposed coordinator (a copier's committed offsets)", exemptDeposedCoordinator, 3746, "copy-exactly-once"},
		{"retried during the check", exemptRetriedDuringCheck, 954, "liveness"},
		{"a group lost to a power loss", exemptGroupLostToPowerLoss, 534, "group-liveness"},
		{"an epoch led again after a power loss", exemptReledAfterPowerLoss, 336, "isr-identical"},
		{"a transaction state lost to a power loss", exemptTxnStateLost, 9, "txn-open-forever"},
		{"a copy pipeline's state lost to a power loss", exemptCopyStateLost, 282, "copy-exactly-once"},
		{"a coordinator's state truncated", exemptTxnStateTruncated, 386, "txn-atomic"},
		{"a marker skipped for a partition the metadata lacked", exemptMarkerSkipped, 50, "txn-open-forever"},
		{"two voters' elections in lockstep", exemptElectionLockstep, 6858, "liveness"},
		{"a zombie copier back before its successor's initTransactions", exemptZombieCopierBack, 8013, "copy-exactly-once"},
		{"a zombie copier back after its successor read its position", exemptZombieCopierBack, 5012, "copy-exactly-once"},
	} {
		version := kafka38
		switch c.e {
		case exemptGroupLostToPowerLoss:
			version = release.Version{Major: 4, Minor: 3} // KIP-848's consumer protocol
		case exemptReledAfterPowerLoss, exemptMarkerSkipped:
			version = kafka28 // the ZooKeeper-era controller's failover
		}
		switch c.seed { // the seeds' own versions
		case 3746, 5012, 5786:
			version = release.Version{Major: 4, Minor: 1}
		case 8013:
			version = release.Version{Major: 4, Minor: 3}
		}
		if run := mustSimulate(t, c.seed, Options{Version: version}); len(run.Violations) > 0 {
			t.Errorf("%s: seed %d fails with the exemption on:\n%s", c.name, c.seed, run.Report())
			continue
		}
		strict := Options{Version: version}
		strict.strict[c.e] = true
		run := mustSimulate(t, c.seed, strict)
		var found []string
		for _, v := range run.Violations {
			found = append(found, v.Invariant)
		}
		if !strings.Contains(strings.Join(found, " "), c.invariant) {
			t.Errorf("%s: seed %d without the exemption breaks %v, not %s: the exemption no longer saves it", c.name, c.seed, found, c.invariant)
		}
	}
}
