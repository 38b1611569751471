package storage

import (
	"errors"
	"fmt"
	"path"
	"slices"

	"kafkascope/core/record"
)

// LogConfig is the part of a topic's config the log itself needs.
type LogConfig struct {
	SegmentBytes int64
}

// DefaultLogConfig is Kafka's default (segment.bytes = 1 GiB).
var DefaultLogConfig = LogConfig{SegmentBytes: 1 << 30}

// Errors a log reports; callers map them to Kafka error codes.
var (
	ErrOffsetOutOfRange = errors.New("offset out of range")
	ErrInvalidRecord    = errors.New("invalid record batch")
	ErrOffsetOrder      = errors.New("appended offsets are not above the log end offset")
	// ErrSegmentShorterThanIndex: a segment file is shorter than the
	// batches this Log knows in it (its files changed under it).
	ErrSegmentShorterThanIndex = errors.New("segment file shorter than its index")
)

// Log is one partition's log on one broker.
//
// Invariants:
//
//	logStartOffset <= highWatermark <= logEndOffset
//	recoveryPoint <= logEndOffset
//	segments are sorted by base offset; the last one is active (appended to)
//	the epoch cache has no entry starting at or beyond logEndOffset... except
//	the current leader epoch, which a new leader assigns at its LEO.
type Log struct {
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
}

// RecoveryReport says what opening a log found and repaired.
type RecoveryReport struct {
	Recovered      bool  // the segments after the recovery point were validated
	TruncatedBytes int64 // bytes cut from a torn or corrupt tail
	Reason         string
}

// CreateLog makes a new, empty partition log in logDir.
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
	if err := l.newSegment(0); err != nil {
		return nil, err
	}
	if err := l.writeEpochCheckpoint(); err != nil {
		return nil, err
	}
	return l, nil
}

