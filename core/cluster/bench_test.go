package cluster

import (
	"testing"
	"time"
)

// BenchmarkReplicatedProduce is the fixed workload of `make bench`
// (RunWorkload): 3 brokers, 6 partitions, replication factor 3, acks=all,
// 10,000 records per iteration. It reports simulated events and
// acknowledged records per second of wall time. The browser bench runs the
// same function in wasm for the wasm/native ratio.
func BenchmarkReplicatedProduce(b *testing.B) {
	var events uint64
	for i := 0; i < b.N; i++ {
		res, err := RunWorkload(10000)
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(events)/secs, "events/s")
	b.ReportMetric(float64(b.N*10000)/secs, "records/s")
	b.Logf("%.1f ms per 10,000 records natively; the same workload in the page: make bench-browser (goal: wasm at least 0.5x native speed)",
		secs*1000/float64(b.N))
}

// BenchmarkIdleCluster measures the scheduler itself: a minute of simulated
// time on a 3-broker cluster with 6 replicated partitions and no clients
// (heartbeats, metadata fetches, follower long polls, checkpoints).
func BenchmarkIdleCluster(b *testing.B) {
	c, err := New(Config{Brokers: 3, Seed: 1, Stepped: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	createTopic(b, c, "idle", 6, 3)
	start, handoffs := c.World.Steps(), c.World.Handoffs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Advance(time.Minute); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	events := float64(c.World.Steps() - start)
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.N*60)/b.Elapsed().Seconds(), "sim-s/s")
	b.ReportMetric(float64(c.World.Handoffs()-handoffs)/events, "switches/event")
	b.Logf("%.0f events/s natively (goal: at least 1,000,000)", events/b.Elapsed().Seconds())
}

// BenchmarkCreate is making the default cluster (3 combined nodes) and
// running it until every broker is registered and unfenced: what every
// seek that replays from the start, and every standby replay, pays first.
func BenchmarkCreate(b *testing.B) {
	for b.Loop() {
		c, err := New(Config{Brokers: 3, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Advance(3 * time.Second); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}
