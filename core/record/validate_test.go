package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

func threeRecordBatch() []byte {
	// The batch Kafka's DefaultRecordBatchTest uses for its corruption tests.
	return Build(0, NoPartitionLeaderEpoch, NoProducer(), []Record{
		{Timestamp: 1, Key: []byte("a"), Value: []byte("1")},
		{Timestamp: 2, Key: []byte("b"), Value: []byte("2")},
		{Timestamp: 3, Key: []byte("c"), Value: []byte("3")},
	})
}

// expectErr checks that Validate and Decode both fail with want, and that
// ParseHeader-level damage does not make either panic.
func expectErr(t *testing.T, name string, buf []byte, want error) {
	t.Helper()
	if err := Validate(buf); !errors.Is(err, want) {
		t.Errorf("%s: Validate err = %v, want %v", name, err, want)
	}
	if _, _, err := Decode(buf); !errors.Is(err, want) {
		t.Errorf("%s: Decode err = %v, want %v", name, err, want)
	}
}

func TestValidateBatchLevel(t *testing.T) {
	good := threeRecordBatch()
	if err := Validate(good); err != nil {
		t.Fatal(err)
	}

	// Kafka's testInvalidCrc: lastOffsetDelta rewritten without fixing the CRC.
	bad := bytes.Clone(good)
	binary.BigEndian.PutUint32(bad[lastOffsetDeltaOffset:], 23)
	expectErr(t, "crc", bad, ErrCorrupt)

	// Kafka's testInvalidRecordSize: batchLength 10.
	bad = bytes.Clone(good)
	binary.BigEndian.PutUint32(bad[lengthOffset:], 10)
	expectErr(t, "length 10", bad, ErrCorrupt)

	// A batchLength past the end of the buffer is a truncated batch.
	bad = bytes.Clone(good)
	binary.BigEndian.PutUint32(bad[lengthOffset:], uint32(len(good)))
	expectErr(t, "length too big", bad, ErrTruncated)

	bad = bytes.Clone(good)
	bad[magicOffset] = 1
	expectErr(t, "magic", bad, ErrMagic)

	expectErr(t, "cut", good[:len(good)-1], ErrTruncated)
	expectErr(t, "header only partly present", good[:HeaderSize-1], ErrTruncated)
	expectErr(t, "nothing", nil, ErrTruncated)

	// Kafka's testInvalidRecordCountToo{Many,Little}NonCompressedV2: a count of
	// 5 or 2 for 3 records, with a correct CRC.
	for _, n := range []uint32{5, 2, 0, 0xffffffff, 1 << 30} {
		bad = bytes.Clone(good)
		binary.BigEndian.PutUint32(bad[recordsCountOffset:], n)
		fixCRC(bad)
		expectErr(t, "record count", bad, ErrCorrupt)
	}

	// Unknown codec ids 5-7 are corrupt, not merely unsupported.
	bad = bytes.Clone(good)
	bad[attributesOffset+1] |= 0x05
	fixCRC(bad)
	expectErr(t, "codec 5", bad, ErrCorrupt)

	// One produce batch means exactly one batch.
	if err := Validate(append(bytes.Clone(good), 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("trailing byte: %v", err)
	}
}

// Record-level damage inside a batch whose CRC is correct, after Kafka's
// DefaultRecordTest: each is ErrCorrupt, never ErrTruncated, because the
// batch itself is complete.
func TestValidateRecordLevel(t *testing.T) {
	// rec builds a record from its fields with a body length computed from
	// them, plus `extra` added to the length.
	rec := func(extra int32, fields ...[]byte) []byte {
		body := bytes.Join(fields, nil)
		return append(AppendVarint(nil, int32(len(body))+extra), body...)
	}
	v := func(x int32) []byte { return AppendVarint(nil, x) }
	vl := func(x int64) []byte { return AppendVarlong(nil, x) }
	attrs := []byte{0}
	pad := bytes.Repeat([]byte{0}, 100)

	good := rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(0))
	if err := Validate(rawBatch(1, good)); err != nil {
		t.Fatalf("control case: %v", err)
	}

	cases := map[string][]byte{
		// Kafka's testInvalidKeySize / testInvalidValueSize: a length past the record.
		"key size":   rec(0, attrs, vl(2), v(1), v(105), pad[:50]),
		"value size": rec(0, attrs, vl(2), v(1), v(-1), v(105), pad[:50]),
		// testInvalidNumHeaders: -1 headers, and more headers than bytes.
		"num headers -1":        rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(-1)),
		"num headers too large": rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(100), pad[:20]),
		// testInvalidHeaderKey / testNullHeaderKey / testInvalidHeaderValue.
		"header key too long": rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(1), v(105), pad[:20]),
		"null header key":     rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(1), v(-1), v(-1)),
		"header value long":   rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(1), v(1), []byte{'k'}, v(105), pad[:20]),
		// testUnderflowReadingTimestamp / testUnderflowReadingVarlong / testInvalidVarlong.
		"no timestamp":      rec(0, attrs),
		"partial varlong":   rec(0, attrs, vl(156)[:1]),
		"invalid varlong":   rec(0, attrs, bytes.Repeat([]byte{0xff}, 9), []byte{0x80}),
		"length negative":   append(v(-2), pad[:10]...),
		"length past batch": rec(5, attrs, vl(2), v(1), v(-1), v(-1), v(0)),
		"length short":      rec(-1, attrs, vl(2), v(1), v(-1), v(-1), v(0)),
		"bytes left inside": rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(0), []byte{0}),
		// Canonical-form rules (see the package comment).
		"key length -2":       rec(0, attrs, vl(2), v(1), v(-2), v(-1), v(0)),
		"header value -3":     rec(0, attrs, vl(2), v(1), v(-1), v(-1), v(1), v(0), v(-3)),
		"record attributes":   rec(0, []byte{1}, vl(2), v(1), v(-1), v(-1), v(0)),
		"overlong offset":     rec(0, attrs, vl(2), []byte{0x82, 0x00}, v(-1), v(-1), v(0)),
		"empty record body":   rec(0),
		"one byte record len": {0x02},
	}
	for name, r := range cases {
		// A valid record follows the damaged one, so the batch is big enough
		// for its recordCount of 1 and the failure has to come from parsing
		// record 0 itself (not from the count check or from leftover bytes).
		buf := rawBatch(1, append(bytes.Clone(r), good...))
		expectErr(t, name, buf, ErrCorrupt)
		err := Validate(buf)
		if errors.Is(err, ErrTruncated) {
			t.Errorf("%s: record damage must not read as truncation: %v", name, err)
		}
		if err == nil || !strings.Contains(err.Error(), "record 0 of 1") {
			t.Errorf("%s: want a failure in record 0, got %v", name, err)
		}
	}

	// Records left over after recordCount, or too few for it.
	expectErr(t, "extra record", rawBatch(1, append(bytes.Clone(good), good...)), ErrCorrupt)
	expectErr(t, "missing record", rawBatch(3, append(bytes.Clone(good), good...)), ErrCorrupt)
}

