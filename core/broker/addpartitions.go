package broker

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/groupcoordinator"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// A partition leader's part in transactions v2 (KIP-890 part 2;
// ReplicaManager.handleProduceAppend and AddPartitionsToTxnManager at
// Kafka 4.1): the first transactional batch of a producer's transaction
// that reaches a partition (Produce v12+; no transaction of its producer
// id and epoch open in the partition) waits while the leader adds the
// partition to the transaction at the transaction coordinator
// (AddPartitionsToTxn v5 from the broker, VerifyOnly false). The
// coordinator answers CONCURRENT_TRANSACTIONS while the producer's
// previous transaction is still being completed; the leader asks again
// every add.partitions.to.txn.retry.backoff.ms for up to
// min(add.partitions.to.txn.retry.backoff.max.ms, request.timeout.ms),
// then gives the error to the producer, which retries.
//
// Before transactions v2, KIP-890 part 1 (3.6+, on while
// transaction.partition.verification.enable is true, the default) has
// the leader only verify that the partition is in the transaction
// (VerifyOnly): a batch of a transaction that is over, or was never
// told of the partition, is refused instead of opening a transaction
// that would hang. No retry there; the producer retries what is
// retriable.
//
// The leader appends in the same event as the coordinator's answer
// arrives, so no marker can come between them: Kafka's verification
// guard, which closes that window, is not modelled.

// txnOperation is what a leader does with a transactional batch, by
// the request's version (AddPartitionsToTxnManager's
// TransactionSupportedOperation): add the partition (v2), or verify it
// answering the newer errors as they are (genericError: Produce v11,
// TxnOffsetCommit v4) or the older way (defaultError).
type txnOperation struct {
	add, genericError bool
}

// verifies: the leader asks the coordinator at all for this operation
// (v2 always; before, only with verification on, from 3.6).
func (b *Broker) verifies(op txnOperation) bool {
	return op.add || b.cfg.Release.Version.AtLeast(3, 6) && b.conf().BrokerBool("transaction.partition.verification.enable")
}

// produceOperation is a Produce's operation.
func produceOperation(version int16) txnOperation {
	return txnOperation{add: version >= protocol.ProduceVersionTransactionV2, genericError: version >= protocol.ProduceVersionTransactionAbortable}
}

// txnBatchOf is a partition's first batch's producer if it is
// transactional.
func txnBatchOf(data []byte) (pid int64, epoch int16, ok bool) {
	h, err := record.ParseHeader(data)
	if err != nil || h.ProducerID < 0 || !h.IsTransactional() || h.IsControl() {
		return 0, 0, false
	}
	return h.ProducerID, h.ProducerEpoch, true
}

// partitionsToAddToTxn are the partitions of a transactional produce
// this broker leads whose batch starts the producer's transaction there
// (to add or verify), and the producer id and epoch.
func (b *Broker) partitionsToAddToTxn(req *protocol.ProduceRequest) (tps []storage.TopicPartition, pid int64, epoch int16) {
	if req.TransactionalID == "" || !b.verifies(produceOperation(req.Version)) {
		return nil, 0, 0
	}
	for _, t := range req.Topics {
		for _, pd := range t.Partitions {
			id, e, ok := txnBatchOf(pd.Records)
			p := b.partitions[tp(t.Name, pd.Index)]
			if !ok || p == nil || !p.isLeader || p.log.HasOngoingTransaction(id, e) {
				continue
			}
			tps, pid, epoch = append(tps, p.tp), id, e
		}
	}
	return tps, pid, epoch
}

