package client

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// producerRig runs a producer in a world with a broker that answers
// Metadata only (one partition per topic, led by broker 1).
type producerRig struct {
	t *testing.T
	w *sim.World
	p *Producer
}

func newProducerRig(t *testing.T, cfg ProducerConfig) *producerRig {
	t.Helper()
	r := &producerRig{t: t, w: sim.NewWorld(1)}
	r.p = NewProducer("client:1", []sim.Addr{"kafka-1:9092"}, cfg, r.w.Rand("test"), func(Level, string, string) {})
	for host, proc := range map[string]sim.Process{
		"kafka-1": &metadataBroker{self: "kafka-1:9092", delay: time.Millisecond},
		"client":  &Process{Handlers: []Handler{r.p}},
	} {
		if err := r.w.Spawn(host, proc); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *producerRig) do(fn func(env *sim.Env)) {
	r.t.Helper()
	if err := r.w.Call("client", "test", fn); err != nil {
		r.t.Fatal(err)
	}
	if err := r.w.RunFor(time.Second); err != nil {
		r.t.Fatal(err)
	}
}

// A record whose estimated size is above max.request.size, or above
// buffer.memory, fails through its callback with Kafka's
// RecordTooLargeException messages before it is queued
// (KafkaProducer.ensureValidRecordSize); max.request.size is checked first.
// Before, the first was queued and sent and the second waited max.block.ms
// for memory that could never be free.
func TestRecordTooLargeFailsBeforeItIsQueued(t *testing.T) {
	value := []byte(strings.Repeat("x", 50)) // 61 + 21 + 1 + 1 + 50 + 1 = 135 bytes
	for _, c := range []struct {
		name               string
		maxRequest, buffer int
		want               string
	}{
		{"max.request.size", 100, 100, "org.apache.kafka.common.errors.RecordTooLargeException: The message is 135 bytes when serialized which is larger than 100, which is the value of the max.request.size configuration."},
		{"buffer.memory", 1000, 100, "org.apache.kafka.common.errors.RecordTooLargeException: The message is 135 bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration."},
		{"just fits", 135, 135, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultProducerConfig(release.Default)
			cfg.MaxRequestSize, cfg.BufferMemory, cfg.BatchSize, cfg.Linger = c.maxRequest, int64(c.buffer), 100, time.Hour
			r := newProducerRig(t, cfg)
			var got []string
			r.do(func(env *sim.Env) {
				r.p.Send(env, ProducerRecord{Topic: "t", Partition: -1, Value: []byte("warm-up")}, func(*sim.Env, RecordMetadata, *Error) {})
			})
			r.do(func(env *sim.Env) {
				r.p.Send(env, ProducerRecord{Topic: "t", Partition: -1, Value: value}, func(_ *sim.Env, _ RecordMetadata, err *Error) {
					if err != nil {
						got = append(got, err.Error())
					}
				})
				if c.want != "" && len(got) != 1 {
					t.Errorf("the callback ran %d times within send, want once", len(got))
				}
			})
			switch {
			case c.want == "" && len(got) != 0:
				t.Fatalf("a record of exactly the limits failed: %v", got)
			case c.want != "" && (len(got) != 1 || got[0] != c.want):
				t.Fatalf("errors %q, want one %q", got, c.want)
			}
			wantPending := 2
			if c.want != "" {
				wantPending = 1
			}
			if n := r.p.Pending(); n != wantPending {
				t.Fatalf("%d records pending, want %d", n, wantPending)
			}
		})
	}
}

// A record that waited for its topic's metadata is checked once the
// metadata arrives (doSend's waitOnMetadata comes first). Its callback may
// close the producer, which runs the sender loop again from inside it: the
// record must already be off the waiting list then, or the nested loop
// fails it a second time and the outer one slices an empty list.
func TestRecordTooLargeCallbackMayCloseTheProducer(t *testing.T) {
	cfg := DefaultProducerConfig(release.Default)
	cfg.MaxRequestSize = 100
	r := newProducerRig(t, cfg)
	calls, closed := 0, false
	r.do(func(env *sim.Env) {
		r.p.Send(env, ProducerRecord{Topic: "t", Partition: -1, Value: []byte(strings.Repeat("x", 50))}, func(env *sim.Env, _ RecordMetadata, err *Error) {
			calls++
			if err == nil || !strings.Contains(err.Error(), "max.request.size") {
				t.Errorf("callback error %v", err)
			}
			r.p.Close(env, func(*sim.Env) { closed = true })
		})
		if calls != 0 {
			t.Error("the record failed before its topic's metadata was known")
		}
	})
	if calls != 1 || !closed {
		t.Fatalf("callback ran %d times, producer closed: %v; want once and closed", calls, closed)
	}
}

// With a partitioner.class the partitioner runs before the size check, as
// in KafkaProducer.doSend: a refused record still moves
// RoundRobinPartitioner's counter.
func TestPartitionerClassRunsBeforeTheSizeCheck(t *testing.T) {
	cfg := DefaultProducerConfig(release.Default)
	cfg.MaxRequestSize, cfg.Partitioner = 100, RoundRobinPartitioner
	p := testProducer(t, cfg, "t", 1, 1, 1)
	w := sim.NewWorld(1)
	var failed *Error
	if err := w.Spawn("client", &Process{Handlers: []Handler{p}, OnStart: func(env *sim.Env) {
		p.Send(env, ProducerRecord{Topic: "t", Partition: -1, Value: []byte(strings.Repeat("x", 50))}, func(_ *sim.Env, _ RecordMetadata, err *Error) { failed = err })
	}}); err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(0); err != nil {
		t.Fatal(err)
	}
	if failed == nil {
		t.Fatal("the record was not refused")
	}
	if got := p.partitionFor(ProducerRecord{Topic: "t", Partition: -1}, 3); got != 1 {
		t.Fatalf("next round-robin partition %d, want 1 (the refused record took 0)", got)
	}
}
