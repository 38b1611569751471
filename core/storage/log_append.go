package storage

import (
	"fmt"
	"slices"

	"kafkascope/core/record"
)

// AppendInfo describes an append.
type AppendInfo struct {
	FirstOffset  int64
	LastOffset   int64
	MaxTimestamp int64
	Records      int
	// Rolled is the base offset of the segment this append rolled to, or
	// -1 (the caller may tell about it); RollReason says why
	// (RollSegmentBytes, RollSegmentMs, RollIndexFull, RollOffsetRange).
	Rolled     int64
	RollReason string
	// Duplicate: the batch repeats one of its idempotent producer's last
	// 5 batches; nothing was appended and FirstOffset/LastOffset are the
	// original batch's (UnifiedLog's duplicate handling).
	Duplicate bool
}

// AppendAsLeader validates the batches in data, assigns them offsets from
// the log end offset and stamps them with leaderEpoch, then appends them.
// data is not modified.
func (l *Log) AppendAsLeader(data []byte, leaderEpoch int32) (AppendInfo, error) {
	return l.appendAsLeader(data, leaderEpoch, false)
}

// AppendAsCoordinator is AppendAsLeader for a coordinator's own write
// (AppendOrigin.COORDINATOR): a producer's batch in it (a TxnOffsetCommit's
// offsets, which carry no sequence) has its epoch checked, not its
// sequence, and is never taken for a duplicate.
func (l *Log) AppendAsCoordinator(data []byte, leaderEpoch int32) (AppendInfo, error) {
	return l.appendAsLeader(data, leaderEpoch, true)
}

func (l *Log) appendAsLeader(data []byte, leaderEpoch int32, coordinator bool) (AppendInfo, error) {
	hs := l.headers[:0]
	for pos := 0; pos < len(data); {
		h, err := record.ParseHeader(data[pos:])
		if err != nil {
			return l.refused(fmt.Errorf("%w: %v", ErrInvalidRecord, err))
		}
		end := pos + h.SizeInBytes()
		if end > len(data) {
			return l.refused(fmt.Errorf("%w: truncated batch", ErrInvalidRecord))
		}
		if err := record.Validate(data[pos:end]); err != nil {
			return l.refused(fmt.Errorf("%w: %v", ErrInvalidRecord, err))
		}
		hs = append(hs, h)
		pos = end
	}
	l.headers = hs[:0] // kept for the next append; hs is read, not grown, from here on
	return l.appendLeader(data, hs, leaderEpoch, runRef{}, coordinator)
}

// RunBatch is batch I of Run, validated: V's bytes are those Run.Batch
// makes for I. Appended, it is held in closed form (content.appendRun).
type RunBatch struct {
	V   record.Valid
	Run BatchRun
	I   int
}

// runRef is where an append's bytes come from when they are one batch of
// a run (run nil: they are only bytes).
type runRef struct {
	run BatchRun
	i   int
}

// AppendRunAsLeader is AppendAsLeader of a run's batch, validated
// already (record.Valid): the same append without parsing and checking
// it again, its bytes held as the run's (unless the leader had to change
// them).
func (l *Log) AppendRunAsLeader(b RunBatch, leaderEpoch int32) (AppendInfo, error) {
	hs := append(l.headers[:0], b.V.Header())
	l.headers = hs[:0]
	return l.appendLeader(b.V.Bytes(), hs, leaderEpoch, runRef{b.Run, b.I}, false)
}

// refused is the AppendInfo of an append refused before anything changed.
func (l *Log) refused(err error) (AppendInfo, error) {
	return AppendInfo{FirstOffset: l.logEndOffset, Rolled: -1}, err
}

