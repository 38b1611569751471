package client

import (
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// testProducer is a producer whose metadata knows topic with the given
// partition leaders (-1: no leader), never started on a network.
func testProducer(t *testing.T, cfg ProducerConfig, topic string, leaders ...int32) *Producer {
	t.Helper()
	w := sim.NewWorld(1)
	p := NewProducer("client:1", []sim.Addr{"kafka-1:9092"}, cfg, w.Rand("test"), func(Level, string, string) {})
	ti := &TopicInfo{}
	for _, l := range leaders {
		ti.Partitions = append(ti.Partitions, PartitionInfo{Leader: l})
	}
	p.meta.info[topic] = ti
	return p
}

// RoundRobinPartitioner counts per topic over the available partitions,
// or over all of them when none has a leader.
func TestRoundRobinPartitioner(t *testing.T) {
	cfg := DefaultProducerConfig(release.Default)
	cfg.Partitioner = RoundRobinPartitioner
	p := testProducer(t, cfg, "t", 1, -1, 3)
	var got []int32
	for range 4 {
		got = append(got, p.partitionFor(ProducerRecord{Topic: "t", Partition: -1, Key: []byte("k")}, 3))
	}
	if want := []int32{0, 2, 0, 2}; !equal32(got, want) {
		t.Fatalf("available partitions: got %v, want %v", got, want)
	}
	q := testProducer(t, cfg, "u", -1, -1, -1)
	got = got[:0]
	for range 4 {
		got = append(got, q.partitionFor(ProducerRecord{Topic: "u", Partition: -1}, 3))
	}
	if want := []int32{0, 1, 2, 0}; !equal32(got, want) {
		t.Fatalf("no partition available: got %v, want %v", got, want)
	}
	if !p.customPartitioner() {
		t.Fatal("RoundRobinPartitioner is a partitioner.class: records opening a batch are partitioned again")
	}
}

// The VIP example: vip keys over partitions 0-3, others over the rest, by
// murmur2 within the group (Utils.murmur2, as Kafka's
// BuiltInPartitioner hashes keys).
func TestVipPartitioner(t *testing.T) {
	cfg := DefaultProducerConfig(release.Default)
	cfg.Partitioner = VipPartitioner
	p := testProducer(t, cfg, "c", 1, 1, 1, 1, 1, 1)
	for key, want := range map[string]int32{"vip-kim": 3, "vip-lee": 2, "vip-park": 1, "kim": 5, "lee": 4, "user-1": 4} {
		if got := p.partitionFor(ProducerRecord{Topic: "c", Partition: -1, Key: []byte(key)}, 6); got != want {
			t.Errorf("%s: partition %d, want %d", key, got, want)
		}
	}
	// An explicit partition wins over any partitioner.
	if got := p.partitionFor(ProducerRecord{Topic: "c", Partition: 5, Key: []byte("vip-kim")}, 6); got != 5 {
		t.Errorf("explicit partition: %d", got)
	}
	// With 4 partitions or fewer everything shares them.
	if got := p.partitionFor(ProducerRecord{Topic: "c", Partition: -1, Key: []byte("kim")}, 4); got != 1 {
		t.Errorf("kim over 4 partitions: %d, want 1", got)
	}
}

// Keys hash with murmur2 unless partitioner.ignore.keys (the sticky
// partitioner with keys ignored) is set.
func TestKeyedAndIgnoredKeys(t *testing.T) {
	p := testProducer(t, DefaultProducerConfig(release.Default), "t", 1, 2, 3)
	if got := p.partitionFor(ProducerRecord{Topic: "t", Partition: -1, Key: []byte("key1")}, 3); got != 2 {
		t.Fatalf("key1 → %d, want 2", got)
	}
	cfg := DefaultProducerConfig(release.Default)
	cfg.Partitioner = UniformStickyPartitioner
	q := testProducer(t, cfg, "t", 1, 2, 3)
	first := q.partitionFor(ProducerRecord{Topic: "t", Partition: -1, Key: []byte("key1")}, 3)
	for _, k := range []string{"key2", "abc", "hello"} {
		if got := q.partitionFor(ProducerRecord{Topic: "t", Partition: -1, Key: []byte(k)}, 3); got != first {
			t.Fatalf("ignored keys should stick to partition %d, %s went to %d", first, k, got)
		}
	}
	if q.customPartitioner() {
		t.Fatal("the sticky partitioner is built in, not a partitioner.class")
	}
}

func TestIncrementSequenceWraps(t *testing.T) {
	if got := incrementSequence(2147483647, 1); got != 0 {
		t.Fatalf("MaxInt32+1 → %d, want 0", got)
	}
	if got := incrementSequence(2147483646, 3); got != 1 {
		t.Fatalf("→ %d, want 1", got)
	}
	if got := incrementSequence(5, 3); got != 8 {
		t.Fatalf("→ %d, want 8", got)
	}
}

// The idempotent producer's in-flight rules (TransactionManager and
// RecordAccumulator.shouldStopDrainBatchesForPartition): a batch retried
// after an earlier one failed waits until it is the first in flight, and
// OUT_OF_ORDER_SEQUENCE_NUMBER is retried only for a batch that is not the
// next after the last acknowledged sequence.
func TestIdempotentOrdering(t *testing.T) {
	p := testProducer(t, DefaultProducerConfig(release.Default), "t", 1)
	tp := topicPartition{"t", 0}
	q := p.queue(tp)
	if !p.stopDrainForPartition(&producerBatch{tp: tp, pq: q, baseSeq: -1}) {
		t.Fatal("nothing may be drained before the producer has an id")
	}
	p.idem.producerID, p.idem.epoch = 0, 0
	b1 := &producerBatch{tp: tp, pq: q, baseSeq: -1, records: make([]record.Record, 1)}
	b2 := &producerBatch{tp: tp, pq: q, baseSeq: -1, records: make([]record.Record, 2)}
	b3 := &producerBatch{tp: tp, pq: q, baseSeq: -1, records: make([]record.Record, 1)}
	q.batches = []*producerBatch{b1, b2, b3}
	for _, b := range q.batches {
		p.assignSequence(b)
	}
	if b1.baseSeq != 0 || b2.baseSeq != 1 || b3.baseSeq != 3 || p.idem.nextSeq[tp] != 4 {
		t.Fatalf("sequences %d %d %d next %d", b1.baseSeq, b2.baseSeq, b3.baseSeq, p.idem.nextSeq[tp])
	}
	// b1 failed and is retried while b2 and b3 are in flight: b1 may go
	// (it is the first in flight), b2 may not overtake it after an
	// OUT_OF_ORDER_SEQUENCE_NUMBER.
	b2.inFlight, b3.inFlight = true, true
	if p.stopDrainForPartition(b1) {
		t.Fatal("the first batch in flight may be retried")
	}
	b2.inFlight = false
	if !p.stopDrainForPartition(b2) {
		t.Fatal("a later batch must wait behind the retry of an earlier one")
	}
	if !p.canRetrySequence(b2) {
		t.Fatal("b2 failed only because b1 did: it is retried")
	}
	if p.idem.epoch != 0 {
		t.Fatal("a batch behind a failed one does not bump the epoch")
	}
	p.ackedSequence(b1)
	p.remove(b1)
	// With b1 acknowledged, b2 is the next sequence: its
	// OUT_OF_ORDER_SEQUENCE_NUMBER is a real gap. The epoch is bumped, and
	// b2 goes again from sequence 0 once b3 (old epoch) is back.
	if !p.canRetrySequence(b2) || p.idem.epoch != 1 {
		t.Fatalf("a real gap bumps the epoch and retries: epoch %d", p.idem.epoch)
	}
	if !p.stopDrainForPartition(b2) {
		t.Fatal("nothing of the new epoch goes while a batch of the old one is in flight")
	}
	b3.inFlight = false
	if p.stopDrainForPartition(b2) {
		t.Fatal("with the old epoch's batches back, the partition starts again")
	}
	p.assignSequence(b2)
	p.assignSequence(b3)
	if b2.baseSeq != 0 || b2.epoch != 1 || b3.baseSeq != 2 || b3.epoch != 1 {
		t.Fatalf("after the bump: b2 %d@%d, b3 %d@%d", b2.baseSeq, b2.epoch, b3.baseSeq, b3.epoch)
	}
	// A non-idempotent producer puts a retried batch back in front.
	np := testProducer(t, ProducerConfig{EnableIdempotence: false}, "t", 1)
	nq := np.queue(tp)
	nq.batches = []*producerBatch{b1, b2, b3}
	for _, b := range nq.batches {
		b.pq = nq
	}
	np.reenqueue(b3)
	if nq.batches[0] != b3 || nq.batches[1] != b1 || nq.batches[2] != b2 {
		t.Fatal("reenqueue without idempotence puts the batch first")
	}
}

func equal32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A lone batch behind an in-flight one lingers: in Kafka the in-flight
// batch has left the accumulator's deque, so the deque holds one batch and
// is not "full" (RecordAccumulator.ready). A second batch waiting behind
// it makes it ready at once.
func TestBatchBehindInFlightStillLingers(t *testing.T) {
	cfg := DefaultProducerConfig(release.Default)
	cfg.Linger = 100 * time.Millisecond
	p := testProducer(t, cfg, "t", 1)
	tp := topicPartition{"t", 0}
	q := p.queue(tp)
	sent := &producerBatch{tp: tp, pq: q, inFlight: true, sizeBytes: 100}
	lone := &producerBatch{tp: tp, pq: q, created: sim.Time(0), sizeBytes: 100}
	q.batches = []*producerBatch{sent, lone}
	at := sim.Time(0).Add(10 * time.Millisecond)
	if p.ready(lone, at) {
		t.Fatal("a lone batch behind an in-flight one was sent before its linger.ms")
	}
	if !p.ready(lone, sim.Time(0).Add(100*time.Millisecond)) {
		t.Fatal("the batch is not ready once linger.ms is over")
	}
	q.batches = append(q.batches, &producerBatch{tp: tp, pq: q, created: at})
	if !p.ready(lone, at) {
		t.Fatal("a batch with another waiting behind it must be ready")
	}
}

// TestProducerDefaultsByRelease: KIP-1030 raised linger.ms from 0 to 5 in
// Kafka 4.0, which also stopped partitioning a record again when it opens
// a new batch; nothing else in the defaults moved.
func TestProducerDefaultsByRelease(t *testing.T) {
	old, now := DefaultProducerConfig(release.Version{Major: 3, Minor: 8}), DefaultProducerConfig(release.Version{Major: 4, Minor: 3})
	if old.Linger != 0 || now.Linger != 5*time.Millisecond {
		t.Errorf("linger.ms: 3.8 %v, 4.3 %v", old.Linger, now.Linger)
	}
	if !old.PartitionAgainOnNewBatch || now.PartitionAgainOnNewBatch {
		t.Errorf("abortOnNewBatch: 3.8 %v, 4.3 %v", old.PartitionAgainOnNewBatch, now.PartitionAgainOnNewBatch)
	}
	now.Linger, now.PartitionAgainOnNewBatch, now.Release = old.Linger, old.PartitionAgainOnNewBatch, old.Release
	if old != now {
		t.Errorf("other defaults differ: %+v vs %+v", old, now)
	}
	// KIP-679 (3.0) made acks=all and enable.idempotence=true the
	// defaults; 2.8 had acks=1 and no idempotence, and nothing else moved.
	zk := DefaultProducerConfig(release.Version{Major: 2, Minor: 8})
	if zk.Acks != 1 || zk.EnableIdempotence || old.Acks != -1 || !old.EnableIdempotence {
		t.Errorf("2.8: acks %d, enable.idempotence %v; 3.8: acks %d, enable.idempotence %v", zk.Acks, zk.EnableIdempotence, old.Acks, old.EnableIdempotence)
	}
	zk.Acks, zk.EnableIdempotence, zk.Release = old.Acks, old.EnableIdempotence, old.Release
	if zk != old {
		t.Errorf("2.8's other defaults differ from 3.8's: %+v vs %+v", zk, old)
	}
}