// addPartitionsToTxn adds partitions to a producer's transaction at its
// coordinator, or verifies them, and calls done with each partition's
// error (none for those in the transaction); an add retries
// CONCURRENT_TRANSACTIONS as the leader does.
func (b *Broker) addPartitionsToTxn(env *sim.Env, op txnOperation, id string, pid int64, epoch int16, tps []storage.TopicPartition, done func(env *sim.Env, errs map[storage.TopicPartition]protocol.ErrorCode)) {
	start := env.Now()
	var limit time.Duration
	if op.add {
		limit = min(b.ms("add.partitions.to.txn.retry.backoff.max.ms"), b.ms("request.timeout.ms"))
	}
	var try func(env *sim.Env)
	try = func(env *sim.Env) {
		b.sendAddPartitionsToTxn(env, op, id, pid, epoch, tps, func(env *sim.Env, errs map[storage.TopicPartition]protocol.ErrorCode) {
			concurrent := slices.Contains(slices.Collect(maps.Values(errs)), protocol.CONCURRENT_TRANSACTIONS) // order-free
			if !concurrent || env.Now().Sub(start) >= limit {
				done(env, errs)
				return
			}
			env.After(b.ms("add.partitions.to.txn.retry.backoff.ms"), "retry-add-partitions-to-txn", func(env *sim.Env) {
				if b.state != StateStopped {
					try(env)
				}
			})
		})
	}
	try(env)
}

// sendAddPartitionsToTxn sends one AddPartitionsToTxn to the
// transactional id's coordinator over the broker's own channel and maps
// its answer as AddPartitionsToTxnManager does: no coordinator is
// COORDINATOR_NOT_AVAILABLE, a lost request NETWORK_EXCEPTION, a
// PRODUCER_FENCED partition INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE
// INVALID_TXN_STATE for a client that does not know it.
func (b *Broker) sendAddPartitionsToTxn(env *sim.Env, op txnOperation, id string, pid int64, epoch int16, tps []storage.TopicPartition, done func(env *sim.Env, errs map[storage.TopicPartition]protocol.ErrorCode)) {
	all := func(code protocol.ErrorCode) map[storage.TopicPartition]protocol.ErrorCode {
		errs := map[storage.TopicPartition]protocol.ErrorCode{}
		for _, p := range tps {
			errs[p] = code
		}
		return errs
	}
	co := b.findTxnCoordinator(id)
	if co.ErrorCode != protocol.NONE {
		done(env, all(protocol.COORDINATOR_NOT_AVAILABLE))
		return
	}
	tx := protocol.AddPartitionsToTxnTransaction{TransactionalID: id, ProducerID: pid, ProducerEpoch: epoch, VerifyOnly: !op.add}
	for _, p := range tps {
		tx.Topics = protocol.AppendTxnPartition(tx.Topics, p.Topic, p.Partition)
	}
	req := &protocol.AddPartitionsToTxnRequest{Transactions: []protocol.AddPartitionsToTxnTransaction{tx}}
	if b.addPartitionsNet == nil {
		b.addPartitionsNet = rpc.NewClient(env.EphemeralPort(), fmt.Sprintf("broker-%d-add-partitions-sender", b.cfg.NodeID))
	}
	addr := sim.Addr(fmt.Sprintf("%s:%d", co.Host, co.Port))
	b.addPartitionsNet.Send(env, addr, req, b.ms("request.timeout.ms"), func(env *sim.Env, resp protocol.Response, err error) {
		if b.state == StateStopped {
			return
		}
		r, _ := resp.(*protocol.AddPartitionsToTxnResponse)
		if err != nil || r == nil {
			done(env, all(protocol.NETWORK_EXCEPTION))
			return
		}
		if r.ErrorCode != protocol.NONE {
			code := r.ErrorCode
			if code == protocol.CLUSTER_AUTHORIZATION_FAILED {
				code = protocol.INVALID_TXN_STATE
			}
			done(env, all(code))
			return
		}
		errs := map[storage.TopicPartition]protocol.ErrorCode{}
		for _, res := range r.ResultsByTransaction {
			for _, t := range res.TopicResults {
				for _, pr := range t.Partitions {
					code := pr.ErrorCode
					switch {
					case code == protocol.PRODUCER_FENCED:
						code = protocol.INVALID_PRODUCER_EPOCH
					case code == protocol.TRANSACTION_ABORTABLE && !op.genericError:
						code = protocol.INVALID_TXN_STATE
					}
					if code != protocol.NONE {
						errs[tp(t.Name, pr.PartitionIndex)] = code
					}
				}
			}
		}
		for _, p := range tps {
			if _, failed := errs[p]; !failed && op.add {
				env.Note(event.TxnPartitionAddedByLeader{Broker: b.cfg.NodeID, TP: p, TransactionalID: id, ProducerID: pid, Epoch: epoch})
			}
		}
		done(env, errs)
	})
}