// OpenLog loads a partition log from its directory. cleanShutdown says the
// broker stopped cleanly (then the bytes are trusted); otherwise every batch
// at or after recoveryPoint is validated and a torn or corrupt tail is cut
// off, as Kafka's log recovery does. hw and logStart come from the broker's
// checkpoint files (-1 if absent).
func OpenLog(d *Disk, logDir string, tp TopicPartition, cfg LogConfig, recoveryPoint, hw, logStart int64, cleanShutdown bool) (*Log, RecoveryReport, error) {
	dir := path.Join(logDir, tp.DirName())
	l := &Log{disk: d, dir: dir, tp: tp, cfg: cfg}
	var rep RecoveryReport
	if data, err := d.ReadFile(path.Join(dir, PartitionMetadataFile)); err == nil {
		l.topicID, _ = DecodePartitionMetadata(data)
	}
	var bases []int64
	for _, e := range d.List(dir) {
		if b, ok := parseSegmentFileName(e.Name); ok && !e.IsDir {
			bases = append(bases, b)
		}
	}
	slices.Sort(bases)
	if cleanShutdown {
		recoveryPoint = -1 // nothing to recover
	} else if recoveryPoint < 0 {
		recoveryPoint = 0
	}
	for i, base := range bases {
		seg := &Segment{BaseOffset: base, Path: path.Join(dir, SegmentFileName(base, ".log"))}
		data, err := d.ReadFile(seg.Path)
		if err != nil {
			return nil, rep, err
		}
		validate := !cleanShutdown && (i == len(bases)-1 || bases[i+1] > recoveryPoint)
		prev := base - 1
		refusedAt := -1
		valid, scanErr := record.Scan(data, func(pos int, h record.BatchHeader) bool {
			if h.BaseOffset <= prev {
				refusedAt = pos // offsets went backwards: the log is damaged from here
				return false
			}
			prev = h.LastOffset()
			seg.Batches = append(seg.Batches, BatchInfo{
				BaseOffset: h.BaseOffset, LastOffset: h.LastOffset(), Position: int64(pos), Size: int32(h.SizeInBytes()),
				Epoch: h.PartitionLeaderEpoch, MaxTimestamp: h.MaxTimestamp, RecordCount: h.RecordCount,
			})
			return true
		})
		if refusedAt >= 0 {
			valid = refusedAt
		}
		seg.Size = int64(valid)
		if validate {
			rep.Recovered = true
		}
		if int64(valid) < int64(len(data)) {
			if !validate && cleanShutdown {
				return nil, rep, fmt.Errorf("segment %s is corrupt after a clean shutdown: %v", seg.Path, scanErr)
			}
			rep.TruncatedBytes += int64(len(data) - valid)
			if scanErr != nil {
				rep.Reason = scanErr.Error()
			} else {
				rep.Reason = "offsets out of order"
			}
			if err := d.Truncate(seg.Path, int64(valid)); err != nil {
				return nil, rep, err
			}
			// Everything after a damaged segment is unreachable.
			for _, later := range bases[i+1:] {
				p := path.Join(dir, SegmentFileName(later, ".log"))
				if sz, err := d.Size(p); err == nil {
					rep.TruncatedBytes += sz
				}
				_ = d.Remove(p)
			}
			l.segments = append(l.segments, seg)
			break
		}
		l.segments = append(l.segments, seg)
	}
	if len(l.segments) == 0 {
		if err := l.newSegment(max(logStart, 0)); err != nil {
			return nil, rep, err
		}
	}
	l.logEndOffset = l.active().NextOffset()
	l.logStartOffset = max(logStart, l.segments[0].BaseOffset)
	l.logStartOffset = min(l.logStartOffset, l.logEndOffset)
	if data, err := d.ReadFile(path.Join(dir, LeaderEpochCheckpointFile)); err == nil {
		if c, err := DecodeLeaderEpochCheckpoint(data); err == nil {
			l.epochs = *c
		}
	}
	l.epochs.TruncateFromEnd(l.logEndOffset)
	// Batches the checkpoint did not know about still carry their epochs.
	for _, s := range l.segments {
		for _, b := range s.Batches {
			if b.Epoch > l.epochs.LatestEpoch() {
				l.epochs.Assign(b.Epoch, b.BaseOffset)
			}
		}
	}
	if err := l.writeEpochCheckpoint(); err != nil {
		return nil, rep, err
	}
	l.highWatermark = min(max(hw, l.logStartOffset), l.logEndOffset)
	l.recoveryPoint = l.logEndOffset
	if !cleanShutdown {
		l.recoveryPoint = min(max(recoveryPoint, 0), l.logEndOffset)
	}
	return l, rep, nil
}

func (l *Log) active() *Segment { return l.segments[len(l.segments)-1] }

func (l *Log) newSegment(base int64) error {
	seg := &Segment{BaseOffset: base, Path: path.Join(l.dir, SegmentFileName(base, ".log"))}
	if err := l.disk.WriteFile(seg.Path, nil); err != nil {
		return err
	}
	l.segments = append(l.segments, seg)
	return nil
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

// SetConfig changes the log's config (takes effect on later appends).
func (l *Log) SetConfig(cfg LogConfig) { l.cfg = cfg }

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
		return l.writeEpochCheckpoint()
	}
	return nil
}

// UpdateHighWatermark sets the HW, clamped to [logStartOffset, logEndOffset].
// It returns the value set.
func (l *Log) UpdateHighWatermark(hw int64) int64 {
	l.highWatermark = min(max(hw, l.logStartOffset), l.logEndOffset)
	return l.highWatermark
}

// AppendInfo describes an append.
type AppendInfo struct {
	FirstOffset  int64
	LastOffset   int64
	MaxTimestamp int64
	Records      int
}

