package record

import (
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
)

// crc32cRef is a bitwise CRC-32C (reflected polynomial 0x82F63B78), written
// from the definition so that tests do not check the package's CRC with the
// very same library call it uses.
func crc32cRef(p []byte) uint32 {
	crc := ^uint32(0)
	for _, b := range p {
		crc ^= uint32(b)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x82F63B78
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

// unhex decodes hex written with optional spaces and newlines.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixCRC recomputes the stored CRC of the batch at the front of buf, for
// tests that damage a batch on purpose but want to get past the CRC check.
func fixCRC(buf []byte) {
	binary.BigEndian.PutUint32(buf[crcOffset:], ComputeCRC(buf))
}

// rawBatch wraps hand-made record bytes in a valid header with the given
// recordCount and a correct batchLength and CRC.
func rawBatch(count int32, records []byte) []byte {
	b := Batch{BaseTimestamp: 1000, MaxTimestamp: 1000, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}
	buf := b.AppendTo(nil)
	buf = append(buf, records...)
	binary.BigEndian.PutUint32(buf[lengthOffset:], uint32(len(buf)-LogOverhead))
	binary.BigEndian.PutUint32(buf[recordsCountOffset:], uint32(count))
	fixCRC(buf)
	return buf
}

func sampleRecords() []Record {
	return []Record{
		{Timestamp: 1000, Key: []byte("k0"), Value: []byte("v0")},
		{Timestamp: 1005, Key: nil, Value: []byte("no key")},
		{Timestamp: 999, Key: []byte("tombstone"), Value: nil},
		{Timestamp: 1010, Key: []byte{}, Value: []byte{}},
		{Timestamp: 1020, Key: []byte("h"), Value: []byte("with headers"), Headers: []Header{
			{Key: "trace", Value: []byte("abc")},
			{Key: "null", Value: nil},
			{Key: "empty", Value: []byte{}},
			{Key: "", Value: []byte("empty key")},
		}},
	}
}
