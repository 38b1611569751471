package client

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// txnState is TransactionManager.State (3.8.0).
type txnState uint8

const (
	txnUninitialized txnState = iota
	txnInitializing
	txnReady
	txnInTransaction
	txnCommitting
	txnAborting
	txnAbortableError
	txnFatalError
)

func (s txnState) String() string {
	return [...]string{"UNINITIALIZED", "INITIALIZING", "READY", "IN_TRANSACTION", "COMMITTING_TRANSACTION",
		"ABORTING_TRANSACTION", "ABORTABLE_ERROR", "FATAL_ERROR"}[s]
}

// producerTxn is the transactional part of a producer's
// TransactionManager: its coordinator, its state, the partitions added to
// the transaction, and the call in progress. Its requests go to the
// coordinator one at a time (the sender's transactional request queue).
//
// Invariants: a batch is drained only for a partition in added (so the
// coordinator knows of it before the leader does); EndTxn goes only once
// no batch is pending.
type producerTxn struct {
	id      string
	timeout time.Duration
	state   txnState
	err     *Error // what put it in an error state

	coordinator sim.Addr // "" while unknown
	inFlight    bool
	retryAt     sim.Time

	added  map[topicPartition]bool
	needed []topicPartition // waiting for AddPartitionsToTxn
	// started: a partition was added, so EndTxn has something to end
	// (TransactionManager.transactionStarted).
	started bool

	onInit func(env *sim.Env, err *Error)
	onEnd  func(env *sim.Env, err *Error)
	// offsets is a sendOffsetsToTransaction in progress
	// (producer_txn_offsets.go); EndTxn waits for it.
	offsets *txnOffsets

	idem *transactionManager // the producer id and epoch it names

	// Transactions v2 (producer_txn_v2.go): what the producer knows of
	// the cluster's transaction.version, whether it uses v2 now, which
	// protocol the end in progress uses, and the client-side epoch bump a
	// switch to v2 calls for (bumping: its InitProducerId is in progress).
	features     txnFeatures
	v2, endV2    bool
	bumpRequired bool
	bumping      bool
}

func newProducerTxn(id string, timeout time.Duration, idem *transactionManager) *producerTxn {
	return &producerTxn{id: id, timeout: timeout, added: map[topicPartition]bool{}, idem: idem, features: txnFeatures{epoch: -1}}
}

// need queues a partition for AddPartitionsToTxn.
func (t *producerTxn) need(tp topicPartition) {
	if !t.added[tp] && !slices.Contains(t.needed, tp) {
		t.needed = append(t.needed, tp)
	}
}

// transition moves to state s, or fails as TransactionManager does.
func (t *producerTxn) transition(s txnState, from ...txnState) *Error {
	if t.state == txnFatalError || t.state == txnAbortableError && s != txnAborting {
		return t.errorState()
	}
	if !slices.Contains(from, t.state) {
		return &Error{Class: "java.lang.IllegalStateException", Message: fmt.Sprintf("TransactionalId %s: Invalid transition attempted from state %s to state %s", t.id, t.state, s)}
	}
	t.state = s
	return nil
}

// errorState is the exception a transactional method throws once the
// producer is in an error state.
// maybeFailWithError gives a fenced or an old-epoch producer a new
// exception naming it, the rest a KafkaException wrapping the cause.
func (t *producerTxn) errorState() *Error {
	id := fmt.Sprintf("(producerId=%d, epoch=%d)", t.idem.producerID, t.idem.epoch) // ProducerIdAndEpoch.toString
	if t.err != nil {
		switch t.err.Class {
		case classProducerFenced:
			return &Error{Class: classProducerFenced, Message: fmt.Sprintf("Producer with transactionalId '%s' and %s has been fenced by another producer with the same transactionalId", t.id, id)}
		case classInvalidProducerEpoch:
			return &Error{Class: classInvalidProducerEpoch, Message: fmt.Sprintf("Producer with transactionalId '%s' and %s attempted to produce with an old epoch", t.id, id)}
		}
	}
	return &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Cannot execute transactional method because we are in an error state", Cause: t.err}
}

