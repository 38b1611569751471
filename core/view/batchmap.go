package view

import (
	"bytes"
	"encoding/binary"
	"path"
	"strconv"

	"kafkascope/core/cluster"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// Names of a batch's fields, as Kafka's documentation of the v2 format
// names them ("Record Batch", "Record", "Record Header"). A record's
// attributes is named like the batch's; BatchField.Record tells them apart.
const (
	FieldBaseOffset           = "baseOffset"
	FieldBatchLength          = "batchLength"
	FieldPartitionLeaderEpoch = "partitionLeaderEpoch"
	FieldMagic                = "magic"
	FieldCRC                  = "crc"
	FieldAttributes           = "attributes"
	FieldLastOffsetDelta      = "lastOffsetDelta"
	FieldBaseTimestamp        = "baseTimestamp"
	FieldMaxTimestamp         = "maxTimestamp"
	FieldProducerID           = "producerId"
	FieldProducerEpoch        = "producerEpoch"
	FieldBaseSequence         = "baseSequence"
	FieldRecordsCount         = "recordsCount"

	FieldLength            = "length"
	FieldTimestampDelta    = "timestampDelta"
	FieldOffsetDelta       = "offsetDelta"
	FieldKeyLength         = "keyLength"
	FieldKey               = "key"
	FieldValueLength       = "valueLength"
	FieldValue             = "value"
	FieldHeadersCount      = "headersCount"
	FieldHeaderKeyLength   = "headerKeyLength"
	FieldHeaderKey         = "headerKey"
	FieldHeaderValueLength = "headerValueLength"
	FieldHeaderValue       = "headerValue"

	// FieldRecords is a compressed batch's records, one opaque field.
	FieldRecords = "records"
	// FieldUnparsed is bytes that could not be read as the format says
	// (a damaged batch, or one cut short on disk).
	FieldUnparsed = "unparsed"
)

// batchHeaderFields is the fixed 61-byte header: name and width, in order
// (core/record's layout).
var batchHeaderFields = [...]struct {
	name  string
	width int
}{
	{FieldBaseOffset, 8}, {FieldBatchLength, 4}, {FieldPartitionLeaderEpoch, 4}, {FieldMagic, 1},
	{FieldCRC, 4}, {FieldAttributes, 2}, {FieldLastOffsetDelta, 4}, {FieldBaseTimestamp, 8},
	{FieldMaxTimestamp, 8}, {FieldProducerID, 8}, {FieldProducerEpoch, 2}, {FieldBaseSequence, 4},
	{FieldRecordsCount, 4},
}

// BatchField is one field of a batch: its byte range and what it holds.
type BatchField struct {
	Name       string
	Start, End int // [Start, End) in the batch's bytes; never empty
	// Record is the index of the record the field belongs to, -1 for the
	// batch header; Header the index of the record header, -1 otherwise.
	Record int
	Header int
	// Varint: the field is a zigzag varint (varlong for timestampDelta).
	Varint bool
	// Value is the integer a fixed-width or varint field holds (the CRC
	// as an unsigned 32-bit number).
	Value int64
	// Data is the bytes of a key, value, header key or header value.
	Data []byte
}

// BatchMap is a record batch's bytes, every byte labelled with the field
// it belongs to: Fields cover [0, len(bytes)) in order, each byte exactly
// once.
type BatchMap struct {
	Fields []BatchField
	// Header is the fixed header (valid when HeaderOK: the bytes hold all
	// 61 of its bytes).
	Header   record.BatchHeader
	HeaderOK bool
	// ComputedCRC is the CRC-32C of the bytes from attributes to the end
	// of the batch; CRCValid says it equals the stored crc (and the whole
	// batch is there).
	ComputedCRC uint32
	CRCValid    bool
	// Records is how many records were mapped field by field.
	Records int
	// Compressed: the records are compressed (one FieldRecords field).
	Compressed bool
	// Err says why some bytes are FieldUnparsed ("" when none are).
	Err string
}

// MapBatch labels every byte of one batch (b holds one batch, as a log
// segment stores it; bytes beyond the batch's length are unparsed). It
// never fails: what cannot be read becomes a FieldUnparsed field.
func MapBatch(b []byte) BatchMap {
	var m BatchMap
	// A record without headers has 7 to 9 fields; a record takes at
	// least 7 bytes, which bounds a count that lies.
	if len(b) >= record.HeaderSize {
		count := min(max(int(int32(binary.BigEndian.Uint32(b[57:]))), 0), (len(b)-record.HeaderSize)/7)
		m.Fields = make([]BatchField, 0, len(batchHeaderFields)+1+9*count)
	}
	pos := 0
	be := binary.BigEndian
	for _, f := range batchHeaderFields {
		if pos+f.width > len(b) {
			m.Err = "the batch is cut short inside its header"
			m.unparsed(b, pos, m.Err)
			return m
		}
		bf := BatchField{Name: f.name, Start: pos, End: pos + f.width, Record: -1, Header: -1}
		switch f.width {
		case 1:
			bf.Value = int64(int8(b[pos]))
		case 2:
			bf.Value = int64(int16(be.Uint16(b[pos:])))
		case 4:
			if f.name == FieldCRC {
				bf.Value = int64(be.Uint32(b[pos:]))
			} else {
				bf.Value = int64(int32(be.Uint32(b[pos:])))
			}
		case 8:
			bf.Value = int64(be.Uint64(b[pos:]))
		}
		m.Fields = append(m.Fields, bf)
		pos += f.width
	}
	m.HeaderOK = true
	m.Header = headerOf(b)
	size := m.Header.SizeInBytes()
	m.ComputedCRC = record.ComputeCRC(b)
	m.CRCValid = size <= len(b) && m.ComputedCRC == m.Header.CRC
	end := min(max(size, pos), len(b))
	if size > len(b) {
		m.Err = "the batch is cut short: " + itoa(len(b)) + " of its " + itoa(size) + " bytes"
	}
	if m.Header.CompressionCodec() != "none" {
		m.Compressed = true
		if end > pos {
			m.Fields = append(m.Fields, BatchField{Name: FieldRecords, Start: pos, End: end, Record: -1, Header: -1})
		}
		pos = end
	} else {
		pos = m.mapRecords(b[:end], pos, m.Err)
	}
	if pos < len(b) && m.Err == "" {
		if end < len(b) {
			m.Err = "bytes after the end of the batch"
		} else {
			m.Err = "the batch is cut short"
		}
	}
	m.unparsed(b, pos, m.Err)
	return m
}

// headerOf reads the 61-byte header without judging it (ParseHeader
// refuses a wrong magic or length, which the map still shows).
func headerOf(b []byte) record.BatchHeader {
	be := binary.BigEndian
	return record.BatchHeader{
		BaseOffset:           int64(be.Uint64(b[0:])),
		BatchLength:          int32(be.Uint32(b[8:])),
		PartitionLeaderEpoch: int32(be.Uint32(b[12:])),
		Magic:                int8(b[16]),
		CRC:                  be.Uint32(b[17:]),
		Attributes:           int16(be.Uint16(b[21:])),
		LastOffsetDelta:      int32(be.Uint32(b[23:])),
		BaseTimestamp:        int64(be.Uint64(b[27:])),
		MaxTimestamp:         int64(be.Uint64(b[35:])),
		ProducerID:           int64(be.Uint64(b[43:])),
		ProducerEpoch:        int16(be.Uint16(b[51:])),
		BaseSequence:         int32(be.Uint32(b[53:])),
		RecordCount:          int32(be.Uint32(b[57:])),
	}
}

// unparsed labels b[pos:] as unreadable, for reason.
func (m *BatchMap) unparsed(b []byte, pos int, reason string) {
	if pos >= len(b) {
		return
	}
	m.Fields = append(m.Fields, BatchField{Name: FieldUnparsed, Start: pos, End: len(b), Record: -1, Header: -1})
	if m.Err == "" {
		m.Err = reason
	}
}

// mapRecords labels the records in b[pos:] (Kafka's DefaultRecord layout)
// and returns where it stopped: len(b) unless something did not parse.
// A reason already known (a batch cut short) is kept.
func (m *BatchMap) mapRecords(b []byte, pos int, known string) int {
	for i := 0; i < int(m.Header.RecordCount) && pos < len(b); i++ {
		next, err := m.mapRecord(b, pos, i)
		if err != "" {
			if known == "" {
				m.Err = "record " + itoa(i) + ": " + err
			}
			return next
		}
		pos = next
		m.Records++
	}
	if pos < len(b) && m.Err == "" {
		m.Err = "bytes left after " + itoa(m.Records) + " records"
	}
	return pos
}

// mapRecord labels record i at b[pos:]; it returns the position after
// what it labelled, and what went wrong ("" if nothing).
func (m *BatchMap) mapRecord(b []byte, pos, i int) (int, string) {
	field := func(name string, start, end int, v int64) {
		m.Fields = append(m.Fields, BatchField{Name: name, Start: start, End: end, Record: i, Header: -1, Varint: true, Value: v})
	}
	length, n, err := record.ReadVarint(b[pos:])
	if err != nil {
		return pos, "length: " + err.Error()
	}
	field(FieldLength, pos, pos+n, int64(length))
	pos += n
	end := pos + int(length)
	if length < 0 || end > len(b) {
		return pos, "length " + itoa(int(length)) + " with " + itoa(len(b)-pos) + " bytes left"
	}
	body := b[:end]
	if pos >= end {
		return pos, "no attributes byte"
	}
	m.Fields = append(m.Fields, BatchField{Name: FieldAttributes, Start: pos, End: pos + 1, Record: i, Header: -1, Value: int64(int8(body[pos]))})
	pos++
	varint := func(name string) (int32, bool) {
		v, n, err := record.ReadVarint(body[pos:])
		if err != nil {
			return 0, false
		}
		field(name, pos, pos+n, int64(v))
		pos += n
		return v, true
	}
	data := func(name string, l int32, header int) bool {
		if l < -1 || pos+int(max(l, 0)) > end {
			return false
		}
		if l > 0 {
			m.Fields = append(m.Fields, BatchField{Name: name, Start: pos, End: pos + int(l), Record: i, Header: header,
				Data: body[pos : pos+int(l) : pos+int(l)]})
			pos += int(l)
		}
		return true
	}
	ts, n, err := record.ReadVarlong(body[pos:])
	if err != nil {
		return pos, "timestampDelta: " + err.Error()
	}
	field(FieldTimestampDelta, pos, pos+n, ts)
	pos += n
	if _, ok := varint(FieldOffsetDelta); !ok {
		return pos, "offsetDelta"
	}
	for _, kv := range [...][2]string{{FieldKeyLength, FieldKey}, {FieldValueLength, FieldValue}} {
		l, ok := varint(kv[0])
		if !ok || !data(kv[1], l, -1) {
			return pos, kv[0]
		}
	}
	count, ok := varint(FieldHeadersCount)
	if !ok || count < 0 {
		return pos, "headersCount"
	}
	for h := 0; h < int(count); h++ {
		for _, kv := range [...][2]string{{FieldHeaderKeyLength, FieldHeaderKey}, {FieldHeaderValueLength, FieldHeaderValue}} {
			start := len(m.Fields)
			l, ok := varint(kv[0])
			if ok {
				m.Fields[start].Header = h
			}
			if !ok || (kv[0] == FieldHeaderKeyLength && l < 0) || !data(kv[1], l, h) {
				return pos, "header " + itoa(h) + ": " + kv[0]
			}
		}
	}
	if pos != end {
		return pos, itoa(end-pos) + " bytes left inside the record"
	}
	return pos, ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// Field returns the index of the field holding byte i, or -1.
func (m *BatchMap) Field(i int) int {
	lo, hi := 0, len(m.Fields)
	for lo < hi {
		mid := (lo + hi) / 2
		if m.Fields[mid].End <= i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(m.Fields) && m.Fields[lo].Start <= i {
		return lo
	}
	return -1
}

// BatchBytes is one batch as a segment file holds it, mapped field by
// field.
type BatchBytes struct {
	BatchMap
	Segment  int64  // the segment's base offset
	File     string // the segment's .log file name
	Position int64  // the batch's byte position in the file
	Info     storage.BatchInfo
	// Bytes is the batch as on disk now (a copy). Missing counts the bytes
	// the log's index expects that the file no longer holds (a power loss
	// after the process was gone); Bytes then holds what is left.
	Bytes   []byte
	Missing int64
}

// Batch returns pd's batch whose base offset is base, read from the disk
// and mapped (nil if pd lists no such batch). The last batch is kept, so
// asking again for the same unchanged bytes costs a comparison.
func (dc *DiskCache) Batch(c *cluster.Cluster, pd *PartitionDisk, base int64) *BatchBytes {
	if c == nil || pd == nil || c.Disk(pd.Broker) == nil {
		return nil
	}
	var seg *DiskSegment
	var info storage.BatchInfo
	found := false
	for si := range pd.Segments {
		s := &pd.Segments[si]
		if len(s.Batches) == 0 || s.Batches[0].BaseOffset > base || s.Batches[len(s.Batches)-1].BaseOffset < base {
			continue
		}
		for _, bi := range s.Batches {
			if bi.BaseOffset == base {
				seg, info, found = s, bi, true
				break
			}
		}
	}
	if !found {
		return nil
	}
	// The batch's bytes only (a whole metadata log is tens of MB, held
	// in chunks that ReadFile would copy).
	have, _ := c.Disk(pd.Broker).ReadAt(path.Join(pd.Dir, seg.Name), int64(info.Position), int64(info.Size))
	if bb := dc.batch; bb != nil && dc.batchOf == (batchOwner{c, pd.Broker, pd.Dir}) && bb.Segment == seg.BaseOffset &&
		bb.Info == info && bytes.Equal(bb.Bytes, have) {
		return bb
	}
	bb := &BatchBytes{Segment: seg.BaseOffset, File: seg.Name, Position: int64(info.Position), Info: info,
		Bytes: bytes.Clone(have), Missing: int64(info.Size) - int64(len(have))}
	if bb.Bytes == nil {
		bb.Bytes = []byte{}
	}
	bb.BatchMap = MapBatch(bb.Bytes)
	dc.batch, dc.batchOf = bb, batchOwner{c, pd.Broker, pd.Dir}
	return bb
}

// batchOwner is whose disk the cached batch was read from.
type batchOwner struct {
	cluster *cluster.Cluster
	broker  int32
	dir     string
}
