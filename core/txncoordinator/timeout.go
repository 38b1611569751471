package txncoordinator

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// abortTimedOut is the transaction-abort task (abortTimedOutTransactions,
// 3.8.0): each ongoing transaction, with no transition pending, that
// started more than its timeout ago is fenced (its epoch bumped, so the
// producer's next request is PRODUCER_FENCED) and aborted.
func (c *Coordinator) abortTimedOut(env *sim.Env) {
	now := env.Now().UnixMilli()
	for _, partition := range sortedPartitions(c.partitions) {
		p := c.partitions[partition]
		for _, id := range sortedIDs(p.txns) {
			m := p.txns[id]
			if m.state != Ongoing || m.pending != nil || m.startMs+int64(m.timeoutMs) >= now {
				continue
			}
			fence, err := m.prepareFenceProducerEpoch()
			if err != nil {
				continue
			}
			c.endTransaction(env, partition, p, m, fence.epoch, false, false, func(*sim.Env, protocol.ErrorCode) {})
		}
	}
}

func sortedPartitions(m map[int32]*txnPartition) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
