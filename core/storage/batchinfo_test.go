package storage

import (
	"errors"
	"testing"
	"unsafe"
)

// A week of an idle cluster's metadata log is 1.2 million batches a
// replica, each with an entry in its segment's directory: the entry stays
// 20 bytes (a BatchInfo was 64, with the max timestamp and the producer
// fields that are now read from the file). A field added here costs 1.2
// million times its size a replica a week.
func TestBatchEntryIs20Bytes(t *testing.T) {
	if n := unsafe.Sizeof(batchEntry{}); n != 20 {
		t.Fatalf("batchEntry is %d bytes, want 20", n)
	}
}

// The header fields BatchInfo leaves out are read from the batch's bytes
// in the .log file.
func TestSegmentHeaderReadsWhatBatchInfoLeavesOut(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(2), 3)
	mustLeaderAppend(t, l, idemBatch(5, 1, 7, 3), 3)
	seg := l.Segments()[0]
	if seg.NumBatches() != 2 {
		t.Fatalf("%d batches, want 2", seg.NumBatches())
	}
	b := seg.Batch(1)
	if b.BaseOffset != 2 || b.LastOffset != 4 || b.Epoch != 3 || b.RecordCount != 3 || int64(b.Position) != int64(seg.Batch(0).Size) || b.End() != seg.Size {
		t.Fatalf("second batch %+v in a segment of %d bytes", b, seg.Size)
	}
	h, err := seg.Header(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.BaseOffset != 2 || h.ProducerID != 5 || h.ProducerEpoch != 1 || h.BaseSequence != 7 || h.MaxTimestamp != 1000 {
		t.Fatalf("header %+v", h)
	}
	checkInvariants(t, l)

	// A file cut under the log (its process gone): the batch is not there.
	if err := d.Truncate(seg.Path, int64(b.Position)+10); err != nil {
		t.Fatal(err)
	}
	if _, err := seg.Header(b); !errors.Is(err, ErrSegmentShorterThanIndex) {
		t.Fatalf("Header of a batch past the file's end: %v, want ErrSegmentShorterThanIndex", err)
	}
}