// verificationError is the produce error a leader answers for a
// partition it could not add (ReplicaManager's postVerificationCallback):
// INVALID_TXN_STATE with its message; a coordinator that could not be
// reached or was moving, NOT_ENOUGH_REPLICAS (which older clients retry
// without a metadata refresh); CONCURRENT_TRANSACTIONS as it is under v2
// (the previous transaction is still completing), as NOT_ENOUGH_REPLICAS
// before.
func verificationError(op txnOperation, code protocol.ErrorCode) (protocol.ErrorCode, string) {
	switch code {
	case protocol.INVALID_TXN_STATE:
		return code, "Partition was not added to the transaction"
	case protocol.NETWORK_EXCEPTION, protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR:
	case protocol.CONCURRENT_TRANSACTIONS:
		if op.add {
			return code, ""
		}
	default:
		return code, ""
	}
	return protocol.NOT_ENOUGH_REPLICAS, "Unable to verify the partition has been added to the transaction. Underlying error: " + code.String()
}

// handleTxnOffsetCommit hands a TxnOffsetCommit to the group
// coordinator; under transactions v2 (v5+) the broker first adds the
// group's __consumer_offsets partition to the transaction, as a leader
// does for a produce (the group coordinator's
// maybeStartTransactionVerification with the addPartition operation).
// An error there answers every partition: a coordinator that could not
// be reached as COORDINATOR_NOT_AVAILABLE, which has the producer look
// the group coordinator up again.
func (b *Broker) handleTxnOffsetCommit(env *sim.Env, from sim.Addr, req *protocol.TxnOffsetCommitRequest) bool {
	op := txnOperation{add: req.Version >= protocol.TxnOffsetCommitVersionTransactionV2, genericError: req.Version >= protocol.TxnOffsetCommitVersionTransactionAbortable}
	if req.TransactionalID == "" || !b.verifies(op) {
		return b.coordinator.Handle(env, from, req)
	}
	p := b.partitions[tp(metadata.ConsumerOffsetsTopic, b.coordinator.PartitionFor(req.GroupID))]
	if p == nil || !p.isLeader || p.log.HasOngoingTransaction(req.ProducerID, req.ProducerEpoch) {
		return b.coordinator.Handle(env, from, req)
	}
	b.addPartitionsToTxn(env, op, req.TransactionalID, req.ProducerID, req.ProducerEpoch, []storage.TopicPartition{p.tp}, func(env *sim.Env, errs map[storage.TopicPartition]protocol.ErrorCode) {
		if b.state == StateStopped {
			return
		}
		code, failed := errs[p.tp]
		if !failed {
			if b.coordinator.Handle(env, from, req) {
				b.done(env, from)
			}
			return
		}
		code = groupcoordinator.CommitError(code)
		resp := &protocol.TxnOffsetCommitResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
		for _, t := range req.Topics {
			rt := protocol.TxnTopicResult{Name: t.Name}
			for _, pp := range t.Partitions {
				rt.Partitions = append(rt.Partitions, protocol.TxnPartitionResult{PartitionIndex: pp.PartitionIndex, ErrorCode: code})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		b.respond(env, from, resp)
		b.done(env, from)
	})
	return false
}
