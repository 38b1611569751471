package broker

import (
	"errors"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// markerBatchSize is the size of every transaction marker's batch: one
// control record of fixed-size key and value, its offsets and timestamps
// deltas of 0 from the batch's.
var markerBatchSize = len(record.BuildEndTxnMarker(0, 0, 0, 0, 0, record.EndTxnMarker{}))

// handleWriteTxnMarkers is KafkaApis.handleWriteTxnMarkersRequest (3.8.0):
// a transaction coordinator has this leader append a COMMIT or ABORT
// marker for a producer to each of its partitions (origin COORDINATOR,
// acks -1: each answer waits until the high watermark has passed the
// marker, up to request.timeout.ms, as a produce does). A partition this
// broker does not lead is NOT_LEADER_OR_FOLLOWER, an unknown one
// UNKNOWN_TOPIC_OR_PARTITION; a marker of an older producer epoch is
// INVALID_PRODUCER_EPOCH, one from an older coordinator epoch
// TRANSACTION_COORDINATOR_FENCED.
func (b *Broker) handleWriteTxnMarkers(env *sim.Env, from sim.Addr, req *protocol.WriteTxnMarkersRequest) bool {
	resp := &protocol.WriteTxnMarkersResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	// The partitions wait as a produce's do, in a shadow produce answer.
	shadow := &protocol.ProduceResponse{}
	dp := &delayedProduce{from: from, resp: shadow, pending: map[storage.TopicPartition]*pendingPart{}, building: true}
	type slot struct{ marker, topic, partition int }
	var slots []slot
	var results []*protocol.ProducePartitionResponse
	now := env.Now().UnixMilli()
	for mi, m := range req.Markers {
		mr := protocol.WritableTxnMarkerResult{ProducerID: m.ProducerID}
		typ := record.ControlAbort
		if m.Commit {
			typ = record.ControlCommit
		}
		for ti, t := range m.Topics {
			tr := protocol.TxnTopicResult{Name: t.Name}
			for pi, idx := range t.Partitions {
				tr.Partitions = append(tr.Partitions, protocol.TxnPartitionResult{PartitionIndex: idx})
				pr := &protocol.ProducePartitionResponse{Index: idx}
				slots, results = append(slots, slot{mi, ti, pi}), append(results, pr)
				p := b.partitions[tp(t.Name, idx)]
				if b.image.Partition(t.Name, idx) == nil {
					pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
					continue
				}
				// Markers are appended through ReplicaManager.appendRecords
				// too, and count as a produce of one message.
				b.meters(env).countAppend(env.Now(), t.Name, false, 0, 0, 0)
				switch {
				case p == nil || !p.isLeader:
					pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
					continue
				case len(p.isr) < p.effectiveMinISR():
					b.failedProduce(env, p)
					pr.ErrorCode = protocol.NOT_ENOUGH_REPLICAS
					continue
				}
				info, err := p.log.AppendMarkerAsLeader(m.ProducerID, m.ProducerEpoch, record.EndTxnMarker{Type: typ, CoordinatorEpoch: m.CoordinatorEpoch}, now, p.leaderEpoch)
				p.noteRoll(env, info)
				switch {
				case errors.Is(err, storage.ErrInvalidProducerEpoch):
					b.failedProduce(env, p)
					pr.ErrorCode = protocol.INVALID_PRODUCER_EPOCH
					continue
				case errors.Is(err, storage.ErrTransactionCoordinatorFenced):
					b.failedProduce(env, p)
					pr.ErrorCode = protocol.TRANSACTION_COORDINATOR_FENCED
					continue
				case err != nil:
					pr.ErrorCode = protocol.KAFKA_STORAGE_ERROR
					continue
				}
				b.meters(env).markTopic(env.Now(), t.Name, bytesIn, int64(markerBatchSize))
				b.meters(env).markTopic(env.Now(), t.Name, messagesIn, info.LastOffset-info.FirstOffset+1)
				env.Note(event.TxnMarkerWritten{Broker: b.cfg.NodeID, TP: p.tp, ProducerID: m.ProducerID, Epoch: m.ProducerEpoch, Commit: m.Commit, Offset: info.FirstOffset})
				pr.ErrorCode = protocol.REQUEST_TIMED_OUT // until the HW passes it
				dp.pending[p.tp] = &pendingPart{resp: pr, requiredOffset: info.LastOffset + 1}
				if !slices.Contains(p.delayedProduces, dp) {
					p.delayedProduces = append(p.delayedProduces, dp)
				}
				if !p.maybeIncrementHW(env) {
					b.checkParkedFetches(env)
				}
			}
			mr.Topics = append(mr.Topics, tr)
		}
		resp.Markers = append(resp.Markers, mr)
	}
	dp.answer = func(env *sim.Env) {
		for i, s := range slots {
			resp.Markers[s.marker].Topics[s.topic].Partitions[s.partition].ErrorCode = results[i].ErrorCode
		}
		b.offsetsMarkersWritten(env, req, resp)
		b.respond(env, from, resp)
	}
	if len(dp.pending) == 0 {
		dp.done = true
		dp.answer(env)
		return true
	}
	dp.building = false
	dp.tryComplete(env, b)
	if dp.done {
		return true
	}
	dp.timer = env.After(b.ms("request.timeout.ms"), "delayed-txn-markers-timeout", func(env *sim.Env) {
		if !dp.done {
			dp.finish(env, b)
			b.done(env, dp.from)
		}
	})
	return false
}

// offsetsMarkersWritten hands the group coordinator the markers written
// to __consumer_offsets partitions, once replicated: they settle the
// transactions' offset commits (onTransactionCompleted).
func (b *Broker) offsetsMarkersWritten(env *sim.Env, req *protocol.WriteTxnMarkersRequest, resp *protocol.WriteTxnMarkersResponse) {
	for mi, m := range req.Markers {
		var partitions []int32
		for _, t := range resp.Markers[mi].Topics {
			if t.Name != metadata.ConsumerOffsetsTopic {
				continue
			}
			for _, pr := range t.Partitions {
				if pr.ErrorCode == protocol.NONE {
					partitions = append(partitions, pr.PartitionIndex)
				}
			}
		}
		if len(partitions) > 0 {
			b.coordinator.OnTxnCompleted(env, m.ProducerID, partitions, m.Commit)
		}
	}
}
