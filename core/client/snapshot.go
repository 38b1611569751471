package client

import (
	"cmp"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// This file gives views a read-only copy of a client's internals at one
// instant (the diagram draws producers' accumulators and consumers' groups
// from it). A snapshot shares nothing with the live client: callers may keep
// it across steps, and nothing they do to it reaches the client.

// ProducerState is a producer's accumulator and sender at one instant.
type ProducerState struct {
	ClientID     string
	Acks         int16
	BatchSize    int           // batch.size
	Linger       time.Duration // linger.ms
	MaxInFlight  int           // max.in.flight.requests.per.connection
	Retries      int           // retries
	BufferMemory int64         // buffer.memory
	// BufferUsed is what batches hold of buffer.memory (a batch takes
	// batch.size, or more for a larger record, until it completes).
	BufferUsed int64
	// Waiting counts sends blocked (KafkaProducer.send waits up to
	// max.block.ms): on their topic's metadata, or on buffer.memory when
	// WaitingForMemory (the first blocked send's topic is known).
	Waiting          int
	WaitingForMemory bool
	// Idempotent is enable.idempotence; ProducerID and ProducerEpoch are
	// from InitProducerId (-1 until it succeeded).
	Idempotent    bool
	ProducerID    int64
	ProducerEpoch int16
	// Partitions are the accumulator's queues, in first-use order (the
	// order the sender drains them); a queue that emptied stays listed.
	Partitions []ProducerPartitionState
	// InFlight is, per broker that has any, the Produce requests sent and
	// not yet answered (at most MaxInFlight each), by broker id.
	InFlight []ProducerInFlight
	Closing  bool // close() was called: every batch is sent at once
}

// ProducerPartitionState is one partition's queue of batches, oldest first.
type ProducerPartitionState struct {
	Topic     string
	Partition int32
	Batches   []ProducerBatchState
	// NextSequence is the sequence the next drained batch gets, and
	// LastAckedSequence the last one acknowledged (-1: none), for an
	// idempotent producer.
	NextSequence      int32
	LastAckedSequence int32
}

// ProducerBatchState is one ProducerBatch.
type ProducerBatchState struct {
	Records   int
	SizeBytes int // the accumulated estimate compared with batch.size
	Created   sim.Time
	// Attempts counts the retries so far (0: never failed); RetryAt is
	// when the backoff after the last failure ends.
	Attempts int
	RetryAt  sim.Time
	InFlight bool // in a Produce request not yet answered
	Closed   bool // drained once: no more records may join
	// BaseSequence is its first record's sequence number (idempotence),
	// given when first drained and kept across retries; -1 before.
	BaseSequence int32
	// Ready: the sender may send it now (full, linger.ms over, a batch
	// behind it, a retry whose backoff ended, or the producer closing).
	Ready bool
}

// ProducerInFlight is the Produce requests in flight to one broker.
type ProducerInFlight struct {
	Broker   int32
	Requests int
}

// State copies the producer's accumulator and sender at now.
func (p *Producer) State(now sim.Time) ProducerState {
	s := ProducerState{
		ClientID: p.cfg.ClientID, Acks: p.cfg.Acks, BatchSize: p.cfg.BatchSize, Linger: p.cfg.Linger,
		MaxInFlight: p.cfg.MaxInFlight, Retries: p.cfg.Retries, Waiting: len(p.wait), Closing: p.closing,
		BufferMemory: p.cfg.BufferMemory, BufferUsed: p.memUsed, Idempotent: p.idem != nil,
	}
	s.ProducerID, s.ProducerEpoch = p.ProducerID()
	s.WaitingForMemory = p.waitingForMemory()
	for _, pq := range p.order {
		tp := pq.tp
		ps := ProducerPartitionState{Topic: tp.topic, Partition: tp.partition, NextSequence: -1, LastAckedSequence: -1}
		if p.idem != nil {
			ps.NextSequence = p.idem.nextSeq[tp]
			if v, ok := p.idem.lastAcked[tp]; ok {
				ps.LastAckedSequence = v
			}
		}
		for _, b := range pq.batches {
			ps.Batches = append(ps.Batches, ProducerBatchState{
				Records: len(b.records), SizeBytes: b.sizeBytes, Created: b.created,
				Attempts: b.attempts, RetryAt: b.retryAt, InFlight: b.inFlight, Closed: b.closed,
				Ready: p.ready(b, now), BaseSequence: b.baseSeq,
			})
		}
		s.Partitions = append(s.Partitions, ps)
	}
	// inFl is a map: list it in broker id order.
	for id, n := range p.inFl {
		if n > 0 {
			s.InFlight = append(s.InFlight, ProducerInFlight{Broker: id, Requests: n})
		}
	}
	sorts.Func(s.InFlight, func(a, b ProducerInFlight) int { return cmp.Compare(a.Broker, b.Broker) })
	return s
}

// ConsumerState is a consumer's group membership and positions at one
// instant.
type ConsumerState struct {
	ClientID string
	GroupID  string // "" without a group (assigned partitions)
	// MemberID, Generation and MemberState are the member as the consumer
	// sees itself (AbstractCoordinator.MemberState: UNJOINED,
	// PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE); "" and -1
	// without a group.
	MemberID    string
	Generation  int32
	MemberState string
	// Coordinator is the broker the consumer found for its group (-1:
	// not known).
	Coordinator int32
	Assigned    []ConsumerPartitionState // in assignment order
}

// ConsumerPartitionState is one assigned partition and the consumer's
// position in it: the next offset it will fetch (-1 while unknown).
type ConsumerPartitionState struct {
	Topic     string
	Partition int32
	Position  int64
}

// State copies the consumer's membership and positions.
func (c *Consumer) State() ConsumerState {
	s := ConsumerState{ClientID: c.cfg.ClientID, Generation: -1, Coordinator: -1}
	if c.grp != nil {
		s.GroupID = c.cfg.GroupID
		s.MemberID, s.Generation, s.MemberState = c.Member()
		if c.grp.known {
			s.Coordinator = c.grp.coordID
		}
	}
	for _, tp := range c.assigned {
		ps := ConsumerPartitionState{Topic: tp.topic, Partition: tp.partition, Position: -1}
		if pos := c.pos[tp]; pos != nil {
			ps.Position = pos.offset
		}
		s.Assigned = append(s.Assigned, ps)
	}
	return s
}
