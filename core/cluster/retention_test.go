package cluster

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
)

// noteWatch collects the notes with one key as the cluster runs, stepping
// so the bounded trace never drops one.
type noteWatch struct {
	c    *Cluster
	key  string
	seen uint64
	got  []sim.TraceEvent
}

func (w *noteWatch) advance(t *testing.T, d time.Duration) {
	t.Helper()
	end := w.c.World.Now().Add(d)
	for w.c.World.Now() < end {
		step := min(time.Second, end.Sub(w.c.World.Now()))
		if err := w.c.Advance(step); err != nil {
			t.Fatal(err)
		}
		for _, e := range w.c.World.Trace().Since(w.seen) {
			if e.Kind == sim.TraceNote && e.Detail == w.key {
				w.got = append(w.got, e)
			}
		}
		w.seen = w.c.World.Trace().Count()
	}
}

// on is the notes made by one broker's host.
func (w *noteWatch) on(host string) []sim.TraceEvent {
	var out []sim.TraceEvent
	for _, e := range w.got {
		if e.Host == host {
			out = append(out, e)
		}
	}
	return out
}

func deletedFiles(c *Cluster, id int32, dir string) []string {
	var out []string
	for _, e := range c.Disk(id).List(c.logDir() + "/" + dir) {
		if strings.HasSuffix(e.Name, ".deleted") {
			out = append(out, e.Name)
		}
	}
	return out
}

// The retention task runs log.initial.task.delay.ms (30 s) after a broker's
// log manager starts and then every log.retention.check.interval.ms; a
// deletion renames the files .deleted and removes them
// file.delete.delay.ms later; every replica deletes, followers moving their
// log start with the leader's.
func TestRetentionTaskSchedule(t *testing.T) {
	c := newCluster(t, nil)
	w := &noteWatch{c: c, key: "log.segments.deleted", seen: c.World.Trace().Count()}
	createAssigned(t, c, "r", [][]int32{{1, 2, 3}}, map[string]string{"retention.ms": "1000"})
	produce(t, c, "r", -1, "a")
	w.advance(t, 40*time.Second)
	first := w.on(Host(1))
	if len(first) != 1 {
		t.Fatalf("broker 1 deleted %d times in its first 40 s", len(first))
	}
	// The cluster started at time 0 and brokers publish their first image
	// within a second or two: the first check is 30 s after that.
	if at := first[0].At; at < sim.Time(30*time.Second) || at > sim.Time(33*time.Second) {
		t.Fatalf("first deletion at %s, want 30 s after the log manager started", at)
	}
	if got := first[0].Note.(event.SegmentsDeleted).Start; got != 1 {
		t.Fatalf("log start after the deletion %d, want 1", got)
	}
	for _, id := range []int32{1, 2, 3} {
		if len(w.on(Host(id))) != 1 {
			t.Fatalf("broker %d did not delete its replica's segment", id)
		}
		if p := c.Node(id).Broker.Partition(tpOf("r", 0)); p.Log().LogStartOffset() != 1 {
			t.Fatalf("broker %d log start %d", id, p.Log().LogStartOffset())
		}
	}
	// The files linger as .deleted for one minute after the deletion.
	deletedAt := first[0].At
	if err := c.AdvanceTo(deletedAt.Add(59 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := deletedFiles(c, 1, "r-0"); len(got) != 3 {
		t.Fatalf(".deleted files 59 s after the deletion: %v", got)
	}
	if err := c.AdvanceTo(deletedAt.Add(60*time.Second + time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if got := deletedFiles(c, 1, "r-0"); len(got) != 0 {
		t.Fatalf(".deleted files after file.delete.delay.ms: %v", got)
	}
	// The next deletion waits for the next check, five minutes after the
	// first.
	w.seen = c.World.Trace().Count()
	produce(t, c, "r", -1, "b")
	w.advance(t, 5*time.Minute)
	again := w.on(Host(1))
	if len(again) != 2 || again[1].At != deletedAt.Add(5*time.Minute) {
		t.Fatalf("deletions at %v, want the second at %s", again, deletedAt.Add(5*time.Minute))
	}

	// A follower's log starts where its leader's does: it learns the
	// leader's log start offset from each fetch response, before any check
	// of its own deletes a segment (as after a DeleteRecords).
	produce(t, c, "r", -1, "c", "d")
	leader := c.Node(1).Broker.Partition(tpOf("r", 0)).Log()
	if err := leader.MaybeIncrementLogStartOffset(leader.HighWatermark() - 1); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int32{2, 3} {
		if got := c.Node(id).Broker.Partition(tpOf("r", 0)).Log().LogStartOffset(); got != leader.LogStartOffset() {
			t.Fatalf("broker %d log start %d, the leader's %d", id, got, leader.LogStartOffset())
		}
	}
}
