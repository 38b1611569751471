package txncoordinator

import (
	"math"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Transactions v2 (KIP-890 part 2; TransactionCoordinator at Kafka 4.1):
// partitions are added by their leaders (AddPartitionsToTxn v4+, from a
// broker, VerifyOnly false) rather than by the producer, and every
// client's EndTxn (v5) bumps the producer epoch: the PrepareCommit or
// PrepareAbort record and the markers carry epoch+1, and the answer tells
// the producer its new epoch — or, when the epoch was exhausted, its new
// producer id at epoch 0. The brokers' AddPartitionsToTxn with VerifyOnly
// (KIP-890 part 1) only checks that a partition is in the transaction.

// logValueVersion is the __transaction_state value version the
// cluster's transaction.version calls for (1 from level 1).
func (c *Coordinator) logValueVersion() int16 {
	if c.host.TransactionVersion() >= 1 {
		return 1
	}
	return 0
}

// handleAddPartitionsFromBroker is a broker's AddPartitionsToTxn (v4+,
// KafkaApis.handleAddPartitionsToTxnRequest): each transaction's
// partitions are added (a version above 3 is a v2 request) or, with
// VerifyOnly, checked; the answer, per transaction, goes once all are
// settled.
func (c *Coordinator) handleAddPartitionsFromBroker(env *sim.Env, from sim.Addr, req *protocol.AddPartitionsToTxnRequest) bool {
	resp := &protocol.AddPartitionsToTxnResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	resp.ResultsByTransaction = make([]protocol.AddPartitionsToTxnResult, len(req.Transactions))
	waiting, sync := len(req.Transactions), true
	settle := func(env *sim.Env, i int, codeOf func(storage.TopicPartition) protocol.ErrorCode) {
		tx := req.Transactions[i]
		res := protocol.AddPartitionsToTxnResult{TransactionalID: tx.TransactionalID}
		for _, t := range tx.Topics {
			tr := protocol.TxnTopicResult{Name: t.Name}
			for _, p := range t.Partitions {
				tr.Partitions = append(tr.Partitions, protocol.TxnPartitionResult{PartitionIndex: p, ErrorCode: codeOf(storage.TopicPartition{Topic: t.Name, Partition: p})})
			}
			res.TopicResults = append(res.TopicResults, tr)
		}
		resp.ResultsByTransaction[i] = res
		if waiting--; waiting == 0 {
			c.host.Respond(env, from, resp)
			if !sync {
				c.host.Done(env, from)
			}
		}
	}
	for i, tx := range req.Transactions {
		var tps []storage.TopicPartition
		unknown := map[storage.TopicPartition]bool{}
		for _, t := range tx.Topics {
			for _, p := range t.Partitions {
				tp := storage.TopicPartition{Topic: t.Name, Partition: p}
				tps = append(tps, tp)
				if !c.host.KnownPartition(tp) {
					unknown[tp] = true
				}
			}
		}
		switch {
		case len(unknown) > 0:
			settle(env, i, func(tp storage.TopicPartition) protocol.ErrorCode {
				if unknown[tp] {
					return protocol.UNKNOWN_TOPIC_OR_PARTITION
				}
				return protocol.OPERATION_NOT_ATTEMPTED
			})
		case tx.VerifyOnly:
			settle(env, i, c.verifyPartitions(tx))
		default:
			c.addPartitions(env, tx.TransactionalID, tx.ProducerID, tx.ProducerEpoch, tps, 2, func(env *sim.Env, code protocol.ErrorCode, _ bool) bool {
				settle(env, i, func(storage.TopicPartition) protocol.ErrorCode { return code })
				return true
			})
		}
	}
	sync = false
	return waiting == 0
}

// verifyPartitions is handleVerifyPartitionsInTransaction: nothing is
// written; a partition the ongoing transaction holds is NONE, another
// TRANSACTION_ABORTABLE.
func (c *Coordinator) verifyPartitions(tx protocol.AddPartitionsToTxnTransaction) func(storage.TopicPartition) protocol.ErrorCode {
	all := func(code protocol.ErrorCode) func(storage.TopicPartition) protocol.ErrorCode {
		return func(storage.TopicPartition) protocol.ErrorCode { return code }
	}
	p, _, code := c.lookup(tx.TransactionalID)
	if code != protocol.NONE {
		return all(code)
	}
	m := p.txns[tx.TransactionalID]
	switch {
	case m == nil, m.producerID != tx.ProducerID:
		return all(protocol.INVALID_PRODUCER_ID_MAPPING)
	case m.epoch != tx.ProducerEpoch:
		return all(protocol.PRODUCER_FENCED)
	case m.state == PrepareCommit, m.state == PrepareAbort:
		return all(protocol.CONCURRENT_TRANSACTIONS)
	}
	in := map[storage.TopicPartition]bool{}
	for _, tp := range m.partitions {
		in[tp] = true
	}
	return func(tp storage.TopicPartition) protocol.ErrorCode {
		if in[tp] {
			return protocol.NONE
		}
		return protocol.TRANSACTION_ABORTABLE
	}
}

// handleEndTxnV2 is EndTxn v5 (TransactionCoordinator.endTransaction's
// v2 branch). A retry is recognised by its epoch one below the stored
// one (the bump happened) or by the rotated-from producer id at the last
// epoch; an abort may end a transaction with no partition (Empty or
// completed: the producer sent records no leader received). The answer
// is the producer id and epoch the producer goes on with.
func (c *Coordinator) handleEndTxnV2(env *sim.Env, from sim.Addr, req *protocol.EndTxnRequest) bool {
	answered, sync := false, true
	answer := func(env *sim.Env, code protocol.ErrorCode, pid int64, epoch int16) {
		resp := &protocol.EndTxnResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: code, ProducerID: -1, ProducerEpoch: -1}
		if code == protocol.NONE {
			resp.ProducerID, resp.ProducerEpoch = pid, epoch
		}
		c.host.Respond(env, from, resp)
		answered = true
		if !sync {
			c.host.Done(env, from)
		}
	}
	fail := func(code protocol.ErrorCode) bool {
		answer(env, code, 0, 0)
		return true
	}
	if req.TransactionalID == "" {
		return fail(protocol.INVALID_REQUEST)
	}
	p, partition, code := c.lookup(req.TransactionalID)
	if code != protocol.NONE {
		return fail(code)
	}
	m := p.txns[req.TransactionalID]
	if m == nil {
		return fail(protocol.INVALID_PRODUCER_ID_MAPPING)
	}
	retryOnEpochBump := m.epoch == req.ProducerEpoch+1
	retryOnOverflow := m.lastProducerID == req.ProducerID && req.ProducerEpoch == math.MaxInt16-1 && m.epoch == 0
	retry := retryOnEpochBump || retryOnOverflow
	var validEpoch bool
	switch m.state {
	case PrepareCommit, PrepareAbort:
		validEpoch = retryOnEpochBump
	case CompleteCommit, CompleteAbort:
		validEpoch = retry || req.ProducerEpoch == m.epoch
	default:
		validEpoch = req.ProducerEpoch == m.epoch
	}
	switch {
	case m.pending != nil && *m.pending != PrepareEpochFence:
		return fail(protocol.CONCURRENT_TRANSACTIONS)
	case m.producerID != req.ProducerID && !retryOnOverflow:
		return fail(protocol.INVALID_PRODUCER_ID_MAPPING)
	case !validEpoch:
		return fail(protocol.PRODUCER_FENCED)
	}
	commit := req.Committed
	switch m.state {
	case Ongoing:
	case Empty:
		if commit {
			return fail(protocol.INVALID_TXN_STATE)
		}
	case CompleteCommit, CompleteAbort:
		sameResult := (m.state == CompleteCommit) == commit
		switch {
		case sameResult && retry:
			answer(env, protocol.NONE, m.producerID, m.epoch)
			return true
		case commit || retry: // a commit with nothing to commit, or a retry of the other result
			return fail(protocol.INVALID_TXN_STATE)
		}
	case PrepareCommit, PrepareAbort:
		if (m.state == PrepareCommit) == commit {
			return fail(protocol.CONCURRENT_TRANSACTIONS)
		}
		return fail(protocol.INVALID_TXN_STATE)
	default:
		return fail(protocol.INVALID_TXN_STATE)
	}
	state := PrepareAbort
	if commit {
		state = PrepareCommit
	}
	next := int64(record.NoProducerID)
	if isEpochExhausted(m.epoch) {
		pid, ok := c.host.GenerateProducerID(env)
		if !ok {
			return fail(protocol.COORDINATOR_LOAD_IN_PROGRESS)
		}
		next = pid
	}
	t, err := m.prepareAbortOrCommit(state, env.Now().UnixMilli(), 2, true, next)
	if err != nil {
		return fail(protocol.UNKNOWN_SERVER_ERROR)
	}
	// The producer goes on with the completed transaction's id and epoch.
	pid, epoch := t.producerID, t.epoch
	if next >= 0 {
		pid, epoch = next, 0
	}
	c.appendTransit(env, partition, p, m, t, func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			answer(env, code, 0, 0)
			return
		}
		answer(env, protocol.NONE, pid, epoch)
		c.completeTransaction(env, partition, p, m)
	})
	sync = false
	return answered
}
