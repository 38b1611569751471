package txncoordinator

import (
	"slices"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Handle serves a transaction request; it reports whether the request is
// finished (answered), or will be answered later (Host.Done follows).
func (c *Coordinator) Handle(env *sim.Env, from sim.Addr, msg sim.Message) bool {
	switch m := msg.(type) {
	case *protocol.InitProducerIdRequest:
		return c.handleInitProducerId(env, from, m)
	case *protocol.AddPartitionsToTxnRequest:
		return c.handleAddPartitionsToTxn(env, from, m)
	case *protocol.AddOffsetsToTxnRequest:
		return c.handleAddOffsetsToTxn(env, from, m)
	case *protocol.EndTxnRequest:
		return c.handleEndTxn(env, from, m)
	case *protocol.DescribeTransactionsRequest:
		return c.handleDescribeTransactions(env, from, m)
	case *protocol.ListTransactionsRequest:
		return c.handleListTransactions(env, from, m)
	}
	return true
}

// handleInitProducerId is TransactionCoordinator.handleInitProducerId for a
// transactional id (3.8.0): an unknown id gets a new producer id; a known
// one its next epoch, which fences the previous producer instance; an
// ongoing transaction is first aborted with a bumped epoch, and the
// caller told CONCURRENT_TRANSACTIONS (it retries).
func (c *Coordinator) handleInitProducerId(env *sim.Env, from sim.Addr, req *protocol.InitProducerIdRequest) bool {
	resp := &protocol.InitProducerIdResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ProducerID: -1, ProducerEpoch: -1}
	answer := func(env *sim.Env, code protocol.ErrorCode, pid int64, epoch int16, later bool) bool {
		resp.ErrorCode = code
		if code == protocol.NONE {
			resp.ProducerID, resp.ProducerEpoch = pid, epoch
		}
		c.host.Respond(env, from, resp)
		if later {
			c.host.Done(env, from)
		}
		return true
	}
	if req.TransactionTimeoutMs <= 0 || int64(req.TransactionTimeoutMs) > c.host.Config("transaction.max.timeout.ms") {
		return answer(env, protocol.INVALID_TRANSACTION_TIMEOUT, 0, 0, false)
	}
	if (req.ProducerID == -1) != (req.ProducerEpoch == -1) {
		return answer(env, protocol.INVALID_REQUEST, 0, 0, false)
	}
	p, partition, code := c.lookup(req.TransactionalID)
	if code != protocol.NONE {
		return answer(env, code, 0, 0, false)
	}
	now := env.Now().UnixMilli()
	m := p.txns[req.TransactionalID]
	if m == nil {
		pid, ok := c.host.GenerateProducerID(env)
		if !ok {
			return answer(env, protocol.COORDINATOR_LOAD_IN_PROGRESS, 0, 0, false)
		}
		m = newMetadata(req.TransactionalID, pid, req.TransactionTimeoutMs, now)
		p.put(m)
	}
	var expected *int16
	if req.ProducerID != -1 {
		e := req.ProducerEpoch
		expected = &e
		valid := m.epoch == record.NoProducerEpoch || req.ProducerID == m.producerID ||
			(req.ProducerID == m.lastProducerID && isEpochExhausted(req.ProducerEpoch))
		if m.pending == nil && !valid {
			return answer(env, protocol.PRODUCER_FENCED, 0, 0, false)
		}
	}
	switch {
	case m.pending != nil, m.state == PrepareAbort, m.state == PrepareCommit:
		return answer(env, protocol.CONCURRENT_TRANSACTIONS, 0, 0, false)
	case m.state == Ongoing:
		// Fence the producer and abort its transaction; the caller comes
		// back once the abort is complete.
		fence, err := m.prepareFenceProducerEpoch()
		if err != nil {
			return answer(env, protocol.UNKNOWN_SERVER_ERROR, 0, 0, false)
		}
		c.endTransaction(env, partition, p, m, fence.epoch, false, false, func(env *sim.Env, code protocol.ErrorCode) {
			if code == protocol.NONE {
				code = protocol.CONCURRENT_TRANSACTIONS
			}
			answer(env, code, 0, 0, true)
		})
		return false
	}
	var t transit
	var err error
	if isEpochExhausted(m.epoch) && (expected == nil || *expected == m.epoch) {
		pid, ok := c.host.GenerateProducerID(env)
		if !ok {
			return answer(env, protocol.COORDINATOR_LOAD_IN_PROGRESS, 0, 0, false)
		}
		t, err = m.prepareProducerIdRotation(pid, req.TransactionTimeoutMs, now, expected != nil)
	} else {
		t, code, err = m.prepareIncrementProducerEpoch(req.TransactionTimeoutMs, expected, now)
		if code != protocol.NONE {
			return answer(env, code, 0, 0, false)
		}
	}
	if err != nil {
		return answer(env, protocol.UNKNOWN_SERVER_ERROR, 0, 0, false)
	}
	c.appendTransit(env, partition, p, m, t, func(env *sim.Env, code protocol.ErrorCode) {
		answer(env, code, t.producerID, t.epoch, true)
	})
	return false
}

