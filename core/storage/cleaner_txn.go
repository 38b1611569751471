package storage

import (
	"slices"

	"kafkascope/core/record"
)

// Transactions in a cleaning pass (Kafka's CleanedTransactionMetadata,
// LogCleaner.scala at 3.8.0). The cleaner works through the log in offset
// order, so it meets each transaction's batches before its marker:
//
//   - the aborted transactions of the range it reads come from the
//     segments' transaction indexes (.txnindex) up front; a transactional
//     batch of a producer with an aborted transaction begun at or before it
//     is aborted data, which the cleaner drops whatever its keys (nor does
//     it enter the offset map);
//   - an ABORT marker stays while this pass still met a batch of its
//     transaction (the batch may be kept empty, see lastRecord), and its
//     entry goes into the cleaned segment's index; otherwise it may go;
//   - a COMMIT marker stays while this pass met a batch of its transaction;
//     otherwise it may go;
//   - a marker that may go is not dropped at once: like a tombstone, it
//     first gets a delete horizon (now + delete.retention.ms) and is
//     dropped by the first pass after it, so that a consumer reading the
//     log meanwhile still sees the end of the transaction it began.

// cleanerTxns is the transactions' state through one pass.
type cleanerTxns struct {
	// pending are the aborted transactions not reached yet, by first
	// offset (Kafka's min-heap).
	pending []AbortedTxn
	// abortedOpen: producers inside an aborted transaction, and whether
	// the pass met a batch of it; committedOpen: producers inside a
	// transaction that is not aborted, with a batch met.
	abortedOpen   map[int64]*cleanerAbortedTxn
	committedOpen map[int64]bool
	// index collects the entries for the cleaned segment's .txnindex: the
	// aborted transactions whose markers stay.
	index []AbortedTxn
}

type cleanerAbortedTxn struct {
	txn      AbortedTxn
	batchMet bool
}

func newCleanerTxns() *cleanerTxns {
	return &cleanerTxns{abortedOpen: map[int64]*cleanerAbortedTxn{}, committedOpen: map[int64]bool{}}
}

// add takes in aborted transactions found in the indexes. The same one
// may come twice, from two segments' ranges; reach opens it once.
func (c *cleanerTxns) add(txns []AbortedTxn) {
	for _, a := range txns {
		i, _ := slices.BinarySearchFunc(c.pending, a.FirstOffset, func(p AbortedTxn, first int64) int {
			switch {
			case p.FirstOffset < first:
				return -1
			case p.FirstOffset > first:
				return 1
			}
			return 0
		})
		for i < len(c.pending) && c.pending[i].FirstOffset == a.FirstOffset {
			i++ // after equal ones: the order they were found in
		}
		c.pending = slices.Insert(c.pending, i, a)
	}
}

// reach opens the aborted transactions begun at or before offset.
func (c *cleanerTxns) reach(offset int64) {
	n := 0
	for n < len(c.pending) && c.pending[n].FirstOffset <= offset {
		a := c.pending[n]
		if c.abortedOpen[a.ProducerID] == nil {
			c.abortedOpen[a.ProducerID] = &cleanerAbortedTxn{txn: a}
		}
		n++
	}
	c.pending = c.pending[n:]
}

// onDataBatch is a data batch met (onBatchRead): it reports whether the
// batch is aborted data.
func (c *cleanerTxns) onDataBatch(h record.BatchHeader) bool {
	c.reach(h.LastOffset())
	if !h.IsTransactional() {
		return false
	}
	if a := c.abortedOpen[h.ProducerID]; a != nil {
		a.batchMet = true
		return true
	}
	c.committedOpen[h.ProducerID] = true
	return false
}

// onControlBatch is a control batch met (onControlBatchRead), with its
// marker (nil for a control batch without one, or one emptied by an
// earlier pass): it reports whether the batch may go.
func (c *cleanerTxns) onControlBatch(h record.BatchHeader, marker *record.EndTxnMarker, empty bool) bool {
	c.reach(h.LastOffset())
	if empty {
		return true // emptied by an earlier pass
	}
	if marker == nil {
		return false
	}
	switch marker.Type {
	case record.ControlAbort:
		a := c.abortedOpen[h.ProducerID]
		delete(c.abortedOpen, h.ProducerID)
		if a != nil && a.batchMet {
			c.index = append(c.index, a.txn)
			return false
		}
		return true
	case record.ControlCommit:
		met := c.committedOpen[h.ProducerID]
		delete(c.committedOpen, h.ProducerID)
		return !met
	}
	return false
}

// onBatch is onDataBatch or onControlBatch for a batch met, decoded (b;
// nil if it could not be, which a control batch never is in this
// simulator's logs): it reports whether the batch is aborted data or a
// marker that may go.
func (c *cleanerTxns) onBatch(h record.BatchHeader, b *record.Batch) bool {
	if !h.IsControl() {
		return c.onDataBatch(h)
	}
	if b == nil {
		return c.onControlBatch(h, nil, false)
	}
	var marker *record.EndTxnMarker
	if len(b.Records) > 0 {
		if m, err := record.ParseEndTxnMarker(b.Records[0].Key, b.Records[0].Value); err == nil {
			marker = &m
		}
	}
	return c.onControlBatch(h, marker, len(b.Records) == 0)
}

// takeIndex hands over the index entries collected so far (one cleaned
// segment's).
func (c *cleanerTxns) takeIndex() []AbortedTxn {
	out := c.index
	c.index = nil
	return out
}

// lastRecord is what a pass must keep of an active producer
// (ProducerStateManager.lastRecordsOfActiveProducers): the batch holding
// its last data offset, which has its last sequence number, even if
// emptied; or, if its current epoch has no data (its last entry is a
// marker), that marker, which has the epoch that fences older ones.
type lastRecord struct {
	dataOffset int64 // -1: none in the current epoch
	epoch      int16
}

// lastRecords maps every producer of the log's producer state to its
// lastRecord. Kafka also expires producers after
// producer.id.expiration.ms; this producer state keeps every one.
func (l *Log) lastRecords() (map[int64]lastRecord, error) {
	ps, err := l.ProducerState()
	if err != nil {
		return nil, err
	}
	out := make(map[int64]lastRecord, len(ps.producers))
	for id, e := range ps.producers {
		out[id] = lastRecord{dataOffset: e.LastOffset(), epoch: e.Epoch}
	}
	return out, nil
}

// isLastOfProducer reports whether the batch is what must be kept of its
// producer.
func isLastOfProducer(last map[int64]lastRecord, h record.BatchHeader) bool {
	lr, ok := last[h.ProducerID]
	if !ok || h.ProducerID < 0 {
		return false
	}
	if lr.dataOffset >= 0 {
		return h.LastOffset() == lr.dataOffset
	}
	return h.IsControl() && h.ProducerEpoch == lr.epoch
}

// collectAbortedTxns is UnifiedLog.collectAbortedTransactions(from,
// upperBound): the aborted transactions overlapping [logStartOffset,
// upperBound), read from the segment holding from onwards until a
// segment's index says it has them all.
func (l *Log) collectAbortedTxns(from, upperBound int64) ([]AbortedTxn, error) {
	return l.abortedTxnsFrom(from, l.logStartOffset, upperBound)
}