const (
	classProducerFenced       = "org.apache.kafka.common.errors.ProducerFencedException"
	classInvalidProducerEpoch = "org.apache.kafka.common.errors.InvalidProducerEpochException"
)

// InitTransactions is KafkaProducer.initTransactions: find the
// coordinator and get the producer id and epoch for the transactional
// id (fencing any earlier instance). done runs once it is READY, or with
// the error.
func (p *Producer) InitTransactions(env *sim.Env, done func(env *sim.Env, err *Error)) {
	t := p.txn
	if t == nil {
		done(env, &Error{Class: "java.lang.IllegalStateException", Message: "Transactional method invoked on a non-transactional producer."})
		return
	}
	if err := t.transition(txnInitializing, txnUninitialized); err != nil {
		done(env, err)
		return
	}
	t.onInit = done
	p.run(env)
}

// BeginTransaction is KafkaProducer.beginTransaction.
func (p *Producer) BeginTransaction() *Error {
	if p.txn == nil {
		return &Error{Class: "java.lang.IllegalStateException", Message: "Transactional method invoked on a non-transactional producer."}
	}
	return p.txn.transition(txnInTransaction, txnReady)
}

// CommitTransaction is KafkaProducer.commitTransaction: every record sent
// is acknowledged first, then EndTxn commits.
func (p *Producer) CommitTransaction(env *sim.Env, done func(env *sim.Env, err *Error)) {
	p.endTransaction(env, true, done)
}

// AbortTransaction is KafkaProducer.abortTransaction: batches not sent
// yet fail (TransactionAbortedException), those in flight are waited for,
// then EndTxn aborts.
func (p *Producer) AbortTransaction(env *sim.Env, done func(env *sim.Env, err *Error)) {
	p.endTransaction(env, false, done)
}

func (p *Producer) endTransaction(env *sim.Env, commit bool, done func(env *sim.Env, err *Error)) {
	t := p.txn
	if t == nil {
		done(env, &Error{Class: "java.lang.IllegalStateException", Message: "Transactional method invoked on a non-transactional producer."})
		return
	}
	var err *Error
	if commit {
		err = t.transition(txnCommitting, txnInTransaction)
	} else {
		err = t.transition(txnAborting, txnInTransaction, txnAbortableError)
	}
	if err != nil {
		done(env, err)
		return
	}
	if !commit {
		p.abortUnsentBatches(env, nil)
	}
	// beginCompletingTransaction: the end keeps the protocol the
	// transaction started with; the next one may use another.
	t.endV2 = t.v2
	t.maybeUpdateTransactionV2(false)
	t.onEnd = done
	p.run(env)
}

// abortUnsentBatches fails the batches never sent, those without a
// sequence (RecordAccumulator.abortUndrainedBatches), with cause or, if
// nil, TransactionAbortedException. A batch sent once keeps its place: it
// is retried, or fails, inside the transaction, and the EndTxn waits for
// it.
func (p *Producer) abortUnsentBatches(env *sim.Env, cause *Error) {
	if cause == nil {
		cause = &Error{Class: "org.apache.kafka.common.errors.TransactionAbortedException", Message: "Failing batch since transaction was aborted"}
	}
	for _, pq := range p.order {
		for _, b := range slices.Clone(pq.batches) {
			if !b.inFlight && b.baseSeq < 0 {
				p.fail(env, b, cause)
			}
		}
	}
}

// incompleteBatches counts the batches in the accumulator
// (RecordAccumulator.hasIncomplete).
func (p *Producer) incompleteBatches() int {
	n := 0
	for _, pq := range p.order {
		n += len(pq.batches)
	}
	return n
}

// txnFailBatch is a batch's failure in a transaction: a fenced producer
// is fatal, anything else makes the transaction abortable.
func (p *Producer) txnFailBatch(err *Error) {
	t := p.txn
	if t == nil || t.state == txnFatalError {
		return
	}
	if err.Class == classProducerFenced {
		t.state, t.err = txnFatalError, err
		return
	}
	if t.state == txnInTransaction || t.state == txnCommitting {
		t.state, t.err = txnAbortableError, err
	}
}

