package record

import (
	"bytes"
	"errors"
	"testing"
)

// segment is three batches back to back, as a log segment holds them.
func segment() (seg []byte, starts []int) {
	for i, n := range []int{3, 1, 4} {
		starts = append(starts, len(seg))
		seg = append(seg, Build(int64(10*i), 1, NoProducer(), sampleRecords()[:n])...)
	}
	return seg, starts
}

type seen struct {
	pos  int
	base int64
}

func scanAll(buf []byte) ([]seen, int, error) {
	var got []seen
	vb, err := Scan(buf, func(pos int, h BatchHeader) bool {
		got = append(got, seen{pos, h.BaseOffset})
		return true
	})
	return got, vb, err
}

func TestScanWholeSegment(t *testing.T) {
	seg, starts := segment()
	got, vb, err := scanAll(seg)
	if err != nil || vb != len(seg) {
		t.Fatalf("Scan = %d, %v", vb, err)
	}
	want := []seen{{starts[0], 0}, {starts[1], 10}, {starts[2], 20}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("batch %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

func TestScanEmpty(t *testing.T) {
	if vb, err := Scan(nil, func(int, BatchHeader) bool { t.Fatal("called"); return true }); vb != 0 || err != nil {
		t.Fatalf("Scan(nil) = %d, %v", vb, err)
	}
}

// Every possible torn tail, from one byte of the last batch to all but one,
// reports ErrTruncated and keeps exactly the complete batches.
func TestScanTornTail(t *testing.T) {
	seg, starts := segment()
	last := starts[2]
	for cut := last + 1; cut < len(seg); cut++ {
		got, vb, err := scanAll(seg[:cut])
		if !errors.Is(err, ErrTruncated) || errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut at %d: err = %v, want only ErrTruncated", cut, err)
		}
		if vb != last || len(got) != 2 {
			t.Fatalf("cut at %d: validBytes %d (want %d), %d batches", cut, vb, last, len(got))
		}
	}
}

// A flipped bit anywhere in the CRC-covered part of the middle batch is
// ErrCorrupt, and only the first batch is kept.
func TestScanFlippedByte(t *testing.T) {
	seg, starts := segment()
	for i := starts[1] + crcOffset; i < starts[2]; i++ {
		bad := bytes.Clone(seg)
		bad[i] ^= 0x01
		got, vb, err := scanAll(bad)
		if !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTruncated) {
			t.Fatalf("flip at %d: err = %v, want ErrCorrupt", i, err)
		}
		if vb != starts[1] || len(got) != 1 {
			t.Fatalf("flip at %d: validBytes %d, %d batches", i, vb, len(got))
		}
	}
}

func TestScanBadMagicAndLength(t *testing.T) {
	seg, starts := segment()

	bad := bytes.Clone(seg)
	bad[starts[1]+magicOffset] = 1
	if _, vb, err := scanAll(bad); vb != starts[1] || !errors.Is(err, ErrMagic) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("bad magic: %d, %v", vb, err)
	}

	// Kafka's DefaultRecordBatchTest.testInvalidRecordSize sets batchLength to 10.
	bad = bytes.Clone(seg)
	bad[starts[1]+lengthOffset+3], bad[starts[1]+lengthOffset+2] = 10, 0
	if _, vb, err := scanAll(bad); vb != starts[1] || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("bad length: %d, %v", vb, err)
	}

	// An impossible length is corrupt even when the buffer ends right after it.
	if _, vb, err := scanAll(bad[:starts[1]+LogOverhead]); vb != starts[1] || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("bad length, short: %d, %v", vb, err)
	}

	// Zeroes after the last batch (a preallocated file) read as corrupt, not torn.
	withZeros := append(bytes.Clone(seg), make([]byte, 100)...)
	if _, vb, err := scanAll(withZeros); vb != len(seg) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("zero tail: %d, %v", vb, err)
	}
}

func TestScanStopsWhenFnSaysSo(t *testing.T) {
	seg, starts := segment()
	calls := 0
	vb, err := Scan(seg, func(pos int, h BatchHeader) bool {
		calls++
		return pos < starts[1]
	})
	if err != nil || calls != 2 || vb != starts[2] {
		t.Fatalf("Scan = %d, %v after %d calls; want %d, nil, 2", vb, err, calls, starts[2])
	}
}

// Scan checks CRCs, not records, so a compressed batch (which Decode cannot
// read) still passes, as it does in Kafka's log recovery.
func TestScanAcceptsCompressedBatch(t *testing.T) {
	buf := rawBatch(1, []byte("pretend this is gzip"))
	buf[attributesOffset+1] = CompressionGzip
	fixCRC(buf)
	if vb, err := Scan(buf, func(int, BatchHeader) bool { return true }); vb != len(buf) || err != nil {
		t.Fatalf("Scan = %d, %v", vb, err)
	}
	if _, _, err := Decode(buf); !errors.Is(err, ErrUnsupportedCompression) {
		t.Fatalf("Decode err = %v", err)
	}
	if err := Validate(buf); !errors.Is(err, ErrUnsupportedCompression) {
		t.Fatalf("Validate err = %v", err)
	}
}
