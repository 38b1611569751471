package txncoordinator

import (
	"slices"

	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/scalacoll"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// handleDescribeTransactions is TransactionCoordinator
// .handleDescribeTransactions (3.8.0) for each id: an empty id is
// INVALID_REQUEST, one whose partition is not loaded here
// NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS, an unknown (or Dead)
// one TRANSACTIONAL_ID_NOT_FOUND; otherwise its state, producer, timeout,
// start time and the partitions of its transaction, by topic in the
// order the metadata's partition set iterates them.
func (c *Coordinator) handleDescribeTransactions(env *sim.Env, from sim.Addr, req *protocol.DescribeTransactionsRequest) bool {
	resp := &protocol.DescribeTransactionsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, id := range req.TransactionalIDs {
		d := protocol.DescribedTransaction{TransactionalID: id}
		if id == "" {
			d.ErrorCode = protocol.INVALID_REQUEST
			resp.TransactionStates = append(resp.TransactionStates, d)
			continue
		}
		p, _, code := c.lookup(id)
		var m *txnMetadata
		if code == protocol.NONE {
			if m = p.txns[id]; m == nil || m.state == Dead {
				code = protocol.TRANSACTIONAL_ID_NOT_FOUND
			}
		}
		d.ErrorCode = code
		if code == protocol.NONE {
			d.TransactionState, d.ProducerID, d.ProducerEpoch = m.state.String(), m.producerID, m.epoch
			d.TransactionTimeoutMs, d.TransactionStartTimeMs = m.timeoutMs, m.startMs
			for _, tp := range partitionSetOrder(m.partitions) {
				i := slices.IndexFunc(d.Topics, func(t protocol.TxnTopic) bool { return t.Name == tp.Topic })
				if i < 0 {
					d.Topics = append(d.Topics, protocol.TxnTopic{Name: tp.Topic})
					i = len(d.Topics) - 1
				}
				d.Topics[i].Partitions = append(d.Topics[i].Partitions, tp.Partition)
			}
		}
		resp.TransactionStates = append(resp.TransactionStates, d)
	}
	c.host.Respond(env, from, resp)
	return true
}

// partitionSetOrder is the order of a transaction's partitions in
// TransactionMetadata.topicPartitions, a Scala mutable.HashSet of
// TopicPartition (whose ## is Java's hashCode) filled as they were added.
func partitionSetOrder(tps []storage.TopicPartition) []storage.TopicPartition {
	out := make([]storage.TopicPartition, 0, len(tps))
	hashes := make([]int32, len(tps))
	for i, tp := range tps {
		hashes[i] = hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
	}
	for _, i := range scalacoll.MutableOrder(hashes, 0) {
		out = append(out, tps[i])
	}
	return out
}

// handleListTransactions is TransactionStateManager.listTransactionStates
// (3.8.0): nothing while a partition loads (COORDINATOR_LOAD_IN_PROGRESS);
// otherwise every id but the Dead ones that passes the filters (producer
// ids, state names, and a transaction running longer than the duration),
// partition by partition in transactionMetadataCache's order and id by id
// in each partition's Pool order. Unknown state names come back in
// UnknownStateFilters.
func (c *Coordinator) handleListTransactions(env *sim.Env, from sim.Addr, req *protocol.ListTransactionsRequest) bool {
	resp := &protocol.ListTransactionsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if len(c.loading) > 0 {
		resp.ErrorCode = protocol.COORDINATOR_LOAD_IN_PROGRESS
		c.host.Respond(env, from, resp)
		return true
	}
	var states []State
	for _, name := range req.StateFilters {
		if s, ok := stateNamed(name); ok {
			states = append(states, s)
		} else {
			resp.UnknownStateFilters = append(resp.UnknownStateFilters, name)
		}
	}
	now := env.Now().UnixMilli()
	include := func(m *txnMetadata) bool {
		switch {
		case m.state == Dead:
			return false // being expired
		case len(req.ProducerIDFilters) > 0 && !slices.Contains(req.ProducerIDFilters, m.producerID):
			return false
		case len(req.StateFilters) > 0 && !slices.Contains(states, m.state):
			return false
		case req.DurationFilter >= 0 && now-m.startMs <= req.DurationFilter:
			return false
		}
		return true
	}
	for _, partition := range c.cacheOrder() {
		p := c.partitions[partition]
		for _, id := range p.listOrder() {
			if m := p.txns[id]; include(m) {
				resp.TransactionStates = append(resp.TransactionStates, protocol.ListedTransaction{TransactionalID: id, ProducerID: m.producerID, TransactionState: m.state.String()})
			}
		}
	}
	c.host.Respond(env, from, resp)
	return true
}

// cacheOrder is the loaded partitions in transactionMetadataCache's order:
// by bucket (an Int's improved hash is itself below 2^16) and, within
// one, by hash.
func (c *Coordinator) cacheOrder() []int32 {
	ids := make([]int32, 0, len(c.partitions))
	for id := range c.partitions {
		ids = append(ids, id)
	}
	mask := int32(c.cacheLength - 1)
	slices.SortFunc(ids, func(a, b int32) int {
		if a&mask != b&mask {
			return int(a&mask - b&mask)
		}
		return int(a - b)
	})
	return ids
}

// listOrder is the partition's ids in its Pool's (ConcurrentHashMap's)
// iteration order.
func (p *txnPartition) listOrder() []string {
	hashes := make([]int32, len(p.order))
	for i, id := range p.order {
		hashes[i] = jdk.StringHashCode(id)
	}
	out := make([]string, 0, len(p.order))
	for _, i := range jdk.ConcurrentHashOrder(hashes, p.maxSize) {
		out = append(out, p.order[i])
	}
	return out
}

// stateNamed is TransactionState.fromName.
func stateNamed(name string) (State, bool) {
	for s := Empty; s <= PrepareEpochFence; s++ {
		if s.String() == name {
			return s, true
		}
	}
	return 0, false
}
