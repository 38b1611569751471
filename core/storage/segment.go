package storage

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"kafkascope/core/sim"
)

// Segment file suffixes (Kafka's LogFileUtils).
const (
	LogFileSuffix       = ".log"
	IndexFileSuffix     = ".index"
	TimeIndexFileSuffix = ".timeindex"
	TxnIndexFileSuffix  = ".txnindex"
	DeletedFileSuffix   = ".deleted"
)

// segmentFileSuffixes are a segment's files: the log and its indexes.
var segmentFileSuffixes = []string{LogFileSuffix, IndexFileSuffix, TimeIndexFileSuffix, TxnIndexFileSuffix}

// Segment is one segment of a partition: <base>.log with its .index and
// .timeindex (Kafka's LogSegment).
//
// Invariants: the directory of batches (batches) is in file order with
// strictly increasing offsets, each batch starting where the previous one
// ends, and Size equals the sum of their sizes and the .log file's length;
// the offset index's entries point at batch starts inside the file, in
// increasing offset order.
type Segment struct {
	BaseOffset int64
	Path       string // the .log file
	logFile    fileRef
	Size       int64
	batches    batchDir // see BatchInfo

	disk        *Disk
	offsetIndex offsetIndex
	timeIndex   timeIndex
	txnIndex    txnIndex // the aborted transactions whose markers are here
	// Fixed when the segment is opened, as in Kafka: a config change
	// applies to segments opened later.
	indexIntervalBytes int64
	rollJitterMs       int64

	created                  sim.Time
	bytesSinceLastIndexEntry int64
	// rollingBasedTimestamp is the largest timestamp of the first append
	// (or, after a restart, the first batch's max timestamp): what
	// segment.ms counts from.
	rollingBasedTimestamp      int64
	rollingBasedTimestampKnown bool
	// maxTimestampSoFar and the last offset of the batch that holds it;
	// read from the time index's last entry when first needed after a
	// restart, as Kafka does.
	maxTimestampSoFar TimestampOffset
	maxTimestampKnown bool
	// scan is where the last offset lookup stopped (translateOffset).
	scan segmentScan
}

// SegmentFileName is the base offset zero-padded to 20 digits, plus suffix.
func SegmentFileName(baseOffset int64, suffix string) string {
	return fmt.Sprintf("%020d%s", baseOffset, suffix)
}

// parseSegmentFileName reads "00000000000000000170.log" → 170.
func parseSegmentFileName(name string) (int64, bool) {
	return parseOffsetFileName(name, LogFileSuffix)
}

// parseOffsetFileName reads a 20-digit base offset followed by suffix.
func parseOffsetFileName(name, suffix string) (int64, bool) {
	base, ok := strings.CutSuffix(name, suffix)
	if !ok || len(base) != 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(base, 10, 64)
	return n, err == nil && n >= 0
}

// openSegment makes the segment at base in dir, creating its .log file if
// it does not exist (FileRecords.open). The indexes are opened lazily.
func openSegment(d *Disk, dir string, base int64, cfg LogConfig, jitterMs int64) (*Segment, error) {
	return openSegmentWithSuffix(d, dir, base, cfg, jitterMs, "")
}

// openSegmentWithSuffix is openSegment with fileSuffix after each file's
// name (the cleaner's .cleaned segments; LogSegment.open's fileSuffix).
func openSegmentWithSuffix(d *Disk, dir string, base int64, cfg LogConfig, jitterMs int64, fileSuffix string) (*Segment, error) {
	s := &Segment{
		BaseOffset: base, Path: path.Join(dir, SegmentFileName(base, LogFileSuffix)+fileSuffix), disk: d,
		offsetIndex:        newOffsetIndex(d, path.Join(dir, SegmentFileName(base, IndexFileSuffix)+fileSuffix), base, cfg.SegmentIndexBytes),
		timeIndex:          newTimeIndex(d, path.Join(dir, SegmentFileName(base, TimeIndexFileSuffix)+fileSuffix), base, cfg.SegmentIndexBytes),
		txnIndex:           txnIndex{d, path.Join(dir, SegmentFileName(base, TxnIndexFileSuffix)+fileSuffix)},
		indexIntervalBytes: cfg.IndexIntervalBytes, rollJitterMs: jitterMs, created: d.Now(),
	}
	if !d.Exists(s.Path) {
		if err := d.WriteFile(s.Path, nil); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// IndexPath and TimeIndexPath are the segment's index files (which exist
// only once the index was first used).
func (s *Segment) IndexPath() string     { return s.offsetIndex.path }
func (s *Segment) TimeIndexPath() string { return s.timeIndex.path }

// NextOffset is the offset after the segment's last batch (its base offset if
// empty).
func (s *Segment) NextOffset() int64 {
	if s.batches.len() == 0 {
		return s.BaseOffset
	}
	return s.lastOffsetOf(s.batches.len()-1) + 1
}

// find returns the index of the first batch whose LastOffset >= offset, or
// NumBatches().
func (s *Segment) find(offset int64) int {
	lo, hi := 0, s.batches.len()
	for lo < hi {
		m := (lo + hi) / 2
		if s.lastOffsetOf(m) < offset {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// readMaxTimestampSoFar is the largest timestamp seen and its offset.
func (s *Segment) readMaxTimestampSoFar() (TimestampOffset, error) {
	if !s.maxTimestampKnown {
		last, err := s.timeIndex.lastEntry()
		if err != nil {
			return TimestampOffset{}, err
		}
		s.maxTimestampSoFar, s.maxTimestampKnown = last, true
	}
	return s.maxTimestampSoFar, nil
}

// LargestTimestamp is the largest record timestamp in the segment (what
// retention.ms compares with the clock), or -1 if it has none. Kafka then
// uses the file's modification time; the simulator uses the time the
// segment was opened (every batch it writes has a timestamp).
func (s *Segment) LargestTimestamp() (int64, error) {
	m, err := s.readMaxTimestampSoFar()
	if err != nil {
		return 0, err
	}
	if m.Timestamp >= 0 {
		return m.Timestamp, nil
	}
	return s.created.UnixMilli(), nil
}