// AppendAsLeader validates the batches in data, assigns them offsets from
// the log end offset and stamps them with leaderEpoch, then appends them.
// data is not modified.
func (l *Log) AppendAsLeader(data []byte, leaderEpoch int32) (AppendInfo, error) {
	buf := slices.Clone(data)
	info := AppendInfo{FirstOffset: l.logEndOffset}
	next := l.logEndOffset
	var hs []record.BatchHeader
	var positions []int
	pos := 0
	for pos < len(buf) {
		h, err := record.ParseHeader(buf[pos:])
		if err != nil {
			return info, fmt.Errorf("%w: %v", ErrInvalidRecord, err)
		}
		end := pos + h.SizeInBytes()
		if end > len(buf) {
			return info, fmt.Errorf("%w: truncated batch", ErrInvalidRecord)
		}
		if err := record.Validate(buf[pos:end]); err != nil {
			return info, fmt.Errorf("%w: %v", ErrInvalidRecord, err)
		}
		// A client's batch has consecutive offsets: Kafka's LogValidator
		// refuses one whose offset range does not match its record count.
		if h.RecordCount <= 0 || h.LastOffsetDelta != h.RecordCount-1 {
			return info, fmt.Errorf("%w: inconsistent batch offset range (lastOffsetDelta %d, %d records)", ErrInvalidRecord, h.LastOffsetDelta, h.RecordCount)
		}
		record.SetBaseOffset(buf[pos:end], next)
		record.SetPartitionLeaderEpoch(buf[pos:end], leaderEpoch)
		h.BaseOffset = next
		h.PartitionLeaderEpoch = leaderEpoch
		next = h.NextOffset()
		hs = append(hs, h)
		positions = append(positions, pos)
		info.Records += int(h.RecordCount)
		info.MaxTimestamp = max(info.MaxTimestamp, h.MaxTimestamp)
		pos = end
	}
	if len(hs) == 0 {
		return info, fmt.Errorf("%w: no record batches", ErrInvalidRecord)
	}
	if l.epochs.Assign(leaderEpoch, l.logEndOffset) {
		if err := l.writeEpochCheckpoint(); err != nil {
			return info, err
		}
	}
	if err := l.maybeRoll(hs[0].BaseOffset, len(buf)); err != nil {
		return info, err
	}
	for i, h := range hs {
		end := len(buf)
		if i+1 < len(positions) {
			end = positions[i+1]
		}
		if err := l.appendBatch(buf[positions[i]:end], h); err != nil {
			return info, err
		}
	}
	info.LastOffset = next - 1
	return info, nil
}

// AppendAsFollower appends batches exactly as the leader stored them. The
// first batch must start at or after the log end offset. Each batch's
// leader epoch is assigned in the epoch cache at its base offset, as
// Kafka's UnifiedLog.append does for every batch: a batch of the latest
// epoch changes nothing, a newer epoch adds an entry, and an older one
// replaces the entries it contradicts (an epoch this replica began as a
// leader at an offset where the leader it now follows still wrote an
// older epoch).
func (l *Log) AppendAsFollower(data []byte) (AppendInfo, error) {
	info := AppendInfo{FirstOffset: -1, LastOffset: -1}
	pos := 0
	var hs []record.BatchHeader
	var spans [][2]int
	prev := l.logEndOffset - 1
	for pos < len(data) {
		h, err := record.ParseHeader(data[pos:])
		if err != nil {
			return info, fmt.Errorf("%w: %v", ErrInvalidRecord, err)
		}
		end := pos + h.SizeInBytes()
		if end > len(data) {
			return info, fmt.Errorf("%w: truncated batch", ErrInvalidRecord)
		}
		if err := record.Validate(data[pos:end]); err != nil {
			return info, fmt.Errorf("%w: %v", ErrInvalidRecord, err)
		}
		if h.BaseOffset <= prev {
			return info, fmt.Errorf("%w: batch at %d, log end offset %d", ErrOffsetOrder, h.BaseOffset, l.logEndOffset)
		}
		prev = h.LastOffset()
		hs = append(hs, h)
		spans = append(spans, [2]int{pos, end})
		pos = end
	}
	if len(hs) > 0 {
		if err := l.maybeRoll(hs[0].BaseOffset, len(data)); err != nil {
			return info, err
		}
	}
	for i, h := range hs {
		if h.PartitionLeaderEpoch >= 0 && l.epochs.Assign(h.PartitionLeaderEpoch, h.BaseOffset) {
			if err := l.writeEpochCheckpoint(); err != nil {
				return info, err
			}
		}
		if err := l.appendBatch(slices.Clone(data[spans[i][0]:spans[i][1]]), h); err != nil {
			return info, err
		}
		if info.FirstOffset < 0 {
			info.FirstOffset = h.BaseOffset
		}
		info.LastOffset = h.LastOffset()
		info.Records += int(h.RecordCount)
		info.MaxTimestamp = max(info.MaxTimestamp, h.MaxTimestamp)
	}
	return info, nil
}

