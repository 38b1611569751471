package txncoordinator

import (
	"fmt"
	"math"
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// txnMetadata is one transactional id's TransactionMetadata (3.8.0): its
// producer id and epoch (and the previous ones, for a retried
// InitProducerId), its state, and the partitions of its transaction in
// the order they were added. A transition is prepared (pending, so that
// no other starts meanwhile), written to the log, and completed only once
// the write is replicated.
//
// Invariants: pending is set exactly while a transition's write is in
// flight; partitions are distinct and empty in Empty and the Complete
// states; startMs is -1 in Empty.
type txnMetadata struct {
	id                         string
	producerID, lastProducerID int64
	epoch, lastEpoch           int16
	timeoutMs                  int32
	state                      State
	pending                    *State
	partitions                 []storage.TopicPartition
	startMs, lastUpdateMs      int64
	hasFailedEpochFence        bool
	// clientTV is the transaction version of the last request that moved
	// the transaction (2: transactions v2, KIP-890 part 2; a
	// coordinator-initiated abort takes the cluster's level).
	clientTV int16
	// nextProducerID is the producer id a v2 end whose epoch was
	// exhausted rotates to once complete (-1: none). Kafka 4.0/4.1 keep
	// it in memory only (TransactionLog.valueToBytes does not write it).
	nextProducerID int64
}

// transit is TxnTransitMetadata: the metadata a transition leads to.
type transit struct {
	producerID, lastProducerID int64
	epoch, lastEpoch           int16
	timeoutMs                  int32
	state                      State
	partitions                 []storage.TopicPartition
	startMs, lastUpdateMs      int64
	clientTV                   int16
	nextProducerID             int64
}

// logValue is what the transition writes to __transaction_state, in the
// value version the cluster's transaction.version calls for (1 from
// level 1: TransactionVersion.transactionLogValueVersion), which alone
// carries the client's transaction version.
func (t transit) logValue(version int16) LogValue {
	v := LogValue{Version: version, ProducerID: t.producerID, ProducerEpoch: t.epoch, TimeoutMs: t.timeoutMs, State: t.state,
		LastUpdateMs: t.lastUpdateMs, TxnStartMs: t.startMs}
	if version >= 1 {
		v.ClientTransactionVersion = t.clientTV
	}
	if t.state != Empty {
		v.Partitions = slices.Clone(t.partitions)
	}
	return v
}

// newMetadata is a transactional id seen for the first time: a new
// producer id, no epoch yet, Empty.
func newMetadata(id string, producerID int64, timeoutMs int32, now int64) *txnMetadata {
	return &txnMetadata{id: id, producerID: producerID, lastProducerID: record.NoProducerID,
		epoch: record.NoProducerEpoch, lastEpoch: record.NoProducerEpoch, timeoutMs: timeoutMs,
		state: Empty, startMs: -1, lastUpdateMs: now, nextProducerID: record.NoProducerID}
}

// isEpochExhausted: no epoch may reach Short.MaxValue, so that the
// coordinator can always fence the producer (isEpochExhausted: >= 32766).
func isEpochExhausted(e int16) bool { return e >= math.MaxInt16-1 }

// prepareTransitionTo checks and marks a transition as pending.
func (m *txnMetadata) prepareTransitionTo(t transit) (transit, error) {
	switch {
	case m.pending != nil:
		return transit{}, fmt.Errorf("Preparing transaction state transition to %s while it already a pending state %s", t.state, *m.pending)
	case t.producerID < 0:
		return transit{}, fmt.Errorf("Illegal new producer id %d", t.producerID)
	case t.state != Dead && t.epoch < 0:
		return transit{}, fmt.Errorf("Illegal new producer epoch %d", t.epoch)
	case !slices.Contains(t.state.validPrevious(), m.state) && !m.emptyAbort(t):
		return transit{}, fmt.Errorf("Preparing transaction state transition to %s failed since the target state %s is not a valid previous state of the current state %s", t.state, t.state, m.state)
	}
	t.lastProducerID = m.producerID
	s := t.state
	m.pending = &s
	return t, nil
}

// base is a transit that changes nothing but the state and the time.
func (m *txnMetadata) base(state State, now int64) transit {
	return transit{producerID: m.producerID, epoch: m.epoch, lastEpoch: m.lastEpoch, timeoutMs: m.timeoutMs,
		state: state, partitions: slices.Clone(m.partitions), startMs: m.startMs, lastUpdateMs: now,
		clientTV: m.clientTV, nextProducerID: m.nextProducerID}
}

// emptyAbort: under transactions v2 an abort may start from Empty or a
// completed transaction (the producer aborts with nothing sent to any
// leader; TransactionState.PrepareAbort's validPreviousStates from 4.0,
// taken only for a v2 transit).
func (m *txnMetadata) emptyAbort(t transit) bool {
	return t.state == PrepareAbort && t.clientTV >= 2 && (m.state == Empty || m.state == CompleteCommit || m.state == CompleteAbort)
}

// validProducerEpoch is the epoch check of a Prepare or Complete
// transition: the same producer and epoch, or under v2 the epoch one
// above (the end's bump) with the previous epoch kept as the last one.
func (m *txnMetadata) validProducerEpoch(t transit) bool {
	if t.producerID != m.producerID {
		return false
	}
	if t.clientTV >= 2 {
		return (t.epoch == m.epoch+1 || t.epoch == m.epoch) && (t.lastEpoch == m.lastEpoch || t.lastEpoch == m.epoch)
	}
	return t.epoch == m.epoch
}

// prepareFenceProducerEpoch bumps the epoch to fence the producer before
// the coordinator aborts its transaction (an InitProducerId of a new
// instance, or the transaction timing out); not again if an earlier fence
// failed to be written.
func (m *txnMetadata) prepareFenceProducerEpoch() (transit, error) {
	if m.epoch == math.MaxInt16 {
		return transit{}, fmt.Errorf("Cannot fence producer with epoch equal to Short.MaxValue since this would overflow")
	}
	t := m.base(PrepareEpochFence, m.lastUpdateMs)
	if !m.hasFailedEpochFence {
		t.epoch++
	}
	t.lastEpoch = record.NoProducerEpoch
	return m.prepareTransitionTo(t)
}

// prepareIncrementProducerEpoch is InitProducerId's bump: no expected
// epoch, a new producer or the current epoch bump it (PRODUCER_FENCED
// otherwise); the previous epoch is a retry of a bump that succeeded.
func (m *txnMetadata) prepareIncrementProducerEpoch(timeoutMs int32, expected *int16, now int64) (transit, protocol.ErrorCode, error) {
	if isEpochExhausted(m.epoch) {
		return transit{}, protocol.NONE, fmt.Errorf("Cannot allocate any more producer epochs for producerId %d", m.producerID)
	}
	next, last := m.epoch+1, int16(record.NoProducerEpoch)
	if expected != nil {
		switch {
		case m.epoch == record.NoProducerEpoch || *expected == m.epoch:
			last = m.epoch
		case *expected == m.lastEpoch:
			next, last = m.epoch, m.lastEpoch
		default:
			return transit{}, protocol.PRODUCER_FENCED, nil
		}
	}
	t, err := m.prepareTransitionTo(transit{producerID: m.producerID, epoch: next, lastEpoch: last, timeoutMs: timeoutMs,
		state: Empty, startMs: -1, lastUpdateMs: now, clientTV: m.clientTV, nextProducerID: record.NoProducerID})
	return t, protocol.NONE, err
}

// prepareProducerIdRotation moves to a new producer id at epoch 0 (the
// epoch was exhausted).
func (m *txnMetadata) prepareProducerIdRotation(newProducerID int64, timeoutMs int32, now int64, recordLastEpoch bool) (transit, error) {
	if m.state == Ongoing || m.state == PrepareAbort || m.state == PrepareCommit {
		return transit{}, fmt.Errorf("Cannot rotate producer ids while a transaction is still pending")
	}
	last := int16(record.NoProducerEpoch)
	if recordLastEpoch {
		last = m.epoch
	}
	return m.prepareTransitionTo(transit{producerID: newProducerID, epoch: 0, lastEpoch: last, timeoutMs: timeoutMs,
		state: Empty, startMs: -1, lastUpdateMs: now, clientTV: m.clientTV, nextProducerID: record.NoProducerID})
}

// prepareAddPartitions adds partitions (the transaction starts now if it
// was not going on); clientTV is the request's transaction version.
func (m *txnMetadata) prepareAddPartitions(added []storage.TopicPartition, now int64, clientTV int16) (transit, error) {
	t := m.base(Ongoing, now)
	t.clientTV = clientTV
	for _, tp := range added {
		if !slices.Contains(t.partitions, tp) {
			t.partitions = append(t.partitions, tp)
		}
	}
	if m.state == Empty || m.state == CompleteAbort || m.state == CompleteCommit {
		t.startMs = now
	}
	return m.prepareTransitionTo(t)
}

// prepareAbortOrCommit is EndTxn's PrepareCommit or PrepareAbort. Under
// transactions v2 (clientTV 2) a client's end bumps the epoch (bump), and
// an abort with no partition starts its transaction now; nextProducerID
// (or -1) is the id an exhausted epoch rotates to.
func (m *txnMetadata) prepareAbortOrCommit(state State, now int64, clientTV int16, bump bool, nextProducerID int64) (transit, error) {
	t := m.base(state, now)
	t.clientTV, t.nextProducerID = clientTV, nextProducerID
	if bump {
		t.epoch, t.lastEpoch = m.epoch+1, m.epoch
	}
	if clientTV >= 2 && len(m.partitions) == 0 {
		t.startMs = now
	}
	return m.prepareTransitionTo(t)
}

// prepareComplete is CompleteCommit or CompleteAbort once every marker is
// written: no partitions any more.
func (m *txnMetadata) prepareComplete(now int64) (transit, error) {
	state := CompleteAbort
	if m.state == PrepareCommit {
		state = CompleteCommit
	}
	m.hasFailedEpochFence = false
	t := m.base(state, now)
	t.partitions = nil
	if m.nextProducerID >= 0 { // the v2 rotation: the next transaction is the new id's, at epoch 0
		t.producerID, t.epoch, t.lastEpoch, t.nextProducerID = m.nextProducerID, 0, m.epoch, record.NoProducerID
	}
	return m.prepareTransitionTo(t)
}

// completeTransitionTo applies a transition whose write is replicated,
// after checking it is the pending one and a valid step.
func (m *txnMetadata) completeTransitionTo(t transit) error {
	if m.pending == nil {
		return fmt.Errorf("TransactionalId %s completing transaction state transition while it does not have a pending state", m.id)
	}
	fail := fmt.Errorf("TransactionalId %s failed transition to state %s due to unexpected metadata", m.id, t.state)
	sameProducer := t.epoch == m.epoch && t.producerID == m.producerID
	if *m.pending != t.state {
		return fail
	}
	switch t.state {
	case Empty:
		bump := t.epoch == m.epoch+1 || (t.epoch == 0 && t.producerID != m.producerID)
		if (m.epoch != t.epoch && !bump) || len(t.partitions) > 0 || t.startMs != -1 {
			return fail
		}
		m.timeoutMs, m.epoch, m.lastEpoch, m.producerID, m.lastProducerID = t.timeoutMs, t.epoch, t.lastEpoch, t.producerID, t.lastProducerID
	case Ongoing:
		for _, tp := range m.partitions {
			if !slices.Contains(t.partitions, tp) {
				return fail
			}
		}
		if !sameProducer || m.timeoutMs != t.timeoutMs {
			return fail
		}
		m.startMs = t.startMs
		for _, tp := range t.partitions {
			if !slices.Contains(m.partitions, tp) {
				m.partitions = append(m.partitions, tp)
			}
		}
	case PrepareAbort, PrepareCommit:
		validStart := m.startMs == t.startMs || m.emptyAbort(t)
		if !m.validProducerEpoch(t) || len(m.partitions) != len(t.partitions) || m.timeoutMs != t.timeoutMs || !validStart {
			return fail
		}
		if t.clientTV >= 2 {
			m.epoch, m.lastEpoch, m.nextProducerID, m.startMs = t.epoch, t.lastEpoch, t.nextProducerID, t.startMs
		}
	case CompleteAbort, CompleteCommit:
		rotated := t.clientTV >= 2 && t.producerID == m.nextProducerID && t.epoch == 0
		if !(sameProducer || rotated) || m.timeoutMs != t.timeoutMs || t.startMs == -1 {
			return fail
		}
		if rotated {
			m.lastProducerID, m.producerID, m.epoch, m.lastEpoch, m.nextProducerID = m.producerID, t.producerID, 0, t.lastEpoch, record.NoProducerID
		}
		m.startMs = t.startMs
		m.partitions = nil
	default: // PrepareEpochFence and Dead are never completed
		return fail
	}
	m.lastUpdateMs = t.lastUpdateMs
	m.pending = nil
	m.state = t.state
	m.clientTV = t.clientTV
	return nil
}
