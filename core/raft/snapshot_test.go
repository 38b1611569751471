package raft

import (
	"path"
	"slices"
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// TestSnapshotInstallForFarBehindObserver: the voters snapshot their state
// as they go, and the leader moves its log start to its latest snapshot.
// An observer that starts with an empty log is told to fetch the snapshot
// (its fetch offset is below the log start), downloads it with
// FetchSnapshot in small slices, loads it, and continues with the log.
func TestSnapshotInstallForFarBehindObserver(t *testing.T) {
	c := newCluster(t, 10, clusterOpts{voters: 3, observers: 1, tweak: func(id int32, cfg *Config) {
		cfg.FetchSnapshotMaxBytes = 200 // several FetchSnapshot round trips
	}})
	l, want := commitSnapshotted(t, c, c.ids[:3])
	snaps := c.node(l).Snapshots()
	if len(snaps) < 3 {
		t.Fatalf("leader has snapshots %v", snaps)
	}
	latest := snaps[len(snaps)-1]
	c.call(l, func(env *sim.Env) {
		ok, err := c.node(l).DeleteBeforeSnapshot(env, latest)
		if err != nil || !ok {
			t.Errorf("DeleteBeforeSnapshot(%s) = %v, %v", latest, ok, err)
		}
	})
	if got := c.node(l).LogStartOffset(); got != latest.EndOffset {
		t.Fatalf("log start %d, want %d", got, latest.EndOffset)
	}
	if s := c.node(l).Snapshots(); len(s) != 1 || s[0] != latest {
		t.Fatalf("older snapshots kept: %v", s)
	}
	dir := path.Join(testLogDir, "__cluster_metadata-0")
	if !c.hosts[l].disk.Exists(path.Join(dir, SnapshotFileName(latest))) {
		t.Fatalf("no %s on the leader", SnapshotFileName(latest))
	}
	obs := c.ids[3]
	c.start(obs)
	if !c.runUntil(func() bool { return slices.Equal(c.committedData(obs), want) }, 5*time.Second) {
		t.Fatalf("observer did not catch up: %s; has %d entries", c.describe(), len(c.committedData(obs)))
	}
	n := c.node(obs)
	if n.LogStartOffset() != latest.EndOffset || !slices.Equal(n.Snapshots(), []SnapshotID{latest}) {
		t.Fatalf("observer log start %d snapshots %v, want %s", n.LogStartOffset(), n.Snapshots(), latest)
	}
	if !c.hosts[obs].disk.Exists(path.Join(dir, SnapshotFileName(latest))) {
		t.Fatalf("observer has no %s", SnapshotFileName(latest))
	}
	slices0 := 0
	for _, e := range c.w.Trace().Recent(0) {
		if e.Env != nil && e.Env.Msg.Kind() == "FetchSnapshotResponse" && e.Env.To == c.hosts[obs].cfg.Addr {
			slices0++
		}
	}
	if slices0 < 2 {
		t.Fatalf("snapshot came in %d FetchSnapshot responses; want several 200-byte slices", slices0)
	}
	// The observer keeps following the log after the snapshot.
	p, err := c.appendOn(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, p...)
	if !c.runUntil(func() bool { return slices.Equal(c.committedData(obs), want) }, 3*time.Second) {
		t.Fatalf("observer stopped after the snapshot: %s", c.describe())
	}
	// A restart loads the snapshot first, then the log after it.
	c.kill(obs, false)
	c.start(obs)
	if !c.runUntil(func() bool { return slices.Equal(c.committedData(obs), want) }, 3*time.Second) {
		t.Fatalf("observer did not recover from its snapshot: %s", c.describe())
	}
	c.checkConverged(10 * time.Second)
}

// TestFetchFromZeroGetsSnapshot: a replica with an empty log is sent the
// latest snapshot even when the log still holds every entry (KAFKA-15078).
func TestFetchFromZeroGetsSnapshot(t *testing.T) {
	c := newCluster(t, 11, clusterOpts{voters: 3, observers: 1})
	for _, id := range c.ids[:3] {
		c.hosts[id].snapshotEvery = 5
		c.start(id)
	}
	l := c.waitLeader(5 * time.Second)
	for i := 0; i < 6; i++ {
		if _, err := c.appendOn(l, 1); err != nil {
			t.Fatal(err)
		}
	}
	c.runFor(time.Second)
	if len(c.node(l).Snapshots()) == 0 || c.node(l).LogStartOffset() != 0 {
		t.Fatalf("leader snapshots %v log start %d", c.node(l).Snapshots(), c.node(l).LogStartOffset())
	}
	obs := c.ids[3]
	c.start(obs)
	if !c.runUntil(func() bool {
		return c.running(obs) && len(c.node(obs).Snapshots()) > 0 && slices.Equal(c.committedData(obs), c.committedData(l))
	}, 3*time.Second) {
		t.Fatalf("observer did not start from the snapshot: %s", c.describe())
	}
	c.checkSafe()
}

// TestDeleteBeforeSnapshotDeletesSegmentsBelowTheLogStart: moving the log
// start up to a snapshot deletes the segments wholly below it, files and
// all, as KafkaMetadataLog.deleteBeforeSnapshot does with
// UnifiedLog.deleteOldSegments; the segment holding the new start stays.
func TestDeleteBeforeSnapshotDeletesSegmentsBelowTheLogStart(t *testing.T) {
	c := newCluster(t, 11, clusterOpts{voters: 3, tweak: func(id int32, cfg *Config) {
		cfg.SegmentBytes = 600 // a segment every few batches
	}})
	l, _ := commitSnapshotted(t, c, c.ids)
	log := c.node(l).Log()
	before := log.Segments()
	snaps := c.node(l).Snapshots()
	latest := snaps[len(snaps)-1]
	if len(before) < 4 || before[1].BaseOffset > latest.EndOffset {
		t.Fatalf("%d segments, the second at %d, for a snapshot at %d: the test needs segments below it", len(before), before[1].BaseOffset, latest.EndOffset)
	}
	c.call(l, func(env *sim.Env) {
		if ok, err := c.node(l).DeleteBeforeSnapshot(env, latest); err != nil || !ok {
			t.Errorf("DeleteBeforeSnapshot(%s) = %v, %v", latest, ok, err)
		}
	})
	after := log.Segments()
	if len(after) == 0 || after[0].BaseOffset > latest.EndOffset || len(after) > 1 && after[1].BaseOffset <= latest.EndOffset {
		t.Fatalf("after moving the log start to %d the segments start at %v", latest.EndOffset, bases(after))
	}
	if log.LogStartOffset() != latest.EndOffset {
		t.Fatalf("the log's own start is %d, want %d", log.LogStartOffset(), latest.EndOffset)
	}
	for _, s := range before {
		if s.BaseOffset < after[0].BaseOffset && c.hosts[l].disk.Exists(s.Path) {
			t.Fatalf("segment %d is deleted but its file %s is still there", s.BaseOffset, s.Path)
		}
	}
	deleted := false
	for _, e := range c.w.Trace().Recent(0) {
		if d, ok := e.Note.(event.RaftSegmentsDeleted); ok && d.Node == l {
			deleted = true
			if d.Segments != len(before)-len(after) || d.Bytes <= 0 || d.LogStartOffset != latest.EndOffset {
				t.Errorf("%+v: want %d segments deleted up to log start %d", d, len(before)-len(after), latest.EndOffset)
			}
		}
	}
	if !deleted {
		t.Fatal("no raft.log.segments.deleted note")
	}
}

// commitSnapshotted starts voters that snapshot every 10 entries, has the
// leader append 30 batches of 2 entries and waits until they are
// committed: it returns the leader and the entries.
func commitSnapshotted(t *testing.T, c *cluster, voters []int32) (int32, []string) {
	t.Helper()
	for _, id := range voters {
		c.hosts[id].snapshotEvery = 10
		c.start(id)
	}
	l := c.waitLeader(5 * time.Second)
	var want []string
	for i := 0; i < 30; i++ {
		p, err := c.appendOn(l, 2)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	if !c.runUntil(func() bool { return slices.Equal(c.committedData(l), want) }, 3*time.Second) {
		t.Fatalf("not committed: %s", c.describe())
	}
	return l, want
}

func bases(segs []*storage.Segment) []int64 {
	var out []int64
	for _, s := range segs {
		out = append(out, s.BaseOffset)
	}
	return out
}
