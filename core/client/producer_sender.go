package client

import (
	"fmt"
	"math"
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// run is the sender loop: resolve records waiting for metadata, expire what
// is overdue, and send every ready batch whose leader is known.
func (p *Producer) run(env *sim.Env) {
	now := env.Now()
	wasBlocked := len(p.wait) > 0
	// Records waiting for their topic's metadata, in send order. Each send
	// blocks the sending thread, so the next record's max.block.ms only
	// starts once the previous one is resolved.
	for len(p.wait) > 0 {
		ws := p.wait[0]
		known := p.meta.Topic(ws.rec.Topic) != nil
		if known {
			if done, failed := p.accumulate(env, ws); done {
				p.popWait()
				if len(p.wait) > 0 {
					// The sending thread calls send() for the next record
					// only now: its max.block.ms starts now.
					p.wait[0].deadline = now.Add(p.cfg.MaxBlock)
				}
				if failed != nil {
					p.sendFailed(env, ws, failed)
				}
				continue
			}
		}
		if now < ws.deadline {
			break
		}
		p.popWait()
		if known {
			// BufferPool.allocate gave up: BufferExhaustedException.
			need := p.batchMemory(ws.rec)
			p.sendFailed(env, ws, &Error{Class: "org.apache.kafka.clients.producer.BufferExhaustedException", Message: fmt.Sprintf(
				"Failed to allocate %d bytes within the configured max blocking time %d ms. Total memory: %d bytes. Available memory: %d bytes. Poolable size: %d bytes",
				need, p.cfg.MaxBlock.Milliseconds(), p.cfg.BufferMemory, p.cfg.BufferMemory-p.memUsed, p.cfg.BatchSize)})
		} else {
			p.sendFailed(env, ws, &Error{Class: classTimeout, Message: fmt.Sprintf("Topic %s not present in metadata after %d ms.", ws.rec.Topic, p.cfg.MaxBlock.Milliseconds())})
		}
		if len(p.wait) > 0 {
			p.wait[0].deadline = now.Add(p.cfg.MaxBlock)
		}
	}
	p.expireBatches(env)
	if !p.maybeInitProducerID(env) {
		p.drain(env)
	}
	p.txnStep(env)
	p.maybeClose(env)
	p.schedule(env)
	if wasBlocked && len(p.wait) == 0 && p.onUnblock != nil {
		p.onUnblock(env)
	}
}

// popWait removes the first waiting send. Its slot is cleared first: the
// slice's backing array outlives the pop (appends reuse it), and the slot
// would keep the record and its callback alive until the array is
// replaced.
func (p *Producer) popWait() {
	p.wait[0] = nil
	p.wait = p.wait[1:]
}

// ready reports whether a batch may be sent now: it is full, or another
// batch waits behind it, or its linger is over (RecordAccumulator.ready).
// The queue here keeps in-flight batches until they complete, where
// Kafka's deque has already let them go, so they do not count as waiting
// behind: a lone batch behind an in-flight one still lingers.
func (p *Producer) ready(b *producerBatch, now sim.Time) bool {
	if b.inFlight || (b.attempts > 0 && now < b.retryAt) {
		return false
	}
	return p.closing || b.attempts > 0 || b.sizeBytes >= p.cfg.BatchSize || now.Sub(b.created) >= p.cfg.Linger || waiting(b.pq) > 1
}

// waiting counts tp's batches not in flight: Kafka's deque for tp.
func waiting(q *partitionQueue) int {
	n := 0
	for _, b := range q.batches {
		if !b.inFlight {
			n++
		}
	}
	return n
}

func (p *Producer) drain(env *sim.Env) {
	now := env.Now()
	// One request per leader, in the order leaders first had a batch ready
	// (a slice: the sender drains after every send, and mostly nothing is
	// ready yet).
	type req struct {
		node    int32
		addr    sim.Addr
		batches []*producerBatch
	}
	var reqs []req
	for _, pq := range p.order {
		q, tp := pq.batches, pq.tp
		if len(q) == 0 {
			continue
		}
		addr, leader, ok := p.meta.Leader(tp.topic, tp.partition)
		if !ok {
			p.stuck.stuck(env, scopeLeader(tp), noLeaderCause(p.meta, tp))
			p.meta.RequestUpdate(env)
			continue
		}
		if p.inFl[leader] >= p.cfg.MaxInFlight {
			continue
		}
		for _, b := range q {
			if b.inFlight {
				if p.cfg.MaxInFlight == 1 {
					break // guarantee order: one batch per partition in flight
				}
				continue
			}
			if p.stopDrainForPartition(b) {
				break
			}
			if p.ready(b, now) {
				p.assignSequence(b)
				i := slices.IndexFunc(reqs, func(r req) bool { return r.node == leader })
				if i < 0 {
					i = len(reqs)
					reqs = append(reqs, req{node: leader, addr: addr})
				}
				b.closed = true
				reqs[i].batches = append(reqs[i].batches, b)
			}
			break // one batch per partition per request
		}
	}
	for _, r := range reqs {
		p.send(env, r.node, r.addr, r.batches)
	}
}

func (p *Producer) send(env *sim.Env, node int32, addr sim.Addr, batches []*producerBatch) {
	req := &protocol.ProduceRequest{Version: p.produceVersion(), Acks: p.cfg.Acks, TimeoutMs: int32(p.cfg.RequestTimeout.Milliseconds())}
	if p.txn != nil {
		req.TransactionalID = p.txn.id
	}
	sizes := make([]int, len(batches))
	for i, b := range batches {
		b.inFlight = true
		data := record.Build(0, record.NoPartitionLeaderEpoch, p.producerInfo(b), b.records)
		req.Add(b.tp.topic, protocol.ProducePartition{Index: b.tp.partition, Records: data})
		sizes[i] = len(data)
	}
	p.metrics.drained(env.Now(), batches, sizes)
	sent := env.Now()
	if p.cfg.Acks == 0 {
		p.net.SendOneWay(env, addr, req)
		for _, b := range batches {
			p.complete(env, b, -1)
		}
		return
	}
	p.inFl[node]++
	var corr int32
	corr = p.net.Send(env, addr, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		p.inFl[node]--
		if err == nil {
			// The request's latency (ClientResponse.requestLatencyMs),
			// and the network client's throttle-time record of every
			// response it reads.
			p.metrics.requestTime.Record(env.Now(), latency(sent, env.Now()))
			p.metrics.throttle.Record(env.Now(), 0)
		}
		for _, b := range batches {
			leaderAnswered(env, p.stuck, p.meta, b.tp, node, err)
		}
		if err != nil {
			code, msg := protocol.NETWORK_EXCEPTION, fmt.Sprintf("Disconnected from node %d", node)
			if err == rpc.ErrTimeout {
				code, msg = protocol.REQUEST_TIMED_OUT, fmt.Sprintf("Disconnected from node %d due to timeout", node)
			}
			for _, b := range batches {
				p.completeBatch(env, b, corr, protocol.ProducePartitionResponse{ErrorCode: code, ErrorMessage: msg})
			}
			p.meta.RequestUpdate(env)
		} else {
			r := resp.(*protocol.ProduceResponse)
			for _, b := range batches {
				p.completeBatch(env, b, corr, findPartitionResponse(r, b.tp))
			}
		}
		p.run(env)
	})
}

