package storage

import "kafkascope/core/record"

// BatchInfo describes one record batch inside a segment file. The list of
// BatchInfo per segment is the simulator's directory of batches, for views
// and tools (a replica's offsets and epochs) and for the epoch cache at
// load. Kafka keeps no such list: the log itself finds batches through the
// sparse .index and a scan of the file (Segment.translateOffset), as Kafka
// does. It is rebuilt from the file's bytes when a log is opened.
//
// An idle cluster's metadata log gains a batch every 500 ms and keeps them
// for a week, so the directory holds only what is read often and the rest
// of the header stays in the file: the max timestamp and the producer (id,
// epoch, base sequence) are read from the .log bytes where needed
// (Segment.Header; the cleaner's timestamps, rebuilding indexes and the
// producer state, a Raft snapshot's last timestamp). The fields are laid
// out without padding: 32 bytes a batch. LastOffset is kept whole rather
// than as a delta from BaseOffset: an int32 delta would leave 4 bytes of
// padding in its place.
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

// batchInfoOf is the directory entry of the batch h found at pos.
func batchInfoOf(h record.BatchHeader, pos int64) BatchInfo {
	return BatchInfo{BaseOffset: h.BaseOffset, LastOffset: h.LastOffset(), Position: int32(pos), Size: int32(h.SizeInBytes()),
		Epoch: h.PartitionLeaderEpoch, RecordCount: h.RecordCount}
}

// addBatchInfo records a batch appended at the end of the file.
func (s *Segment) addBatchInfo(h record.BatchHeader, pos int64) {
	s.Batches = append(s.Batches, batchInfoOf(h, pos))
}
