package client

import (
	"fmt"
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// transactionManager is the idempotent-producer part of Kafka's
// TransactionManager: the producer id and epoch from InitProducerId, and
// per partition the next sequence to assign and the last acknowledged one.
//
// Invariants: a batch gets its base sequence when first drained and keeps
// it across retries; nextSeq[tp] is one past the last sequence assigned;
// lastAcked[tp] <= nextSeq[tp]-1.
type transactionManager struct {
	producerID   int64 // -1 until InitProducerId succeeded
	epoch        int16
	initInFlight bool
	initRetryAt  sim.Time
	initNode     sim.Addr // where the last InitProducerId went (a connected node)
	nextSeq      map[topicPartition]int32
	lastAcked    map[topicPartition]int32
}

func newTransactionManager() *transactionManager {
	return &transactionManager{producerID: record.NoProducerID, epoch: record.NoProducerEpoch,
		nextSeq: map[topicPartition]int32{}, lastAcked: map[topicPartition]int32{}}
}

// ProducerID is the producer id and epoch an idempotent producer was
// given, or -1, -1 (not idempotent, or not yet known).
func (p *Producer) ProducerID() (int64, int16) {
	if p.idem == nil {
		return record.NoProducerID, record.NoProducerEpoch
	}
	return p.idem.producerID, p.idem.epoch
}

// maybeInitProducerID sends InitProducerId to the least loaded broker if
// the idempotent producer has no id yet. It reports whether produce must
// wait (no batch may be drained without a producer id).
func (p *Producer) maybeInitProducerID(env *sim.Env) bool {
	tm := p.idem
	if tm == nil || tm.producerID >= 0 {
		return false
	}
	if tm.initInFlight || env.Now() < tm.initRetryAt {
		return true
	}
	to := p.leastLoadedNode(tm.initNode)
	tm.initNode = to
	tm.initInFlight = true
	req := &protocol.InitProducerIdRequest{TransactionTimeoutMs: 60000, ProducerID: record.NoProducerID, ProducerEpoch: record.NoProducerEpoch}
	p.net.Send(env, to, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		tm.initInFlight = false
		r, _ := resp.(*protocol.InitProducerIdResponse)
		switch {
		case err == nil && r.ErrorCode == protocol.NONE:
			// Kafka logs "ProducerId set to N with epoch E" at INFO, which
			// the tools do not show.
			tm.producerID, tm.epoch = r.ProducerID, r.ProducerEpoch
		case err != nil || r.ErrorCode.Retriable():
			// The sender sleeps retry.backoff.ms before trying again.
			tm.initRetryAt = env.Now().Add(p.cfg.RetryBackoff)
			if err != nil {
				p.meta.RequestUpdate(env)
			}
		default:
			tm.initRetryAt = env.Now().Add(p.cfg.RetryBackoff)
			p.log(LevelError, fmt.Sprintf("Received error %s while initializing the producer id", r.ErrorCode), loggerTransactionManager)
		}
		p.run(env)
	})
	return true
}

// leastLoadedNode is the known broker with the fewest requests in flight
// (NetworkClient.leastLoadedNode, without its random starting point). An
// idle node already connected to (prefer) wins, as Kafka prefers ready
// connections.
func (p *Producer) leastLoadedNode(prefer sim.Addr) sim.Addr {
	nodes := p.meta.nodes()
	if prefer != "" && slices.Contains(nodes, prefer) && p.net.InFlight(prefer) == 0 {
		return prefer
	}
	best, bestN := nodes[0], -1
	for _, a := range nodes {
		if n := p.net.InFlight(a); bestN < 0 || n < bestN {
			best, bestN = a, n
		}
	}
	return best
}

// assignSequence gives a batch drained for the first time its sequence.
func (p *Producer) assignSequence(b *producerBatch) {
	tm := p.idem
	if tm == nil || b.baseSeq >= 0 {
		return
	}
	b.baseSeq = tm.nextSeq[b.tp]
	tm.nextSeq[b.tp] = incrementSequence(b.baseSeq, int32(len(b.records)))
}

// incrementSequence adds n, wrapping past MaxInt32 to 0
// (DefaultRecordBatch.incrementSequence).
func incrementSequence(seq, n int32) int32 {
	if seq > 1<<31-1-n {
		return n - (1<<31 - 1 - seq) - 1
	}
	return seq + n
}

// producerInfo is what a batch's header carries.
func (p *Producer) producerInfo(b *producerBatch) record.ProducerInfo {
	if p.idem == nil {
		return record.NoProducer()
	}
	return record.ProducerInfo{ID: p.idem.producerID, Epoch: p.idem.epoch, BaseSequence: b.baseSeq}
}

// stopDrainForPartition is RecordAccumulator.shouldStopDrainBatchesForPartition
// for an idempotent producer: nothing is drained before the producer has
// an id, and a batch being retried goes only when it is the first of the
// partition's batches still in flight — so a retry never overtakes an
// earlier batch, and while one is pending the partition has only one
// request in flight.
func (p *Producer) stopDrainForPartition(first *producerBatch) bool {
	if p.idem == nil {
		return false
	}
	if p.idem.producerID < 0 {
		return true
	}
	if first.baseSeq < 0 {
		return false
	}
	fs := p.firstInFlightSequence(first.tp)
	return fs >= 0 && first.baseSeq != fs
}

// firstInFlightSequence is the lowest sequence of the partition's batches
// that were sent and are not complete (retries included), or -1.
func (p *Producer) firstInFlightSequence(tp topicPartition) int32 {
	fs := int32(-1)
	for _, b := range p.queue[tp] {
		if b.baseSeq >= 0 && (fs < 0 || b.baseSeq < fs) {
			fs = b.baseSeq
		}
	}
	return fs
}

// lastSequence is the batch's last sequence.
func (b *producerBatch) lastSequence() int32 {
	return incrementSequence(b.baseSeq, int32(len(b.records)-1))
}

// ackedSequence records a successful batch (TransactionManager.handleCompletedBatch).
func (p *Producer) ackedSequence(b *producerBatch) {
	if p.idem == nil || b.baseSeq < 0 {
		return
	}
	last, ok := p.idem.lastAcked[b.tp]
	if !ok || b.lastSequence() > last {
		p.idem.lastAcked[b.tp] = b.lastSequence()
	}
}

// canRetrySequence is TransactionManager.canRetry for
// OUT_OF_ORDER_SEQUENCE_NUMBER: a batch that is not the next one after the
// last acknowledged sequence failed only because an earlier batch did, so
// it is retried behind it. A batch that is the next one found a real gap:
// Kafka would bump the epoch and reset sequences (KIP-360); the simulator
// fails it (docs/fidelity.md).
func (p *Producer) canRetrySequence(b *producerBatch) bool {
	last, ok := p.idem.lastAcked[b.tp]
	if !ok {
		last = -1
	}
	return incrementSequence(last, 1) != b.baseSeq
}

const loggerTransactionManager = "org.apache.kafka.clients.producer.internals.TransactionManager"