func findPartitionResponse(r *protocol.ProduceResponse, tp topicPartition) protocol.ProducePartitionResponse {
	for _, t := range r.Topics {
		if t.Name != tp.topic {
			continue
		}
		for _, pr := range t.Partitions {
			if pr.Index == tp.partition {
				return pr
			}
		}
	}
	return protocol.ProducePartitionResponse{ErrorCode: protocol.UNKNOWN_SERVER_ERROR}
}

// completeBatch handles one partition's answer: success, a retry, or a final
// failure, as Kafka's Sender.completeBatch does.
func (p *Producer) completeBatch(env *sim.Env, b *producerBatch, corr int32, pr protocol.ProducePartitionResponse) {
	b.inFlight = false
	code := pr.ErrorCode
	if code == protocol.NONE {
		if p.stuck.cleared(scopeProduce(b.tp)) {
			env.Note(event.ProducerRecovered{Client: p.cfg.ClientID, TP: b.tp.storage()})
		}
		p.ackedSequence(b)
		p.complete(env, b, pr.BaseOffset)
		return
	}
	p.stuck.stuck(env, scopeProduce(b.tp), pr.Cause)
	errText := code.String()
	if pr.ErrorMessage != "" {
		errText += ". Error Message: " + pr.ErrorMessage
	}
	deliveryExpired := env.Now().Sub(b.created) >= p.cfg.DeliveryTimeout
	retriable := code.Retriable()
	if p.idem != nil && code == protocol.OUT_OF_ORDER_SEQUENCE_NUMBER {
		retriable = p.canRetrySequence(b)
	}
	if retriable && b.attempts < p.cfg.Retries && !deliveryExpired {
		p.log(LevelWarn, fmt.Sprintf("Got error produce response with correlation id %d on topic-partition %s, retrying (%d attempts left). Error: %s",
			corr, b.tp, p.cfg.Retries-b.attempts-1, errText), loggerSender)
		b.attempts++
		backoff := p.backoff(b.attempts)
		b.retryAt = env.Now().Add(backoff)
		p.reenqueue(b)
		p.metrics.retried(env.Now(), b)
	} else if len(pr.RecordErrors) > 0 {
		p.metrics.failed(env.Now(), b)
		p.failRecords(env, b, recordExceptions(pr))
	} else {
		msg := pr.ErrorMessage
		if msg == "" {
			msg = code.Message()
		}
		p.metrics.failed(env.Now(), b)
		p.fail(env, b, &Error{Class: code.Exception(), Message: msg})
	}
	if isInvalidMetadata(code) {
		if code == protocol.UNKNOWN_TOPIC_OR_PARTITION {
			p.log(LevelWarn, fmt.Sprintf("Received unknown topic or partition error in produce request on partition %s. The topic-partition may not exist or the user may not have Describe access to it", b.tp), loggerSender)
		} else {
			msg := pr.ErrorMessage
			if msg == "" {
				msg = code.Message()
			}
			p.log(LevelWarn, fmt.Sprintf("Received invalid metadata error in produce request on partition %s due to %s Going to request metadata update now", b.tp, Exception(code.Exception(), msg)), loggerSender)
		}
		p.meta.RequestUpdate(env)
	}
}

