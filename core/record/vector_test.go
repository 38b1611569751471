package record

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The CRC-32C check value from Kafka's Crc32CTest.testValue, checked against
// both the reference and the table this package uses.
func TestCRC32CKafkaVector(t *testing.T) {
	in := []byte("Some String")
	if got := crc32cRef(in); got != 608512271 {
		t.Fatalf("reference crc32c = %d, want 608512271", got)
	}
	if got := crc32.Checksum(in, castagnoli); got != 608512271 {
		t.Fatalf("package crc32c = %d, want 608512271", got)
	}
}

// message1Hex is a one-record batch derived by hand from the layout:
// baseOffset 0, partitionLeaderEpoch 0, no producer, attributes 0, record
// with null key, value "Message1", timestamp 1704067200000 (0x18CC251F400,
// 2024-01-01T00:00:00Z). The record body is 14 bytes
// (attrs, tsDelta, offDelta, keyLen -1, valueLen 8, 8 value bytes, 0 headers),
// so its length varint is zigzag(14) = 0x1c and the batch is 61+15 = 76 bytes,
// batchLength 64. The CRC, 0x482be220, was computed outside Go with a bitwise
// CRC-32C over bytes 21..76 and is re-checked below three ways.
const message1Hex = `
0000000000000000  00000040  00000000  02  482be220
0000  00000000  0000018cc251f400  0000018cc251f400
ffffffffffffffff  ffff  ffffffff  00000001
1c 00 00 00 01 10 4d65737361676531 00`

func TestHandDerivedVector(t *testing.T) {
	want := unhex(t, message1Hex)
	const ts = 1704067200000
	got := Build(0, 0, NoProducer(), []Record{{Timestamp: ts, Value: []byte("Message1")}})
	if !bytes.Equal(got, want) {
		t.Fatalf("Build =\n% x\nwant\n% x", got, want)
	}
	const wantCRC = 0x482be220
	if c := crc32cRef(want[21:]); c != wantCRC {
		t.Fatalf("reference crc32c = %#x", c)
	}
	if c := crc32.Checksum(want[21:], crc32.MakeTable(crc32.Castagnoli)); c != wantCRC {
		t.Fatalf("hash/crc32 castagnoli = %#x", c)
	}
	if c := ComputeCRC(want); c != wantCRC {
		t.Fatalf("ComputeCRC = %#x", c)
	}

	// kmsg reads the same fields and CRC out of the bytes.
	var kb kmsg.RecordBatch
	if err := kb.ReadFrom(want); err != nil {
		t.Fatal(err)
	}
	if uint32(kb.CRC) != wantCRC || kb.Length != 64 || kb.Magic != 2 || kb.NumRecords != 1 ||
		kb.FirstTimestamp != ts || kb.MaxTimestamp != ts || kb.ProducerID != -1 ||
		kb.ProducerEpoch != -1 || kb.FirstSequence != -1 || kb.LastOffsetDelta != 0 {
		t.Fatalf("kmsg read %+v", kb)
	}
	var kr kmsg.Record
	if err := kr.ReadFrom(kb.Records); err != nil {
		t.Fatal(err)
	}
	if kr.Key != nil || string(kr.Value) != "Message1" || kr.TimestampDelta64 != 0 || kr.OffsetDelta != 0 || kr.Length != 14 {
		t.Fatalf("kmsg record %+v", kr)
	}

	b, n, err := Decode(want)
	if err != nil || n != len(want) {
		t.Fatalf("Decode: n=%d err=%v", n, err)
	}
	if b.CRC != wantCRC || len(b.Records) != 1 || b.Records[0].Key != nil ||
		string(b.Records[0].Value) != "Message1" || b.Records[0].Timestamp != ts || b.Records[0].Offset != 0 {
		t.Fatalf("Decode = %+v", b)
	}
}

// Kafka's MemoryRecordsTest.testChecksum pins the CRC of this magic v2,
// uncompressed batch at 3851219455. It is built by MemoryRecords.withRecords:
// base offset 0, CreateTime, no producer, not transactional. Its second
// record's timestamp is below the first's, so it also pins a negative
// timestampDelta (1234 - 283843 = -282609).
func TestKafkaChecksumVector(t *testing.T) {
	buf := Build(0, NoPartitionLeaderEpoch, NoProducer(), []Record{
		{Timestamp: 283843, Key: []byte("key1"), Value: []byte("value1")},
		{Timestamp: 1234, Key: []byte("key2"), Value: []byte("value2")},
	})
	h, err := ParseHeader(buf)
	if err != nil {
		t.Fatal(err)
	}
	if h.CRC != 3851219455 {
		t.Fatalf("crc = %d, want 3851219455", h.CRC)
	}
	if h.BaseTimestamp != 283843 || h.MaxTimestamp != 283843 || h.LastOffsetDelta != 1 {
		t.Fatalf("header %+v", h)
	}
	b, _, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if b.Records[1].Timestamp != 1234 {
		t.Fatalf("second timestamp %d", b.Records[1].Timestamp)
	}
	// The partition leader epoch is outside the CRC: any epoch gives the same one.
	SetPartitionLeaderEpoch(buf, 67)
	if ComputeCRC(buf) != 3851219455 || binary.BigEndian.Uint32(buf[crcOffset:]) != 3851219455 {
		t.Fatal("epoch changed the CRC")
	}
}