// ValidateShallow refuses what Validate refuses at the batch level (the
// CRC covers the records, so damage there is caught too) and accepts a
// batch whose records it does not parse.
func TestValidateShallow(t *testing.T) {
	good := threeRecordBatch()
	if err := ValidateShallow(good); err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Clone(good)
	damaged[len(damaged)-1] ^= 1 // inside the last record: the CRC no longer matches
	bad := map[string][]byte{
		"record damaged": damaged,
		"cut":            good[:len(good)-1],
		"trailing byte":  append(bytes.Clone(good), 0),
		"nothing":        nil,
	}
	count := bytes.Clone(good)
	binary.BigEndian.PutUint32(count[recordsCountOffset:], 1<<30)
	fixCRC(count)
	bad["record count cannot fit"] = count
	for name, buf := range bad {
		if ValidateShallow(buf) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A record that does not parse, under a correct CRC (no leader writes
	// one): only the full validation goes through the records.
	pad := bytes.Repeat([]byte{0}, 10)
	junk := rawBatch(1, append(AppendVarint(nil, -2), pad...))
	if err := ValidateShallow(junk); err != nil {
		t.Errorf("shallow validation parsed the records: %v", err)
	}
	if Validate(junk) == nil {
		t.Error("full validation accepted a record that does not parse")
	}
}
