package record

import (
	"bytes"
	"hash/crc32"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// franz-go's kmsg is an independent implementation of the same wire format;
// these tests check that each side reads what the other writes.

// kmsgRecords splits a kmsg batch's Records bytes into kmsg.Records. kmsg's
// Record.ReadFrom reads one record and ignores what follows, so each record's
// extent is found by re-encoding it with kmsg itself.
func kmsgRecords(t *testing.T, kb *kmsg.RecordBatch) []kmsg.Record {
	t.Helper()
	var out []kmsg.Record
	rest := kb.Records
	for i := int32(0); i < kb.NumRecords; i++ {
		var r kmsg.Record
		if err := r.ReadFrom(rest); err != nil {
			t.Fatalf("kmsg record %d: %v", i, err)
		}
		n := len(r.AppendTo(nil))
		if !bytes.Equal(r.AppendTo(nil), rest[:n]) {
			t.Fatalf("kmsg record %d does not re-encode to its bytes", i)
		}
		rest = rest[n:]
		out = append(out, r)
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left after kmsg records", len(rest))
	}
	return out
}

func TestKmsgReadsOurBatches(t *testing.T) {
	batches := []Batch{
		{BaseOffset: 100, PartitionLeaderEpoch: 7, Attributes: TransactionalFlagMask, LastOffsetDelta: 4,
			BaseTimestamp: 1000, MaxTimestamp: 1020, ProducerID: 42, ProducerEpoch: 3, BaseSequence: 10},
		{BaseOffset: 0, LastOffsetDelta: 0, BaseTimestamp: 5, MaxTimestamp: 5, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1},
	}
	batches[0].Records = sampleRecords()
	for i := range batches[0].Records {
		batches[0].Records[i].Offset = 100 + int64(i)
	}
	batches[0].Records[2].Timestamp = 1 // negative delta
	for bi, b := range batches {
		enc := b.AppendTo(nil)
		var kb kmsg.RecordBatch
		if err := kb.ReadFrom(enc); err != nil {
			t.Fatal(err)
		}
		if kb.FirstOffset != b.BaseOffset || kb.Length != int32(len(enc)-LogOverhead) ||
			kb.PartitionLeaderEpoch != b.PartitionLeaderEpoch || kb.Magic != 2 ||
			kb.Attributes != b.Attributes || kb.LastOffsetDelta != b.LastOffsetDelta ||
			kb.FirstTimestamp != b.BaseTimestamp || kb.MaxTimestamp != b.MaxTimestamp ||
			kb.ProducerID != b.ProducerID || kb.ProducerEpoch != b.ProducerEpoch ||
			kb.FirstSequence != b.BaseSequence || kb.NumRecords != int32(len(b.Records)) {
			t.Fatalf("batch %d: kmsg read %+v from %+v", bi, kb, b)
		}
		if uint32(kb.CRC) != crc32cRef(enc[21:]) {
			t.Fatalf("batch %d: stored CRC %#x is not CRC-32C of bytes 21..", bi, uint32(kb.CRC))
		}
		// kmsg re-encodes our batch to the same bytes.
		if !bytes.Equal(kb.AppendTo(nil), enc) {
			t.Fatalf("batch %d: kmsg re-encoding differs", bi)
		}
		for i, kr := range kmsgRecords(t, &kb) {
			r := b.Records[i]
			if kr.Attributes != 0 || kr.OffsetDelta != int32(r.Offset-b.BaseOffset) ||
				kr.TimestampDelta64 != r.Timestamp-b.BaseTimestamp ||
				!reflect.DeepEqual(kr.Key, r.Key) || !reflect.DeepEqual(kr.Value, r.Value) ||
				(kr.Key == nil) != (r.Key == nil) || (kr.Value == nil) != (r.Value == nil) ||
				len(kr.Headers) != len(r.Headers) {
				t.Fatalf("batch %d record %d: kmsg %+v, ours %+v", bi, i, kr, r)
			}
			for j, kh := range kr.Headers {
				if kh.Key != r.Headers[j].Key || !reflect.DeepEqual(kh.Value, r.Headers[j].Value) ||
					(kh.Value == nil) != (r.Headers[j].Value == nil) {
					t.Fatalf("record %d header %d: kmsg %+v, ours %+v", i, j, kh, r.Headers[j])
				}
			}
		}
	}
}

// kmsgBatch builds a batch entirely with kmsg: record lengths and the CRC are
// computed here from kmsg's own encodings, with hash/crc32, not by this
// package.
func kmsgBatch(t *testing.T, kb kmsg.RecordBatch, recs []kmsg.Record) []byte {
	t.Helper()
	var body []byte
	for _, r := range recs {
		r.Length = 0
		r.Length = int32(len(r.AppendTo(nil)) - 1) // a zero length varint is one byte
		body = r.AppendTo(body)
	}
	kb.Magic = 2
	kb.Records = body
	kb.NumRecords = int32(len(recs))
	kb.Length = int32(49 + len(body))
	kb.CRC = 0
	enc := kb.AppendTo(nil)
	kb.CRC = int32(crc32.Checksum(enc[21:], crc32.MakeTable(crc32.Castagnoli)))
	return kb.AppendTo(nil)
}

func TestWeReadKmsgBatches(t *testing.T) {
	recs := []kmsg.Record{
		{TimestampDelta64: 0, OffsetDelta: 0, Key: []byte("key"), Value: []byte("value")},
		{TimestampDelta64: -300, OffsetDelta: 1, Key: nil, Value: []byte("null key")},
		{TimestampDelta64: 1 << 40, OffsetDelta: 2, Key: []byte("tomb"), Value: nil},
		{TimestampDelta64: 5, OffsetDelta: 7, Key: []byte{}, Value: []byte{},
			Headers: []kmsg.Header{{Key: "a", Value: []byte("1")}, {Key: "n", Value: nil}, {Key: "", Value: []byte{}}}},
		{TimestampDelta64: 6, OffsetDelta: 8, Value: bytes.Repeat([]byte{0xAB}, 70000)},
	}
	enc := kmsgBatch(t, kmsg.RecordBatch{
		FirstOffset: 1 << 33, PartitionLeaderEpoch: 12, Attributes: TransactionalFlagMask,
		LastOffsetDelta: 8, FirstTimestamp: 1700000000000, MaxTimestamp: 1700000000000 + 1<<40,
		ProducerID: 5001, ProducerEpoch: 2, FirstSequence: 33,
	}, recs)

	if err := Validate(enc); err != nil {
		t.Fatal(err)
	}
	b, n, err := Decode(enc)
	if err != nil || n != len(enc) {
		t.Fatalf("Decode: %d, %v", n, err)
	}
	if b.BaseOffset != 1<<33 || b.PartitionLeaderEpoch != 12 || !b.IsTransactional() || b.LastOffsetDelta != 8 ||
		b.ProducerID != 5001 || b.ProducerEpoch != 2 || b.BaseSequence != 33 || len(b.Records) != len(recs) {
		t.Fatalf("Decode = %+v", b)
	}
	for i, kr := range recs {
		r := b.Records[i]
		if r.Offset != b.BaseOffset+int64(kr.OffsetDelta) || r.Timestamp != b.BaseTimestamp+kr.TimestampDelta64 ||
			!reflect.DeepEqual(r.Key, kr.Key) || !reflect.DeepEqual(r.Value, kr.Value) ||
			(kr.Key == nil) != (r.Key == nil) || (kr.Value == nil) != (r.Value == nil) || len(r.Headers) != len(kr.Headers) {
			t.Fatalf("record %d: ours %+v, kmsg %+v", i, r, kr)
		}
		for j, kh := range kr.Headers {
			if r.Headers[j].Key != kh.Key || !reflect.DeepEqual(r.Headers[j].Value, kh.Value) ||
				(kh.Value == nil) != (r.Headers[j].Value == nil) {
				t.Fatalf("record %d header %d", i, j)
			}
		}
	}
	// Our encoder reproduces kmsg's bytes exactly.
	if !bytes.Equal(b.AppendTo(nil), enc) {
		t.Fatal("our re-encoding of a kmsg batch differs")
	}
	var count int
	if vb, err := Scan(enc, func(int, BatchHeader) bool { count++; return true }); vb != len(enc) || err != nil || count != 1 {
		t.Fatalf("Scan = %d, %v, %d batches", vb, err, count)
	}
}

// The one-record batch Build writes is also what kmsg writes for the same
// fields, byte for byte.
func TestBuildMatchesKmsg(t *testing.T) {
	const ts = 1704067200000
	ours := Build(0, 0, NoProducer(), []Record{{Timestamp: ts, Value: []byte("Message1")}})
	theirs := kmsgBatch(t, kmsg.RecordBatch{
		FirstTimestamp: ts, MaxTimestamp: ts, ProducerID: -1, ProducerEpoch: -1, FirstSequence: -1,
	}, []kmsg.Record{{Value: []byte("Message1")}})
	if !bytes.Equal(ours, theirs) {
		t.Fatalf("ours\n% x\nkmsg\n% x", ours, theirs)
	}
	if !bytes.Equal(ours, unhex(t, message1Hex)) {
		t.Fatal("differs from the hand-derived vector")
	}
}
