package storage

import (
	"fmt"
	"strconv"
	"strings"
)

// BatchInfo locates one record batch inside a segment file. The list of
// BatchInfo per segment stands in for Kafka's sparse .index until indexes
// are modelled; it is rebuilt from the file's bytes on recovery, never
// trusted across a crash.
type BatchInfo struct {
	BaseOffset   int64
	LastOffset   int64
	Position     int64 // byte position in the .log file
	Size         int32 // bytes, including the 12-byte log overhead
	Epoch        int32 // partition leader epoch stamped in the batch
	MaxTimestamp int64
	RecordCount  int32
}

// Segment is one .log file of a partition.
// Invariant: Batches are in file order with strictly increasing offsets, and
// Size equals the sum of their sizes.
type Segment struct {
	BaseOffset int64
	Path       string
	Size       int64
	Batches    []BatchInfo
}

// SegmentFileName is the base offset zero-padded to 20 digits, plus suffix.
func SegmentFileName(baseOffset int64, suffix string) string {
	return fmt.Sprintf("%020d%s", baseOffset, suffix)
}

// parseSegmentFileName reads "00000000000000000170.log" → 170.
func parseSegmentFileName(name string) (int64, bool) {
	base, ok := strings.CutSuffix(name, ".log")
	if !ok || len(base) != 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(base, 10, 64)
	return n, err == nil && n >= 0
}

// NextOffset is the offset after the segment's last batch (its base offset if
// empty).
func (s *Segment) NextOffset() int64 {
	if len(s.Batches) == 0 {
		return s.BaseOffset
	}
	return s.Batches[len(s.Batches)-1].LastOffset + 1
}

// find returns the index of the first batch whose LastOffset >= offset, or
// len(Batches).
func (s *Segment) find(offset int64) int {
	lo, hi := 0, len(s.Batches)
	for lo < hi {
		m := (lo + hi) / 2
		if s.Batches[m].LastOffset < offset {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
