package storage

import (
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Appends of a run's batches in place: a KRaft voter appends each NoOp
// batch and fsyncs its log before it answers (the leader before it counts
// itself, a follower before its next Fetch), a few hundred thousand times
// a node in an idle week. Most of those appends change only counters: the
// batch lands on the page of the .log file the last one dirtied (still in
// the cache: the first append makes it the most recently used, the others
// find it there), adds no index entry, does not roll, and the fsync that
// follows cleans that page again. Such appends
// are done in place, as a whole, rather than one after another: the same
// batches, directory entries, sizes, offsets, timestamps and flushed
// layer, the same page cache (same pages, same order, all clean), so the
// log and its disk end as the appends one by one would leave them.
//
// No clock is read in between: nothing the appends in place do depends on
// it (they exclude every append that would look at it, below).

// AppendRunAsLeaderFlushed appends batches i, i+1, … of run as
// AppendRunAsLeader with leaderEpoch would, each followed by Flush, batch
// i+k at instant(k): as many of the first n as it can do in place (above),
// which may be none. The clock reads instant(0). It returns how many it
// appended; the caller appends the next one the usual way (its instant on
// the clock) before it asks again.
//
// The run's batches must differ only in offset (batch i's base offset is
// batch 0's plus i times its record count) and timestamp (rising strictly
// from one batch to the next).
func (l *Log) AppendRunAsLeaderFlushed(run BatchRun, i, n int, leaderEpoch int32, instant func(k int) sim.Time) (int, error) {
	if l.producers == nil {
		return 0, nil // the first append builds the producer state
	}
	return l.appendFlushed(run, i, n, leaderEpoch, instant)
}

// AppendRunAsFollowerFlushed is AppendRunAsLeaderFlushed for a follower's
// appends (AppendRunAsFollower, then Flush): each batch keeps the epoch
// its leader stamped.
func (l *Log) AppendRunAsFollowerFlushed(run BatchRun, i, n int, instant func(k int) sim.Time) (int, error) {
	return l.appendFlushed(run, i, n, -1, instant)
}

// appendFlushed appends in place the most of batches i..i+n-1 it can.
// epoch is the leader's epoch for a leader's append, or -1 for a
// follower's (the batches' own).
func (l *Log) appendFlushed(run BatchRun, i, n int, epoch int32, instant func(k int) sim.Time) (int, error) {
	bs := run.BatchSize()
	if n <= 0 || int64(bs) > l.cfg.SegmentBytes {
		return 0, nil
	}
	if cap(l.runScratch) < bs {
		l.runScratch = make([]byte, bs)
	}
	buf := l.runScratch[:bs]
	run.Batch(i, buf)
	first, err := record.ParseHeader(buf)
	if err != nil || first.SizeInBytes() != bs {
		return 0, nil // the usual append says what is wrong with it
	}
	if epoch < 0 {
		epoch = first.PartitionLeaderEpoch
	}
	if first.BaseOffset != l.logEndOffset || first.PartitionLeaderEpoch != epoch || epoch < 0 ||
		first.ProducerID >= 0 || first.RecordCount <= 0 || first.LastOffsetDelta != first.RecordCount-1 {
		return 0, nil
	}
	if latest, ok := l.epochs.Latest(); !ok || latest.Epoch != epoch || latest.StartOffset > first.BaseOffset {
		return 0, nil // the append would change the epoch cache
	}
	s := l.active()
	m, err := s.inPlace(n, bs, l.disk)
	if err != nil || m == 0 {
		return 0, err
	}
	// The last batch must not roll the segment; a roll is monotone in the
	// batches appended (size, timestamps, offsets), so the first m that
	// do not roll are found by bisection.
	header := func(k int) (record.BatchHeader, error) {
		run.Batch(i+k, buf)
		return record.ParseHeader(buf)
	}
	rolls := func(k int) (bool, record.BatchHeader, error) {
		h, err := header(k - 1)
		if err != nil {
			return true, h, err
		}
		reason, err := s.shouldRoll(rollParams{maxSegmentMs: l.cfg.maxSegmentMs(), maxSegmentBytes: l.cfg.SegmentBytes,
			maxTimestampInMessages: h.MaxTimestamp, maxOffsetInMessages: h.LastOffset(),
			messagesSize: int64(k * bs), nowMs: instant(k - 1).UnixMilli()})
		return reason != "" || err != nil, h, err
	}
	roll, h, err := rolls(m)
	if err != nil {
		return 0, err
	}
	if roll {
		lo, hi := 0, m-1 // lo does not roll (none appended), hi+1 does
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if r, _, err := rolls(mid); err != nil {
				return 0, err
			} else if r {
				hi = mid - 1
			} else {
				lo = mid
			}
		}
		if m = lo; m == 0 {
			return 0, nil
		}
		if _, h, err = rolls(m); err != nil {
			return 0, err
		}
	}
	if h.BaseOffset != first.BaseOffset+int64(m-1)*int64(first.RecordCount) {
		return 0, nil // not a run of alike batches after all
	}
	if err := s.appendInPlace(run, i, m, first, h, instant(m-1)); err != nil {
		return 0, err
	}
	l.logEndOffset = h.LastOffset() + 1
	l.checkOffsets("appending a run")
	// One Flush for the m: its segment flushes are reported one append
	// at a time, at each one's instant, as the appends one by one would
	// (the first from the recovery point's segment on, then the active
	// one: no batch rolls).
	firstFlush := l.unflushedSegments()
	if err := l.flushAll(); err != nil {
		return m, err
	}
	l.disk.segmentsFlushed(instant(0), firstFlush)
	for k := 1; k < m; k++ {
		l.disk.segmentsFlushed(instant(k), 1)
	}
	// The m flushes fsync every segment's .log m times: each counts.
	for _, s := range l.segments {
		f, err := l.disk.resolve(s.Path, &s.logFile)
		if err != nil {
			return m, err
		}
		f.flushGen += uint64(m - 1)
	}
	return m, nil
}

