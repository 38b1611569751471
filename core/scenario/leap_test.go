package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/sim"
	"kafkascope/core/textdiff"
	"kafkascope/core/transcript"
	"kafkascope/core/view"
)

// A leaped run (spans of steady loops computed in closed form,
// core/cluster/leap.go) must be indistinguishable from one that steps
// every event. Every built-in scenario runs both ways; after each command
// the two must print the same output and show the same picture (the view's
// whole snapshot: nodes, replicas, logs, the quorum, messages in flight with
// their progress, groups), and over the whole run the engine must make the
// same notes at the same instants (the notes carry every later consequence
// of a clock a leap set: an ISR shrink, a fencing, an election).
func TestLeapMatchesSteps(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		all = all[:4]
	}
	all = append(all, &Scenario{ID: "idle-then-faults", Source: idleThenFaults}, &Scenario{ID: "snapshots-then-failover", Source: snapshotsThenFailover})
	for _, sc := range all {
		t.Run(sc.ID, func(t *testing.T) {
			tr, err := transcript.Parse(sc.Source)
			if err != nil {
				t.Fatal(err)
			}
			var cmds [][2]string
			stdin := map[int][]string{}
			for i, c := range tr.Commands() {
				cmds = append(cmds, [2]string{c.Cmd})
				stdin[i] = c.Stdin
			}
			compareRuns(t, cmds, stdin)
		})
	}
}

// TestLeapHeartbeatsMatchSteps leaps long idle spans, where every
// broker's heartbeats run in closed form beside the fetchers' long polls,
// and then disturbs them: a killed broker is fenced at its last leaped
// contact plus the session timeout, a restarted one registers and joins
// the loops again, a slower link changes a loop's period, a cut makes
// heartbeats time out and retry on the leaped call's deadline, and the
// active controller's death moves every session to a new controller.
// TestLeapMetricsMatchSteps reads every MBean of a broker and of the
// controller after traffic, long idle spans and a failure: the meters'
// moving averages decay across a leaped span exactly as across stepped
// ticks, and the idle follower fetches a leap skips mark nothing.
func TestLeapMetricsMatchSteps(t *testing.T) {
	jmx := "kafka-run-class.sh org.apache.kafka.tools.JmxTool --jmx-url service:jmx:rmi:///jndi/rmi://kafka-%d:9999/jmxrmi --report-format properties --one-time true"
	compareScript(t, []string{
		"cluster create",
		"kafka-topics.sh --create --topic m --partitions 3 --replication-factor 3",
		"kafka-producer-perf-test.sh --topic m --num-records 200 --record-size 300 --throughput 50 --producer-props bootstrap.servers=kafka-1:9092",
		"time advance 3m",
		fmt.Sprintf(jmx, 1),
		"broker kill 3",
		"time advance 7m",
		fmt.Sprintf(jmx, 2),
		"broker start 3",
		"time advance 13m",
		fmt.Sprintf(jmx, 1),
	})
	// Three controllers: the standbys' log offsets and append timestamps
	// come from the batches they replay, the leap's NoOp runs included.
	ctl := "kafka-run-class.sh org.apache.kafka.tools.JmxTool --jmx-url service:jmx:rmi:///jndi/rmi://kafka-%d:9999/jmxrmi --object-name 'kafka.controller:type=KafkaController,*' --report-format properties --one-time true"
	compareScript(t, []string{
		"cluster create --brokers 3 --controllers 3",
		"time advance 2m",
		fmt.Sprintf(ctl, 1),
		fmt.Sprintf(ctl, 2),
		"broker kill 3", // the active controller: a new one is elected
		"time advance 90s",
		fmt.Sprintf(ctl, 1),
		fmt.Sprintf(ctl, 2),
		"broker start 3",
		"time advance 1m",
		fmt.Sprintf(ctl, 3),
		// A slower quorum: the leader's commit latency follows its
		// fastest follower's round trip.
		"network delay 1 7ms",
		"network delay 2 11ms",
		"network delay 3 5ms",
		"time advance 2m",
		fmt.Sprintf(jmx, 1),
		fmt.Sprintf(jmx, 2),
	})
}

func TestLeapHeartbeatsMatchSteps(t *testing.T) {
	t.Run("three-nodes", func(t *testing.T) { compareScript(t, threeNodes) })
	t.Run("five-nodes", func(t *testing.T) { compareScript(t, fiveNodes) })
	t.Run("one-node", func(t *testing.T) { compareScript(t, oneNode) })
	t.Run("controller-dies-mid-heartbeat", func(t *testing.T) { compareScript(t, controllerDiesMidHeartbeat) })
}

