package client

import (
	"fmt"
	"math"
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
// it across retries while the producer id and epoch stay the same;
// nextSeq[tp] is one past the last sequence assigned under partGen[tp];
// lastAcked[tp] <= nextSeq[tp]-1. gen counts the (producer id, epoch)
// pairs the producer has had: it moves on InitProducerId and on every
// epoch bump, and a partition whose partGen is older starts again at
// sequence 0.
type transactionManager struct {
	producerID   int64 // -1 until InitProducerId succeeded
	epoch        int16
	gen          int
	initInFlight bool
	initRetryAt  sim.Time
	initNode     sim.Addr // where the last InitProducerId went (a connected node)
	nextSeq      map[topicPartition]int32
	lastAcked    map[topicPartition]int32
	partGen      map[topicPartition]int
}

func newTransactionManager() *transactionManager {
	return &transactionManager{producerID: record.NoProducerID, epoch: record.NoProducerEpoch,
		nextSeq: map[topicPartition]int32{}, lastAcked: map[topicPartition]int32{}, partGen: map[topicPartition]int{}}
}

// bumpEpoch is TransactionManager.bumpIdempotentProducerEpoch (KIP-360): a
// batch with a sequence failed for good, so the broker's sequence for its
// partition can no longer be trusted to follow ours. The idempotent
// producer moves to the next epoch locally (a new producer id when the
// epoch is exhausted); each partition starts again at sequence 0 under it,
// which the broker accepts for a new epoch, once the partition's batches
// of the old epoch are no longer in flight.
func (p *Producer) bumpEpoch() {
	tm := p.idem
	if tm.producerID < 0 {
		return
	}
	if tm.epoch == math.MaxInt16 {
		tm.producerID, tm.epoch = record.NoProducerID, record.NoProducerEpoch
	} else {
		tm.epoch++
	}
	tm.gen++
}

// batchFailed is called when a batch fails for good. An idempotent
// producer bumps its epoch; a transactional one keeps it (its
// transaction must abort, and only the coordinator bumps its epoch) and
// closes the gap instead: the partition's later batches and next
// sequence move down by the failed batch's records
// (TransactionManager.adjustSequencesDueToFailedBatch, 3.8.0).
func (p *Producer) batchFailed(b *producerBatch) {
	if p.idem == nil || b.baseSeq < 0 || b.gen != p.idem.gen {
		return
	}
	if p.txn == nil {
		p.bumpEpoch()
		return
	}
	n := int32(len(b.records))
	p.idem.nextSeq[b.tp] = decrementSequence(p.idem.nextSeq[b.tp], n)
	for _, o := range b.pq.batches {
		if o != b && o.baseSeq > b.baseSeq && o.gen == b.gen {
			o.baseSeq = decrementSequence(o.baseSeq, n)
		}
	}
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
	if p.txn != nil {
		return true // initTransactions gets it from the coordinator
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
		p.stuck.stuck(env, scopeProducerID(), producerIDCause(p.meta, to, r, err))
		switch {
		case err == nil && r.ErrorCode == protocol.NONE:
			// Kafka logs "ProducerId set to N with epoch E" at INFO, which
			// the tools do not show.
			tm.producerID, tm.epoch = r.ProducerID, r.ProducerEpoch
			tm.gen++
			p.stuck.cleared(scopeProducerID())
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
// (NetworkClient.leastLoadedNode, without its random starting point). The
// node the last InitProducerId went to (prefer) wins while it is known:
// Kafka prefers a node it is connected to over one it would have to
// connect to.
func (p *Producer) leastLoadedNode(prefer sim.Addr) sim.Addr {
	nodes := p.meta.nodes()
	if prefer != "" && slices.Contains(nodes, prefer) {
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

// assignSequence gives a batch drained for the first time (or for the
// first time under a new epoch) its sequence; a retry keeps its own.
func (p *Producer) assignSequence(b *producerBatch) {
	tm := p.idem
	if tm == nil || (b.baseSeq >= 0 && b.gen == tm.gen) {
		return
	}
	if tm.partGen[b.tp] != tm.gen {
		tm.partGen[b.tp] = tm.gen
		tm.nextSeq[b.tp] = 0
		delete(tm.lastAcked, b.tp)
	}
	b.pid, b.epoch, b.gen = tm.producerID, tm.epoch, tm.gen
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

// decrementSequence is DefaultRecordBatch.decrementSequence: seq - n,
// wrapping below 0 to the top of the int32 range.
func decrementSequence(seq, n int32) int32 {
	if seq < n {
		return 1<<31 - 1 - (n - seq) + 1
	}
	return seq - n
}

// producerInfo is what a batch's header carries.
func (p *Producer) producerInfo(b *producerBatch) record.ProducerInfo {
	if p.idem == nil {
		return record.NoProducer()
	}
	return record.ProducerInfo{ID: b.pid, Epoch: b.epoch, BaseSequence: b.baseSeq, Transactional: p.txn != nil}
}

// stopDrainForPartition is RecordAccumulator.shouldStopDrainBatchesForPartition
// for an idempotent producer: nothing is drained before the producer has
// an id, and a batch being retried goes only when it is the first of the
// partition's batches still in flight — so a retry never overtakes an
// earlier batch, and while one is pending the partition has only one
// request in flight.
func (p *Producer) stopDrainForPartition(first *producerBatch) bool {
	tm := p.idem
	if tm == nil {
		return false
	}
	if tm.producerID < 0 {
		return true
	}
	if p.txn != nil && !p.txn.added[first.tp] {
		// AddPartitionsToTxn before its first batch (under transactions
		// v2 the partition was added when the record was sent).
		p.txn.need(first.tp)
		return true
	}
	// After an epoch bump nothing of the new epoch goes while batches of the
	// old one are in flight (hasStaleProducerIdAndEpoch): sequence 0 of the
	// new epoch must not overtake them.
	for _, b := range first.pq.batches {
		if b.inFlight && b.baseSeq >= 0 && b.gen != tm.gen {
			return true
		}
	}
	if first.baseSeq < 0 || first.gen != tm.gen {
		return false
	}
	fs := p.firstInFlightSequence(first.pq)
	return fs >= 0 && first.baseSeq != fs
}

// firstInFlightSequence is the lowest sequence of the partition's batches
// of the current epoch that were sent and are not complete (retries
// included), or -1.
func (p *Producer) firstInFlightSequence(q *partitionQueue) int32 {
	fs := int32(-1)
	for _, b := range q.batches {
		if b.baseSeq >= 0 && b.gen == p.idem.gen && (fs < 0 || b.baseSeq < fs) {
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
	if p.idem == nil || b.baseSeq < 0 || b.gen != p.idem.gen {
		return
	}
	last, ok := p.idem.lastAcked[b.tp]
	if !ok || b.lastSequence() > last {
		p.idem.lastAcked[b.tp] = b.lastSequence()
	}
}

// canRetrySequence is TransactionManager.canRetry for
// OUT_OF_ORDER_SEQUENCE_NUMBER. A batch that is not the next one after the
// last acknowledged sequence failed only because an earlier batch did: it
// is retried behind it. A batch that is the next one found a real gap (the
// broker lost or never had the earlier sequence): the epoch is bumped and
// the batch is retried under the new epoch from sequence 0. A batch of an
// older epoch is retried and gets a new sequence.
func (p *Producer) canRetrySequence(b *producerBatch) bool {
	if b.gen != p.idem.gen {
		return true
	}
	last, ok := p.idem.lastAcked[b.tp]
	if !ok {
		last = -1
	}
	if incrementSequence(last, 1) == b.baseSeq {
		if p.txn != nil {
			return false // a real gap fails the batch, and the transaction with it
		}
		p.bumpEpoch()
	}
	return true
}

const loggerTransactionManager = "org.apache.kafka.clients.producer.internals.TransactionManager"
