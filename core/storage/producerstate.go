package storage

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"kafkascope/core/jdk"
	"kafkascope/core/record"
)

// Errors of the idempotent producer checks (Kafka's ProducerAppendInfo);
// the broker answers them as OUT_OF_ORDER_SEQUENCE_NUMBER and
// INVALID_PRODUCER_EPOCH.
var (
	ErrOutOfOrderSequence   = errors.New("out of order sequence number")
	ErrInvalidProducerEpoch = errors.New("invalid producer epoch")
	// ErrTransactionCoordinatorFenced: a marker from an older coordinator
	// epoch than the producer's last (TRANSACTION_COORDINATOR_FENCED).
	ErrTransactionCoordinatorFenced = errors.New("transaction coordinator fenced")
)

// markerError is err with Kafka's message.
func markerError(err error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", err, fmt.Sprintf(format, args...))
}

// NumBatchesToRetain is how many of a producer's latest batches the broker
// remembers for duplicate detection (ProducerStateEntry.NUM_BATCHES_TO_RETAIN):
// it is why an idempotent producer may have at most 5 requests in flight.
const NumBatchesToRetain = 5

// BatchMetadata is what the broker remembers of one of a producer's
// batches: enough to answer a retried duplicate with the original offsets.
type BatchMetadata struct {
	FirstSeq, LastSeq       int32
	FirstOffset, LastOffset int64
	Timestamp               int64
}

// ProducerStateEntry is one producer's state in one partition
// (ProducerStateEntry). Invariant: len(Batches) <= NumBatchesToRetain, in
// append order, all of epoch Epoch.
type ProducerStateEntry struct {
	ProducerID int64
	Epoch      int16 // record.NoProducerEpoch until the first batch
	Batches    []BatchMetadata
	// CurrentTxnFirstOffset is the first offset of the producer's open
	// transaction, -1 with none; CoordinatorEpoch that of the last marker
	// (-1 before any).
	CurrentTxnFirstOffset int64
	CoordinatorEpoch      int32
	// LastTimestamp is the max timestamp of the producer's last batch, or
	// its last marker's timestamp (-1 before either): kafka-transactions.sh
	// find-hanging measures an open transaction's age from it.
	LastTimestamp int64
}

// LastSeq is the last sequence appended, or -1 (NO_SEQUENCE) with none.
func (e *ProducerStateEntry) LastSeq() int32 {
	if len(e.Batches) == 0 {
		return record.NoSequence
	}
	return e.Batches[len(e.Batches)-1].LastSeq
}

// LastOffset is the offset of the producer's last appended record, or -1.
func (e *ProducerStateEntry) LastOffset() int64 {
	if len(e.Batches) == 0 {
		return -1
	}
	return e.Batches[len(e.Batches)-1].LastOffset
}

// findDuplicate returns the cached batch a retry repeats: same epoch and
// exactly the same sequence range (ProducerStateEntry.findDuplicateBatch).
func (e *ProducerStateEntry) findDuplicate(epoch int16, firstSeq, lastSeq int32) (BatchMetadata, bool) {
	if epoch != e.Epoch {
		return BatchMetadata{}, false
	}
	for _, b := range e.Batches {
		if b.FirstSeq == firstSeq && b.LastSeq == lastSeq {
			return b, true
		}
	}
	return BatchMetadata{}, false
}

// addBatch remembers a batch; a new epoch forgets the old epoch's batches.
func (e *ProducerStateEntry) addBatch(epoch int16, b BatchMetadata) {
	if epoch != e.Epoch {
		e.Epoch = epoch
		e.Batches = nil
	}
	e.Batches = append(e.Batches, b)
	e.LastTimestamp = b.Timestamp
	if len(e.Batches) > NumBatchesToRetain {
		e.Batches = slices.Delete(e.Batches, 0, 1)
	}
}

// ProducerStateManager holds every producer's state for one partition
// replica (Kafka's ProducerStateManager). Leaders check client batches
// against it; every replica updates it on each append, so a follower that
// becomes leader dedups retries of batches the old leader appended. It is
// rebuilt from the batches in the log (they carry producer id, epoch and
// sequence) when the log is opened or truncated.
type ProducerStateManager struct {
	producers map[int64]*ProducerStateEntry
	// order is the producers' ids in the order they were first seen: Kafka
	// keeps them in a java.util.HashMap, whose iteration order
	// (ActiveProducers) depends on it.
	order []int64
	// ongoing are the open transactions (txn.go), in the order they
	// opened; unreplicated the completed ones whose markers the high
	// watermark has not passed.
	ongoing      []openTxn
	unreplicated []CompletedTxn
}

// NewProducerStateManager makes an empty state.
func NewProducerStateManager() *ProducerStateManager {
	return &ProducerStateManager{producers: map[int64]*ProducerStateEntry{}}
}

// LastEntry is a producer's state, or nil if the producer is unknown.
func (m *ProducerStateManager) LastEntry(producerID int64) *ProducerStateEntry {
	return m.producers[producerID]
}

// ActiveProducers are the producers in the order Kafka's
// ProducerStateManager.activeProducers iterates its HashMap<Long, ...>
// (Long.hashCode: the value's two halves xor-ed), as DescribeProducers
// lists them.
func (m *ProducerStateManager) ActiveProducers() []*ProducerStateEntry {
	hashes := make([]int32, len(m.order))
	for i, id := range m.order {
		hashes[i] = int32(id ^ int64(uint64(id)>>32))
	}
	out := make([]*ProducerStateEntry, 0, len(m.order))
	for _, i := range jdk.HashOrder(hashes) {
		out = append(out, m.producers[m.order[i]])
	}
	return out
}

