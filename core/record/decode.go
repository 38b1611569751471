package record

import "fmt"

// Decode decodes the batch at the front of buf and returns it with the
// number of bytes it occupies; bytes after it are ignored. It checks, in
// order: the header (ParseHeader), that the whole batch is present, the CRC,
// that the batch is uncompressed, and that recordCount records exactly fill
// the batch in canonical form.
//
// Decode never panics and never aliases buf: keys, values and header values
// share one copy of the records region (each capped to its own length, so
// appending to one cannot overwrite another). Null keys and values decode
// to nil, empty ones to non-nil empty slices.
func Decode(buf []byte) (Batch, int, error) {
	h, err := checkBatch(buf)
	if err != nil {
		return Batch{}, 0, err
	}
	size := h.SizeInBytes()
	b := Batch{
		BaseOffset:           h.BaseOffset,
		PartitionLeaderEpoch: h.PartitionLeaderEpoch,
		Magic:                h.Magic,
		CRC:                  h.CRC,
		Attributes:           h.Attributes,
		LastOffsetDelta:      h.LastOffsetDelta,
		BaseTimestamp:        h.BaseTimestamp,
		MaxTimestamp:         h.MaxTimestamp,
		ProducerID:           h.ProducerID,
		ProducerEpoch:        h.ProducerEpoch,
		BaseSequence:         h.BaseSequence,
	}
	region := buf[recordsOffset:size]
	var out *[]Record
	if h.RecordCount > 0 {
		// recordCount was bounded by the region's size in checkBatch, so this
		// allocation is proportional to the input, whatever the header says.
		region = append([]byte(nil), region...)
		b.Records = make([]Record, 0, h.RecordCount)
		out = &b.Records
	}
	if err := parseRecords(&h, region, out); err != nil {
		return Batch{}, 0, err
	}
	return b, size, nil
}

// checkBatch does everything short of parsing records: header, presence of
// the whole batch, CRC, compression, and a recordCount the size can hold.
func checkBatch(buf []byte) (BatchHeader, error) {
	h, err := ParseHeader(buf)
	if err != nil {
		return h, err
	}
	size := h.SizeInBytes()
	if len(buf) < size {
		return h, fmt.Errorf("%w: batch of %d bytes, %d present", ErrTruncated, size, len(buf))
	}
	if got := ComputeCRC(buf[:size]); got != h.CRC {
		return h, fmt.Errorf("%w: stored crc %d, computed crc %d", ErrCorrupt, h.CRC, got)
	}
	switch c := codecOf(h.Attributes); {
	case c > CompressionZstd:
		return h, fmt.Errorf("%w: unknown compression codec %d", ErrCorrupt, c)
	case c != CompressionNone:
		return h, fmt.Errorf("%w: codec %s", ErrUnsupportedCompression, codecName(h.Attributes))
	}
	if h.RecordCount < 0 || int64(h.RecordCount)*minRecordSize > int64(size-HeaderSize) {
		return h, fmt.Errorf("%w: recordCount %d cannot fit in %d bytes of records", ErrCorrupt, h.RecordCount, size-HeaderSize)
	}
	return h, nil
}

// parseRecords parses exactly h.RecordCount records that must fill region
// exactly. If out is nil it only checks (Validate), else it appends the
// records, whose byte slices alias region.
func parseRecords(h *BatchHeader, region []byte, out *[]Record) error {
	for i := int32(0); i < h.RecordCount; i++ {
		n, err := parseRecord(h, region, out)
		if err != nil {
			return fmt.Errorf("%w: record %d of %d: %v", ErrCorrupt, i, h.RecordCount, err)
		}
		region = region[n:]
	}
	if len(region) != 0 {
		return fmt.Errorf("%w: %d bytes left after %d records", ErrCorrupt, len(region), h.RecordCount)
	}
	return nil
}

// parseRecord parses one record (Kafka's DefaultRecord.readFrom) from the
// front of buf and returns its total size. Errors are plain descriptions;
// parseRecords marks them ErrCorrupt, because running out of bytes inside a
// complete, CRC-valid batch is bad structure, not a torn write.
func parseRecord(h *BatchHeader, buf []byte, out *[]Record) (int, error) {
	bodyLen, n, err := ReadVarint(buf)
	if err != nil {
		return 0, fmt.Errorf("length: %v", err)
	}
	if bodyLen < 0 || int(bodyLen) > len(buf)-n {
		return 0, fmt.Errorf("length %d with %d bytes left", bodyLen, len(buf)-n)
	}
	total := n + int(bodyLen)
	r := reader{buf: buf[n:total]}

	if attrs := r.byte(); attrs != 0 && r.err == nil {
		return 0, fmt.Errorf("record attributes 0x%x: unused bits must be 0", attrs)
	}
	tsDelta := r.varlong()
	offDelta := r.varint()
	key := r.nullableBytes()
	value := r.nullableBytes()
	numHeaders := r.varint()
	if r.err != nil {
		return 0, r.err
	}
	// Each header takes at least two bytes, so a count beyond the bytes left
	// is a lie; checking first keeps a hostile count from sizing allocations.
	if numHeaders < 0 || int(numHeaders) > len(r.buf) {
		return 0, fmt.Errorf("header count %d with %d bytes left", numHeaders, len(r.buf))
	}
	var headers []Header
	if numHeaders > 0 && out != nil {
		headers = make([]Header, 0, numHeaders)
	}
	for j := int32(0); j < numHeaders; j++ {
		keyLen := r.varint()
		if r.err == nil && keyLen < 0 {
			return 0, fmt.Errorf("header %d: key length %d: header keys are never null", j, keyLen)
		}
		hk := r.bytes(int(keyLen))
		hv := r.nullableBytes()
		if r.err != nil {
			return 0, fmt.Errorf("header %d: %v", j, r.err)
		}
		if out != nil {
			headers = append(headers, Header{Key: string(hk), Value: hv})
		}
	}
	if len(r.buf) != 0 {
		return 0, fmt.Errorf("%d bytes left inside record after its fields", len(r.buf))
	}
	if out != nil {
		*out = append(*out, Record{
			// Wrapping adds: the exact inverse of the subtractions in AppendTo.
			Offset:    h.BaseOffset + int64(offDelta),
			Timestamp: h.BaseTimestamp + tsDelta,
			Key:       key,
			Value:     value,
			Headers:   headers,
		})
	}
	return total, nil
}
