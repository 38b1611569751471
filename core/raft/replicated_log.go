package raft

import (
	"fmt"
	"path"
	"sort"

	"kafkascope/core/storage"
)

// replicatedLog is __cluster_metadata-0 on this node's disk: a storage.Log
// (segments of record batches stamped with the Raft epoch as partition
// leader epoch, and the leader-epoch-checkpoint) plus the snapshots in the
// partition directory. It is Kafka's KafkaMetadataLog over UnifiedLog.
//
// Invariants:
//
//	storage's log start <= startOffset <= HW <= LEO (HW only while known)
//	every retained snapshot has EndOffset >= startOffset, and when
//	startOffset > 0 the latest snapshot has EndOffset >= startOffset
//	snapshots is sorted by (epoch, end offset), without duplicates
//
// startOffset is the log start offset Kafka would report. Kafka moves it
// to a snapshot's end offset and deletes whole segments below it; storage
// has no operation to drop a prefix of a log, so here it is logical: reads
// and fetches below it are refused (a snapshot is sent instead) while the
// bytes stay in the segment (as they would in Kafka too, until the segment
// rolls). Like Kafka's metadata log, which reopens UnifiedLog with
// logStartOffset 0, it is not persisted: after a restart it is the first
// segment's base offset again.
type replicatedLog struct {
	disk        *storage.Disk
	dir         string
	log         *storage.Log
	startOffset int64
	snapshots   []SnapshotID
}

// openReplicatedLog opens (or creates) the partition and recovers it:
// every batch is validated and a torn tail cut (Kafka opens the metadata
// log with lastShutdownClean = false, KafkaMetadataLog.scala:589-603),
// partial and stale snapshots are deleted, and the log is truncated fully
// when the latest snapshot is past its end (a follower that crashed between
// downloading a snapshot and truncating; KafkaMetadataLog.scala:621-623).
func openReplicatedLog(d *storage.Disk, logDir string, segmentBytes int64) (*replicatedLog, storage.RecoveryReport, error) {
	dir := path.Join(logDir, MetadataPartition.DirName())
	// Kafka's defaults, but segment.bytes from metadata.log.segment.bytes
	// (segment.ms is metadata.log.segment.ms's default, 7 days, as is the
	// log default), and no time or size retention: retention is the
	// snapshots' business, and deleting segments removes only those wholly
	// below the log start (KafkaMetadataLog.apply).
	cfg := storage.DefaultLogConfig
	cfg.SegmentBytes = segmentBytes
	cfg.RetentionMs, cfg.RetentionBytes = -1, -1
	var (
		l   *storage.Log
		rep storage.RecoveryReport
		err error
	)
	if d.IsDir(dir) {
		l, rep, err = storage.OpenLog(d, logDir, MetadataPartition, cfg, 0, -1, -1, false)
	} else {
		l, err = storage.CreateLog(d, logDir, MetadataPartition, MetadataTopicID, cfg)
	}
	if err != nil {
		return nil, rep, err
	}
	r := &replicatedLog{disk: d, dir: dir, log: l, startOffset: l.LogStartOffset()}
	if err := r.recoverSnapshots(); err != nil {
		return nil, rep, err
	}
	if _, err := r.truncateToLatestSnapshot(); err != nil {
		return nil, rep, err
	}
	return r, rep, nil
}

// recoverSnapshots keeps the frozen snapshots at or above the log start and
// deletes the rest (KafkaMetadataLog.recoverSnapshots).
func (r *replicatedLog) recoverSnapshots() error {
	r.snapshots = nil
	for _, e := range r.disk.List(r.dir) {
		id, partial, deleted, ok := parseSnapshotFileName(e.Name)
		if !ok || e.IsDir {
			continue
		}
		if partial || deleted || id.EndOffset < r.startOffset {
			if err := r.disk.Remove(path.Join(r.dir, e.Name)); err != nil {
				return err
			}
			continue
		}
		r.snapshots = append(r.snapshots, id)
	}
	r.sortSnapshots()
	if r.startOffset > 0 {
		if latest, ok := r.latestSnapshot(); !ok || latest.EndOffset < r.startOffset {
			return fmt.Errorf("raft: inconsistent snapshot state: no snapshot at or above the log start offset %d", r.startOffset)
		}
	}
	return nil
}

func (r *replicatedLog) sortSnapshots() {
	sort.Slice(r.snapshots, func(i, j int) bool { return r.snapshots[i].less(r.snapshots[j]) })
}

func (r *replicatedLog) endOffset() int64 { return r.log.LogEndOffset() }

func (r *replicatedLog) latestSnapshot() (SnapshotID, bool) {
	if len(r.snapshots) == 0 {
		return SnapshotID{}, false
	}
	return r.snapshots[len(r.snapshots)-1], true
}