// inPlace is how many of n appends of bs bytes each, then an fsync, the
// segment can take in place: none unless its .log file is clean, ends on a
// page in the cache, and the disk has no creation or truncation to journal; then as many as end on that page, add no offset
// index entry, fit the disk and leave the dirty pages under the background
// writeback threshold (the one page an append dirties).
func (s *Segment) inPlace(n, bs int, d *Disk) (int, error) {
	if s.Size == 0 {
		return 0, nil // the first append sets the rolling timestamp
	}
	if err := s.loadFirstBatchTimestamp(); err != nil {
		return 0, err
	}
	if !s.rollingBasedTimestampKnown || s.rollingBasedTimestamp < 0 {
		return 0, nil // segment.ms would count from the clock
	}
	if _, err := s.readMaxTimestampSoFar(); err != nil {
		return 0, err
	}
	f, err := d.resolve(s.Path, &s.logFile)
	if err != nil {
		return 0, nil
	}
	size := f.size()
	if f.dirty || f.hole != 0 || len(d.truncating) > 0 || len(d.creating) > 0 || size != s.Size {
		return 0, nil
	}
	page := size / PageSize
	pc := &d.cache
	if size%PageSize == 0 || page >= int64(len(f.pages)) || f.pages[page] == lruHead {
		return 0, nil
	}
	if pc.dirty+1 > pc.capacity*DirtyBackgroundRatio/100 {
		return 0, nil
	}
	// Batch k adds an index entry when the bytes since the last one,
	// before it, are over the interval.
	if s.bytesSinceLastIndexEntry > s.indexIntervalBytes {
		return 0, nil
	}
	m := int64(n)
	m = min(m, ((page+1)*PageSize-size)/int64(bs))
	m = min(m, (s.indexIntervalBytes-s.bytesSinceLastIndexEntry)/int64(bs)+1)
	m = min(m, (MaxDiskBytes-d.bytes)/int64(bs))
	return int(max(m, 0)), nil
}

// appendInPlace appends batches i..i+m-1 of run (first and last are the
// first's and the last's headers) as m appends would, the last at instant
// at (inPlace said they fit): the file's bytes and dirty time, the batch
// directory, the size, the largest timestamp and the bytes since the last
// index entry. The page they land on stays clean: the caller flushes.
func (s *Segment) appendInPlace(run BatchRun, i, m int, first, last record.BatchHeader, at sim.Time) error {
	d := s.disk
	f, err := d.resolve(s.Path, &s.logFile)
	if err != nil {
		return err
	}
	bs := int64(run.BatchSize())
	total := int64(m) * bs
	if err := d.grow(int(total)); err != nil {
		return err
	}
	f.data.appendRunN(run, i, m)
	// The first append makes the page the most recently used (a hit: the
	// cache neither grows nor reclaims); the others find it there.
	pc := &d.cache
	if slot := f.pages[(s.Size)/PageSize]; pc.page(lruHead).next != slot {
		pc.unlink(slot)
		pc.pushFront(slot)
	}
	f.dirtySince = at // each append dirtied the file; its flush cleaned it
	e := batchEntry{baseDelta: int32(first.BaseOffset - s.BaseOffset), lastDelta: first.LastOffsetDelta,
		position: int32(s.Size), epoch: first.PartitionLeaderEpoch, recordCount: first.RecordCount}
	s.batches.pushAlike(e, m, batchEntry{baseDelta: first.RecordCount, position: int32(bs)})
	s.Size += total
	if last.MaxTimestamp > s.maxTimestampSoFar.Timestamp {
		s.maxTimestampSoFar = TimestampOffset{Timestamp: last.MaxTimestamp, Offset: last.LastOffset()}
	}
	s.bytesSinceLastIndexEntry += total
	return nil
}
