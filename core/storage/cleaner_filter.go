package storage

import "kafkascope/core/record"

// batchFilter decides, batch by batch, what a cleaning pass copies into a
// cleaned segment (Kafka's LogCleaner.cleanInto with MemoryRecords.filterTo).
type batchFilter struct {
	m                 *OffsetMap
	nowMs             int64 // the pass's start: tombstones get their horizon from it
	deleteRetentionMs int64
	// last: what must be kept of each producer (lastRecord), even emptied.
	last  map[int64]lastRecord
	txns  *cleanerTxns
	stats *CleanerStats
}

// shouldRetainRecord is Kafka's Cleaner.shouldRetainRecord. A record past
// the map's end was not looked at by this pass and stays. Otherwise it
// stays only if it has a key, no later offset in the dirty section has the
// same key, and it has a value or is a tombstone whose batch has no delete
// horizon yet or has not reached it.
func (f *batchFilter) shouldRetainRecord(b *record.Batch, r *record.Record) bool {
	if r.Offset > f.m.LatestOffset() {
		return true
	}
	if r.Key == nil {
		f.stats.InvalidMessages++ // a keyless record has no place in a compacted log
		return false
	}
	if r.Offset < f.m.Get(r.Key) {
		return false
	}
	if r.Value != nil {
		return true
	}
	horizon, has := b.DeleteHorizonMs()
	return !has || f.nowMs < horizon
}

// filter appends to dst what survives of one stored batch (raw holds
// exactly that batch) and returns the extended slice. What happens to the
// batch comes first (LogCleaner's checkBatchRetention):
//
//   - aborted data (cleanerTxns) loses its records; so does a marker that
//     may go once its delete horizon has passed;
//   - a batch that is what must be kept of its producer (lastRecord) stays,
//     if need be as an empty batch (its header alone: RETAIN_EMPTY);
//   - any other batch whose records all go is dropped.
//
// Then its records (MemoryRecords.filterTo): a control record stays; a
// data record as shouldRetainRecord says. Every record kept and no horizon
// to add: the original bytes, untouched; some kept: the batch rebuilt
// around them with its base offset, last offset delta, leader epoch,
// producer fields and attributes, so offsets never change and batches
// may have gaps. A batch keeping a tombstone for the first time, or a
// marker that may go, gets the delete horizon (now +
// delete.retention.ms) as its base timestamp and the delete-horizon
// attribute (KIP-534). A batch that cannot be decoded (a compressed one)
// is copied unchanged.
func (f *batchFilter) filter(dst, raw []byte) []byte {
	f.stats.BytesRead += int64(len(raw))
	h, err := record.ParseHeader(raw)
	if err != nil {
		return append(dst, raw...)
	}
	b, _, decodeErr := record.Decode(raw)
	var decoded *record.Batch
	if decodeErr == nil {
		decoded = &b
	}
	canDiscard := f.txns.onBatch(h, decoded)
	horizon, hasHorizon := h.DeleteHorizonMs()
	discardRecords := canDiscard
	if h.IsControl() {
		discardRecords = canDiscard && hasHorizon && horizon <= f.nowMs
	}
	keepEmpty := h.ProducerID >= 0 && isLastOfProducer(f.last, h)
	if discardRecords && !keepEmpty {
		return dst // BatchRetention.DELETE
	}
	if decodeErr != nil {
		f.stats.MessagesRead += int64(h.RecordCount)
		f.stats.MessagesWritten += int64(h.RecordCount)
		f.stats.BytesWritten += int64(len(raw))
		return append(dst, raw...)
	}
	var kept []record.Record
	tombstones := false
	for i := range b.Records {
		r := &b.Records[i]
		f.stats.MessagesRead++
		switch {
		case discardRecords:
		case b.IsControl():
			kept = append(kept, *r)
		case f.shouldRetainRecord(&b, r):
			kept = append(kept, *r)
			tombstones = tombstones || r.Value == nil
		}
	}
	f.stats.MessagesWritten += int64(len(kept))
	if !b.IsControl() {
		f.stats.TombstonesRemoved += int64(countTombstones(b.Records) - countTombstones(kept))
	}
	needHorizon := (tombstones || (canDiscard && b.IsControl())) && !hasHorizon
	start := len(dst)
	switch {
	case len(kept) == len(b.Records) && len(kept) > 0 && !needHorizon:
		dst = append(dst, raw...)
	case len(kept) > 0:
		if needHorizon {
			horizon, hasHorizon = f.nowMs+f.deleteRetentionMs, true
		}
		dst = rebuildBatch(&b, kept, horizon, hasHorizon).AppendTo(dst)
	case keepEmpty:
		dst = emptyBatch(&b).AppendTo(dst)
	}
	f.stats.BytesWritten += int64(len(dst) - start)
	return dst
}

// rebuildBatch is the batch Kafka's MemoryRecordsBuilder writes for the kept
// records of b: b's header fields, with the base timestamp being the delete
// horizon if there is one, else the first kept record's timestamp, and the
// max timestamp the largest kept one (for LogAppendTime, b's own).
func rebuildBatch(b *record.Batch, kept []record.Record, horizon int64, hasHorizon bool) *record.Batch {
	nb := &record.Batch{
		BaseOffset:           b.BaseOffset,
		PartitionLeaderEpoch: b.PartitionLeaderEpoch,
		Attributes:           b.Attributes & (record.TimestampTypeMask | record.TransactionalFlagMask | record.ControlFlagMask),
		LastOffsetDelta:      b.LastOffsetDelta,
		MaxTimestamp:         record.NoTimestamp,
		ProducerID:           b.ProducerID,
		ProducerEpoch:        b.ProducerEpoch,
		BaseSequence:         b.BaseSequence,
		Records:              make([]record.Record, len(kept)),
	}
	for i := range kept {
		r := kept[i]
		r.Timestamp = b.RecordTimestamp(&kept[i])
		nb.Records[i] = r
		nb.MaxTimestamp = max(nb.MaxTimestamp, r.Timestamp)
	}
	nb.BaseTimestamp = nb.Records[0].Timestamp
	if hasHorizon {
		nb.Attributes |= record.DeleteHorizonFlagMask
		nb.BaseTimestamp = horizon
	}
	if b.TimestampType() == record.LogAppendTime {
		nb.MaxTimestamp = b.MaxTimestamp
	}
	return nb
}

// emptyBatch is Kafka's DefaultRecordBatch.writeEmptyHeader for b: no
// records, no base timestamp, b's offsets, max timestamp and producer
// fields.
func emptyBatch(b *record.Batch) *record.Batch {
	return &record.Batch{
		BaseOffset:           b.BaseOffset,
		PartitionLeaderEpoch: b.PartitionLeaderEpoch,
		Attributes:           b.Attributes & (record.TimestampTypeMask | record.TransactionalFlagMask | record.ControlFlagMask),
		LastOffsetDelta:      b.LastOffsetDelta,
		BaseTimestamp:        record.NoTimestamp,
		MaxTimestamp:         b.MaxTimestamp,
		ProducerID:           b.ProducerID,
		ProducerEpoch:        b.ProducerEpoch,
		BaseSequence:         b.BaseSequence,
	}
}

func countTombstones(rs []record.Record) int {
	n := 0
	for i := range rs {
		if rs[i].Key != nil && rs[i].Value == nil {
			n++
		}
	}
	return n
}
