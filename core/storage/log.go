package storage

import (
	"errors"
	"fmt"
	"path"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Errors a log reports; callers map them to Kafka error codes.
var (
	ErrOffsetOutOfRange = errors.New("offset out of range")
	ErrInvalidRecord    = errors.New("invalid record batch")
	ErrOffsetOrder      = errors.New("appended offsets are not above the log end offset")
	// ErrRecordBatchTooLarge: an append larger than segment.bytes (Kafka's
	// RecordBatchTooLargeException): no segment could hold it.
	ErrRecordBatchTooLarge = errors.New("record batch too large")
	// ErrSegmentShorterThanIndex: a segment file is shorter than the
	// batches this Log knows in it (its files changed under it).
	ErrSegmentShorterThanIndex = errors.New("segment file shorter than its index")
)

// Log is one partition's log on one broker (Kafka's UnifiedLog over
// LocalLog).
//
// Invariants:
//
//	logStartOffset <= highWatermark <= logEndOffset
//	recoveryPoint <= logEndOffset
//	segments are sorted by base offset and never empty; the last one is
//	active (appended to); logStartOffset lies in the first segment or at
//	the active segment's base
//	the epoch cache has no entry starting at or beyond logEndOffset... except
//	the current leader epoch, which a new leader assigns at its LEO.
//
// They are checked after every change of the offsets (checkOffsets in
// log_invariants.go): a violation stops the run (core/invariant).
type Log struct {
	// headers is an append's scratch list of batch headers (nothing keeps
	// it past the call): a new list each append was a tenth of a leaped
	// week's allocations.
	headers []record.BatchHeader
	// runScratch holds a run's batch while an append in place reads its
	// header (appendFlushed).
	runScratch []byte

	disk     *Disk
	dir      string
	tp       TopicPartition
	topicID  string
	cfg      LogConfig
	segments []*Segment

	logStartOffset int64
	logEndOffset   int64
	highWatermark  int64
	recoveryPoint  int64
	epochs         LeaderEpochCache
	// producers is the idempotent producers' state; nil means it must be
	// rebuilt from the batches (after opening or truncating the log).
	producers *ProducerStateManager

	schedule Scheduler
	jitter   *sim.Rand
}

// RecoveryReport says what opening a log found and repaired.
type RecoveryReport struct {
	Recovered      bool  // the segments after the recovery point were validated
	TruncatedBytes int64 // bytes cut from a torn or corrupt tail
	Reason         string
	// RebuiltIndexes lists the base offsets of the segments whose indexes
	// were rebuilt (recovered, or an index file was missing).
	RebuiltIndexes []int64
}

// CreateLog makes a new, empty partition log in logDir. Its first segment's
// indexes are created preallocated, as Kafka's log loading leaves them.
func CreateLog(d *Disk, logDir string, tp TopicPartition, topicID string, cfg LogConfig) (*Log, error) {
	dir := path.Join(logDir, tp.DirName())
	if d.Exists(dir) {
		return nil, fmt.Errorf("log directory %s already exists", dir)
	}
	if err := d.MkdirAll(dir); err != nil {
		return nil, err
	}
	l := &Log{disk: d, dir: dir, tp: tp, topicID: topicID, cfg: cfg}
	if err := d.WriteFileDurable(path.Join(dir, PartitionMetadataFile), EncodePartitionMetadata(topicID)); err != nil {
		return nil, err
	}
	seg, err := l.openSegment(0)
	if err != nil {
		return nil, err
	}
	l.segments = append(l.segments, seg)
	if err := seg.resizeIndexes(cfg.SegmentIndexBytes); err != nil {
		return nil, err
	}
	if err := l.writeEpochCheckpoint(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) active() *Segment { return l.segments[len(l.segments)-1] }

// openSegment opens (creating its .log) the segment at base with the
// current config and a fresh jitter.
func (l *Log) openSegment(base int64) (*Segment, error) {
	return openSegment(l.disk, l.dir, base, l.cfg, l.randomSegmentJitter())
}

func (l *Log) writeEpochCheckpoint() error {
	return l.disk.WriteFileDurable(path.Join(l.dir, LeaderEpochCheckpointFile), l.epochs.Encode())
}

// Accessors.
func (l *Log) TopicPartition() TopicPartition { return l.tp }
func (l *Log) Dir() string                    { return l.dir }
func (l *Log) TopicID() string                { return l.topicID }
func (l *Log) LogStartOffset() int64          { return l.logStartOffset }
func (l *Log) LogEndOffset() int64            { return l.logEndOffset }
func (l *Log) HighWatermark() int64           { return l.highWatermark }
func (l *Log) RecoveryPoint() int64           { return l.recoveryPoint }
func (l *Log) Segments() []*Segment           { return l.segments }
func (l *Log) Epochs() *LeaderEpochCache      { return &l.epochs }
func (l *Log) Config() LogConfig              { return l.cfg }

// SetConfig changes the log's config. Rolling and retention use it from
// now on; a segment keeps the index settings and jitter it was opened with.
func (l *Log) SetConfig(cfg LogConfig) { l.cfg = cfg }

// Size is the bytes of all segments (UnifiedLog.size).
func (l *Log) Size() int64 {
	var n int64
	for _, s := range l.segments {
		n += s.Size
	}
	return n
}

// LatestEpoch is the latest leader epoch in the epoch cache, or -1.
func (l *Log) LatestEpoch() int32 { return l.epochs.LatestEpoch() }

// EndOffsetForEpoch answers OffsetsForLeaderEpoch from this log.
func (l *Log) EndOffsetForEpoch(epoch int32) (int32, int64) {
	return l.epochs.EndOffsetFor(epoch, l.logEndOffset)
}

// AssignEpoch records that leaderEpoch starts at the current log end offset
// (called when this replica becomes leader).
func (l *Log) AssignEpoch(leaderEpoch int32) error {
	if l.epochs.Assign(leaderEpoch, l.logEndOffset) {
		l.checkOffsets("assigning an epoch")
		return l.writeEpochCheckpoint()
	}
	return nil
}

// UpdateHighWatermark sets the HW, clamped to [logStartOffset, logEndOffset].
// It returns the value set.
func (l *Log) UpdateHighWatermark(hw int64) int64 {
	l.highWatermark = min(max(hw, l.logStartOffset), l.logEndOffset)
	if l.producers != nil {
		l.producers.onHighWatermarkUpdated(l.highWatermark)
	}
	l.checkOffsets("updating the HW")
	return l.highWatermark
}

// Flush fsyncs every segment (its indexes too) and moves the recovery point
// to the LEO. Kafka's flush to the LEO (UnifiedLog.flush) flushes the
// segments from the recovery point's on, each timed (LogSegment.flush):
// those count (Disk.OnSegmentFlush); the others here are clean already.
func (l *Log) Flush() error {
	n := l.unflushedSegments()
	if err := l.flushAll(); err != nil {
		return err
	}
	l.disk.segmentsFlushed(l.disk.clock(), n)
	return nil
}

// flushAll is Flush without telling the disk's listener: the caller
// reports the segment flushes itself.
func (l *Log) flushAll() error {
	for _, s := range l.segments {
		if err := s.flush(); err != nil {
			return err
		}
	}
	l.recoveryPoint = l.logEndOffset
	return nil
}

// unflushedSegments counts the segments a flush to the LEO goes through
// (LocalLog.flush: segments.values(recoveryPoint, LEO)): none when the
// recovery point is at the LEO, else those that end after the recovery
// point.
func (l *Log) unflushedSegments() int {
	if l.recoveryPoint >= l.logEndOffset {
		return 0
	}
	n := 0
	for i := range l.segments {
		if i+1 == len(l.segments) || l.segments[i+1].BaseOffset > l.recoveryPoint {
			n++
		}
	}
	return n
}

// Close is a clean shutdown's last work on the log: every segment closes,
// so the active segment's indexes are trimmed to their entries (a broker
// started again preallocates them anew). Call it after Flush; the trims are
// journaled by the checkpoint fsyncs that follow.
func (l *Log) Close() error {
	for _, s := range l.segments {
		if err := s.close(); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the partition's directory.
func (l *Log) Delete() { l.disk.RemoveAll(l.dir) }

// Batches decodes every batch in [from, to) fully, for tools and views. It
// reads segment after segment (each Read stays within one).
func (l *Log) Batches(from, to int64) ([]record.Batch, error) {
	var out []record.Batch
	for next := max(from, l.logStartOffset); next < min(to, l.logEndOffset); {
		data, err := l.Read(next, 1<<30, to, true)
		if err != nil {
			return out, err
		}
		if len(data) == 0 {
			break
		}
		for len(data) > 0 {
			b, n, err := record.Decode(data)
			if err != nil {
				return out, err
			}
			out = append(out, b)
			data = data[n:]
			next = b.NextOffset()
		}
	}
	return out, nil
}