// checkProducer is the checks AddPartitionsToTxn, AddOffsetsToTxn and
// EndTxn share: the id is known here, with this producer id, and (from a
// client) this epoch.
func (c *Coordinator) checkProducer(id string, pid int64, epoch int16) (*txnPartition, int32, *txnMetadata, protocol.ErrorCode) {
	if id == "" {
		return nil, 0, nil, protocol.INVALID_REQUEST
	}
	p, partition, code := c.lookup(id)
	if code != protocol.NONE {
		return nil, 0, nil, code
	}
	m := p.txns[id]
	switch {
	case m == nil, m.producerID != pid:
		return nil, 0, nil, protocol.INVALID_PRODUCER_ID_MAPPING
	case m.epoch != epoch:
		return nil, 0, nil, protocol.PRODUCER_FENCED
	}
	return p, partition, m, protocol.NONE
}

// handleAddPartitionsToTxn is a client's AddPartitionsToTxn (versions
// 0-3): unknown partitions fail and the others are not attempted; the
// rest join the transaction (written once, unless all were in it).
func (c *Coordinator) handleAddPartitionsToTxn(env *sim.Env, from sim.Addr, req *protocol.AddPartitionsToTxnRequest) bool {
	if len(req.Transactions) > 0 {
		return c.handleAddPartitionsFromBroker(env, from, req)
	}
	var tps []storage.TopicPartition
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			tps = append(tps, storage.TopicPartition{Topic: t.Name, Partition: p})
		}
	}
	answer := func(env *sim.Env, codeOf func(storage.TopicPartition) protocol.ErrorCode, later bool) bool {
		resp := &protocol.AddPartitionsToTxnResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
		for _, t := range req.Topics {
			tr := protocol.TxnTopicResult{Name: t.Name}
			for _, p := range t.Partitions {
				tr.Partitions = append(tr.Partitions, protocol.TxnPartitionResult{PartitionIndex: p, ErrorCode: codeOf(storage.TopicPartition{Topic: t.Name, Partition: p})})
			}
			resp.Results = append(resp.Results, tr)
		}
		c.host.Respond(env, from, resp)
		if later {
			c.host.Done(env, from)
		}
		return true
	}
	all := func(code protocol.ErrorCode) func(storage.TopicPartition) protocol.ErrorCode {
		return func(storage.TopicPartition) protocol.ErrorCode { return code }
	}
	unknown := map[storage.TopicPartition]bool{}
	for _, tp := range tps {
		if !c.host.KnownPartition(tp) {
			unknown[tp] = true
		}
	}
	if len(unknown) > 0 {
		return answer(env, func(tp storage.TopicPartition) protocol.ErrorCode {
			if unknown[tp] {
				return protocol.UNKNOWN_TOPIC_OR_PARTITION
			}
			return protocol.OPERATION_NOT_ATTEMPTED
		}, false)
	}
	return c.addPartitions(env, req.TransactionalID, req.ProducerID, req.ProducerEpoch, tps, 0, func(env *sim.Env, code protocol.ErrorCode, later bool) bool {
		return answer(env, all(code), later)
	})
}

// handleAddOffsetsToTxn adds the group's __consumer_offsets partition.
func (c *Coordinator) handleAddOffsetsToTxn(env *sim.Env, from sim.Addr, req *protocol.AddOffsetsToTxnRequest) bool {
	tp := storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: c.host.GroupPartition(req.GroupID)}
	return c.addPartitions(env, req.TransactionalID, req.ProducerID, req.ProducerEpoch, []storage.TopicPartition{tp}, 0, func(env *sim.Env, code protocol.ErrorCode, later bool) bool {
		c.host.Respond(env, from, &protocol.AddOffsetsToTxnResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: code})
		if later {
			c.host.Done(env, from)
		}
		return true
	})
}

