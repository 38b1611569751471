package txncoordinator

import (
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// markerRetryBackoff is how long a marker the leader could not write
// waits before it is sent again (to the partition's leader then): Kafka's
// marker channel re-queues it for the send thread's next round; here the
// round is retry.backoff.ms's default.
const markerRetryBackoff = 100 * time.Millisecond

// completeTransaction takes a transaction that is preparing to commit or
// abort to its end (TransactionMarkerChannelManager): the Complete
// transition is prepared, every partition's leader is asked to write the
// marker, one WriteTxnMarkers per broker, and once all are written the
// transition is appended. A partition the broker's metadata no longer has
// is dropped (its topic was deleted); one without a leader waits for one
// (Kafka's markersQueueForUnknownBroker, retried each round), as does one
// whose leader could not write it; a marker the leader refuses as stale (a newer producer
// epoch, a newer coordinator) ends the sending.
func (c *Coordinator) completeTransaction(env *sim.Env, partition int32, p *txnPartition, m *txnMetadata) {
	t, err := m.prepareComplete(env.Now().UnixMilli())
	if err != nil {
		return
	}
	commit := m.state == PrepareCommit
	var send func(env *sim.Env)
	send = func(env *sim.Env) {
		if c.partitions[partition] != p {
			return // no longer the coordinator
		}
		if len(m.partitions) == 0 {
			c.appendTransit(env, partition, p, m, t, func(env *sim.Env, code protocol.ErrorCode) {
				if code == protocol.COORDINATOR_NOT_AVAILABLE {
					// Kafka retries the completion write (txnLogAppendRetryQueue).
					if _, err := m.prepareTransitionTo(t); err == nil {
						env.After(markerRetryBackoff, "txn-complete-retry", send)
					}
				}
			})
			return
		}
		byBroker := map[int32][]storage.TopicPartition{}
		leaderless := false
		for _, tp := range slices.Clone(m.partitions) {
			if !c.host.KnownPartition(tp) {
				m.partitions = slices.DeleteFunc(m.partitions, func(x storage.TopicPartition) bool { return x == tp })
				env.Note(event.TxnMarkerSkipped{Broker: c.host.NodeID(), TransactionalID: m.id, ProducerID: m.producerID, TP: tp})
				continue
			}
			leader, ok := c.host.LeaderOf(tp)
			if !ok {
				leaderless = true // markersQueueForUnknownBroker: kept for a later round
				continue
			}
			byBroker[leader] = append(byBroker[leader], tp)
		}
		if len(byBroker) == 0 {
			if leaderless {
				env.After(markerRetryBackoff, "txn-marker-retry", send)
				return
			}
			send(env)
			return
		}
		waiting := len(byBroker)
		retry := leaderless
		for _, broker := range sortedBrokers(byBroker) {
			tps := byBroker[broker]
			req := &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{
				ProducerID: m.producerID, ProducerEpoch: m.epoch, Commit: commit, CoordinatorEpoch: p.epoch, Topics: groupByTopic(tps),
			}}}
			c.host.SendMarkers(env, broker, req, func(env *sim.Env, resp *protocol.WriteTxnMarkersResponse) {
				stop := false
				if resp == nil {
					retry = true
				} else {
					for _, mr := range resp.Markers {
						for _, tr := range mr.Topics {
							for _, pr := range tr.Partitions {
								tp := storage.TopicPartition{Topic: tr.Name, Partition: pr.PartitionIndex}
								switch pr.ErrorCode {
								case protocol.NONE, protocol.UNSUPPORTED_FOR_MESSAGE_FORMAT, protocol.UNSUPPORTED_VERSION:
									m.partitions = slices.DeleteFunc(m.partitions, func(x storage.TopicPartition) bool { return x == tp })
								case protocol.INVALID_PRODUCER_EPOCH, protocol.TRANSACTION_COORDINATOR_FENCED:
									stop = true
								default:
									retry = true
								}
							}
						}
					}
				}
				if stop {
					m.pending = nil // this coordinator no longer completes it
					return
				}
				if waiting--; waiting > 0 {
					return
				}
				if retry {
					retry = false
					env.After(markerRetryBackoff, "txn-marker-retry", send)
					return
				}
				send(env)
			})
		}
	}
	send(env)
}

func sortedBrokers(m map[int32][]storage.TopicPartition) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// groupByTopic lists partitions by topic, in the order given.
func groupByTopic(tps []storage.TopicPartition) []protocol.TxnTopic {
	var out []protocol.TxnTopic
	for _, tp := range tps {
		out = protocol.AppendTxnPartition(out, tp.Topic, tp.Partition)
	}
	return out
}
