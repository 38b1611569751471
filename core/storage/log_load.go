package storage

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"kafkascope/core/record"
)

// OpenLog loads a partition log from its directory, as Kafka's LogLoader
// does. cleanShutdown says the broker stopped cleanly (then the bytes and
// the index files are trusted); otherwise every batch at or after
// recoveryPoint is validated, a torn or corrupt tail is cut off, and the
// indexes of those segments are rebuilt from their batches. A segment
// whose .index file is missing has its indexes rebuilt too; a missing
// .timeindex alone is created empty. Stray .deleted files (a deletion the
// previous run did not finish), a cleaning's .cleaned and .swap files (see
// removeStrayFiles) and index files without a .log are removed.
// hw and logStart come from the broker's checkpoint files (-1 if absent).
// The active segment's indexes end preallocated.
func OpenLog(d *Disk, logDir string, tp TopicPartition, cfg LogConfig, recoveryPoint, hw, logStart int64, cleanShutdown bool) (*Log, RecoveryReport, error) {
	dir := path.Join(logDir, tp.DirName())
	l := &Log{disk: d, dir: dir, tp: tp, cfg: cfg}
	var rep RecoveryReport
	if data, err := d.ReadFile(path.Join(dir, PartitionMetadataFile)); err == nil {
		l.topicID, _ = DecodePartitionMetadata(data)
	}
	bases := removeStrayFiles(d, dir)
	if cleanShutdown {
		recoveryPoint = -1 // nothing to recover
	} else if recoveryPoint < 0 {
		recoveryPoint = 0
	}
	recoveredFrom := int64(-1) // the first segment recovered
	for i, base := range bases {
		seg, err := l.openSegment(base)
		if err != nil {
			return nil, rep, err
		}
		validate := !cleanShutdown && (i == len(bases)-1 || bases[i+1] > recoveryPoint)
		truncated, err := loadBatches(d, seg, validate, cleanShutdown, &rep)
		if err != nil {
			return nil, rep, err
		}
		if err := loadIndexes(seg, validate || truncated, &rep); err != nil {
			return nil, rep, err
		}
		if (validate || truncated) && recoveredFrom < 0 {
			recoveredFrom = base
		}
		l.segments = append(l.segments, seg)
		if truncated {
			// Everything after a damaged segment is unreachable.
			for _, later := range bases[i+1:] {
				if sz, err := d.Size(path.Join(dir, SegmentFileName(later, LogFileSuffix))); err == nil {
					rep.TruncatedBytes += sz
				}
				for _, suffix := range segmentFileSuffixes {
					_ = d.Remove(path.Join(dir, SegmentFileName(later, suffix)))
				}
			}
			break
		}
	}
	if len(l.segments) > 0 && logStart > l.active().NextOffset() {
		// The log ends below its checkpointed start (its files were lost):
		// Kafka deletes every segment and starts over at the log start.
		for _, s := range l.segments {
			s.deleteIfExists()
		}
		l.segments = nil
	}
	if len(l.segments) == 0 {
		seg, err := l.openSegment(max(logStart, 0))
		if err != nil {
			return nil, rep, err
		}
		l.segments = append(l.segments, seg)
	}
	if err := l.active().resizeIndexes(cfg.SegmentIndexBytes); err != nil {
		return nil, rep, err
	}
	if recoveredFrom >= 0 {
		if err := l.rebuildTxnIndexes(recoveredFrom); err != nil {
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
		for b := range s.Batches() {
			if b.Epoch > l.epochs.LatestEpoch() {
				l.epochs.Assign(b.Epoch, b.BaseOffset)
			}
		}
	}
	l.epochs.TruncateFromStart(l.logStartOffset)
	if err := l.writeEpochCheckpoint(); err != nil {
		return nil, rep, err
	}
	l.highWatermark = min(max(hw, l.logStartOffset), l.logEndOffset)
	l.recoveryPoint = l.logEndOffset
	if !cleanShutdown {
		l.recoveryPoint = min(max(recoveryPoint, 0), l.logEndOffset)
	}
	l.checkOffsets("loading")
	return l, rep, nil
}

// removeStrayFiles deletes what a log directory must not keep at load
// (LogLoader.removeTempFilesAndCollectSwapFiles and the passes after it):
// files ending in .deleted (not a raft snapshot's .checkpoint.deleted,
// which the metadata log handles), a cleaning's unfinished .cleaned files,
// and index files whose .log is gone. A .swap segment is completed as
// Kafka completes it: if it comes from a cleaning that wrote .cleaned
// files at or below its base it was never finished and goes; otherwise
// the segments its offsets cover are deleted and it takes their place,
// its indexes rebuilt (its .swap index files are deleted). The simulator
// swaps within one event, so these leftovers only come from a directory
// written by hand. It returns the segments' base offsets, sorted.
func removeStrayFiles(d *Disk, dir string) []int64 {
	minCleaned := int64(math.MaxInt64)
	var swaps []int64
	for _, e := range d.List(dir) {
		if e.IsDir {
			continue
		}
		p := path.Join(dir, e.Name)
		switch {
		case strings.HasSuffix(e.Name, DeletedFileSuffix):
			if !strings.HasSuffix(e.Name, ".checkpoint"+DeletedFileSuffix) {
				_ = d.Remove(p)
			}
		case strings.HasSuffix(e.Name, CleanedFileSuffix):
			if b, ok := parseOffsetFileName(strings.TrimSuffix(e.Name, CleanedFileSuffix), LogFileSuffix); ok {
				minCleaned = min(minCleaned, b)
			}
			_ = d.Remove(p)
		case strings.HasSuffix(e.Name, SwapFileSuffix):
			if b, ok := parseOffsetFileName(strings.TrimSuffix(e.Name, SwapFileSuffix), LogFileSuffix); ok {
				swaps = append(swaps, b)
			} else {
				_ = d.Remove(p) // a swapped index: rebuilt below
			}
		}
	}
	for _, b := range swaps {
		swap := path.Join(dir, SegmentFileName(b, LogFileSuffix)+SwapFileSuffix)
		if b >= minCleaned {
			_ = d.Remove(swap)
			continue
		}
		next := b
		if data, err := d.ReadFile(swap); err == nil {
			_, _ = record.Scan(data, func(_ int, h record.BatchHeader) bool {
				next = h.NextOffset()
				return true
			})
		}
		for _, e := range d.List(dir) {
			if old, ok := parseSegmentFileName(e.Name); ok && !e.IsDir && old >= b && old < max(next, b+1) {
				for _, suffix := range segmentFileSuffixes {
					_ = d.Remove(path.Join(dir, SegmentFileName(old, suffix)))
				}
			}
		}
		_ = d.Rename(swap, path.Join(dir, SegmentFileName(b, LogFileSuffix)))
	}
	var bases []int64
	logs := map[int64]bool{}
	for _, e := range d.List(dir) {
		if b, ok := parseSegmentFileName(e.Name); ok && !e.IsDir {
			bases = append(bases, b)
			logs[b] = true
		}
	}
	for _, e := range d.List(dir) {
		if e.IsDir {
			continue
		}
		for _, suffix := range []string{IndexFileSuffix, TimeIndexFileSuffix} {
			if b, ok := parseOffsetFileName(e.Name, suffix); ok && !logs[b] {
				_ = d.Remove(path.Join(dir, e.Name))
			}
		}
	}
	slices.Sort(bases)
	return bases
}

// loadBatches reads a segment's batches into its directory of batches,
// cutting a torn or corrupt tail (reported in rep). A corrupt segment after
// a clean shutdown is an error: its bytes were trusted.
func loadBatches(d *Disk, seg *Segment, validate, cleanShutdown bool, rep *RecoveryReport) (truncated bool, err error) {
	data, err := d.ReadFile(seg.Path)
	if err != nil {
		return false, err
	}
	prev := seg.BaseOffset - 1
	refusedAt, refusal := -1, ""
	valid, scanErr := record.Scan(data, func(pos int, h record.BatchHeader) bool {
		// Offsets that go backwards, or beyond what the segment's index
		// can address: the log is damaged from here. (Kafka splits a
		// segment whose offsets overflow its index, on its
		// LogSegmentOffsetOverflowException: only segments written before
		// KAFKA-5413 can have one. The simulator never writes one, and its
		// directory of batches could not hold it: it cuts the batch.)
		switch {
		case h.BaseOffset <= prev:
			refusedAt, refusal = pos, "offsets out of order"
			return false
		case !fitsEntry(seg.BaseOffset, h):
			refusedAt, refusal = pos, "offset beyond the segment's index range"
			return false
		}
		prev = h.LastOffset()
		seg.addBatchInfo(h, int64(pos))
		return true
	})
	if refusedAt >= 0 {
		valid = refusedAt
	}
	seg.Size = int64(valid)
	if validate {
		rep.Recovered = true
	}
	if int64(valid) == int64(len(data)) {
		return false, nil
	}
	if !validate && cleanShutdown {
		return false, fmt.Errorf("segment %s is corrupt after a clean shutdown: %v", seg.Path, scanErr)
	}
	rep.TruncatedBytes += int64(len(data) - valid)
	if scanErr != nil {
		rep.Reason = scanErr.Error()
	} else {
		rep.Reason = refusal
	}
	return true, d.Truncate(seg.Path, int64(valid))
}

// loadIndexes rebuilds a segment's indexes when it is recovered or its
// .index file is missing, or when the index file could not be an index
// (the simulator's guard: Kafka would use such a file as it is); a missing
// .timeindex alone is created empty. Other index files are trusted and
// opened when first used.
func loadIndexes(seg *Segment, recovered bool, rep *RecoveryReport) error {
	rebuild := recovered || !seg.disk.Exists(seg.offsetIndex.path)
	if !rebuild {
		if !seg.disk.Exists(seg.timeIndex.path) {
			if err := seg.timeIndex.resize(0); err != nil {
				return err
			}
		}
		if err := seg.offsetIndex.load(); err != nil {
			return err
		}
		if err := seg.timeIndex.load(); err != nil {
			return err
		}
		rebuild = seg.offsetIndex.untrusted || seg.timeIndex.untrusted || !indexPointsAtBatches(seg)
	}
	if !rebuild {
		return nil
	}
	rep.RebuiltIndexes = append(rep.RebuiltIndexes, seg.BaseOffset)
	return seg.rebuildIndexes()
}

// indexPointsAtBatches checks that every offset index entry names a batch
// start and an offset inside that batch's append.
func indexPointsAtBatches(seg *Segment) bool {
	starts := make(map[int64]int64, seg.NumBatches())
	for b := range seg.Batches() {
		starts[int64(b.Position)] = b.BaseOffset
	}
	prev := int64(-1)
	for _, e := range seg.offsetIndex.ents {
		base, ok := starts[int64(e.Position)]
		if !ok || e.Offset < base || e.Offset <= prev || e.Offset >= seg.NextOffset() {
			return false
		}
		prev = e.Offset
	}
	return true
}
