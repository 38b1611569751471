package record

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestParseHeader(t *testing.T) {
	buf := Build(1234567, 15, ProducerInfo{ID: 23423, Epoch: 145, BaseSequence: 983}, []Record{
		{Timestamp: 1, Key: []byte("a"), Value: []byte("v")},
		{Timestamp: 2, Key: []byte("b"), Value: []byte("v")},
	})
	// Only the header is needed, not the records.
	h, err := ParseHeader(buf[:HeaderSize])
	if err != nil {
		t.Fatal(err)
	}
	want := BatchHeader{
		BaseOffset: 1234567, BatchLength: int32(len(buf) - 12), PartitionLeaderEpoch: 15, Magic: 2,
		CRC: ComputeCRC(buf), LastOffsetDelta: 1, BaseTimestamp: 1, MaxTimestamp: 2,
		ProducerID: 23423, ProducerEpoch: 145, BaseSequence: 983, RecordCount: 2,
	}
	if h != want {
		t.Fatalf("ParseHeader =\n%+v\nwant\n%+v", h, want)
	}
	// As in Kafka's buildDefaultRecordBatchWithProducerId.
	if h.LastOffset() != 1234568 || h.NextOffset() != 1234569 || h.SizeInBytes() != len(buf) ||
		h.LastSequence() != 984 || h.IsTransactional() || h.IsControl() ||
		h.TimestampType() != CreateTime || h.CompressionCodec() != "none" {
		t.Fatalf("derived values wrong for %+v", h)
	}
	if _, ok := h.DeleteHorizonMs(); ok {
		t.Fatal("no delete horizon expected")
	}
}

func TestParseHeaderErrors(t *testing.T) {
	buf := Build(0, 0, NoProducer(), sampleRecords())
	if _, err := ParseHeader(buf[:HeaderSize-1]); !errors.Is(err, ErrTruncated) {
		t.Errorf("short: %v", err)
	}
	bad := bytes.Clone(buf)
	bad[magicOffset] = 0
	if _, err := ParseHeader(bad); !errors.Is(err, ErrMagic) {
		t.Errorf("magic: %v", err)
	}
	bad = bytes.Clone(buf)
	bad[lengthOffset], bad[lengthOffset+3] = 0, MinBatchLength-1
	bad[lengthOffset+1], bad[lengthOffset+2] = 0, 0
	if _, err := ParseHeader(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("length: %v", err)
	}
	bad[lengthOffset] = 0x80 // negative
	if _, err := ParseHeader(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("negative length: %v", err)
	}
	// An empty batch has exactly the minimum length and is fine.
	empty := (&Batch{}).AppendTo(nil)
	if h, err := ParseHeader(empty); err != nil || h.BatchLength != MinBatchLength || h.SizeInBytes() != HeaderSize {
		t.Errorf("empty batch: %+v, %v", h, err)
	}
}

func TestAttributeAccessors(t *testing.T) {
	h := BatchHeader{Attributes: TransactionalFlagMask | ControlFlagMask | TimestampTypeMask | DeleteHorizonFlagMask, BaseTimestamp: 99}
	if !h.IsTransactional() || !h.IsControl() || h.TimestampType() != LogAppendTime {
		t.Fatalf("flags: %+v", h)
	}
	if dh, ok := h.DeleteHorizonMs(); !ok || dh != 99 {
		t.Fatalf("delete horizon %d %v", dh, ok)
	}
	for id, name := range []string{"none", "gzip", "snappy", "lz4", "zstd", "unknown", "unknown", "unknown"} {
		h := BatchHeader{Attributes: int16(id) | TransactionalFlagMask}
		if got := h.CompressionCodec(); got != name {
			t.Errorf("codec %d = %q, want %q", id, got, name)
		}
		b := Batch{Attributes: h.Attributes}
		if got := b.CompressionCodec(); got != name {
			t.Errorf("Batch codec %d = %q, want %q", id, got, name)
		}
	}
	b := Batch{BaseOffset: 10, LastOffsetDelta: 4, Attributes: ControlFlagMask}
	if b.LastOffset() != 14 || b.NextOffset() != 15 || !b.IsControl() || b.IsTransactional() || b.TimestampType() != CreateTime {
		t.Fatalf("Batch accessors wrong for %+v", b)
	}
}

// Kafka's buildDefaultRecordBatchWithSequenceWrapAround: base sequence
// MaxInt32-1 with three records ends at sequence 0.
func TestLastSequenceWraps(t *testing.T) {
	h := BatchHeader{BaseSequence: math.MaxInt32 - 1, LastOffsetDelta: 2}
	if got := h.LastSequence(); got != 0 {
		t.Fatalf("LastSequence = %d, want 0", got)
	}
	if IncrementSequence(math.MaxInt32-1, 1) != math.MaxInt32 || IncrementSequence(math.MaxInt32, 1) != 0 {
		t.Fatal("IncrementSequence")
	}
	if (BatchHeader{BaseSequence: NoSequence, LastOffsetDelta: 5}).LastSequence() != NoSequence {
		t.Fatal("no sequence must stay NoSequence")
	}
}

// SetBaseOffset and SetPartitionLeaderEpoch are how a leader stamps a
// produced batch; neither field is under the CRC, so the batch stays valid
// and its records move with the base offset. (Kafka's testSetLastOffset and
// testSetPartitionLeaderEpoch.)
func TestSetBaseOffsetAndEpochKeepCRC(t *testing.T) {
	buf := threeRecordBatch()
	crc := ComputeCRC(buf)
	SetBaseOffset(buf, 498)
	SetPartitionLeaderEpoch(buf, 500)
	if err := Validate(buf); err != nil {
		t.Fatal(err)
	}
	if ComputeCRC(buf) != crc {
		t.Fatal("CRC changed")
	}
	b, _, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if b.BaseOffset != 498 || b.LastOffset() != 500 || b.PartitionLeaderEpoch != 500 {
		t.Fatalf("header %+v", b)
	}
	for i, r := range b.Records {
		if r.Offset != 498+int64(i) {
			t.Fatalf("record %d offset %d", i, r.Offset)
		}
	}
}

// Restamp gives the bytes Build gives for the same records at the new
// time: every timestamp moved by the same amount, the CRC recomputed.
func TestRestampIsBuildAtAnotherTime(t *testing.T) {
	build := func(base int64) []byte {
		return Build(7, 3, NoProducer(), []Record{
			{Timestamp: base, Value: []byte("x")},
			{Timestamp: base + 2, Key: []byte("k"), Value: []byte("y")},
		})
	}
	buf := build(1000)
	Restamp(buf, 1_733_000_000_500)
	if want := build(1_733_000_000_500); !bytes.Equal(buf, want) {
		t.Fatalf("restamped\n%x\nbuilt\n%x", buf, want)
	}
	if err := Validate(buf); err != nil {
		t.Fatal(err)
	}
}

func TestComputeCRCNeverPanics(t *testing.T) {
	buf := threeRecordBatch()
	for n := 0; n <= len(buf); n++ {
		ComputeCRC(buf[:n])
	}
	bad := bytes.Clone(buf)
	bad[lengthOffset] = 0x80
	ComputeCRC(bad)
	bad[lengthOffset] = 0x7f
	ComputeCRC(bad)
}
