package record

import "fmt"

// Scan walks the batches concatenated in buf (a segment file), as Kafka's log
// recovery does. For each complete batch whose header is sane and whose CRC
// matches it calls fn with the batch's position in buf and its header, and
// stops when fn returns false (with no error).
//
// It returns validBytes, the length of the prefix made of the batches passed
// to fn: everything after it should be truncated on recovery. If it stopped
// before the end of buf for any reason other than fn, err says why:
// ErrTruncated for a batch cut short by the end of buf (a torn tail from a
// crash mid-write), ErrCorrupt for a batch that is present but wrong (CRC
// mismatch, impossible batchLength, or a magic other than 2, which is also
// ErrMagic).
//
// Scan checks headers and CRCs only, not records: a compressed batch passes.
// Since batchLength lies outside the CRC, a damaged length in the last batch
// may read as a torn tail; both lead to the same truncation.
func Scan(buf []byte, fn func(pos int, h BatchHeader) bool) (validBytes int, err error) {
	pos := 0
	for pos < len(buf) {
		rest := buf[pos:]
		// ParseHeader judges even a short prefix, so a visibly impossible
		// length or magic is corrupt even when the buffer ends right after it.
		h, err := ParseHeader(rest)
		if err != nil {
			return pos, fmt.Errorf("batch at position %d: %w", pos, err)
		}
		size := h.SizeInBytes()
		if len(rest) < size {
			return pos, fmt.Errorf("batch at position %d: %w: %d bytes, %d present", pos, ErrTruncated, size, len(rest))
		}
		if got := ComputeCRC(rest[:size]); got != h.CRC {
			return pos, fmt.Errorf("batch at position %d: %w: stored crc %d, computed crc %d", pos, ErrCorrupt, h.CRC, got)
		}
		next := pos + size
		if !fn(pos, h) {
			return next, nil
		}
		pos = next
	}
	return pos, nil
}
