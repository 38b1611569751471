package simulate

import (
	"regexp"
	"strings"
	"testing"

	"kafkascope/core/event"
	"kafkascope/core/sim"
)

// TestSimulateZooKeeperEra: the simulator's seeds on a 2.8 cluster, with
// the ZooKeeper era's faults (faults_zookeeper.go): every seed holds every
// invariant, and within these seeds each fault kind happens and brokers
// are noticed failed at their session's expiry.
func TestSimulateZooKeeperEra(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("runs 24 seeds (not with -short or -race)")
	}
	kinds := map[string]*regexp.Regexp{
		"a broker cut from a ZooKeeper server": regexp.MustCompile(`network cut \d+ zookeeper-\d`),
		"two ensemble members cut":             regexp.MustCompile(`network cut zookeeper-\d zookeeper-\d`),
		"an ensemble member's crash":           regexp.MustCompile(`zookeeper kill \d`),
		"an ensemble member's restart":         regexp.MustCompile(`zookeeper start \d`),
		"a ZooKeeper cut healed":               regexp.MustCompile(`network heal (\d+|zookeeper-\d) zookeeper-\d`),
	}
	seen := map[string]bool{}
	expiries, controllers, states := 0, 0, 0
	for seed := uint64(1); seed <= 24; seed++ {
		opts := Options{Version: kafka28}
		opts.Notes = func(e sim.TraceEvent) {
			switch n := e.Note.(type) {
			case event.BrokerFenced:
				if n.Reason == "zookeeper-session" {
					expiries++
				}
			case event.ControllerActivated:
				controllers++
			}
		}
		run := mustSimulate(t, seed, opts)
		if len(run.Violations) > 0 {
			t.Errorf("%s\n%s", run.FailureLine(), run.Report())
		}
		if run.x.zkStatesChecked == 0 {
			t.Errorf("seed %d: zk-state-epoch saw no partition state written", seed)
		}
		states += run.x.zkStatesChecked
		schedule := strings.Join(run.Schedule, "\n")
		for k, re := range kinds {
			if re.MatchString(schedule) {
				seen[k] = true
			}
		}
	}
	for k := range kinds {
		if !seen[k] {
			t.Errorf("no %s in seeds 1-24", k)
		}
	}
	if expiries == 0 || controllers <= 24 {
		t.Errorf("%d session expiries, %d controller activations in 24 seeds", expiries, controllers)
	}
	t.Logf("%d brokers noticed failed at session expiry, %d controller activations, %d partition states written", expiries, controllers, states)
}

// Seeds on 2.8 that found engine bugs, kept clean: 175 (a ZooKeeper
// request lost to a cut on a connection that stayed up waited forever:
// ZooKeeper's connections now retransmit as TCP does, sim.Stream) and 496
// (a controller that resigned while it handled a broker's startup went on
// with no context and panicked).
func TestZooKeeperEraSeedsThatFoundBugs(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	for _, seed := range []uint64{175, 496} {
		if run := mustSimulate(t, seed, Options{Version: kafka28}); len(run.Violations) > 0 {
			t.Errorf("seed %d:\n%s", seed, run.Report())
		}
	}
}