// txnStep sends the coordinator request the state calls for, if none is
// in flight: FindCoordinator, InitProducerId, AddPartitionsToTxn, EndTxn.
func (p *Producer) txnStep(env *sim.Env) {
	t := p.txn
	if t == nil {
		return
	}
	// While the transaction aborts, or must, no batch is sent for the
	// first time (Sender.maybeSendAndPollTransactionalRequest): the last
	// error that made it abortable fails them.
	if t.state == txnAborting || t.state == txnAbortableError {
		var cause *Error
		if t.state == txnAbortableError {
			cause = t.err
		}
		p.abortUnsentBatches(env, cause)
	}
	if t.inFlight || env.Now() < t.retryAt {
		return
	}
	switch t.state {
	case txnInitializing:
	case txnInTransaction, txnCommitting:
		if len(t.needed) == 0 && p.txnOffsetsStep(env) {
			return
		}
		if len(t.needed) > 0 {
			break
		}
		if t.state == txnCommitting && p.Pending() == 0 {
			break
		}
		return
	case txnAborting:
		// EndTxn goes once no batch is incomplete
		// (TransactionManager.nextRequest(hasIncompleteBatches)).
		if p.incompleteBatches() > 0 {
			return
		}
	case txnAbortableError:
		if t.onEnd != nil { // a commit that cannot be: its result fails with the cause (maybeTerminateRequestWithError)
			done := t.onEnd
			t.onEnd = nil
			done(env, t.err)
		}
		return
	default:
		return
	}
	if t.coordinator == "" {
		p.findTxnCoordinator(env)
		return
	}
	if p.wantsApiVersions() {
		p.txnApiVersions(env)
		return
	}
	switch {
	case t.state == txnInitializing:
		req := &protocol.InitProducerIdRequest{TransactionalID: t.id, TransactionTimeoutMs: int32(t.timeout.Milliseconds()), ProducerID: -1, ProducerEpoch: -1}
		if t.bumping { // the client-side bump names the current id and epoch
			req.ProducerID, req.ProducerEpoch = p.idem.producerID, p.idem.epoch
		}
		p.txnRequest(env, req)
	case len(t.needed) > 0 && t.state != txnAborting:
		req := &protocol.AddPartitionsToTxnRequest{TransactionalID: t.id, ProducerID: p.idem.producerID, ProducerEpoch: p.idem.epoch}
		for _, tp := range t.needed {
			req.Topics = protocol.AppendTxnPartition(req.Topics, tp.topic, tp.partition)
		}
		p.txnRequest(env, req)
	case !t.started:
		// Nothing was added: the end completes here (transactionStarted).
		t.state = txnReady
		p.finishEnd(env, nil)
	default:
		req := &protocol.EndTxnRequest{TransactionalID: t.id, ProducerID: p.idem.producerID, ProducerEpoch: p.idem.epoch, Committed: t.state == txnCommitting}
		if t.endV2 {
			req.Version = protocol.EndTxnVersionTransactionV2
		}
		p.txnRequest(env, req)
	}
}

// findTxnCoordinator asks the least loaded broker for the coordinator.
func (p *Producer) findTxnCoordinator(env *sim.Env) {
	t := p.txn
	t.inFlight = true
	to := p.leastLoadedNode("")
	req := &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeTransaction, CoordinatorKeys: []string{t.id}}
	p.net.Send(env, to, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		t.inFlight = false
		r, _ := resp.(*protocol.FindCoordinatorResponse)
		if err == nil && r != nil && len(r.Coordinators) > 0 && r.Coordinators[0].ErrorCode == protocol.NONE {
			co := r.Coordinators[0]
			t.coordinator = sim.Addr(fmt.Sprintf("%s:%d", co.Host, co.Port))
		} else {
			p.txnRetryLater(env)
		}
		p.run(env)
	})
}

