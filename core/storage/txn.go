package storage

import (
	"slices"

	"kafkascope/core/record"
)

// Transactions in a partition's producer state (ProducerStateManager,
// ProducerAppendInfo and UnifiedLog at 3.8.0). A producer's first
// transactional batch opens its transaction at that batch's offset; its
// COMMIT or ABORT marker (a control batch the coordinator has the leader
// append) completes it. An ABORT marker that completes a transaction adds
// an entry to the segment's transaction index, with the partition's last
// stable offset at that moment: the first offset of the earliest other
// transaction still open, or the offset after the marker.
//
// The first unstable offset is the earliest first offset of a transaction
// still open, or of a completed one whose marker the high watermark has
// not passed yet (a follower that leads next must not expose it); the
// last stable offset (LSO), what read_committed consumers may read up to,
// is that offset or the high watermark, whichever is lower.

// CompletedTxn is a transaction a marker completed.
type CompletedTxn struct {
	ProducerID  int64
	FirstOffset int64 // the producer's first batch in the transaction
	LastOffset  int64 // the marker
	Aborted     bool
}

// openTxn is a transaction still open: its producer and first offset.
type openTxn struct {
	producerID  int64
	firstOffset int64
}

// appendBatch records an appended batch: a data batch as Update does (and
// a transactional one opens its producer's transaction if none is open);
// a marker completes the producer's open transaction, if any, and takes
// the producer to the marker's epoch (a coordinator that aborted a timed
// out transaction bumped it: the old epoch's writes are then refused).
func (m *ProducerStateManager) appendBatch(h record.BatchHeader, marker *record.EndTxnMarker) (CompletedTxn, bool) {
	if h.ProducerID < 0 {
		return CompletedTxn{}, false
	}
	if !h.IsControl() {
		m.Update(h.ProducerID, h.ProducerEpoch, batchMetadata(h))
		if e := m.producers[h.ProducerID]; h.IsTransactional() && e.CurrentTxnFirstOffset < 0 {
			e.CurrentTxnFirstOffset = h.BaseOffset
			m.ongoing = append(m.ongoing, openTxn{h.ProducerID, h.BaseOffset})
		}
		return CompletedTxn{}, false
	}
	if marker == nil {
		return CompletedTxn{}, false // a control batch that is not a transaction marker
	}
	e := m.entry(h.ProducerID)
	if h.ProducerEpoch > e.Epoch {
		e.Epoch, e.Batches = h.ProducerEpoch, nil
	}
	e.CoordinatorEpoch = marker.CoordinatorEpoch
	e.LastTimestamp = h.MaxTimestamp
	if e.CurrentTxnFirstOffset < 0 {
		return CompletedTxn{}, false // no transaction open: a retried marker
	}
	c := CompletedTxn{ProducerID: h.ProducerID, FirstOffset: e.CurrentTxnFirstOffset, LastOffset: h.BaseOffset, Aborted: marker.Type == record.ControlAbort}
	e.CurrentTxnFirstOffset = -1
	m.ongoing = slices.DeleteFunc(m.ongoing, func(o openTxn) bool { return o.producerID == h.ProducerID })
	m.unreplicated = append(m.unreplicated, c)
	return c, true
}

// lastStableOffsetAfter is the LSO a completed transaction's index entry
// records (ProducerStateManager.lastStableOffset): the earliest first
// offset of a transaction still open, else the offset after its marker.
func (m *ProducerStateManager) lastStableOffsetAfter(c CompletedTxn) int64 {
	if fu, ok := m.firstOpen(); ok {
		return fu
	}
	return c.LastOffset + 1
}

// firstOpen is the earliest first offset of an open transaction.
func (m *ProducerStateManager) firstOpen() (int64, bool) {
	if len(m.ongoing) == 0 {
		return 0, false
	}
	first := m.ongoing[0].firstOffset
	for _, o := range m.ongoing[1:] {
		first = min(first, o.firstOffset)
	}
	return first, true
}

// firstUnstableOffset is the earliest first offset of an open transaction
// or of a completed one not yet below the high watermark.
func (m *ProducerStateManager) firstUnstableOffset() (int64, bool) {
	first, ok := m.firstOpen()
	for _, c := range m.unreplicated {
		if !ok || c.FirstOffset < first {
			first, ok = c.FirstOffset, true
		}
	}
	return first, ok
}

// onHighWatermarkUpdated forgets the completed transactions whose markers
// the high watermark has passed (removeUnreplicatedTransactions).
func (m *ProducerStateManager) onHighWatermarkUpdated(hw int64) {
	m.unreplicated = slices.DeleteFunc(m.unreplicated, func(c CompletedTxn) bool { return c.LastOffset < hw })
}

