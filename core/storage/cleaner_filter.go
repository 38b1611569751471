package storage

import "kafkascope/core/record"

// batchFilter decides, batch by batch, what a cleaning pass copies into a
// cleaned segment (Kafka's LogCleaner.cleanInto with MemoryRecords.filterTo).
type batchFilter struct {
	m                 *OffsetMap
	nowMs             int64 // the pass's start: tombstones get their horizon from it
	deleteRetentionMs int64
	// lastOfProducer: each producer id's last data offset in the log; the
	// batch ending there is kept even when emptied.
	lastOfProducer map[int64]int64
	stats          *CleanerStats
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
// exactly that batch) and returns the extended slice:
//
//   - every record kept and no tombstone needing a horizon: the original
//     bytes, untouched;
//   - some records kept: the batch rebuilt around them with its base offset,
//     last offset delta, leader epoch, producer fields and attributes, so
//     offsets never change and batches may have gaps; a batch keeping a
//     tombstone for the first time gets the delete horizon
//     (now + delete.retention.ms) as its base timestamp and the
//     delete-horizon attribute (KIP-534);
//   - nothing kept: the batch is dropped, unless it is the last batch of a
//     producer, which stays as an empty batch (its header alone).
//
// Control batches (transaction markers) are copied as they are: the
// simulator has no transactions. A batch that cannot be decoded (a
// compressed one) is copied unchanged too.
func (f *batchFilter) filter(dst, raw []byte) []byte {
	f.stats.BytesRead += int64(len(raw))
	b, _, err := record.Decode(raw)
	if err != nil || b.IsControl() {
		h, _ := record.ParseHeader(raw)
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
		if f.shouldRetainRecord(&b, r) {
			kept = append(kept, *r)
			tombstones = tombstones || r.Value == nil
		}
	}
	f.stats.MessagesWritten += int64(len(kept))
	f.stats.TombstonesRemoved += int64(countTombstones(b.Records) - countTombstones(kept))
	horizon, hasHorizon := b.DeleteHorizonMs()
	needHorizon := tombstones && !hasHorizon
	start := len(dst)
	switch {
	case len(kept) == len(b.Records) && !needHorizon:
		dst = append(dst, raw...)
	case len(kept) > 0:
		if needHorizon {
			horizon, hasHorizon = f.nowMs+f.deleteRetentionMs, true
		}
		dst = rebuildBatch(&b, kept, horizon, hasHorizon).AppendTo(dst)
	case b.ProducerID >= 0 && f.lastOfProducer[b.ProducerID] == b.LastOffset():
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
