package storage

import "math"

// groupSegmentsBySize is Kafka's Cleaner.groupSegmentsBySize: consecutive
// segments are cleaned into one as long as their sizes before cleaning add
// up to at most maxSize (segment.bytes), their indexes to at most
// maxIndexSize (segment.index.bytes), and the offsets of the group stay
// within 2^31 of its base (a record's offset is stored relative to its
// segment's base in the index). This keeps repeated cleanings from leaving
// ever smaller segments. segs are in offset order; every segment lands in
// exactly one group, in order.
func groupSegmentsBySize(segs []*Segment, maxSize, maxIndexSize, firstUncleanableOffset int64) ([][]*Segment, error) {
	var groups [][]*Segment
	for len(segs) > 0 {
		group := []*Segment{segs[0]}
		logSize := segs[0].Size
		indexSize, timeIndexSize, err := segs[0].indexSizes()
		if err != nil {
			return nil, err
		}
		segs = segs[1:]
		for len(segs) > 0 {
			next := segs[0]
			nextIndex, nextTimeIndex, err := next.indexSizes()
			if err != nil {
				return nil, err
			}
			if logSize+next.Size > maxSize || indexSize+nextIndex > maxIndexSize || timeIndexSize+nextTimeIndex > maxIndexSize {
				break
			}
			// An empty segment never breaks the offset range.
			if next.Size != 0 && lastOffsetForFirstSegment(segs, firstUncleanableOffset)-group[0].BaseOffset > math.MaxInt32 {
				break
			}
			group = append(group, next)
			logSize += next.Size
			indexSize += nextIndex
			timeIndexSize += nextTimeIndex
			segs = segs[1:]
		}
		groups = append(groups, group)
	}
	return groups, nil
}

// lastOffsetForFirstSegment bounds the last offset of segs[0] without
// reading it: the next segment's base minus one, or for the last one the
// first uncleanable offset minus one.
func lastOffsetForFirstSegment(segs []*Segment, firstUncleanableOffset int64) int64 {
	if len(segs) > 1 {
		return segs[1].BaseOffset - 1
	}
	return firstUncleanableOffset - 1
}

// indexSizes is the size of the segment's index entries in bytes, as
// Kafka's AbstractIndex.sizeInBytes (entries times entry size, not the
// file's length; loading the indexes if they were not yet used).
func (s *Segment) indexSizes() (offsetIndex, timeIndex int64, err error) {
	n, err := s.offsetIndex.entries()
	if err != nil {
		return 0, 0, err
	}
	m, err := s.timeIndex.entries()
	if err != nil {
		return 0, 0, err
	}
	return int64(n) * OffsetIndexEntrySize, int64(m) * TimeIndexEntrySize, nil
}