// txnRequest sends a request to the coordinator and handles its answer
// (TransactionManager's handlers: retriable errors retry, a moved
// coordinator is looked up again, fencing is fatal).
func (p *Producer) txnRequest(env *sim.Env, req protocol.Request) {
	t := p.txn
	t.inFlight = true
	p.net.Send(env, t.coordinator, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		t.inFlight = false
		code := protocol.NETWORK_EXCEPTION
		if err == nil {
			code = txnCode(resp)
		}
		switch code {
		case protocol.NONE:
			p.txnSucceeded(env, req, resp)
		case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE, protocol.NETWORK_EXCEPTION:
			t.coordinator = ""
			p.txnRetryLater(env)
		case protocol.CONCURRENT_TRANSACTIONS:
			if _, add := req.(*protocol.AddPartitionsToTxnRequest); add && len(t.added) == 0 {
				// The transaction's first AddPartitionsToTxn: the previous
				// transaction is still completing, so it is tried again
				// soon (AddPartitionsToTxnHandler.maybeOverrideRetryBackoffMs).
				p.txnRetryAfter(env, addPartitionsRetryBackoff)
				break
			}
			p.txnRetryLater(env)
		case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.OPERATION_NOT_ATTEMPTED:
			p.txnRetryLater(env)
		case protocol.PRODUCER_FENCED, protocol.INVALID_PRODUCER_EPOCH:
			t.state = txnFatalError
			// An old coordinator's INVALID_PRODUCER_EPOCH means the same
			// (TransactionManager's handlers); the call fails with the
			// error's own message, later calls with maybeFailWithError's.
			t.err = &Error{Class: classProducerFenced, Message: protocol.PRODUCER_FENCED.Message()}
			p.txnFailCalls(env)
		default:
			t.state = txnFatalError
			t.err = &Error{Class: code.Exception(), Message: code.Message()}
			p.txnFailCalls(env)
		}
		p.run(env)
	})
}

// txnCode is a transaction response's error (the first partition's for
// AddPartitionsToTxn).
func txnCode(resp protocol.Response) protocol.ErrorCode {
	switch r := resp.(type) {
	case *protocol.InitProducerIdResponse:
		return r.ErrorCode
	case *protocol.EndTxnResponse:
		return r.ErrorCode
	case *protocol.AddOffsetsToTxnResponse:
		return r.ErrorCode
	case *protocol.AddPartitionsToTxnResponse:
		for _, t := range r.Results {
			for _, pr := range t.Partitions {
				if pr.ErrorCode != protocol.NONE {
					return pr.ErrorCode
				}
			}
		}
	}
	return protocol.NONE
}

func (p *Producer) txnSucceeded(env *sim.Env, req protocol.Request, resp protocol.Response) {
	t := p.txn
	switch r := resp.(type) {
	case *protocol.InitProducerIdResponse:
		p.idem.producerID, p.idem.epoch = r.ProducerID, r.ProducerEpoch
		p.idem.gen++
		t.state = txnReady
		if t.bumping { // the bump after a switch to v2 ends the commit or abort
			t.bumping = false
			p.finishEnd(env, nil)
			return
		}
		t.maybeUpdateTransactionV2(true)
		if done := t.onInit; done != nil {
			t.onInit = nil
			done(env, nil)
		}
	case *protocol.AddPartitionsToTxnResponse:
		for _, tp := range req.(*protocol.AddPartitionsToTxnRequest).Topics {
			for _, part := range tp.Partitions {
				key := topicPartition{tp.Name, part}
				t.added[key] = true
				t.needed = slices.DeleteFunc(t.needed, func(x topicPartition) bool { return x == key })
			}
		}
		t.started = true
	case *protocol.AddOffsetsToTxnResponse:
		p.offsetsAdded()
	case *protocol.EndTxnResponse:
		if t.endV2 {
			p.adoptEndTxnEpoch(r)
		}
		if t.bumpRequired {
			t.bumpRequired, t.bumping = false, true
			t.state = txnInitializing
			return
		}
		t.state = txnReady
		p.finishEnd(env, nil)
	}
}

// finishEnd ends a commit or abort: the next transaction starts afresh.
func (p *Producer) finishEnd(env *sim.Env, err *Error) {
	t := p.txn
	t.added, t.needed, t.started = map[topicPartition]bool{}, nil, false
	if done := t.onEnd; done != nil {
		t.onEnd = nil
		done(env, err)
	}
}