var (
	threeNodes = []string{
		"cluster create",
		"kafka-topics.sh --create --topic idle-a --partitions 3 --replication-factor 3",
		"kafka-topics.sh --create --topic idle-b --partitions 2 --replication-factor 2",
		"time advance 10m",
		"broker kill 2",
		"time advance 1m",
		"broker start 2",
		"time advance 2m",
		"network delay 1 7ms",
		"time advance 1m",
		"network delay 1 0ms",
		"network cut 1 3",
		"time advance 1m",
		"network heal",
		"time advance 1m",
		"broker kill 3",
		"time advance 30s",
		"broker start 3",
		"time advance 2m",
		"broker stop 1",
		"time advance 20s",
		"broker start 1",
		"time advance 1m",
	}
	// Two brokers that are not voters heartbeat to a remote controller
	// beside the voters; the controller's own links slow down, so every
	// remote loop's period changes at once.
	fiveNodes = []string{
		"cluster create --brokers 5",
		"kafka-topics.sh --create --topic wide --partitions 5 --replication-factor 3",
		"time advance 5m",
		"network delay 3 4ms",
		"time advance 1m",
		"broker kill 5",
		"time advance 1m",
		"broker start 5",
		"time advance 1m",
		"network delay 3 0ms",
		"network delay 4 250ms",
		"time advance 1m",
		"network delay 4 0ms",
		"time advance 30s",
	}
	// Broker 1's links are slow (401 ms each way), so its heartbeat is in
	// flight most of the time; the active controller dies while a
	// heartbeat a leap sent is on its way: the channel retries towards the
	// next controller until the leaped call's deadline.
	controllerDiesMidHeartbeat = []string{
		"cluster create",
		"kafka-topics.sh --create --topic x --partitions 3 --replication-factor 3",
		"time advance 2m",
		"network delay 1 400ms",
		"time advance 63s",
		"broker kill 3",
		"time advance 20s",
		"broker start 3",
		"time advance 1m",
	}
	// A broker heartbeating to the controller in its own process: each
	// cycle's three events at one instant.
	oneNode = []string{
		"cluster create --brokers 1",
		"kafka-topics.sh --create --topic solo --partitions 2 --replication-factor 1",
		"time advance 10m",
		"broker stop 1",
		"time advance 10s",
		"broker start 1",
		"time advance 3m",
	}
)

func compareScript(t *testing.T, script []string) {
	var cmds [][2]string
	for _, c := range script {
		cmds = append(cmds, [2]string{c})
	}
	compareRuns(t, cmds, nil)
}

// compareRuns runs commands stepped and leaped and fails at the first
// difference in what they print and show, or in the engine's notes.
func compareRuns(t *testing.T, cmds [][2]string, stdin map[int][]string) {
	t.Helper()
	stepped, leaped := newRecorder(false), newRecorder(true)
	leaps := uint64(0)
	for i, c := range cmds {
		a, b := stepped.exec(c[0], stdin[i]), leaped.exec(c[0], stdin[i])
		if a != b {
			t.Fatalf("command %d %q: stepped and leaped runs differ:\n%s", i+1, c[0], textdiff.FirstLine(a, b, "stepped", "leaped"))
		}
		if cl := leaped.s.Cluster(); cl != nil {
			leaps = cl.World.Leaps()
		}
	}
	if a, b := strings.Join(stepped.notes, "\n"), strings.Join(leaped.notes, "\n"); a != b {
		t.Fatalf("the engine's notes differ:\n%s", textdiff.FirstLine(a, b, "stepped", "leaped"))
	}
	t.Logf("%d notes, %d leaps", len(leaped.notes), leaps)
}

// recorder runs commands in a session and records what a user sees.
type recorder struct {
	s      *console.Session
	notes  []string
	hooked any // the cluster whose notes are recorded
}

func newRecorder(leap bool) *recorder {
	s := console.NewSession()
	s.Stepped = !leap
	return &recorder{s: s}
}

// exec runs one command and returns its output and the picture after it.
func (r *recorder) exec(cmd string, stdin []string) string {
	out := r.s.Exec(cmd, stdin)
	c := r.s.Cluster()
	if c == nil {
		return strings.Join(out, "\n")
	}
	if r.hooked != any(c) {
		r.hooked = c
		c.OnNote(func(e sim.TraceEvent) {
			r.notes = append(r.notes, fmt.Sprintf("%s %s %s %v", e.At, e.Host, e.Detail, sim.NoteFields(e.Note)))
		})
	}
	snap := view.Take(c)
	for i := range snap.InFlight {
		snap.InFlight[i].ID = 0 // a sequence number: a key, not state
	}
	pic, err := json.MarshalIndent(snap, "", " ")
	if err != nil {
		return fmt.Sprintf("the picture does not encode: %v", err)
	}
	return strings.Join(out, "\n") + "\n--- picture\n" + string(pic) + "\n--- digest\n" + c.Digest()
}