// maybeRoll starts a new segment at base if appending size bytes would
// overflow segment.bytes. Kafka rolls at most once per append: all the
// batches of one append go to the same segment.
func (l *Log) maybeRoll(base int64, size int) error {
	if seg := l.active(); seg.Size > 0 && seg.Size+int64(size) > l.cfg.SegmentBytes {
		return l.roll(base)
	}
	return nil
}

// appendBatch writes one batch (offsets already assigned) to the active
// segment.
func (l *Log) appendBatch(b []byte, h record.BatchHeader) error {
	seg := l.active()
	if err := l.disk.Append(seg.Path, b); err != nil {
		return err
	}
	seg.Batches = append(seg.Batches, BatchInfo{
		BaseOffset: h.BaseOffset, LastOffset: h.LastOffset(), Position: seg.Size, Size: int32(len(b)),
		Epoch: h.PartitionLeaderEpoch, MaxTimestamp: h.MaxTimestamp, RecordCount: h.RecordCount,
	})
	seg.Size += int64(len(b))
	l.logEndOffset = h.NextOffset()
	return nil
}

// roll closes the active segment (Kafka flushes it to disk) and starts a new
// one at base.
func (l *Log) roll(base int64) error {
	if err := l.disk.Fsync(l.active().Path); err != nil {
		return err
	}
	l.recoveryPoint = l.logEndOffset
	return l.newSegment(base)
}

// Read returns whole batches starting with the one that contains
// startOffset, stopping before any batch that reaches maxOffset (exclusive:
// the HW for consumers, the LEO for followers) and once maxBytes is reached.
// If minOneBatch, the first batch is returned even when larger than maxBytes.
// A startOffset outside [logStartOffset, logEndOffset] is
// ErrOffsetOutOfRange.
func (l *Log) Read(startOffset int64, maxBytes int, maxOffset int64, minOneBatch bool) ([]byte, error) {
	if startOffset < l.logStartOffset || startOffset > l.logEndOffset {
		return nil, ErrOffsetOutOfRange
	}
	var out []byte
	for si, seg := range l.segments {
		if si+1 < len(l.segments) && l.segments[si+1].BaseOffset <= startOffset {
			continue
		}
		data, err := l.disk.ReadFile(seg.Path)
		if err != nil {
			return nil, err
		}
		for _, b := range seg.Batches[seg.find(startOffset):] {
			if b.LastOffset >= maxOffset {
				return out, nil
			}
			if len(out)+int(b.Size) > maxBytes && !(minOneBatch && len(out) == 0) {
				return out, nil
			}
			if end := b.Position + int64(b.Size); end > int64(len(data)) {
				// The file lost bytes this Log still indexes: a log of a
				// process that is gone, read after a power loss reverted
				// its files (a running broker's log never sees this).
				return out, fmt.Errorf("%w: %s holds %d bytes, batch at offset %d ends at byte %d", ErrSegmentShorterThanIndex, seg.Path, len(data), b.BaseOffset, end)
			}
			out = append(out, data[b.Position:b.Position+int64(b.Size)]...)
		}
	}
	return out, nil
}

