package view_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/view"
)

// The page caches the view reads are the disks' own, node by node: the
// leader's machine counts the followers' and the consumer's fetches.
func TestPageCachesAreTheDisks(t *testing.T) {
	if view.PageCaches(nil) != nil {
		t.Fatal("page caches without a cluster")
	}
	s := session(t, "cluster create --brokers 3 --page-cache-bytes 65536")
	exec(t, s, "kafka-topics.sh --create --topic t --replica-assignment 1:2:3")
	produce(t, s, "t", "", "a", "b", "c")
	exec(t, s, "kafka-console-consumer.sh --topic t --partition 0 --offset 0 --max-messages 3")
	exec(t, s, "broker kill 3")
	exec(t, s, "broker kill 2 --power-loss")
	c := s.Cluster()
	pcs := view.PageCaches(c)
	if len(pcs) != 3 {
		t.Fatalf("%d page caches", len(pcs))
	}
	for i, pc := range pcs {
		if pc.Broker != int32(i+1) || pc.PageCacheStats != c.Disk(pc.Broker).PageCache() || pc.CapacityBytes != 65536 {
			t.Errorf("broker %d: %+v, the disk says %+v", i+1, pc, c.Disk(pc.Broker).PageCache())
		}
	}
	if l := pcs[0]; l.State != "running" || l.HitPages == 0 || l.MissPages != 0 || l.SentBytes == 0 || l.CachedBytes == 0 {
		t.Errorf("the leader: %+v", l)
	}
	if pcs[1].State != "power-off" || pcs[1].CachedBytes != 0 {
		t.Errorf("a machine that lost power: %+v", pcs[1])
	}
	if pcs[2].State != "killed" || pcs[2].CachedBytes == 0 {
		t.Errorf("a crashed broker's machine keeps its cache: %+v", pcs[2])
	}
}

// Reading the page caches (which settles writeback that is due) must not
// change the run: with a cache small enough that reclaim and background
// writeback work all the time, a run watched every 100 ms ends as the same
// run left alone, down to what a power loss keeps.
func TestPageCacheViewDoesNotChangeTheRun(t *testing.T) {
	script := func(watch func(*console.Session)) string {
		s := session(t, "cluster create --brokers 3 --page-cache-bytes 65536")
		exec(t, s, "kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3")
		exec(t, s, "kafka-producer-perf-test.sh --topic t --num-records 300 --record-size 500 --throughput 200 --producer-props bootstrap.servers=kafka-1:9092 &")
		for j := 0; j < 30; j++ {
			advance(t, s, 100*time.Millisecond)
			watch(s)
		}
		exec(t, s, "kafka-console-consumer.sh --topic t --partition 0 --offset 0 --max-messages 20")
		exec(t, s, "broker kill 2 --power-loss")
		for j := 0; j < 20; j++ {
			advance(t, s, 100*time.Millisecond)
			watch(s)
		}
		var b strings.Builder
		c := s.Cluster()
		for _, id := range c.NodeIDs() {
			fmt.Fprintf(&b, "%d %+v\n", id, c.Disk(id).PageCache())
			for _, p := range c.Disk(id).Walk("/tmp/kafka-logs") {
				data, _ := c.Disk(id).ReadFile(p)
				fmt.Fprintf(&b, "%d %s %x\n", id, p, sha256.Sum256(data))
			}
		}
		fmt.Fprintf(&b, "trace %x %d\n", c.World.Trace().Hash(), c.World.Trace().Count())
		return b.String()
	}
	alone := script(func(*console.Session) {})
	watched := script(func(s *console.Session) { view.PageCaches(s.Cluster()) })
	if alone != watched {
		t.Fatalf("watching the page caches changed the run:\n--- alone\n%s\n--- watched\n%s", alone, watched)
	}
	// The run exercised what the view could disturb: a full cache,
	// reads from disk.
	if !strings.Contains(alone, "CachedBytes:65536 ") || strings.Count(alone, "MissPages:0}") == 3 {
		t.Fatalf("the run never filled a cache or missed:\n%s", alone)
	}
}
