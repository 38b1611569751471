package txncoordinator

import (
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Expiration of transactional ids (TransactionStateManager
// .removeExpiredTransactionalIds, 3.8.0): every
// transaction.remove.expired.transaction.cleanup.interval.ms, each id
// whose transaction is over (Empty, CompleteCommit, CompleteAbort), with
// no transition pending, and not updated for transactional.id.expiration.ms
// is prepared Dead and tombstoned in its partition's log (one write per
// partition, acks -1); once the tombstones are replicated the ids leave the
// cache, so a producer that comes back later is a new one (a new producer
// id). A failed write leaves them as they were.

// armExpireTimer starts the expiration task, once.
func (c *Coordinator) armExpireTimer(env *sim.Env) {
	if c.expireTimer != nil {
		return
	}
	c.every(env, &c.expireTimer, "transaction.remove.expired.transaction.cleanup.interval.ms", "transaction-id-expiration", c.removeExpired)
}

func (c *Coordinator) removeExpired(env *sim.Env) {
	now := env.Now().UnixMilli()
	expiration := c.host.Config("transactional.id.expiration.ms")
	for _, partition := range sortedPartitions(c.partitions) {
		p := c.partitions[partition]
		var expired []*txnMetadata
		for _, id := range p.listOrder() {
			m := p.txns[id]
			switch {
			case m.pending != nil, m.lastUpdateMs > now-expiration:
			case m.state == Empty, m.state == CompleteCommit, m.state == CompleteAbort:
				dead := Dead
				m.pending = &dead // prepareDead
				expired = append(expired, m)
			}
		}
		if len(expired) == 0 {
			continue
		}
		recs := make([]record.Record, len(expired))
		for i, m := range expired {
			recs[i] = record.Record{Key: KeyBytes(m.id)} // a tombstone
		}
		c.host.Append(env, partition, recs, func(env *sim.Env, code protocol.ErrorCode) {
			for _, m := range expired {
				if code != protocol.NONE || c.partitions[partition] != p || p.txns[m.id] != m || m.pending == nil || *m.pending != Dead {
					m.pending = nil
					continue
				}
				delete(p.txns, m.id)
				p.order = slices.DeleteFunc(p.order, func(id string) bool { return id == m.id })
				env.Note(event.TxnStateChanged{Broker: c.host.NodeID(), TransactionalID: m.id, ProducerID: m.producerID, Epoch: m.epoch, State: Dead.String()})
			}
		})
	}
}