// TruncateTo removes every batch at or after offset (a whole batch goes if
// offset falls inside it). The HW and recovery point follow the LEO down, and
// the epoch cache forgets epochs that start at or beyond the new LEO.
//
// An offset at or beyond the LEO removes no batch, but the epoch cache still
// forgets epochs starting at or beyond the LEO, as Kafka's
// UnifiedLog.truncateTo does: a replica that became leader (assigning its
// epoch at its LEO) and lost the leadership before appending anything keeps
// such an entry, and as a follower it would report that epoch as its last
// fetched one, be told its log diverges, find nothing to cut, and be told so
// again forever. Only followers truncate.
func (l *Log) TruncateTo(offset int64) error {
	if offset >= l.logEndOffset {
		if l.epochs.TruncateFromEnd(l.logEndOffset) {
			return l.writeEpochCheckpoint()
		}
		return nil
	}
	if offset <= l.segments[0].BaseOffset {
		return l.TruncateFullyAndStartAt(max(offset, l.logStartOffset))
	}
	for len(l.segments) > 1 && l.active().BaseOffset >= offset {
		if err := l.disk.Remove(l.active().Path); err != nil {
			return err
		}
		l.segments = l.segments[:len(l.segments)-1]
	}
	seg := l.active()
	i := seg.find(offset)
	// [compaction] The LEO becomes offset, as in Kafka, even where the
	// cleaner left a gap before it; a batch straddling offset goes whole.
	end := offset
	if i < len(seg.Batches) {
		end = min(end, seg.Batches[i].BaseOffset)
		pos := seg.Batches[i].Position
		if err := l.disk.Truncate(seg.Path, pos); err != nil {
			return err
		}
		seg.Batches = seg.Batches[:i]
		seg.Size = pos
	}
	l.logEndOffset = max(seg.NextOffset(), end)
	l.logStartOffset = min(l.logStartOffset, l.logEndOffset)
	l.highWatermark = min(l.highWatermark, l.logEndOffset)
	l.recoveryPoint = min(l.recoveryPoint, l.logEndOffset)
	if l.epochs.TruncateFromEnd(l.logEndOffset) {
		return l.writeEpochCheckpoint()
	}
	return nil
}

// TruncateFullyAndStartAt deletes every segment and starts an empty log at
// offset (a follower far behind a leader whose log starts later).
func (l *Log) TruncateFullyAndStartAt(offset int64) error {
	for _, s := range l.segments {
		if err := l.disk.Remove(s.Path); err != nil {
			return err
		}
	}
	l.segments = nil
	if err := l.newSegment(offset); err != nil {
		return err
	}
	l.logStartOffset, l.logEndOffset, l.highWatermark, l.recoveryPoint = offset, offset, offset, offset
	l.epochs.Clear()
	return l.writeEpochCheckpoint()
}

// Flush fsyncs every segment and moves the recovery point to the LEO.
func (l *Log) Flush() error {
	for _, s := range l.segments {
		if err := l.disk.Fsync(s.Path); err != nil {
			return err
		}
	}
	l.recoveryPoint = l.logEndOffset
	return nil
}

// Delete removes the partition's directory.
func (l *Log) Delete() { l.disk.RemoveAll(l.dir) }

// Batches decodes every batch in [from, to) fully, for tools and views.
func (l *Log) Batches(from, to int64) ([]record.Batch, error) {
	data, err := l.Read(max(from, l.logStartOffset), 1<<30, to, true)
	if err != nil {
		return nil, err
	}
	var out []record.Batch
	for len(data) > 0 {
		b, n, err := record.Decode(data)
		if err != nil {
			return out, err
		}
		out = append(out, b)
		data = data[n:]
	}
	return out, nil
}
