package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/sim"
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
			tr, err := console.ParseTranscript(sc.Source)
			if err != nil {
				t.Fatal(err)
			}
			stepped, leaped := newRecorder(false), newRecorder(true)
			leaps := uint64(0)
			for i, c := range tr.Commands() {
				a, b := stepped.exec(c.Cmd, c.Stdin), leaped.exec(c.Cmd, c.Stdin)
				if a != b {
					t.Fatalf("command %d %q: stepped and leaped runs differ:\n%s", i+1, c.Cmd, firstDifference(a, b))
				}
				if cl := leaped.s.Cluster(); cl != nil {
					leaps = cl.World.Leaps()
				}
			}
			if a, b := strings.Join(stepped.notes, "\n"), strings.Join(leaped.notes, "\n"); a != b {
				t.Fatalf("the engine's notes differ:\n%s", firstDifference(a, b))
			}
			t.Logf("%d notes, %d leaps", len(leaped.notes), leaps)
		})
	}
}

// recorder runs commands in a session and records what a user sees.
type recorder struct {
	s      *console.Session
	notes  []string
	hooked any // the cluster whose notes are recorded
}

func newRecorder(leap bool) *recorder {
	s := console.NewSession()
	s.Leap = leap
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
			r.notes = append(r.notes, fmt.Sprintf("%s %s %s %v", e.At, e.Host, e.Detail, e.Fields))
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

// firstDifference shows where two texts part.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  stepped: %.2000s\n  leaped:  %.2000s", i+1, x, y)
		}
	}
	return "(equal)"
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