func (r *replicatedLog) earliestSnapshot() (SnapshotID, bool) {
	if len(r.snapshots) == 0 {
		return SnapshotID{}, false
	}
	return r.snapshots[0], true
}

func (r *replicatedLog) hasSnapshot(id SnapshotID) bool {
	for _, s := range r.snapshots {
		if s == id {
			return true
		}
	}
	return false
}

// lastFetchedEpoch is the epoch of the log's last entry: the latest epoch
// in the epoch cache, else the snapshot's epoch when the log is empty and
// starts at the snapshot, else 0 (KafkaMetadataLog.lastFetchedEpoch).
func (r *replicatedLog) lastFetchedEpoch() int32 {
	if e := r.log.LatestEpoch(); e >= 0 {
		return e
	}
	if s, ok := r.latestSnapshot(); ok {
		if s.EndOffset == r.startOffset && s.EndOffset == r.endOffset() {
			return s.Epoch
		}
		panic(fmt.Sprintf("raft: log has no last fetched epoch but a snapshot %s; log start %d, end %d", s, r.startOffset, r.endOffset()))
	}
	return 0
}

// endOffsetForEpoch is where epoch ends in this log: for the latest epoch
// the LEO, for an older one the start of the next, paired with the largest
// epoch not above it; an epoch older than the log answers with the earliest
// snapshot (KafkaMetadataLog.endOffsetForEpoch).
func (r *replicatedLog) endOffsetForEpoch(epoch int32) (int64, int32) {
	foundEpoch, off := r.log.EndOffsetForEpoch(epoch)
	if off < 0 {
		return r.endOffset(), r.lastFetchedEpoch()
	}
	if s, ok := r.earliestSnapshot(); ok && off == s.EndOffset && foundEpoch == epoch {
		return s.EndOffset, s.Epoch
	}
	return off, foundEpoch
}

type validKind uint8

const (
	validOffset validKind = iota
	divergingOffset
	snapshotOffset
)

// validOffsetAndEpoch is ValidOffsetAndEpoch: whether a fetcher's position
// (offset, lastFetchedEpoch) is on this log, where it diverges, or which
// snapshot it must load first.
type validOffsetAndEpoch struct {
	kind   validKind
	offset int64
	epoch  int32
}

// validateOffsetAndEpoch decides a fetch position (ReplicatedLog.java:82-116).
func (r *replicatedLog) validateOffsetAndEpoch(offset int64, epoch int32) validOffsetAndEpoch {
	if r.startOffset == 0 && offset == 0 {
		return validOffsetAndEpoch{kind: validOffset}
	}
	if early, ok := r.earliestSnapshot(); ok &&
		(offset < r.startOffset || (offset == r.startOffset && epoch != early.Epoch) || epoch < early.Epoch) {
		latest, _ := r.latestSnapshot()
		return validOffsetAndEpoch{kind: snapshotOffset, offset: latest.EndOffset, epoch: latest.Epoch}
	}
	end, endEpoch := r.endOffsetForEpoch(epoch)
	if endEpoch != epoch || end < offset {
		return validOffsetAndEpoch{kind: divergingOffset, offset: end, epoch: endEpoch}
	}
	return validOffsetAndEpoch{kind: validOffset, offset: offset, epoch: epoch}
}

// truncateToEndOffset cuts the log where the leader says it diverges and
// returns the new end offset (ReplicatedLog.truncateToEndOffset).
func (r *replicatedLog) truncateToEndOffset(offset int64, epoch int32) (int64, error) {
	var at int64
	if epoch == 0 {
		at = min(offset, r.endOffset())
	} else {
		localEnd, localEpoch := r.endOffsetForEpoch(epoch)
		if localEpoch == epoch {
			at = min(localEnd, offset)
		} else {
			at = localEnd
		}
	}
	if err := r.log.TruncateTo(at); err != nil {
		return 0, err
	}
	r.startOffset = min(r.startOffset, r.endOffset())
	return r.endOffset(), nil
}

// truncateToLatestSnapshot starts the log afresh at the latest snapshot when
// the snapshot is ahead of the log, and forgets older snapshots
// (KafkaMetadataLog.truncateToLatestSnapshot).
func (r *replicatedLog) truncateToLatestSnapshot() (bool, error) {
	s, ok := r.latestSnapshot()
	if !ok {
		return false, nil
	}
	latestEpoch := max(r.log.LatestEpoch(), 0)
	if s.Epoch > latestEpoch || (s.Epoch == latestEpoch && s.EndOffset > r.endOffset()) {
		if err := r.log.TruncateFullyAndStartAt(s.EndOffset); err != nil {
			return false, err
		}
		r.startOffset = s.EndOffset
		return true, r.forgetSnapshotsBefore(s)
	}
	return false, nil
}