// idleThenFaults leaves a cluster idle for long spans (a leaped run leaps
// most of them) and then disturbs it, so that every clock a leap set is
// read again: the ISR shrinks after a kill (the followers' last caught-up
// times), a killed broker's session expires (its last heartbeat), delays
// and cuts move the loops' phases, and records end the idle polls.
const idleThenFaults = `$ cluster create
$ kafka-topics.sh --create --topic idle --partitions 6 --replication-factor 3
$ kafka-topics.sh --create --topic quiet --partitions 2 --replication-factor 2
$ time advance 10m
$ broker kill 2
$ time advance 1m
$ kafka-topics.sh --describe --topic idle
$ broker start 2
$ time advance 2m
$ network delay 1 20ms
$ time advance 1m
$ network delay 1 0
$ network cut 3 1
$ time advance 45s
$ network heal 3 1
$ time advance 1m
$ kafka-console-producer.sh --topic idle
> one
> two
$ time advance 5m
$ broker stop 3
$ time advance 1m
$ broker start 3
$ time advance 20m
$ kafka-topics.sh --describe --topic idle
$ kafka-topics.sh --create --topic short --partitions 1 --replication-factor 3 --config retention.ms=600000 --config segment.ms=60000
$ kafka-console-producer.sh --topic short
> a
$ time advance 2m
$ kafka-console-producer.sh --topic short
> b
$ time advance 30m
$ kafka-get-offsets.sh --topic short --time -2
$ time advance 2h
`

// snapshotsThenFailover snapshots the metadata log every 5 minutes and
// keeps 15 minutes of it, so that leaps stop short of snapshots and of the
// log start moving, then moves the quorum's leadership: the new leader
// starts from what the leaps left on every voter.
const snapshotsThenFailover = `$ cluster create --config metadata.log.max.snapshot.interval.ms=300000 --config metadata.max.retention.ms=900000
$ kafka-topics.sh --create --topic idle --partitions 3 --replication-factor 3
$ time advance 1h
$ kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 describe --replication
$ broker kill 3
$ time advance 1m
$ broker start 3
$ time advance 30m
$ kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 describe --status
$ ls /tmp/kafka-logs/__cluster_metadata-0 --broker 1
`

// TestLeapMatchesStepsAtEveryMillisecond pauses a leaped and a stepped run
// of an idle cluster at every millisecond of a few seconds, after long
// leaps, then at the ends of leaps of a few seconds each: a pause lands
// anywhere in a loop's cycle (a heartbeat or a Fetch in flight, a NoOp not
// yet committed), and the two runs must show the same state there, down
// to the content of every message in flight.
func TestLeapMatchesStepsAtEveryMillisecond(t *testing.T) {
	setup := []string{
		"cluster create",
		"kafka-topics.sh --create --topic idle --partitions 3 --replication-factor 3",
		"network delay 2 3ms",
		"network delay 1 40ms",
		"time advance 17m",
	}
	stepped, leaped := newRecorder(false), newRecorder(true)
	for _, c := range setup {
		if a, b := stepped.exec(c, nil), leaped.exec(c, nil); a != b {
			t.Fatalf("%q: stepped and leaped runs differ:\n%s", c, textdiff.FirstLine(a, b, "stepped", "leaped"))
		}
	}
	ms := 4100
	if testing.Short() {
		ms = 600
	}
	sc, lc := stepped.s.Cluster(), leaped.s.Cluster()
	lc.World.SetLeapMinSpan(0) // leap inside a millisecond's run too
	advance := func(d time.Duration) {
		t.Helper()
		if err := sc.Advance(d); err != nil {
			t.Fatal(err)
		}
		if err := lc.Advance(d); err != nil {
			t.Fatal(err)
		}
		if a, b := sc.Digest(), lc.Digest(); a != b {
			t.Fatalf("at %s: stepped and leaped runs differ:\n%s", sc.World.Now(), textdiff.FirstLine(a, b, "stepped", "leaped"))
		}
	}
	before := lc.World.Leaps()
	for i := 0; i < ms; i++ {
		advance(time.Millisecond)
	}
	// About one run in forty begins with a loop's event and leaps to the
	// millisecond's end.
	if n := lc.World.Leaps() - before; n < uint64(ms/80) {
		t.Fatalf("%d leaps in %d runs of a millisecond: the test pauses inside too few spans", n, ms)
	}
	// Then leaps of a few seconds each (NoOps, heartbeats and fetches
	// leaped together), ending at ever other points of their cycles: a
	// heartbeat on the slow link is in flight at the end of some, carrying
	// the metadata offset of the moment it left.
	for i := 0; i < ms/20; i++ {
		advance(3*time.Second + time.Duration(i)*7*time.Millisecond)
	}
	if a, b := strings.Join(stepped.notes, "\n"), strings.Join(leaped.notes, "\n"); a != b {
		t.Fatalf("the engine's notes differ:\n%s", textdiff.FirstLine(a, b, "stepped", "leaped"))
	}
	t.Logf("%d leaps", leaped.s.Cluster().World.Leaps())
}
