package cluster

import (
	"fmt"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// WorkloadResult is what RunWorkload measured.
type WorkloadResult struct {
	Records int    // acknowledged records
	Events  uint64 // simulation events processed
}

// RunWorkload is the fixed benchmark workload (the same natively and in the
// browser): a 3-broker cluster, one topic with 6 partitions and replication
// factor 3, and an acks=all producer sending records with 64 distinct keys
// and 100-byte values in rounds of 1000, until records are acknowledged.
func RunWorkload(records int) (WorkloadResult, error) {
	var res WorkloadResult
	c, err := New(Config{Brokers: 3, Seed: 1, Stepped: true})
	if err != nil {
		return res, err
	}
	// A world no one runs again must be closed, or its goroutines keep it
	// in memory: each run left a whole cluster behind, so a benchmark's
	// heap grew with every iteration (in wasm a fifth of the time went to
	// growing the memory).
	defer c.Close()
	if err := createTopicForWorkload(c, "bench", 6, 3); err != nil {
		return res, err
	}
	cfg := client.DefaultProducerConfig(c.Release().Version)
	cfg.ClientID = "bench"
	cfg.Linger = 5 * time.Millisecond
	var p *client.Producer
	proc := &client.Process{}
	host, err := c.SpawnClient("bench-producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("bench"), func(client.Level, string, string) {})
		proc.Handlers = []client.Handler{p}
		return proc
	})
	if err != nil {
		return res, err
	}
	if err := c.Advance(10 * time.Millisecond); err != nil {
		return res, err
	}
	start := c.World.Steps()
	value := make([]byte, 100)
	// The 64 keys, made once: the benchmark measures the engine, not
	// fmt.Sprintf (a fifth of its allocations when made per record).
	keys := make([][]byte, 64)
	for j := range keys {
		keys[j] = []byte(fmt.Sprintf("key-%d", j))
	}
	for res.Records < records {
		round := min(1000, records-res.Records)
		target := res.Records + round
		err := c.World.Call(host, "send", func(env *sim.Env) {
			for j := 0; j < round; j++ {
				p.Send(env, client.ProducerRecord{Topic: "bench", Partition: -1, Key: keys[j%64], Value: value},
					func(_ *sim.Env, _ client.RecordMetadata, err *client.Error) {
						if err == nil {
							res.Records++
						}
					})
			}
		})
		if err != nil {
			return res, err
		}
		if err := c.RunUntil(func() bool { return res.Records >= target }, time.Minute); err != nil {
			return res, err
		}
		if res.Records < target {
			return res, fmt.Errorf("only %d of %d records acknowledged", res.Records, target)
		}
	}
	res.Events = c.World.Steps() - start
	return res, nil
}

func createTopicForWorkload(c *Cluster, name string, partitions int32, rf int16) error {
	if err := c.CreateTopic("bench-admin", name, partitions, rf, nil, nil); err != nil {
		return err
	}
	return c.Advance(100 * time.Millisecond)
}
