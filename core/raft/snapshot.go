package raft

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"kafkascope/core/event"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// SnapshotID names a snapshot (KIP-630): it holds the state of every entry
// below EndOffset, whose last entry was written in Epoch. Kafka orders
// snapshot ids like OffsetAndEpoch: by epoch, then offset.
type SnapshotID struct {
	EndOffset int64
	Epoch     int32
}

// noSnapshot is the "none" value on the wire (-1, -1).
var noSnapshot = SnapshotID{EndOffset: -1, Epoch: -1}

// String renders the id as (endOffset,epoch), as event.SnapshotID does.
func (id SnapshotID) String() string { return event.SnapshotID(id).String() }

// less orders ids as OffsetAndEpoch.compareTo does (OffsetAndEpoch.java:63-67).
func (id SnapshotID) less(o SnapshotID) bool {
	if id.Epoch != o.Epoch {
		return id.Epoch < o.Epoch
	}
	return id.EndOffset < o.EndOffset
}

// Snapshot file names (snapshot/Snapshots.java): the end offset padded to
// 20 digits, a dash, the epoch padded to 10, then ".checkpoint". A snapshot
// being written or downloaded is "<id>-<random>.checkpoint.part"
// (Files.createTempFile with that prefix and suffix); one marked for
// deletion ends ".checkpoint.deleted".
const (
	snapshotSuffix = ".checkpoint"
	partialSuffix  = ".checkpoint.part"
	deletedSuffix  = ".checkpoint.deleted"
)

// SnapshotFileName is the file name of a frozen snapshot.
func SnapshotFileName(id SnapshotID) string {
	return fmt.Sprintf("%020d-%010d%s", id.EndOffset, id.Epoch, snapshotSuffix)
}

// parseSnapshotFileName reads a snapshot id from a file name, reporting
// whether it is partial or deleted (Snapshots.parse).
func parseSnapshotFileName(name string) (id SnapshotID, partial, deleted, ok bool) {
	switch {
	case strings.HasSuffix(name, partialSuffix):
		partial = true
	case strings.HasSuffix(name, deletedSuffix):
		deleted = true
	case !strings.HasSuffix(name, snapshotSuffix):
		return id, false, false, false
	}
	if len(name) < 31 || name[20] != '-' {
		return id, false, false, false
	}
	off, err1 := strconv.ParseInt(name[:20], 10, 64)
	ep, err2 := strconv.ParseInt(name[21:31], 10, 32)
	if err1 != nil || err2 != nil || off < 0 || ep < 0 {
		return id, false, false, false
	}
	return SnapshotID{EndOffset: off, Epoch: int32(ep)}, partial, deleted, true
}

// encodeSnapshot lays a snapshot out as RecordsSnapshotWriter does
// (snapshot/RecordsSnapshotWriter.java:73-80, 118-124, 215-250): a
// control batch with the SnapshotHeaderRecord at offset 0, the payloads in
// data batches from offset 1 (at most MaxBatchSizeBytes each), and a
// control batch with the SnapshotFooterRecord. Every batch carries the
// snapshot's epoch; offsets count within the snapshot, not the log. With
// kraft.version 0 (static voters) Kafka writes no KRaftVersion or Voters
// records after the header.
func encodeSnapshot(id SnapshotID, nowMs, lastContainedLogTimestamp int64, payloads [][]byte) []byte {
	out := controlBatch(0, id.Epoch, nowMs, ControlSnapshotHeader,
		SnapshotHeaderRecord{LastContainedLogTimestamp: lastContainedLogTimestamp}.Encode())
	next := int64(1)
	for start := 0; start < len(payloads); {
		end, size := start, 0
		for end < len(payloads) && (end == start || size+len(payloads[end])+recordOverhead <= MaxBatchSizeBytes) {
			size += len(payloads[end]) + recordOverhead
			end++
		}
		out = append(out, dataBatch(next, id.Epoch, nowMs, payloads[start:end])...)
		next += int64(end - start)
		start = end
	}
	return append(out, controlBatch(next, id.Epoch, nowMs, ControlSnapshotFooter, SnapshotFooterRecord{}.Encode())...)
}

// recordOverhead is a generous bound on a record's bytes beyond its value.
const recordOverhead = 32

// decodedSnapshot is a snapshot file read back.
type decodedSnapshot struct {
	header   SnapshotHeaderRecord
	payloads [][]byte
}

// decodeSnapshot reads a snapshot file and checks its frame: header first,
// footer last, control records only there.
func decodeSnapshot(data []byte) (decodedSnapshot, error) {
	var s decodedSnapshot
	var batches []record.Batch
	for len(data) > 0 {
		b, n, err := record.Decode(data)
		if err != nil {
			return s, fmt.Errorf("snapshot batch %d: %w", len(batches), err)
		}
		batches = append(batches, b)
		data = data[n:]
	}
	if len(batches) < 2 {
		return s, fmt.Errorf("snapshot has %d batches; needs a header and a footer", len(batches))
	}
	ctl := func(b record.Batch, want ControlType) ([]byte, error) {
		if !b.IsControl() || len(b.Records) != 1 {
			return nil, fmt.Errorf("expected a %s control batch", want)
		}
		t, err := record.ParseControlKey(b.Records[0].Key)
		if err != nil {
			return nil, err
		}
		if t != want {
			return nil, fmt.Errorf("expected %s, found %s", want, t)
		}
		return b.Records[0].Value, nil
	}
	hv, err := ctl(batches[0], ControlSnapshotHeader)
	if err != nil {
		return s, err
	}
	if s.header, err = DecodeSnapshotHeaderRecord(hv); err != nil {
		return s, err
	}
	fv, err := ctl(batches[len(batches)-1], ControlSnapshotFooter)
	if err != nil {
		return s, err
	}
	if _, err := DecodeSnapshotFooterRecord(fv); err != nil {
		return s, err
	}
	for _, b := range batches[1 : len(batches)-1] {
		if b.IsControl() {
			return s, fmt.Errorf("control batch inside a snapshot at offset %d", b.BaseOffset)
		}
		for _, r := range b.Records {
			s.payloads = append(s.payloads, r.Value)
		}
	}
	return s, nil
}

// snapshotDownload is a snapshot being fetched with FetchSnapshot: its
// partial file grows until it has Size bytes, then it is frozen (fsynced
// and renamed to its final name).
type snapshotDownload struct {
	id      SnapshotID
	tmpPath string
	size    int64
}

// abort deletes the partial file (FileRawSnapshotWriter.close without freeze).
func (d *snapshotDownload) abort(disk *storage.Disk) {
	if disk.Exists(d.tmpPath) {
		_ = disk.Remove(d.tmpPath)
	}
}

// partialPath names a partial snapshot file with a random part, as
// Files.createTempFile does, drawn from the node's PRNG stream.
func partialPath(dir string, id SnapshotID, random uint64) string {
	base := strings.TrimSuffix(SnapshotFileName(id), snapshotSuffix)
	return path.Join(dir, fmt.Sprintf("%s-%d%s", base, random>>1, partialSuffix))
}
