package broker

import (
	"errors"
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

func tp(topic string, p int32) storage.TopicPartition {
	return storage.TopicPartition{Topic: topic, Partition: p}
}

// delayedProduce is an acks=all produce waiting for the HW to pass its last
// offset (Kafka's DelayedProduce). It answers when every partition is
// satisfied or failed, or when TimeoutMs expires (REQUEST_TIMED_OUT).
type delayedProduce struct {
	from    sim.Addr
	resp    *protocol.ProduceResponse
	pending map[storage.TopicPartition]*pendingPart
	timer   *sim.Timer
	done    bool
	// building is true while the request's partitions are still being
	// appended: the produce cannot complete before all of them are.
	building bool
	// answer, if set, sends the answer instead of resp (a WriteTxnMarkers
	// waits as a produce does: txnmarkers.go).
	answer func(env *sim.Env)
}

type pendingPart struct {
	resp           *protocol.ProducePartitionResponse
	requiredOffset int64 // the batch's last offset + 1
}

// handleProduce appends to the leader's log and answers according to
// acks. Under transactions v2 the partitions where a transaction starts
// are first added to it at its coordinator (addpartitions.go); the
// request waits for that, and a partition that could not be added is
// answered its error without being appended.
func (b *Broker) handleProduce(env *sim.Env, from sim.Addr, req *protocol.ProduceRequest) bool {
	tps, pid, epoch := b.partitionsToAddToTxn(req)
	if len(tps) == 0 {
		return b.produceAppend(env, from, req, txnOperation{}, nil)
	}
	op := produceOperation(req.Version)
	b.addPartitionsToTxn(env, op, req.TransactionalID, pid, epoch, tps, func(env *sim.Env, errs map[storage.TopicPartition]protocol.ErrorCode) {
		if b.state == StateStopped {
			return
		}
		if b.produceAppend(env, from, req, op, errs) {
			b.done(env, from)
		}
	})
	return false
}

// produceAppend appends the request's partitions but those with an error
// already (refused: the leader could not add them to the transaction).
func (b *Broker) produceAppend(env *sim.Env, from sim.Addr, req *protocol.ProduceRequest, op txnOperation, refused map[storage.TopicPartition]protocol.ErrorCode) bool {
	resp := &protocol.ProduceResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var dp *delayedProduce
	if req.Acks == -1 {
		dp = &delayedProduce{from: from, resp: resp, pending: map[storage.TopicPartition]*pendingPart{}, building: true}
	}
	for _, t := range req.Topics {
		tr := protocol.ProduceTopicResponse{Name: t.Name}
		for _, pd := range t.Partitions {
			tr.Partitions = append(tr.Partitions, protocol.ProducePartitionResponse{Index: pd.Index, BaseOffset: -1, LogAppendTime: -1, LogStartOffset: -1})
		}
		resp.Topics = append(resp.Topics, tr)
	}
	for ti, t := range req.Topics {
		local, topic := b.topicPartitions(t.Name), b.image.Topics[t.Name]
		for pi, pd := range t.Partitions {
			pr := &resp.Topics[ti].Partitions[pi]
			if req.Acks != -1 && req.Acks != 0 && req.Acks != 1 {
				pr.ErrorCode = protocol.INVALID_REQUIRED_ACKS
				continue
			}
			if code, ok := refused[tp(t.Name, pd.Index)]; ok {
				pr.ErrorCode, pr.ErrorMessage = verificationError(op, code)
				continue
			}
			p := partitionAt(local, pd.Index)
			if topic.Partition(pd.Index) == nil {
				pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
				continue
			}
			// A partition of a known topic reaches
			// ReplicaManager.appendToLocalLog, which counts it first.
			b.meters(env).countAppend(env.Now(), t.Name, false, 0, 0, 0)
			switch {
			case p == nil || !p.isLeader:
				pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
				if st := b.image.Partition(t.Name, pd.Index); st != nil {
					pr.CurrentLeader = protocol.LeaderIDAndEpoch{LeaderID: st.Leader, LeaderEpoch: st.LeaderEpoch}
				}
				continue
			case req.Acks == -1 && len(p.isr) < p.effectiveMinISR():
				// Checked before the append: nothing is written.
				pr.ErrorCode = protocol.NOT_ENOUGH_REPLICAS
				pr.Cause = b.notEnoughReplicasCause(p, p.isr, pr.ErrorCode)
				b.failedProduce(env, p)
				env.Note(event.ProduceRejected{Broker: b.cfg.NodeID, TP: p.tp, ISR: slices.Clone(p.isr), MinISR: p.effectiveMinISR()})
				continue
			}
			if compact, _ := b.cleanupPolicy(p.tp.Topic); compact {
				if errs, ok := keylessRecordErrors(pd.Records, p.tp); ok && len(errs) > 0 {
					pr.ErrorCode, pr.ErrorMessage, pr.RecordErrors = protocol.INVALID_RECORD, recordErrorsMessage(errs), errs
					pr.LogStartOffset = p.log.LogStartOffset()
					b.failedProduce(env, p)
					env.Note(event.ProduceKeylessRejected{Broker: b.cfg.NodeID, TP: p.tp, Records: len(errs)})
					continue
				}
			}
			info, err := p.log.AppendAsLeader(pd.Records, p.leaderEpoch)
			p.noteRoll(env, info)
			if err != nil {
				switch {
				case errors.Is(err, storage.ErrRecordBatchTooLarge):
					// RecordBatchTooLargeException, answered without a
					// custom message (ReplicaManager.appendToLocalLog).
					pr.ErrorCode = protocol.RECORD_LIST_TOO_LARGE
				case errors.Is(err, storage.ErrInvalidRecord):
					// CorruptRecordException (a CRC mismatch) is answered
					// without a custom message (ReplicaManager.appendToLocalLog).
					pr.ErrorCode = protocol.CORRUPT_MESSAGE
					env.Note(event.ProduceCorruptRejected{Broker: b.cfg.NodeID, TP: p.tp})
				case errors.Is(err, storage.ErrOutOfOrderSequence), errors.Is(err, storage.ErrInvalidProducerEpoch):
					// Answered without a custom message, as
					// ReplicaManager.appendToLocalLog does.
					pr.ErrorCode = protocol.OUT_OF_ORDER_SEQUENCE_NUMBER
					if errors.Is(err, storage.ErrInvalidProducerEpoch) {
						pr.ErrorCode = protocol.INVALID_PRODUCER_EPOCH
					}
					pr.LogStartOffset = p.log.LogStartOffset()
					b.failedProduce(env, p)
					env.Note(event.ProduceSequenceRejected{Broker: b.cfg.NodeID, TP: p.tp, ProducerID: producerIDOf(pd.Records), Error: pr.ErrorCode})
				default:
					pr.ErrorCode, pr.ErrorMessage = protocol.KAFKA_STORAGE_ERROR, err.Error()
				}
				continue
			}
			pr.BaseOffset = info.FirstOffset
			pr.LogStartOffset = p.log.LogStartOffset()
			// A duplicate batch counts too: its append info carries the
			// offsets it was first written at.
			b.meters(env).markTopic(env.Now(), t.Name, bytesIn, int64(len(pd.Records)))
			b.meters(env).markTopic(env.Now(), t.Name, messagesIn, info.LastOffset-info.FirstOffset+1)
			if info.Duplicate {
				env.Note(event.ProduceDuplicate{Broker: b.cfg.NodeID, TP: p.tp, ProducerID: producerIDOf(pd.Records), Sequence: sequenceOf(pd.Records),
					First: info.FirstOffset, Last: info.LastOffset})
			} else {
				env.Note(event.ProduceAppended{Broker: b.cfg.NodeID, TP: p.tp, First: info.FirstOffset, Last: info.LastOffset, Epoch: p.leaderEpoch})
			}
			if dp != nil {
				dp.pending[p.tp] = &pendingPart{resp: pr, requiredOffset: info.LastOffset + 1}
				pr.ErrorCode = protocol.REQUEST_TIMED_OUT // until satisfied
				p.delayedProduces = append(p.delayedProduces, dp)
			}
			if !p.maybeIncrementHW(env) {
				b.checkParkedFetches(env) // new data for followers' parked fetches
			}
		}
	}
	switch {
	case req.Acks == 0:
		return true
	case dp == nil || len(dp.pending) == 0:
		b.respond(env, from, resp)
		return true
	}
	dp.building = false
	dp.tryComplete(env, b)
	if dp.done {
		return true
	}
	dp.timer = env.After(time.Duration(req.TimeoutMs)*time.Millisecond, "delayed-produce-timeout", func(env *sim.Env) {
		if !dp.done {
			dp.finish(env, b)
			b.done(env, dp.from)
		}
	})
	return false
}

// failedProduce counts an append that failed unexpectedly, as Kafka sees
// it: ReplicaManager.appendToLocalLog marks FailedProduceRequestsPerSec
// for every exception but the known ones (unknown topic, not the leader,
// record or batch too large, a corrupt record, a storage error), so
// NOT_ENOUGH_REPLICAS, a refused sequence or producer epoch and a keyless
// record on a compacted topic count.
func (b *Broker) failedProduce(env *sim.Env, p *Partition) {
	b.meters(env).markTopic(env.Now(), p.tp.Topic, failedProduce, 1)
}

// tryComplete settles every partition whose HW has reached the required
// offset: NONE if the maximal ISR still satisfies min.insync.replicas,
// otherwise NOT_ENOUGH_REPLICAS_AFTER_APPEND (the data was written).
func (dp *delayedProduce) tryComplete(env *sim.Env, b *Broker) {
	if dp.done || dp.building {
		return
	}
	for key, pp := range dp.pending {
		p := b.partitions[key]
		switch {
		case p == nil || !p.isLeader:
			pp.resp.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			delete(dp.pending, key)
		case p.log.HighWatermark() >= pp.requiredOffset:
			pp.resp.ErrorCode = protocol.NONE
			if len(p.maximalISR()) < p.effectiveMinISR() {
				pp.resp.ErrorCode = protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND
				pp.resp.Cause = b.notEnoughReplicasCause(p, p.maximalISR(), pp.resp.ErrorCode)
			}
			delete(dp.pending, key)
		}
	}
	if len(dp.pending) == 0 {
		dp.finish(env, b)
	}
}

// finish answers the client; partitions still pending answer
// REQUEST_TIMED_OUT.
func (dp *delayedProduce) finish(env *sim.Env, b *Broker) {
	dp.done = true
	dp.timer.Stop()
	if dp.answer != nil {
		dp.answer(env)
		return
	}
	b.respond(env, dp.from, dp.resp)
}

// completeDelayedProduces re-checks the produces waiting on this partition.
func (p *Partition) completeDelayedProduces(env *sim.Env) {
	if len(p.delayedProduces) == 0 {
		return
	}
	waiting := p.delayedProduces
	p.delayedProduces = nil
	for _, dp := range waiting {
		wasDone := dp.done
		dp.tryComplete(env, p.b)
		if !dp.done {
			p.delayedProduces = append(p.delayedProduces, dp)
		} else if !wasDone {
			p.b.done(env, dp.from)
		}
	}
}

// failDelayedProduces ends the produces waiting on this partition (the
// broker lost leadership or is stopping).
func (p *Partition) failDelayedProduces(env *sim.Env, code protocol.ErrorCode) {
	waiting := p.delayedProduces
	p.delayedProduces = nil
	for _, dp := range waiting {
		if dp.done {
			continue
		}
		if pp, ok := dp.pending[p.tp]; ok {
			pp.resp.ErrorCode = code
			delete(dp.pending, p.tp)
		}
		dp.tryComplete(env, p.b)
		if dp.done {
			p.b.done(env, dp.from)
		}
	}
}

// producerIDOf and sequenceOf read the first batch's producer fields, for
// the event feed.
func producerIDOf(data []byte) int64 {
	h, err := record.ParseHeader(data)
	if err != nil {
		return -1
	}
	return h.ProducerID
}

func sequenceOf(data []byte) int32 {
	h, err := record.ParseHeader(data)
	if err != nil {
		return -1
	}
	return h.BaseSequence
}
