package storage

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"kafkascope/core/record"
)

// The few Log methods the log cleaner needs: segment ranges as Kafka's
// LogSegments answers them, segment timestamps, the producers' last
// batches, and swapping cleaned segments in.

// Suffixes of the files a cleaning pass goes through (Kafka's LogFileUtils).
const (
	CleanedFileSuffix = ".cleaned" // a cleaned segment being written
	SwapFileSuffix    = ".swap"    // a cleaned segment about to replace others
	DeletedFileSuffix = ".deleted" // a replaced segment awaiting deletion
)

// segmentsIn is Kafka's LogSegments.values(from, to): the segments from the
// one containing from (or the first) up to, excluding, the first whose base
// offset is at or past to. from == to is empty.
func (l *Log) segmentsIn(from, to int64) []*Segment {
	if from >= to {
		return nil
	}
	start := 0
	for i, s := range l.segments {
		if s.BaseOffset <= from {
			start = i
		}
	}
	end := start
	for end < len(l.segments) && l.segments[end].BaseOffset < to {
		end++
	}
	return l.segments[start:end]
}

// nonActiveSegmentsFrom is the segments from the one containing from up to,
// excluding, the active segment.
func (l *Log) nonActiveSegmentsFrom(from int64) []*Segment {
	if from > l.active().BaseOffset {
		return nil
	}
	return l.segmentsIn(from, l.active().BaseOffset)
}

// segmentsSize is the total size of segs in bytes.
func segmentsSize(segs []*Segment) int64 {
	var n int64
	for _, s := range segs {
		n += s.Size
	}
	return n
}

// largestTimestamp is the largest record timestamp in s, or ok=false if no
// batch carries one (Kafka then uses the file's last-modified time, which
// the simulated disk does not keep).
func (s *Segment) largestTimestamp() (int64, bool) {
	ts := int64(-1)
	for _, b := range s.Batches {
		ts = max(ts, b.MaxTimestamp)
	}
	return ts, ts >= 0
}

// firstBatchTimestamp is the first batch's max timestamp, or MaxInt64 when
// the segment is empty or that batch has none (Kafka's
// LogSegment.getFirstBatchTimestamp).
func (s *Segment) firstBatchTimestamp() int64 {
	if len(s.Batches) == 0 || s.Batches[0].MaxTimestamp < 0 {
		return math.MaxInt64
	}
	return s.Batches[0].MaxTimestamp
}

// lastDataOffsetOfProducers maps each producer id (>= 0) to the last offset
// of its last data batch anywhere in the log. The cleaner keeps that batch,
// even emptied, so the producer's last sequence number survives (Kafka
// reads it from its producer state, which also expires producers after
// producer.id.expiration.ms; this log keeps every producer).
func (l *Log) lastDataOffsetOfProducers() (map[int64]int64, error) {
	out := map[int64]int64{}
	for _, s := range l.segments {
		data, err := l.disk.ReadFile(s.Path)
		if err != nil {
			return nil, err
		}
		for _, b := range s.Batches {
			h, err := record.ParseHeader(data[b.Position:])
			if err != nil {
				return nil, err
			}
			if h.ProducerID >= 0 && !h.IsControl() {
				out[h.ProducerID] = h.LastOffset()
			}
		}
	}
	return out, nil
}

// replaceSegments swaps the cleaned bytes of old (consecutive non-active
// segments, oldest first) in as one segment at old[0]'s base offset, the
// way Kafka's LocalLog.replaceSegments does it: the cleaned file
// (<base>.log.cleaned, flushed) is renamed <base>.log.swap, every old
// segment is renamed <base>.log.deleted, and the swap file becomes
// <base>.log. It returns the .deleted paths, which the caller removes after
// file.delete.delay.ms.
//
// Each step is a durable rename on the simulated disk and the whole swap
// runs inside one event, so no crash can stop it halfway: the .cleaned and
// .swap names never outlive the call.
func (l *Log) replaceSegments(cleaned []byte, old []*Segment) ([]string, error) {
	if len(old) == 0 {
		return nil, fmt.Errorf("replaceSegments: no segments to replace")
	}
	first := slices.Index(l.segments, old[0])
	if first < 0 || first+len(old) >= len(l.segments) {
		return nil, fmt.Errorf("replaceSegments: segments are not in the log or include the active segment")
	}
	for i, s := range old {
		if l.segments[first+i] != s {
			return nil, fmt.Errorf("replaceSegments: segments are not consecutive")
		}
	}
	base := old[0].BaseOffset
	logPath := path.Join(l.dir, SegmentFileName(base, ".log"))
	cleanedPath := logPath + CleanedFileSuffix
	swapPath := logPath + SwapFileSuffix
	seg := &Segment{BaseOffset: base, Path: logPath, Size: int64(len(cleaned))}
	if _, err := record.Scan(cleaned, func(pos int, h record.BatchHeader) bool {
		seg.Batches = append(seg.Batches, BatchInfo{
			BaseOffset: h.BaseOffset, LastOffset: h.LastOffset(), Position: int64(pos), Size: int32(h.SizeInBytes()),
			Epoch: h.PartitionLeaderEpoch, MaxTimestamp: h.MaxTimestamp, RecordCount: h.RecordCount,
		})
		return true
	}); err != nil {
		return nil, fmt.Errorf("replaceSegments: cleaned bytes: %w", err)
	}
	if err := l.disk.WriteFile(cleanedPath, cleaned); err != nil {
		return nil, err
	}
	if err := l.disk.Fsync(cleanedPath); err != nil {
		return nil, err
	}
	if err := l.disk.Rename(cleanedPath, swapPath); err != nil {
		return nil, err
	}
	var deleted []string
	for _, s := range old {
		to := s.Path + DeletedFileSuffix
		// A segment cleaned twice within file.delete.delay.ms: Kafka's
		// rename replaces the earlier .deleted file.
		if l.disk.Exists(to) {
			if err := l.disk.Remove(to); err != nil {
				return nil, err
			}
		}
		if err := l.disk.Rename(s.Path, to); err != nil {
			return nil, err
		}
		deleted = append(deleted, to)
	}
	if err := l.disk.Rename(swapPath, logPath); err != nil {
		return nil, err
	}
	l.segments = slices.Replace(l.segments, first, first+len(old), seg)
	return deleted, nil
}

// RemoveTempFiles deletes the temporary files a stopped broker left in a
// partition directory, before its log is opened, as Kafka's LogLoader
// does: segments awaiting deletion (.deleted: their timers died with the
// process) and unfinished cleaned segments (.cleaned). A .swap file cannot
// be left here, since a swap never spans two events.
func RemoveTempFiles(d *Disk, partitionDir string) error {
	for _, e := range d.List(partitionDir) {
		if e.IsDir {
			continue
		}
		if strings.HasSuffix(e.Name, DeletedFileSuffix) || strings.HasSuffix(e.Name, CleanedFileSuffix) {
			if err := d.Remove(path.Join(partitionDir, e.Name)); err != nil {
				return err
			}
		}
	}
	return nil
}