// txnFailCalls fails the calls waiting on a producer now in an error
// state with the error itself, as a handler's fatalError fails its result.
func (p *Producer) txnFailCalls(env *sim.Env) {
	t := p.txn
	err := t.err
	var offsetsDone func(*sim.Env, *Error)
	if t.offsets != nil {
		offsetsDone = t.offsets.done
	}
	for _, done := range []func(*sim.Env, *Error){t.onInit, t.onEnd, offsetsDone} {
		if done != nil {
			done(env, err)
		}
	}
	t.onInit, t.onEnd, t.offsets = nil, nil, nil
}

// txnCheckSend is TransactionManager.maybeAddPartition's check, made as
// a record is appended to the accumulator: a transactional producer sends
// only inside a transaction. It gives the refusal for the partition the record goes to,
// or nil. The exceptions are thrown out of send (IllegalStateException,
// the error state's KafkaException); a fenced producer's, an
// ApiException, goes to the callback.
func (p *Producer) txnCheckSend() func(tp topicPartition) *Error {
	t := p.txn
	if t == nil {
		return nil
	}
	var make func(name string) *Error
	switch state := t.state; {
	case state == txnFatalError, state == txnAbortableError:
		err := t.errorState()
		make = func(string) *Error { return err }
	case p.idem.producerID < 0:
		make = func(name string) *Error {
			return &Error{Class: "java.lang.IllegalStateException", Message: "Cannot add partition " + name + " to transaction before completing a call to initTransactions"}
		}
	case state != txnInTransaction:
		make = func(name string) *Error {
			return &Error{Class: "java.lang.IllegalStateException", Message: "Cannot add partition " + name + " to transaction while in state  " + state.String()}
		}
	default:
		return nil
	}
	return func(tp topicPartition) *Error {
		err := make(fmt.Sprintf("%s-%d", tp.topic, tp.partition))
		err.thrown = err.Class == "java.lang.IllegalStateException" || err.Class == "org.apache.kafka.common.KafkaException"
		return err
	}
}

// txnRetryLater has the next transactional request wait retry.backoff.ms,
// and wakes the sender then.
func (p *Producer) txnRetryLater(env *sim.Env) { p.txnRetryAfter(env, p.cfg.RetryBackoff) }

// txnRetryAfter sends the transaction's next request d from now.
func (p *Producer) txnRetryAfter(env *sim.Env, d time.Duration) {
	p.txn.retryAt = env.Now().Add(d)
	env.After(d, "txn-retry-backoff", p.run)
}

// addPartitionsRetryBackoff is TransactionManager's
// ADD_PARTITIONS_RETRY_BACKOFF_MS (20 ms).
const addPartitionsRetryBackoff = 20 * time.Millisecond

// TxnView is a transactional producer's transaction as its
// TransactionManager holds it, for views.
type TxnView struct {
	TransactionalID string
	State           string   // TransactionManager.State: READY, IN_TRANSACTION, COMMITTING_TRANSACTION, ...
	Partitions      []string // added to the transaction (AddPartitionsToTxn answered), sorted
	Pending         []string // waiting for AddPartitionsToTxn
	Error           string   // the error that put it in ABORTABLE_ERROR or FATAL_ERROR
	// V2: the producer uses transactions v2 (KIP-890 part 2): every
	// commit and abort bumps its producer epoch.
	V2 bool
}

// Transaction is the producer's transaction, or false for a producer
// without a transactional.id.
func (p *Producer) Transaction() (TxnView, bool) {
	t := p.txn
	if t == nil {
		return TxnView{}, false
	}
	v := TxnView{TransactionalID: t.id, State: t.state.String(), V2: t.v2}
	for tp := range t.added {
		v.Partitions = append(v.Partitions, fmt.Sprintf("%s-%d", tp.topic, tp.partition))
	}
	slices.Sort(v.Partitions)
	for _, tp := range t.needed {
		v.Pending = append(v.Pending, fmt.Sprintf("%s-%d", tp.topic, tp.partition))
	}
	if t.err != nil {
		v.Error = t.err.Error()
	}
	return v, true
}