// forgetSnapshotsBefore deletes every snapshot older than id.
func (r *replicatedLog) forgetSnapshotsBefore(id SnapshotID) error {
	keep := r.snapshots[:0]
	for _, s := range r.snapshots {
		if s.less(id) {
			if err := r.disk.Remove(path.Join(r.dir, SnapshotFileName(s))); err != nil {
				return err
			}
			continue
		}
		keep = append(keep, s)
	}
	r.snapshots = keep
	return nil
}

// readSnapshot returns a frozen snapshot's bytes.
func (r *replicatedLog) readSnapshot(id SnapshotID) ([]byte, bool) {
	if !r.hasSnapshot(id) {
		return nil, false
	}
	b, err := r.disk.ReadFile(path.Join(r.dir, SnapshotFileName(id)))
	if err != nil {
		return nil, false
	}
	return b, true
}

// freezeSnapshot makes a complete partial snapshot file durable under its
// final name (FileRawSnapshotWriter.freeze, FileRawSnapshotWriter.java:105-120:
// force, then atomic move).
func (r *replicatedLog) freezeSnapshot(id SnapshotID, tmpPath string) error {
	if err := r.disk.Fsync(tmpPath); err != nil {
		return err
	}
	final := path.Join(r.dir, SnapshotFileName(id))
	if r.disk.Exists(final) {
		_ = r.disk.Remove(tmpPath)
	} else if err := r.disk.Rename(tmpPath, final); err != nil {
		return err
	}
	if !r.hasSnapshot(id) {
		r.snapshots = append(r.snapshots, id)
		r.sortSnapshots()
	}
	return nil
}

// deleteBeforeSnapshot moves the log start to a retained snapshot's end
// offset and forgets older snapshots (KafkaMetadataLog.deleteBeforeSnapshot).
// It needs start < id.EndOffset <= the latest snapshot's end offset, and
// id.EndOffset <= hw (UnifiedLog refuses to move the log start past the
// high watermark).
//
// As KafkaMetadataLog.deleteBeforeSnapshot does, the log's own start offset
// moves up to the snapshot and the segments wholly below it are deleted
// (UnifiedLog.deleteOldSegments, with no retention besides): the metadata
// log rolls every metadata.log.segment.ms (7 days), and without this a
// week's NoOpRecords stayed on disk, and in memory, for good. It returns
// the segments deleted, if any.
func (r *replicatedLog) deleteBeforeSnapshot(id SnapshotID, hw int64, nowMs int64) (bool, []storage.SegmentDeletion, error) {
	latest, ok := r.latestSnapshot()
	if !ok || !r.hasSnapshot(id) || r.startOffset >= id.EndOffset || id.EndOffset > latest.EndOffset || id.EndOffset > hw {
		return false, nil, nil
	}
	r.startOffset = id.EndOffset
	if err := r.log.MaybeIncrementLogStartOffset(id.EndOffset); err != nil {
		return true, nil, err
	}
	deleted, err := r.log.DeleteOldSegments(nowMs)
	if err != nil {
		return true, deleted, err
	}
	return true, deleted, r.forgetSnapshotsBefore(id)
}

// epochOfOffset is the epoch of the entry at offset: from the epoch cache
// inside the log, the snapshot's epoch just below the log start.
func (r *replicatedLog) epochOfOffset(offset int64) (int32, bool) {
	if offset >= r.startOffset && offset < r.endOffset() {
		if e := r.log.Epochs().EpochForOffset(offset); e >= 0 {
			return e, true
		}
	}
	if offset == r.startOffset-1 {
		for _, s := range r.snapshots {
			if s.EndOffset == r.startOffset {
				return s.Epoch, true
			}
		}
	}
	return 0, false
}

// batchEndingBefore finds the batch whose next offset is end: the batch a
// snapshot ending at end closes on. It reports the batch's max timestamp,
// read from the batch's header in the segment file. A segment's batches
// have strictly increasing offsets (storage.Segment), so each segment is
// binary-searched for a batch whose last offset is end-1: a snapshot is
// taken every hour while the metadata log keeps a week, and a walk over
// every batch made each snapshot cost more than the one before.
func (r *replicatedLog) batchEndingBefore(end int64) (int64, bool, error) {
	for _, seg := range r.log.Segments() {
		n := seg.NumBatches()
		i := sort.Search(n, func(i int) bool { return seg.Batch(i).LastOffset >= end-1 })
		if i < n {
			if b := seg.Batch(i); b.LastOffset+1 == end {
				h, err := seg.Header(b)
				if err != nil {
					return 0, false, err
				}
				return h.MaxTimestamp, true, nil
			}
		}
	}
	return 0, false, nil
}