// isInvalidMetadata lists the errors whose exceptions extend
// InvalidMetadataException: they make the client refresh metadata.
func isInvalidMetadata(c protocol.ErrorCode) bool {
	switch c {
	case protocol.NOT_LEADER_OR_FOLLOWER, protocol.LEADER_NOT_AVAILABLE, protocol.UNKNOWN_TOPIC_OR_PARTITION,
		protocol.NETWORK_EXCEPTION, protocol.FENCED_LEADER_EPOCH, protocol.UNKNOWN_LEADER_EPOCH, protocol.KAFKA_STORAGE_ERROR:
		return true
	}
	return false
}

// backoff is retry.backoff.ms doubling per attempt up to
// retry.backoff.max.ms, with ±20% jitter (KIP-580, 3.7); before, every
// retry waited retry.backoff.ms.
func (p *Producer) backoff(attempts int) time.Duration {
	if !p.cfg.Release.AtLeast(3, 7) {
		return p.cfg.RetryBackoff
	}
	d := float64(p.cfg.RetryBackoff) * math.Pow(2, float64(attempts-1))
	d = math.Min(d, float64(p.cfg.RetryBackoffMax))
	d *= 0.8 + 0.4*p.rand.Float64()
	return time.Duration(d)
}

// remove takes a completed batch out of its queue and gives its memory
// back to buffer.memory.
func (p *Producer) remove(b *producerBatch) {
	q := b.pq.batches
	if i := slices.Index(q, b); i >= 0 {
		b.pq.batches = slices.Delete(q, i, i+1)
		p.memUsed -= int64(b.memory)
	}
}

// reenqueue puts a batch to retry back in its queue as
// RecordAccumulator.reenqueue does: without idempotence at the front (so
// it goes before everything queued, but after batches already in flight:
// the order of the partition can change), with idempotence in sequence
// order (the queue already is).
func (p *Producer) reenqueue(b *producerBatch) {
	if p.idem != nil {
		return
	}
	q := b.pq.batches
	if i := slices.Index(q, b); i > 0 {
		copy(q[1:i+1], q[:i])
		q[0] = b
	}
}

