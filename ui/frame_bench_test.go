package ui

import (
	"io"
	"testing"
	"time"

	"kafkascope/core/player"
)

// frameBench is an app playing a workload, for the frame benchmarks: each
// iteration is one animation frame as the page runs it (App.Frame, then,
// when it asks for one, a build, Prepare and a render).
func frameBench(b *testing.B, at *appTest) {
	b.Helper()
	dt := time.Second / 60
	at.r.SetWriter(io.Discard)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at.now = at.now.Add(dt)
		if at.a.Frame(at.now, dt) {
			br := at.env.RunBuild(at.a)
			Prepare(br, at.a.HandlerPanic)
			if err := at.r.Render(br); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchCommands runs commands on a fresh app and lets the cluster settle.
func benchApp(b *testing.B, cmds ...string) *appTest {
	at := newAppTest(b, "", "")
	for _, c := range cmds {
		at.p.Run(c, nil)
		at.idle()
	}
	at.p.Paused = false
	at.frames(120, time.Second/60)
	return at
}

// A 9-broker cluster with a 30-partition topic, producers and a consumer
// group, playing at speed 1.
func BenchmarkFrame9x30(b *testing.B) {
	at := benchApp(b,
		"cluster create --brokers 9",
		"kafka-topics.sh --create --topic load --partitions 30 --replication-factor 3",
		"kafka-console-consumer.sh --topic load --group g --consumer-property client.id=c1 &",
		"kafka-console-consumer.sh --topic load --group g --consumer-property client.id=c2 &",
		"kafka-console-consumer.sh --topic load --group g --consumer-property client.id=c3 &",
		"kafka-verifiable-producer.sh --bootstrap-server kafka-1:9092 --topic load --throughput 200 --max-messages 100000 &",
		"kafka-verifiable-producer.sh --bootstrap-server kafka-2:9092 --topic load --throughput 200 --max-messages 100000 &",
	)
	frameBench(b, at)
}

// A 1000-partition topic on 3 brokers, playing at speed 1.
func BenchmarkFrame1000(b *testing.B) {
	at := benchApp(b,
		"cluster create --brokers 3",
		"kafka-topics.sh --create --topic big --partitions 1000 --replication-factor 3",
	)
	frameBench(b, at)
}

// Scenario 22 at its last step, playing on at speed 1.
func BenchmarkFrameScenario22(b *testing.B) {
	at := newAppTest(b, "", "#scenario=22-rebalance&step=30")
	at.p.Paused = false
	_ = player.Speeds
	at.frames(60, time.Second/60)
	frameBench(b, at)
}

// A 3-broker 3.8 cluster with a transactional producer (transactions of
// 3 s) on a 3-partition topic, playing at speed 1: markers, open records
// and the LSO on the strips every frame (core/view reads the batch
// headers of each strip's window).
func BenchmarkFrameTxn(b *testing.B) {
	at := benchApp(b,
		"cluster create --brokers 3 --controllers 1 --version 3.8",
		"kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3",
		"kafka-producer-perf-test.sh --topic t --num-records 100000 --record-size 8 --throughput 20 --transaction-duration-ms 3000 --producer-props bootstrap.servers=kafka-1:9092 &",
	)
	frameBench(b, at)
}