// addPartitions is handleAddPartitionsToTransaction; clientTV is the
// request's transaction version (2 when a leader adds the partition
// under transactions v2).
func (c *Coordinator) addPartitions(env *sim.Env, id string, pid int64, epoch int16, tps []storage.TopicPartition, clientTV int16, answer func(env *sim.Env, code protocol.ErrorCode, later bool) bool) bool {
	p, partition, m, code := c.checkProducer(id, pid, epoch)
	switch {
	case code != protocol.NONE:
		return answer(env, code, false)
	case m.pending != nil, m.state == PrepareCommit, m.state == PrepareAbort:
		return answer(env, protocol.CONCURRENT_TRANSACTIONS, false)
	}
	if m.state == Ongoing {
		in := true
		for _, tp := range tps {
			in = in && slices.Contains(m.partitions, tp)
		}
		if in {
			return answer(env, protocol.NONE, false)
		}
	}
	t, err := m.prepareAddPartitions(tps, env.Now().UnixMilli(), clientTV)
	if err != nil {
		return answer(env, protocol.UNKNOWN_SERVER_ERROR, false)
	}
	c.appendTransit(env, partition, p, m, t, func(env *sim.Env, code protocol.ErrorCode) { answer(env, code, true) })
	return false
}

// handleEndTxn is a client's EndTxn (v5, transactions v2: v2.go).
func (c *Coordinator) handleEndTxn(env *sim.Env, from sim.Addr, req *protocol.EndTxnRequest) bool {
	if req.Version >= protocol.EndTxnVersionTransactionV2 {
		return c.handleEndTxnV2(env, from, req)
	}
	answer := func(env *sim.Env, code protocol.ErrorCode, later bool) bool {
		c.host.Respond(env, from, &protocol.EndTxnResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ErrorCode: code, ProducerID: -1, ProducerEpoch: -1})
		if later {
			c.host.Done(env, from)
		}
		return true
	}
	p, partition, m, code := c.checkProducer(req.TransactionalID, req.ProducerID, req.ProducerEpoch)
	if code != protocol.NONE {
		return answer(env, code, false)
	}
	answered, sync := false, true
	c.endTransaction(env, partition, p, m, req.ProducerEpoch, req.Committed, true, func(env *sim.Env, code protocol.ErrorCode) {
		answered = true
		answer(env, code, !sync)
	})
	sync = false
	return answered
}

// endTransaction is TransactionCoordinator.endTransaction: the
// transaction goes to PrepareCommit or PrepareAbort (written), done gets
// the answer, and the markers follow. A retry of a completed end is NONE;
// an end that contradicts the state is INVALID_TXN_STATE.
func (c *Coordinator) endTransaction(env *sim.Env, partition int32, p *txnPartition, m *txnMetadata, epoch int16, commit, fromClient bool, done func(env *sim.Env, code protocol.ErrorCode)) {
	if (fromClient && epoch != m.epoch) || epoch < m.epoch {
		done(env, protocol.PRODUCER_FENCED)
		return
	}
	if m.pending != nil && *m.pending != PrepareEpochFence {
		done(env, protocol.CONCURRENT_TRANSACTIONS)
		return
	}
	same, other := CompleteAbort, CompleteCommit
	if commit {
		same, other = CompleteCommit, CompleteAbort
	}
	switch m.state {
	case Ongoing:
	case same:
		done(env, protocol.NONE)
		return
	case other, Empty:
		done(env, protocol.INVALID_TXN_STATE)
		return
	case PrepareCommit, PrepareAbort:
		if (m.state == PrepareCommit) == commit {
			done(env, protocol.CONCURRENT_TRANSACTIONS)
		} else {
			done(env, protocol.INVALID_TXN_STATE)
		}
		return
	default:
		done(env, protocol.UNKNOWN_SERVER_ERROR)
		return
	}
	state := PrepareAbort
	if commit {
		state = PrepareCommit
	}
	if m.pending != nil { // a fence: the abort takes the bumped epoch
		m.pending = nil
		m.epoch, m.lastEpoch = epoch, record.NoProducerEpoch
	}
	// A client's end here is a version before v2 (0); the coordinator's
	// own abort (a fence, a timeout) takes the cluster's level and bumps
	// no further than the fence did (KAFKA-19367, Kafka 4.1).
	clientTV := int16(0)
	if !fromClient {
		clientTV = c.host.TransactionVersion()
	}
	t, err := m.prepareAbortOrCommit(state, env.Now().UnixMilli(), clientTV, false, record.NoProducerID)
	if err != nil {
		done(env, protocol.UNKNOWN_SERVER_ERROR)
		return
	}
	c.appendTransit(env, partition, p, m, t, func(env *sim.Env, code protocol.ErrorCode) {
		if code != protocol.NONE {
			if !fromClient {
				m.hasFailedEpochFence = true
			}
			done(env, code)
			return
		}
		done(env, protocol.NONE)
		c.completeTransaction(env, partition, p, m)
	})
}