func (p *Producer) complete(env *sim.Env, b *producerBatch, base int64) {
	p.remove(b)
	for i, cb := range b.callbacks {
		off := int64(-1)
		if base >= 0 {
			off = base + int64(i)
		}
		cb(env, RecordMetadata{Topic: b.tp.topic, Partition: b.tp.partition, Offset: off, Timestamp: b.records[i].Timestamp}, nil)
	}
}

func (p *Producer) fail(env *sim.Env, b *producerBatch, err *Error) {
	p.remove(b)
	p.batchFailed(b)
	p.txnFailBatch(err)
	for _, cb := range b.callbacks {
		cb(env, RecordMetadata{Topic: b.tp.topic, Partition: b.tp.partition, Offset: -1}, err)
	}
}

// expireBatches fails batches that have waited longer than
// delivery.timeout.ms without being in flight.
func (p *Producer) expireBatches(env *sim.Env) {
	now := env.Now()
	for _, pq := range p.order {
		// A queue is in creation order (a retry put back in front is older
		// than what it passes), so the scan stops at the first batch still
		// within its time: a run costs O(partitions), not O(batches).
		// Failing a batch takes it out of the queue, so the scan walks a
		// copy, made only when something expires.
		if !p.expiring(pq.batches, now) {
			continue
		}
		for _, b := range slices.Clone(pq.batches) {
			if b.inFlight {
				continue
			}
			if now.Sub(b.created) < p.cfg.DeliveryTimeout {
				break
			}
			p.metrics.failed(now, b)
			p.fail(env, b, &Error{Class: classTimeout, Message: fmt.Sprintf("Expiring %d record(s) for %s:%d ms has passed since batch creation", len(b.records), b.tp, now.Sub(b.created).Milliseconds())})
		}
	}
}

// expiring reports whether expireBatches fails a batch of q now: whether
// its first batch not in flight is past delivery.timeout.ms.
func (p *Producer) expiring(q []*producerBatch, now sim.Time) bool {
	for _, b := range q {
		if !b.inFlight {
			return now.Sub(b.created) >= p.cfg.DeliveryTimeout
		}
	}
	return false
}

func (p *Producer) maybeClose(env *sim.Env) {
	if !p.closing || p.onClosed == nil || p.Pending() > 0 {
		return
	}
	done := p.onClosed
	p.onClosed = nil
	done(env)
}

// schedule arms a wake-up for the next moment something becomes due:
// linger expiry, a retry backoff, a delivery or max.block deadline.
func (p *Producer) schedule(env *sim.Env) {
	now := env.Now()
	var next sim.Time = -1
	consider := func(t sim.Time) {
		if t > now && (next < 0 || t < next) {
			next = t
		}
	}
	// Only the first waiting send's max.block.ms runs: the sending thread
	// is blocked on it, and the next one's clock starts when it ends.
	if len(p.wait) > 0 {
		consider(p.wait[0].deadline)
	}
	if p.idem != nil && p.idem.producerID < 0 && !p.idem.initInFlight {
		consider(p.idem.initRetryAt)
	}
	// Per partition only two batches matter: the oldest (the next to reach
	// delivery.timeout.ms) and the first not in flight (the only one drain
	// looks at: its linger or retry backoff).
	for _, pq := range p.order {
		q := pq.batches
		if len(q) == 0 {
			continue
		}
		oldest := q[0]
		for _, b := range q {
			if b.created < oldest.created {
				oldest = b
			}
			if !b.inFlight {
				if b.attempts > 0 {
					consider(b.retryAt)
				} else {
					consider(b.created.Add(p.cfg.Linger))
				}
				break
			}
		}
		consider(oldest.created.Add(p.cfg.DeliveryTimeout))
	}
	if next < 0 {
		return
	}
	if p.timer.Pending() && p.timer.At() <= next {
		return
	}
	p.timer.Stop()
	p.timer = env.After(next.Sub(now), "producer-sender", p.run)
}
