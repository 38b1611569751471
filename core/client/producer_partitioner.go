package client

import (
	"bytes"

	"kafkascope/core/hashing"
)

// Partitioner classes a producer's partitioner.class may name. Kafka loads
// any class from the classpath; the simulator knows these (and refuses
// others with Kafka's "cannot be found").
const (
	// RoundRobinPartitioner spreads records over the available partitions
	// in turn, keys ignored.
	RoundRobinPartitioner = "org.apache.kafka.clients.producer.RoundRobinPartitioner"
	// UniformStickyPartitioner (deprecated) is the sticky partitioner with
	// keys ignored.
	UniformStickyPartitioner = "org.apache.kafka.clients.producer.UniformStickyPartitioner"
	// DefaultPartitioner (deprecated) behaves as the built-in partitioner.
	DefaultPartitioner = "org.apache.kafka.clients.producer.internals.DefaultPartitioner"
	// VipPartitioner is a simulator example class, the custom partitioner of
	// the study notes: records whose key starts with "vip" go to the first
	// 4 partitions, every other keyed record to the remaining ones (2 in
	// the notes' 6-partition topic), by murmur2 of the key within its group;
	// a topic with 4 partitions or fewer puts everything in partitions 0-3.
	// Keyless records go to partition 0 of their group at random.
	VipPartitioner = "kafkascope.VipPartitioner"
)

// VipPartitions is how many partitions VipPartitioner reserves for VIP keys.
const VipPartitions = 4

// KnownPartitioner reports whether the simulator implements class.
func KnownPartitioner(class string) bool {
	switch class {
	case RoundRobinPartitioner, UniformStickyPartitioner, DefaultPartitioner, VipPartitioner:
		return true
	}
	return false
}

// customPartitioner reports whether a configured partitioner.class is in
// use (KafkaProducer keeps partitioner == null for the built-in one; a
// custom one makes the accumulator abort on a new batch and ask again).
func (p *Producer) customPartitioner() bool {
	switch p.cfg.Partitioner {
	case "", DefaultPartitioner, UniformStickyPartitioner:
		return false
	}
	return true
}

// partitionFor picks a record's partition as KafkaProducer.partition does:
// the record's own partition, else the configured partitioner class, else
// murmur2 of the key, else the uniform sticky partitioner.
func (p *Producer) partitionFor(rec ProducerRecord, n int32) int32 {
	switch {
	case rec.Partition >= 0:
		return rec.Partition
	case p.cfg.Partitioner == RoundRobinPartitioner:
		return p.roundRobin(rec.Topic, n)
	case p.cfg.Partitioner == VipPartitioner:
		return p.vipPartition(rec, n)
	case rec.Key != nil && p.cfg.Partitioner != UniformStickyPartitioner:
		return hashing.KeyPartition(rec.Key, n)
	}
	return p.stickyPartition(rec.Topic, n)
}

// roundRobin is RoundRobinPartitioner.partition: a per-topic counter, taken
// modulo the available partitions (those with a leader), or all of them
// if none is available.
func (p *Producer) roundRobin(topic string, n int32) int32 {
	if p.rrCounter == nil {
		p.rrCounter = map[string]int32{}
	}
	next := p.rrCounter[topic]
	p.rrCounter[topic] = next + 1
	avail := p.availablePartitions(topic)
	if len(avail) == 0 {
		return hashing.ToPositive(next) % n
	}
	return avail[hashing.ToPositive(next)%int32(len(avail))]
}

// vipPartition is the simulator's example custom partitioner (see
// VipPartitioner).
func (p *Producer) vipPartition(rec ProducerRecord, n int32) int32 {
	vip := min(VipPartitions, n)
	first, count := int32(0), vip
	if !bytes.HasPrefix(rec.Key, []byte("vip")) && n > vip {
		first, count = vip, n-vip
	}
	if rec.Key == nil {
		return first + int32(p.rand.Intn(int(count)))
	}
	return first + hashing.KeyPartition(rec.Key, count)
}

func (p *Producer) availablePartitions(topic string) []int32 {
	var avail []int32
	if t := p.meta.Topic(topic); t != nil {
		for i, pi := range t.Partitions {
			if pi.Leader >= 0 {
				avail = append(avail, int32(i))
			}
		}
	}
	return avail
}

// stickyPartition is the built-in uniform sticky partitioner: stay on one
// partition for batch.size bytes, then pick another available one at
// random.
func (p *Producer) stickyPartition(topic string, n int32) int32 {
	sp, ok := p.sticky[topic]
	if !ok || p.stickyBytes[topic] >= p.cfg.BatchSize {
		avail := p.availablePartitions(topic)
		if len(avail) == 0 {
			sp = int32(p.rand.Intn(int(n)))
		} else {
			sp = avail[p.rand.Intn(len(avail))]
		}
		p.sticky[topic] = sp
		p.stickyBytes[topic] = 0
	}
	return sp
}
