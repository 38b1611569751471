package record

import "fmt"

// Validate fully checks that buf is exactly one well-formed batch: sane
// batchLength, magic 2, matching CRC, uncompressed, and recordCount records
// that parse in canonical form and exactly fill the batch. It is what a
// broker runs on a produced batch before appending it, and it accepts
// precisely the inputs Decode accepts whole (Validate(buf) == nil iff Decode
// returns no error and consumes len(buf) bytes), without allocating records.
//
// Trailing bytes after the batch are ErrCorrupt: a produce request carries
// one batch per partition. To check a concatenation, Scan it and Validate
// each batch.
func Validate(buf []byte) error {
	h, err := checkBatch(buf)
	if err != nil {
		return err
	}
	size := h.SizeInBytes()
	if err := parseRecords(&h, buf[recordsOffset:size], nil); err != nil {
		return err
	}
	if len(buf) != size {
		return fmt.Errorf("%w: %d bytes after a %d-byte batch", ErrCorrupt, len(buf)-size, size)
	}
	return nil
}
