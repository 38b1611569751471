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

// ValidateShallow checks that buf is exactly one batch whose header and
// CRC are right (sane batchLength, magic 2, matching CRC, uncompressed, a
// recordCount that can fit), without parsing its records: what a follower
// checks of the batches it replicates. Kafka's UnifiedLog
// .analyzeAndValidateRecords verifies each batch's size and CRC
// (batch.isValid) on every append; only the leader's LogValidator goes
// through the records of a client's batch. The CRC covers the records, so
// a batch that passes was written whole by a leader that validated it.
func ValidateShallow(buf []byte) error {
	h, err := checkBatch(buf)
	if err != nil {
		return err
	}
	if size := h.SizeInBytes(); len(buf) != size {
		return fmt.Errorf("%w: %d bytes after a %d-byte batch", ErrCorrupt, len(buf)-size, size)
	}
	return nil
}
