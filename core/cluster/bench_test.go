package cluster

import (
	"fmt"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// BenchmarkReplicatedProduce is the fixed workload of `make bench`: a
// 3-broker cluster, one topic with 6 partitions and replication factor 3,
// and an acks=all producer sending keyed records. Each iteration produces
// 1000 records and runs the simulation until every one is acknowledged. It
// reports simulated events per second and records per second of wall time.
func BenchmarkReplicatedProduce(b *testing.B) {
	c, err := New(Config{Brokers: 3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	createTopic(b, c, "bench", 6, 3)
	const perIter = 1000
	cfg := client.DefaultProducerConfig()
	cfg.ClientID = "bench"
	cfg.Acks = -1
	cfg.Linger = 5 * time.Millisecond
	var p *client.Producer
	acked := 0
	proc := &client.Process{OnStart: func(*sim.Env) {}}
	host, err := c.SpawnClient("bench-producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("bench"), func(client.Level, string, string) {})
		proc.Handlers = []client.Handler{p}
		return proc
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Advance(10 * time.Millisecond); err != nil {
		b.Fatal(err)
	}
	startEvents := c.World.Steps()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		target := acked + perIter
		err := c.World.Call(host, "send", func(env *sim.Env) {
			for j := 0; j < perIter; j++ {
				key := []byte(fmt.Sprintf("key-%d", j%64))
				p.Send(env, client.ProducerRecord{Topic: "bench", Partition: -1, Key: key, Value: make([]byte, 100)},
					func(_ *sim.Env, _ client.RecordMetadata, err *client.Error) {
						if err == nil {
							acked++
						}
					})
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.RunUntil(func() bool { return acked >= target }, time.Minute); err != nil {
			b.Fatal(err)
		}
		if acked < target {
			b.Fatalf("only %d of %d records acknowledged", acked, target)
		}
	}
	b.StopTimer()
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(c.World.Steps()-startEvents)/secs, "events/s")
	b.ReportMetric(float64(b.N*perIter)/secs, "records/s")
}

// BenchmarkIdleCluster measures the scheduler itself: a minute of simulated
// time on a 3-broker cluster with 6 replicated partitions and no clients
// (heartbeats, metadata fetches, follower long polls, checkpoints).
func BenchmarkIdleCluster(b *testing.B) {
	c, err := New(Config{Brokers: 3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	createTopic(b, c, "idle", 6, 3)
	start := c.World.Steps()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Advance(time.Minute); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(c.World.Steps()-start)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.N*60)/b.Elapsed().Seconds(), "sim-s/s")
}
