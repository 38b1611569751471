package storage

import (
	"iter"
	"math"

	"kafkascope/core/record"
)

// BatchInfo describes one record batch inside a segment file, as the
// segment's directory of batches gives it (Segment.Batch, Segment.Batches):
// for views and tools (a replica's offsets and epochs) and for the epoch
// cache at load. Kafka keeps no such list: the log itself finds batches
// through the sparse .index and a scan of the file
// (Segment.translateOffset), as Kafka does. The directory is rebuilt from
// the file's bytes when a log is opened.
//
// The max timestamp and the producer (id, epoch, base sequence) are not
// kept: they are read from the batch header in the .log file where needed
// (Segment.Header; the cleaner's segment timestamps, rebuilding indexes
// and the producer state, a Raft snapshot's last timestamp).
//
// Invariants: Position and Size fit int32, as in Kafka, where a segment
// holds at most segment.bytes (an int) and its .index stores positions as
// int32; within a segment, batch i+1 starts at Position+Size of batch i.
type BatchInfo struct {
	BaseOffset  int64
	LastOffset  int64
	Position    int32 // byte position in the .log file
	Size        int32 // bytes, including the 12-byte log overhead
	Epoch       int32 // partition leader epoch stamped in the batch
	RecordCount int32 // below LastOffset-BaseOffset+1 once the cleaner removed records
}

// End is the byte position just after the batch in its .log file.
func (b BatchInfo) End() int64 { return int64(b.Position) + int64(b.Size) }

// batchEntry is one batch in a segment's directory: 20 bytes, where an idle
// cluster's metadata log gains a batch every 500 ms and keeps them for a
// week (1.2 million a replica). Offsets are relative to the segment's base
// offset and fit int32 as the .index's relative offsets must (a segment
// rolls before an offset would not: shouldRoll, canAppendOffset); the
// batch's size is where the next batch starts, or the segment's Size for
// the last one.
type batchEntry struct {
	baseDelta   int32 // BaseOffset - the segment's base offset
	lastDelta   int32 // LastOffset - BaseOffset: the header's lastOffsetDelta
	position    int32
	epoch       int32
	recordCount int32
}

// fitsEntry says whether the batch h's offsets can be stored relative to
// base (a batch from a file whose offsets do not cannot be in the
// segment: Kafka's index could not address it either).
func fitsEntry(base int64, h record.BatchHeader) bool {
	d := h.BaseOffset - base
	return d >= 0 && d <= math.MaxInt32
}

// NumBatches is the number of batches in the segment.
func (s *Segment) NumBatches() int { return s.batches.len() }

// Batch is the segment's i-th batch in file order.
func (s *Segment) Batch(i int) BatchInfo {
	e := s.batches.at(i)
	base := s.BaseOffset + int64(e.baseDelta)
	end := int32(s.Size)
	if i+1 < s.batches.len() {
		end = s.batches.at(i + 1).position
	}
	return BatchInfo{BaseOffset: base, LastOffset: base + int64(e.lastDelta), Position: e.position, Size: end - e.position,
		Epoch: e.epoch, RecordCount: e.recordCount}
}

// Batches is the segment's batches in file order.
func (s *Segment) Batches() iter.Seq[BatchInfo] { return s.batchesFrom(0) }

// batchesFrom is the batches from the i-th on.
func (s *Segment) batchesFrom(i int) iter.Seq[BatchInfo] {
	return func(yield func(BatchInfo) bool) {
		for ; i < s.batches.len(); i++ {
			if !yield(s.Batch(i)) {
				return
			}
		}
	}
}

// lastOffsetOf is the last offset of the i-th batch.
func (s *Segment) lastOffsetOf(i int) int64 {
	e := s.batches.at(i)
	return s.BaseOffset + int64(e.baseDelta) + int64(e.lastDelta)
}

// addBatchInfo records the batch h, found at pos, at the end of the
// directory; the caller sets Size to the file's new end. Its offsets must
// fit (fitsEntry).
func (s *Segment) addBatchInfo(h record.BatchHeader, pos int64) {
	s.batches.push(batchEntry{baseDelta: int32(h.BaseOffset - s.BaseOffset), lastDelta: h.LastOffsetDelta,
		position: int32(pos), epoch: h.PartitionLeaderEpoch, recordCount: h.RecordCount})
}