// appendLeader is a leader's append of data, whose batches (headers hs)
// passed record.Validate: it assigns offsets and the epoch, runs the
// producer checks (a coordinator's: the epoch only) and appends.
func (l *Log) appendLeader(data []byte, hs []record.BatchHeader, leaderEpoch int32, src runRef, coordinator bool) (AppendInfo, error) {
	if len(hs) == 0 {
		return l.refused(fmt.Errorf("%w: no record batches", ErrInvalidRecord))
	}
	// buf is data until a batch needs its offset or epoch changed, then
	// a copy (a KRaft leader's batches come with both already set).
	buf, copied := data, false
	info := AppendInfo{FirstOffset: l.logEndOffset, Rolled: -1}
	next := l.logEndOffset
	pos := 0
	for i := range hs {
		h := &hs[i]
		end := pos + h.SizeInBytes()
		// A client's batch has consecutive offsets: Kafka's LogValidator
		// refuses one whose offset range does not match its record count.
		if h.RecordCount <= 0 || h.LastOffsetDelta != h.RecordCount-1 {
			return l.refused(fmt.Errorf("%w: inconsistent batch offset range (lastOffsetDelta %d, %d records)", ErrInvalidRecord, h.LastOffsetDelta, h.RecordCount))
		}
		if !copied && (h.BaseOffset != next || h.PartitionLeaderEpoch != leaderEpoch) {
			buf, copied = slices.Clone(data), true
			src = runRef{} // not the run's bytes any more
		}
		if copied {
			record.SetBaseOffset(buf[pos:end], next)
			record.SetPartitionLeaderEpoch(buf[pos:end], leaderEpoch)
		}
		h.BaseOffset = next
		h.PartitionLeaderEpoch = leaderEpoch
		next = h.NextOffset()
		info.Records += int(h.RecordCount)
		info.MaxTimestamp = max(info.MaxTimestamp, h.MaxTimestamp)
		pos = end
	}
	if dup, ok, err := l.checkProducers(hs, coordinator); err != nil || ok {
		return dup, err
	}
	if l.epochs.Assign(leaderEpoch, l.logEndOffset) {
		if err := l.writeEpochCheckpoint(); err != nil {
			return info, err
		}
	}
	var err error
	a := newAppendSet(buf, hs)
	a.src = src
	info.Rolled, info.RollReason, err = l.append(a)
	if err != nil {
		return info, err
	}
	if err := l.updateProducers(buf, hs); err != nil {
		return info, err
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
	pos := 0
	hs := l.headers[:0]
	for pos < len(data) {
		h, err := record.ParseHeader(data[pos:])
		if err != nil {
			return replicaRefused(fmt.Errorf("%w: %v", ErrInvalidRecord, err))
		}
		end := pos + h.SizeInBytes()
		if end > len(data) {
			return replicaRefused(fmt.Errorf("%w: truncated batch", ErrInvalidRecord))
		}
		// Header and CRC, as Kafka checks a replicated batch; the records
		// were validated by the leader (record.ValidateShallow).
		if err := record.ValidateShallow(data[pos:end]); err != nil {
			return replicaRefused(fmt.Errorf("%w: %v", ErrInvalidRecord, err))
		}
		hs = append(hs, h)
		pos = end
	}
	l.headers = hs[:0] // kept for the next append; hs is read, not grown, from here on
	return l.appendReplicated(data, hs, runRef{})
}

// AppendRunAsFollower is AppendAsFollower of a run's batch, validated
// already (record.Valid), without checking it again, its bytes held as
// the run's.
func (l *Log) AppendRunAsFollower(b RunBatch) (AppendInfo, error) {
	hs := append(l.headers[:0], b.V.Header())
	l.headers = hs[:0]
	return l.appendReplicated(b.V.Bytes(), hs, runRef{b.Run, b.I})
}

// replicaRefused is the AppendInfo of a follower's append refused before
// anything changed.
func replicaRefused(err error) (AppendInfo, error) {
	return AppendInfo{FirstOffset: -1, LastOffset: -1, Rolled: -1}, err
}

// appendReplicated is a follower's append of data, whose batches (headers
// hs) passed at least record.ValidateShallow.
func (l *Log) appendReplicated(data []byte, hs []record.BatchHeader, src runRef) (AppendInfo, error) {
	info := AppendInfo{FirstOffset: -1, LastOffset: -1, Rolled: -1}
	prev := l.logEndOffset - 1
	for _, h := range hs {
		if h.BaseOffset <= prev {
			return replicaRefused(fmt.Errorf("%w: batch at %d, log end offset %d", ErrOffsetOrder, h.BaseOffset, l.logEndOffset))
		}
		prev = h.LastOffset()
	}
	if len(hs) == 0 {
		return info, nil
	}
	if hasTxnBatches(hs) {
		// A marker must meet the state it completes: build it first.
		if _, err := l.ProducerState(); err != nil {
			return info, err
		}
	}
	for _, h := range hs {
		if h.PartitionLeaderEpoch >= 0 && l.epochs.Assign(h.PartitionLeaderEpoch, h.BaseOffset) {
			if err := l.writeEpochCheckpoint(); err != nil {
				return info, err
			}
		}
		info.Records += int(h.RecordCount)
		info.MaxTimestamp = max(info.MaxTimestamp, h.MaxTimestamp)
	}
	var err error
	// The disk copies the bytes: data is neither kept nor changed.
	a := newAppendSet(data, hs)
	a.src = src
	info.Rolled, info.RollReason, err = l.append(a)
	if err != nil {
		return info, err
	}
	if err := l.updateProducers(data, hs); err != nil {
		return info, err
	}
	info.FirstOffset, info.LastOffset = hs[0].BaseOffset, hs[len(hs)-1].LastOffset()
	return info, nil
}

// append writes one set of batches (offsets assigned) to the active
// segment, rolling first if it must. A set larger than segment.bytes is
// refused: no segment could hold it. It returns the base offset of the
// segment it rolled to (or -1) and why.
func (l *Log) append(a appendSet) (int64, string, error) {
	if int64(len(a.data)) > l.cfg.SegmentBytes {
		return -1, "", fmt.Errorf("%w: message batch size is %d bytes in append to partition %s, which exceeds the maximum configured segment size of %d",
			ErrRecordBatchTooLarge, len(a.data), l.tp, l.cfg.SegmentBytes)
	}
	rolled, reason, err := l.maybeRoll(a)
	if err != nil {
		return rolled, reason, err
	}
	if err := l.active().append(a); err != nil {
		return rolled, reason, err
	}
	l.logEndOffset = a.lastOffset + 1
	l.checkOffsets("appending")
	return rolled, reason, nil
}

// checkProducers runs the idempotent producer checks on a client's batches
// (offsets already assigned) before they are appended. A batch that
// repeats a cached one makes the whole append a duplicate: nothing is
// written and the original offsets are returned, as UnifiedLog does.
func (l *Log) checkProducers(hs []record.BatchHeader, coordinator bool) (AppendInfo, bool, error) {
	ps, err := l.ProducerState()
	if err != nil {
		return AppendInfo{Rolled: -1, FirstOffset: -1, LastOffset: -1}, false, err
	}
	if coordinator {
		for _, h := range hs {
			if e := ps.LastEntry(h.ProducerID); h.ProducerID >= 0 && e != nil && h.ProducerEpoch < e.Epoch {
				return AppendInfo{Rolled: -1, FirstOffset: -1, LastOffset: -1}, false, fmt.Errorf("%w: Epoch of producer %d in %s is %d, which is smaller than the last seen epoch %d",
					ErrInvalidProducerEpoch, h.ProducerID, l.tp, h.ProducerEpoch, e.Epoch)
			}
		}
		return AppendInfo{}, false, nil
	}
	for _, h := range hs {
		if h.ProducerID < 0 || h.Attributes&record.ControlFlagMask != 0 {
			continue
		}
		lastSeq := lastSequence(h.BaseSequence, h.LastOffsetDelta)
		if e := ps.LastEntry(h.ProducerID); e != nil {
			if d, ok := e.findDuplicate(h.ProducerEpoch, h.BaseSequence, lastSeq); ok {
				return AppendInfo{FirstOffset: d.FirstOffset, LastOffset: d.LastOffset, MaxTimestamp: d.Timestamp,
					Records: int(d.LastOffset - d.FirstOffset + 1), Rolled: -1, Duplicate: true}, true, nil
			}
		}
	}
	// Batches of one append are checked in order, each against the state
	// the earlier ones leave: on a failure nothing is appended and the
	// state is rebuilt from the log.
	for i, h := range hs {
		if h.ProducerID < 0 || h.Attributes&record.ControlFlagMask != 0 {
			continue
		}
		if err := ps.Check(l.tp, h.ProducerID, h.ProducerEpoch, h.BaseSequence, h.BaseOffset); err != nil {
			if i > 0 {
				l.forgetProducerState()
			}
			return AppendInfo{Rolled: -1, FirstOffset: -1, LastOffset: -1}, false, err
		}
		if len(hs) > 1 {
			ps.Update(h.ProducerID, h.ProducerEpoch, batchMetadata(h))
		}
	}
	if len(hs) > 1 {
		l.forgetProducerState() // updateProducers records them after the append
	}
	return AppendInfo{}, false, nil
}

// updateProducers records appended batches (data holds them, in order)
// in the producer state; a marker that completes an aborted transaction
// adds its entry to the active segment's transaction index. A state not
// built yet will be built from the log, these batches included (an append
// with transactional batches builds it first).
func (l *Log) updateProducers(data []byte, hs []record.BatchHeader) error {
	ps := l.producers
	if ps == nil {
		return nil
	}
	pos := 0
	for _, h := range hs {
		size := h.SizeInBytes()
		var marker *record.EndTxnMarker
		if h.IsControl() && h.ProducerID >= 0 {
			mk, err := parseMarker(data[pos : pos+size])
			if err != nil {
				return err
			}
			marker = mk
		}
		pos += size
		c, ok := ps.appendBatch(h, marker)
		if !ok || !c.Aborted {
			continue
		}
		a := AbortedTxn{ProducerID: c.ProducerID, FirstOffset: c.FirstOffset, LastOffset: c.LastOffset, LastStableOffset: ps.lastStableOffsetAfter(c)}
		if err := l.active().txnIndex.append(a); err != nil {
			return err
		}
	}
	return nil
}

// hasTxnBatches: some batch is transactional or a control batch.
func hasTxnBatches(hs []record.BatchHeader) bool {
	for _, h := range hs {
		if h.IsTransactional() || h.IsControl() {
			return true
		}
	}
	return false
}

// parseMarker reads a control batch's transaction marker, nil if it holds
// another control record.
func parseMarker(batch []byte) (*record.EndTxnMarker, error) {
	b, _, err := record.Decode(batch)
	if err != nil {
		return nil, err
	}
	if len(b.Records) == 0 {
		return nil, nil
	}
	m, err := record.ParseEndTxnMarker(b.Records[0].Key, b.Records[0].Value)
	if err != nil {
		return nil, nil
	}
	return &m, nil
}

func batchMetadata(h record.BatchHeader) BatchMetadata {
	last := lastSequence(h.BaseSequence, h.LastOffsetDelta)
	if h.BaseSequence == record.NoSequence {
		last = record.NoSequence // DefaultRecordBatch.lastSequence
	}
	return BatchMetadata{FirstSeq: h.BaseSequence, LastSeq: last,
		FirstOffset: h.BaseOffset, LastOffset: h.LastOffset(), Timestamp: h.MaxTimestamp}
}