// ProducerIDs lists the known producers, ascending.
func (m *ProducerStateManager) ProducerIDs() []int64 {
	return slices.Sorted(maps.Keys(m.producers))
}

// lastSequence is a batch's last sequence: baseSequence + lastOffsetDelta,
// wrapping past MaxInt32 to 0 (DefaultRecordBatch.incrementSequence).
func lastSequence(baseSeq, lastOffsetDelta int32) int32 {
	if baseSeq > math.MaxInt32-lastOffsetDelta {
		return lastOffsetDelta - (math.MaxInt32 - baseSeq) - 1
	}
	return baseSeq + lastOffsetDelta
}

// inSequence: next follows last, the only wrap being MaxInt32 → 0.
func inSequence(last, next int32) bool {
	return int64(next) == int64(last)+1 || (next == 0 && last == math.MaxInt32)
}

// Check validates a client batch against the producer's state as Kafka's
// ProducerAppendInfo does for AppendOrigin.CLIENT (followers skip it):
//   - an older epoch than the stored one is INVALID_PRODUCER_EPOCH;
//   - a newer epoch (a bump) must start at sequence 0, unless the producer
//     has no stored epoch;
//   - the same epoch must continue at lastSeq+1;
//   - an unknown producer (no stored epoch) may start at any sequence.
//
// offset is where the batch would go, for the message.
func (m *ProducerStateManager) Check(tp TopicPartition, producerID int64, epoch int16, firstSeq int32, offset int64) error {
	cur := m.producers[producerID]
	curEpoch, curLast := int16(record.NoProducerEpoch), int32(record.NoSequence)
	if cur != nil {
		curEpoch, curLast = cur.Epoch, cur.LastSeq()
	}
	if epoch < curEpoch {
		return fmt.Errorf("%w: Epoch of producer %d at offset %d in %s is %d, which is smaller than the last seen epoch %d",
			ErrInvalidProducerEpoch, producerID, offset, tp, epoch, curEpoch)
	}
	if epoch != curEpoch {
		if firstSeq != 0 && curEpoch != record.NoProducerEpoch {
			return fmt.Errorf("%w: Invalid sequence number for new epoch of producer %dat offset %d in partition %s: %d (request epoch), %d (seq. number), %d (current producer epoch)",
				ErrOutOfOrderSequence, producerID, offset, tp, epoch, firstSeq, curEpoch)
		}
		return nil
	}
	if curEpoch == record.NoProducerEpoch || inSequence(curLast, firstSeq) {
		return nil
	}
	return fmt.Errorf("%w: Out of order sequence number for producer %d at offset %d in partition %s: %d (incoming seq. number), %d (current end sequence number)",
		ErrOutOfOrderSequence, producerID, offset, tp, firstSeq, curLast)
}

// Update records an appended batch (leader or follower).
func (m *ProducerStateManager) Update(producerID int64, epoch int16, b BatchMetadata) {
	e := m.entry(producerID)
	if epoch < e.Epoch {
		return // a follower replicating an old epoch's batch: Kafka only warns
	}
	e.addBatch(epoch, b)
}

// ProducerState is the partition's producer state, rebuilt from the
// headers of the log's batches (in the .log files: BatchInfo keeps no
// producer) after the log was opened or truncated. Every batch with a
// producer id counts, control batches included.
func (l *Log) ProducerState() (*ProducerStateManager, error) {
	if l.producers == nil {
		m, err := l.replayProducers(nil)
		if err != nil {
			return nil, err
		}
		m.onHighWatermarkUpdated(l.highWatermark)
		l.producers = m
	}
	return l.producers, nil
}

// forgetProducerState drops the state so it is rebuilt from the log.
func (l *Log) forgetProducerState() { l.producers = nil }

// replayProducers builds a producer state from every batch of the log,
// calling completed (if not nil) for each transaction a marker completes,
// with the segment that holds the marker and the state as it completes.
func (l *Log) replayProducers(completed func(s *Segment, m *ProducerStateManager, c CompletedTxn) error) (*ProducerStateManager, error) {
	m := NewProducerStateManager()
	for _, s := range l.segments {
		err := s.eachHeader(func(b BatchInfo, h record.BatchHeader) error {
			if h.ProducerID < 0 {
				return nil
			}
			var marker *record.EndTxnMarker
			if h.IsControl() {
				mk, err := s.markerAt(b)
				if err != nil {
					return err
				}
				marker = mk
			}
			if c, ok := m.appendBatch(h, marker); ok && completed != nil {
				return completed(s, m, c)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// rebuildTxnIndexes writes again the transaction indexes of the segments
// from the one at base on, after a recovery: the producer state replayed
// from the log's start (Kafka replays from its last snapshot before them,
// LogSegment.recover), an entry for each aborted transaction whose marker
// is in one of them.
func (l *Log) rebuildTxnIndexes(base int64) error {
	for _, s := range l.segments {
		if s.BaseOffset >= base {
			if err := s.txnIndex.reset(); err != nil {
				return err
			}
		}
	}
	_, err := l.replayProducers(func(s *Segment, m *ProducerStateManager, c CompletedTxn) error {
		if !c.Aborted || s.BaseOffset < base {
			return nil
		}
		return s.txnIndex.append(AbortedTxn{ProducerID: c.ProducerID, FirstOffset: c.FirstOffset, LastOffset: c.LastOffset, LastStableOffset: m.lastStableOffsetAfter(c)})
	})
	return err
}