// entry is the producer's entry, made if it has none.
func (m *ProducerStateManager) entry(producerID int64) *ProducerStateEntry {
	e := m.producers[producerID]
	if e == nil {
		e = &ProducerStateEntry{ProducerID: producerID, Epoch: record.NoProducerEpoch, CurrentTxnFirstOffset: -1, CoordinatorEpoch: -1, LastTimestamp: -1}
		m.producers[producerID] = e
		m.order = append(m.order, producerID)
	}
	return e
}

// LastStableOffset is the partition's LSO: the first unstable offset if
// below the high watermark, else the high watermark.
func (l *Log) LastStableOffset() (int64, error) {
	ps, err := l.ProducerState()
	if err != nil {
		return l.highWatermark, err
	}
	if fu, ok := ps.firstUnstableOffset(); ok && fu < l.highWatermark {
		return max(fu, l.logStartOffset), nil
	}
	return l.highWatermark, nil
}

// AbortedTxns are the aborted transactions a read of [fetchOffset,
// upperBound) must tell a read_committed consumer about
// (LocalLog.collectAbortedTransactions): from the segment holding
// fetchOffset on, through later segments (an aborted transaction's entry
// is in the segment of its marker, which may lie past the read) until a
// segment's index says it has them all.
func (l *Log) AbortedTxns(fetchOffset, upperBound int64) ([]AbortedTxn, error) {
	return l.abortedTxnsFrom(fetchOffset, fetchOffset, upperBound)
}

// abortedTxnsFrom reads the indexes from the segment holding from on, for
// the entries overlapping [fetchOffset, upperBound)
// (LocalLog.collectAbortedTransactions).
func (l *Log) abortedTxnsFrom(from, fetchOffset, upperBound int64) ([]AbortedTxn, error) {
	var out []AbortedTxn
	for i, s := range l.segments {
		if i+1 < len(l.segments) && l.segments[i+1].BaseOffset <= from {
			continue
		}
		got, complete, err := s.txnIndex.collect(fetchOffset, upperBound)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		if complete {
			break
		}
	}
	return out, nil
}

// AppendMarkerAsLeader appends a transaction marker for a producer
// (UnifiedLog.appendAsLeader with origin COORDINATOR): a control batch of
// the producer's id and epoch, stamped with the leader's epoch. A marker
// of an older epoch than the producer's is refused
// (INVALID_PRODUCER_EPOCH), as is one from an older coordinator epoch
// (TRANSACTION_COORDINATOR_FENCED).
func (l *Log) AppendMarkerAsLeader(producerID int64, producerEpoch int16, m record.EndTxnMarker, timestamp int64, leaderEpoch int32) (AppendInfo, error) {
	ps, err := l.ProducerState()
	if err != nil {
		return l.refused(err)
	}
	if e := ps.LastEntry(producerID); e != nil {
		switch {
		case producerEpoch < e.Epoch:
			return l.refused(markerError(ErrInvalidProducerEpoch, "Epoch of producer %d at offset %d in %s is %d, which is smaller than the last seen epoch %d",
				producerID, l.logEndOffset, l.tp, producerEpoch, e.Epoch))
		case e.CoordinatorEpoch > m.CoordinatorEpoch:
			return l.refused(markerError(ErrTransactionCoordinatorFenced, "Invalid coordinator epoch for producerId %d at offset %d in partition %s: %d (zombie), %d (current)",
				producerID, l.logEndOffset, l.tp, m.CoordinatorEpoch, e.CoordinatorEpoch))
		}
	}
	data := record.BuildEndTxnMarker(l.logEndOffset, leaderEpoch, producerID, producerEpoch, timestamp, m)
	h, err := record.ParseHeader(data)
	if err != nil {
		return l.refused(err)
	}
	return l.appendLeader(data, []record.BatchHeader{h}, leaderEpoch, runRef{}, true)
}

// HasOngoingTransaction: the producer has a transaction open in this
// partition at this epoch (UnifiedLog.hasOngoingTransaction). A leader
// asks its transaction coordinator about any other transactional batch
// before appending it (KIP-890).
func (l *Log) HasOngoingTransaction(producerID int64, epoch int16) bool {
	ps, err := l.ProducerState()
	if err != nil {
		return false
	}
	e := ps.LastEntry(producerID)
	return e != nil && e.CurrentTxnFirstOffset >= 0 && e.Epoch == epoch
}
