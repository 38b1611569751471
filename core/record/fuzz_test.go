package record

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to every reader in the package. None may
// panic, and they must agree: whatever Decode accepts re-encodes to exactly
// the bytes it consumed and passes Validate and Scan; whatever Validate
// accepts, Decode accepts whole; Scan's prefix is made only of batches
// ParseHeader can read.
//
// Random bytes almost never carry a matching CRC, which would keep the
// fuzzer out of the record parser, so each input is also checked with the
// CRC of its first batch repaired.
func FuzzDecode(f *testing.F) {
	seg, _ := segment()
	seeds := [][]byte{
		unhex(f, message1Hex),
		threeRecordBatch(),
		Build(1<<40, 3, ProducerInfo{ID: 7, Epoch: 1, BaseSequence: 5}, sampleRecords()),
		(&Batch{BaseOffset: 9, LastOffsetDelta: 3}).AppendTo(nil),
		seg,
		seg[:len(seg)-3],
		{},
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReaders(t, data)
		if len(data) >= HeaderSize {
			fixed := bytes.Clone(data)
			fixCRC(fixed)
			checkReaders(t, fixed)
		}
	})
}

func checkReaders(t *testing.T, data []byte) {
	{
		orig := bytes.Clone(data)
		defer func() {
			if !bytes.Equal(data, orig) {
				t.Fatal("a reader modified its input")
			}
		}()

		ParseHeader(data)
		ComputeCRC(data)

		b, n, decErr := Decode(data)
		if decErr == nil {
			if n < HeaderSize || n > len(data) {
				t.Fatalf("Decode consumed %d of %d", n, len(data))
			}
			if re := b.AppendTo(nil); !bytes.Equal(re, data[:n]) {
				t.Fatalf("re-encoding differs:\n in % x\nout % x", data[:n], re)
			}
			if err := Validate(data[:n]); err != nil {
				t.Fatalf("Decode accepted what Validate rejects: %v", err)
			}
		}

		valErr := Validate(data)
		if valErr == nil && (decErr != nil || n != len(data)) {
			t.Fatalf("Validate accepted, Decode: n=%d err=%v", n, decErr)
		}
		if valErr != nil && decErr == nil && n == len(data) {
			t.Fatalf("Decode accepted all of it, Validate: %v", valErr)
		}

		last := -1
		vb, scanErr := Scan(data, func(pos int, h BatchHeader) bool {
			if pos <= last {
				t.Fatalf("Scan went backwards: %d after %d", pos, last)
			}
			last = pos
			if hh, err := ParseHeader(data[pos:]); err != nil || hh != h {
				t.Fatalf("Scan passed a header ParseHeader disagrees with: %v", err)
			}
			return true
		})
		if vb < 0 || vb > len(data) {
			t.Fatalf("validBytes %d of %d", vb, len(data))
		}
		if (scanErr == nil) != (vb == len(data)) {
			t.Fatalf("Scan: validBytes %d of %d with err %v", vb, len(data), scanErr)
		}
		if scanErr != nil && !errors.Is(scanErr, ErrTruncated) && !errors.Is(scanErr, ErrCorrupt) {
			t.Fatalf("Scan error is neither truncated nor corrupt: %v", scanErr)
		}
		if decErr == nil && vb < n {
			t.Fatalf("Decode accepted %d bytes but Scan kept only %d", n, vb)
		}
	}
}
