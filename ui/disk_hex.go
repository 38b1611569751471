package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/core/view"
)

// The hex view of a batch: 16 bytes a row as xxd prints them (the offset
// column is the byte's position in the segment file, so the rows match
// xxd's output for the same file), each field's bytes one run coloured by
// what the field is, with its name, type, value and meaning as a tooltip.

// dkHexRow is one row of 16 bytes.
type dkHexRow struct {
	Off   string // file position, 8 hex digits
	Hex   []dkRun
	ASCII []dkRun
}

// dkRun is a field's bytes within one row (split at the row's middle, as
// the hex column has a wider gap there).
// ID names the run for the one click handler of the whole view
// ("dk-f<field>-<column><row>-<n>": see ClickHex).
type dkRun struct {
	Text  string
	Class string
	Tip   string
	Field int
	Name  string
	ID    string
}

// dkFieldRow is one row of the header table, and dkRecordRow one of the
// records table.
type dkFieldRow struct {
	Field       int
	Name, Bytes string
	Value       string
	Class       string
	Swatch      string // the name's button, tinted as the field's bytes
	Tip         string
}

type dkRecordRow struct {
	Field                     int // the record's first field
	Offset, Key, Value, Heads string
	Class                     string
}

// dkHexCache is the hex view built for one batch, selection, limit and
// language: the batch's bytes only change when the cache hands out another
// BatchBytes, so a frame that changes nothing reuses it.
type dkHexCache struct {
	bb      *view.BatchBytes
	field   int
	limit   int
	lang    i18n.Lang
	hovers  []string // per field: its name and value, shown on hover
	detail  string   // the chosen field spelled out
	rows    []dkHexRow
	header  []dkFieldRow
	records []dkRecordRow
	more    int // records not listed
}

// hexView builds (or reuses) the hex view of the chosen batch.
func (c *Disk) hexView() *dkHexCache {
	h := &c.hex
	bb := c.bb
	if bb == nil {
		return h
	}
	if h.bb == bb && h.field == c.Field && h.limit == c.HexLimit && h.lang == c.App.Player.Lang {
		return h
	}
	if c.Field >= len(bb.Fields) {
		c.Field = -1
	}
	*h = dkHexCache{bb: bb, field: c.Field, limit: c.HexLimit, lang: c.App.Player.Lang}
	// Every run carries its field's name and value as a tooltip; the
	// whole story (type, position, meaning) is drawn for the chosen field
	// only: the page is sent every attribute of every element each frame.
	h.hovers = make([]string, len(bb.Fields))
	for i := range bb.Fields {
		h.hovers[i] = c.fieldHover(bb, i)
	}
	if c.Field >= 0 {
		h.detail = c.fieldTip(bb, c.Field)
	}
	shown := min(len(bb.Bytes), c.HexLimit)
	for start := 0; start < shown; start += 16 {
		end := min(start+16, shown)
		row := dkHexRow{Off: fmt.Sprintf("%08x", bb.Position+int64(start))}
		id := func(col string, f int) string {
			return "dk-f" + strconv.Itoa(f) + "-" + col + strconv.Itoa(start/16) + "-" + strconv.Itoa(len(row.Hex))
		}
		for i := start; i < end; {
			f := bb.Field(i)
			j := end
			if f >= 0 {
				j = min(j, bb.Fields[f].End)
			}
			if i < start+8 {
				j = min(j, start+8)
			}
			cls := c.fieldClass(bb, f)
			hexCls := cls
			if i == start+8 {
				hexCls += " dk-mid"
			}
			tip, name := "", ""
			if f >= 0 {
				tip, name = h.hovers[f], bb.Fields[f].Name
			}
			row.ASCII = append(row.ASCII, dkRun{Text: dkPrintable(bb.Bytes[i:j]), Class: cls, Tip: tip, Field: f, Name: name, ID: id("a", f)})
			row.Hex = append(row.Hex, dkRun{Text: dkHexBytes(bb.Bytes[i:j]), Class: hexCls, Tip: tip, Field: f, Name: name, ID: id("h", f)})
			i = j
		}
		h.rows = append(h.rows, row)
	}
	for i, f := range bb.Fields {
		if f.Record >= 0 || f.Name == view.FieldRecords || f.Name == view.FieldUnparsed {
			continue
		}
		r := dkFieldRow{Field: i, Name: f.Name, Bytes: dkSpan(f.Start, f.End), Value: c.fieldValue(bb, i),
			Class: "dk-frow", Tip: c.fieldMeaning(&f)}
		if i == c.Field {
			r.Class += " dk-frow-on"
		}
		r.Swatch = "dk-fbtn " + dkColour[f.Name]
		if f.Name == view.FieldCRC && !bb.CRCValid {
			r.Swatch += " dk-crc-bad"
		}
		h.header = append(h.header, r)
	}
	c.recordRows(h, bb)
	return h
}

// recordRows lists the first records: offset, key, value, headers.
func (c *Disk) recordRows(h *dkHexCache, bb *view.BatchBytes) {
	cur := -1
	var r *dkRecordRow
	for i, f := range bb.Fields {
		if f.Record < 0 {
			continue
		}
		if f.Record != cur {
			cur = f.Record
			if len(h.records) >= dkRecordsShown {
				h.more = bb.Records - dkRecordsShown
				return
			}
			h.records = append(h.records, dkRecordRow{Field: i, Class: "dk-rrow", Key: "null", Value: "null", Heads: "0"})
			r = &h.records[len(h.records)-1]
			if c.Field >= 0 && c.Field < len(bb.Fields) && bb.Fields[c.Field].Record == cur {
				r.Class += " dk-rrow-on"
			}
		}
		switch f.Name {
		case view.FieldOffsetDelta:
			r.Offset = strconv.FormatInt(bb.Header.BaseOffset+f.Value, 10)
		case view.FieldKeyLength:
			if f.Value >= 0 {
				r.Key = `""`
			}
		case view.FieldValueLength:
			if f.Value >= 0 {
				r.Value = `""`
			}
		case view.FieldKey:
			r.Key = dkQuote(f.Data, 40)
		case view.FieldValue:
			r.Value = dkQuote(f.Data, 40)
		case view.FieldHeadersCount:
			r.Heads = strconv.FormatInt(f.Value, 10)
		}
	}
}

// ClickHex keeps the field of the clicked byte highlighted: one handler
// for the whole view (a listener per byte run would be re-sent to the page
// every frame); the run's id names its field.
func (c *Disk) ClickHex(e vugu.DOMEvent) {
	rest, ok := strings.CutPrefix(e.PropString("target", "id"), "dk-f")
	if !ok {
		return
	}
	n, _, _ := strings.Cut(rest, "-")
	if f, err := strconv.Atoi(n); err == nil && c.bb != nil && f >= 0 && f < len(c.bb.Fields) {
		c.PickField(f)
	}
}

func (c *Disk) hexRows() []dkHexRow         { return c.hexView().rows }
func (c *Disk) headerRows() []dkFieldRow    { return c.hexView().header }
func (c *Disk) recordRowsOf() []dkRecordRow { return c.hexView().records }

func (c *Disk) recordsMore() string {
	if n := c.hexView().more; n > 0 {
		return fmt.Sprintf(c.t("disk.records.more"), n)
	}
	return ""
}

// fieldDetail is the chosen field, spelled out under the bytes.
func (c *Disk) fieldDetail() string {
	if c.bb == nil || c.Field < 0 || c.Field >= len(c.bb.Fields) {
		return ""
	}
	return c.hexView().detail
}

// dkColour is the colour class of each field.
var dkColour = map[string]string{
	view.FieldBaseOffset: "dk-c-off", view.FieldLastOffsetDelta: "dk-c-off", view.FieldOffsetDelta: "dk-c-off",
	view.FieldBatchLength: "dk-c-len", view.FieldRecordsCount: "dk-c-len", view.FieldLength: "dk-c-len",
	view.FieldKeyLength: "dk-c-len", view.FieldValueLength: "dk-c-len", view.FieldHeadersCount: "dk-c-len",
	view.FieldHeaderKeyLength: "dk-c-len", view.FieldHeaderValueLength: "dk-c-len",
	view.FieldPartitionLeaderEpoch: "dk-c-epoch", view.FieldMagic: "dk-c-magic", view.FieldCRC: "dk-c-crc",
	view.FieldAttributes:    "dk-c-attr",
	view.FieldBaseTimestamp: "dk-c-time", view.FieldMaxTimestamp: "dk-c-time", view.FieldTimestampDelta: "dk-c-time",
	view.FieldProducerID: "dk-c-prod", view.FieldProducerEpoch: "dk-c-prod", view.FieldBaseSequence: "dk-c-prod",
	view.FieldKey: "dk-c-key", view.FieldHeaderKey: "dk-c-key",
	view.FieldValue: "dk-c-value", view.FieldHeaderValue: "dk-c-value",
	view.FieldRecords: "dk-c-zip", view.FieldUnparsed: "dk-c-bad",
}

// fieldClass colours field i's bytes (records alternate a stripe, so
// where one ends and the next begins shows).
func (c *Disk) fieldClass(bb *view.BatchBytes, i int) string {
	if i < 0 {
		return "dk-b dk-c-bad"
	}
	f := &bb.Fields[i]
	cls := "dk-b " + dkColour[f.Name]
	if f.Name == view.FieldCRC && !bb.CRCValid {
		cls += " dk-crc-bad"
	}
	if f.Record >= 0 {
		cls += " dk-rec dk-r" + strconv.Itoa(f.Record%2)
	}
	if i == c.Field || (c.Field >= 0 && c.Field < len(bb.Fields) && bb.Fields[c.Field].Name == view.FieldUnparsed && f.Name == view.FieldUnparsed) {
		cls += " dk-sel"
	}
	return cls
}

// dkTypes is each field's type on the wire.
var dkTypes = map[string]string{
	view.FieldBaseOffset: "int64", view.FieldBatchLength: "int32", view.FieldPartitionLeaderEpoch: "int32",
	view.FieldMagic: "int8", view.FieldCRC: "uint32", view.FieldAttributes: "int16", view.FieldLastOffsetDelta: "int32",
	view.FieldBaseTimestamp: "int64", view.FieldMaxTimestamp: "int64", view.FieldProducerID: "int64",
	view.FieldProducerEpoch: "int16", view.FieldBaseSequence: "int32", view.FieldRecordsCount: "int32",
	view.FieldLength: "varint", view.FieldTimestampDelta: "varlong", view.FieldOffsetDelta: "varint",
	view.FieldKeyLength: "varint", view.FieldValueLength: "varint", view.FieldHeadersCount: "varint",
	view.FieldHeaderKeyLength: "varint", view.FieldHeaderValueLength: "varint",
	view.FieldKey: "bytes", view.FieldValue: "bytes", view.FieldHeaderKey: "string", view.FieldHeaderValue: "bytes",
	view.FieldRecords: "bytes", view.FieldUnparsed: "bytes",
}

// fieldHover is field i's name and value ("record 0 · value = "hello"").
func (c *Disk) fieldHover(bb *view.BatchBytes, i int) string {
	f := &bb.Fields[i]
	v := c.fieldValue(bb, i)
	if r := []rune(v); len(r) > 64 {
		v = string(r[:64]) + "…"
	}
	return c.fieldWhere(f) + f.Name + " = " + v
}

// fieldWhere is the record (and header) a field belongs to, "" for the
// batch header's.
func (c *Disk) fieldWhere(f *view.BatchField) string {
	switch {
	case f.Record >= 0 && f.Header >= 0:
		return fmt.Sprintf(c.t("disk.in.header"), f.Record, f.Header) + " · "
	case f.Record >= 0:
		return fmt.Sprintf(c.t("disk.in.record"), f.Record) + " · "
	}
	return ""
}

// fieldTip is field i spelled out: where it is, its name and type, its
// value, and what it is for.
func (c *Disk) fieldTip(bb *view.BatchBytes, i int) string {
	f := &bb.Fields[i]
	typ := dkTypes[f.Name]
	where := c.fieldWhere(f)
	if f.Name == view.FieldAttributes && f.Record >= 0 {
		typ = "int8"
	}
	pos := fmt.Sprintf(c.t("disk.at"), dkSpan(f.Start, f.End), bb.Position+int64(f.Start))
	return where + f.Name + " (" + typ + ") · " + pos + "\n= " + c.fieldValue(bb, i) + "\n" + c.fieldMeaning(f)
}

// fieldMeaning is what the field is for.
func (c *Disk) fieldMeaning(f *view.BatchField) string {
	if f.Name == view.FieldAttributes && f.Record >= 0 {
		return c.t("disk.f.recordAttributes")
	}
	return c.t("disk.f." + f.Name)
}

// fieldValue is what field i holds, decoded.
func (c *Disk) fieldValue(bb *view.BatchBytes, i int) string {
	f := &bb.Fields[i]
	h := &bb.Header
	v := f.Value
	n := strconv.FormatInt(v, 10)
	switch f.Name {
	case view.FieldBatchLength:
		return fmt.Sprintf(c.t("disk.v.batchLength"), v, v+12)
	case view.FieldCRC:
		return dkHex32(uint32(v)) + " · " + c.crcText()
	case view.FieldAttributes:
		if f.Record >= 0 {
			return n + " · " + c.t("disk.v.recattrs")
		}
		parts := []string{fmt.Sprintf(c.t("disk.attr.compression"), h.CompressionCodec()), h.TimestampType()}
		if h.IsTransactional() {
			parts = append(parts, c.t("disk.attr.txn"))
		} else {
			parts = append(parts, c.t("disk.attr.notxn"))
		}
		if h.IsControl() {
			parts = append(parts, c.t("disk.attr.control"))
		} else {
			parts = append(parts, c.t("disk.attr.data"))
		}
		if _, ok := h.DeleteHorizonMs(); ok {
			parts = append(parts, c.t("disk.attr.horizon"))
		}
		return fmt.Sprintf("0x%04x · ", uint16(v)) + strings.Join(parts, " · ")
	case view.FieldLastOffsetDelta:
		return n + " · " + fmt.Sprintf(c.t("disk.v.lastOffset"), h.BaseOffset+v)
	case view.FieldBaseTimestamp, view.FieldMaxTimestamp:
		s := n + " · " + dkTime(v)
		if _, ok := h.DeleteHorizonMs(); ok && f.Name == view.FieldBaseTimestamp {
			s += " · " + c.t("disk.attr.horizon")
		}
		return s
	case view.FieldProducerID:
		if v < 0 {
			return c.t("disk.v.noProducer")
		}
	case view.FieldProducerEpoch, view.FieldBaseSequence:
		if v < 0 {
			return c.t("disk.v.none")
		}
	case view.FieldLength:
		return fmt.Sprintf(c.t("disk.v.length"), v)
	case view.FieldTimestampDelta:
		return fmt.Sprintf("%+d ms → %s", v, dkTime(h.BaseTimestamp+v))
	case view.FieldOffsetDelta:
		return n + " → " + fmt.Sprintf(c.t("disk.v.offset"), h.BaseOffset+v)
	case view.FieldKeyLength, view.FieldValueLength, view.FieldHeaderValueLength, view.FieldHeaderKeyLength:
		if v < 0 {
			return c.t("disk.v.null")
		}
		return fmt.Sprintf(c.t("disk.v.bytes"), v)
	case view.FieldKey, view.FieldValue, view.FieldHeaderKey, view.FieldHeaderValue:
		return dkQuote(f.Data, 120)
	case view.FieldRecords:
		return fmt.Sprintf(c.t("disk.v.compressed"), f.End-f.Start, h.CompressionCodec())
	case view.FieldUnparsed:
		return fmt.Sprintf(c.t("disk.v.unparsed"), f.End-f.Start, bb.Err)
	}
	return n
}

// dkTime is a record timestamp (ms since the epoch) in UTC.
func dkTime(ms int64) string {
	if ms < 0 {
		return "-1"
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") + " UTC"
}

func dkHex32(v uint32) string { return fmt.Sprintf("0x%08x", v) }

// dkSpan is a field's bytes within the batch: "16" or "0–7".
func dkSpan(start, end int) string {
	if end-start == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "–" + strconv.Itoa(end-1)
}

const dkHexDigits = "0123456789abcdef"

// dkHexBytes is bytes as xxd's hex column spells them, one space apart.
func dkHexBytes(b []byte) string {
	out := make([]byte, 0, 3*len(b))
	for i, x := range b {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, dkHexDigits[x>>4], dkHexDigits[x&0xf])
	}
	return string(out)
}

// dkPrintable is bytes as xxd's text column shows them.
func dkPrintable(b []byte) string {
	out := make([]byte, len(b))
	for i, x := range b {
		if x >= 0x20 && x < 0x7f {
			out[i] = x
		} else {
			out[i] = '.'
		}
	}
	return string(out)
}

// dkQuote shows a key or value: quoted text when it is UTF-8, else hex;
// cut after max bytes.
func dkQuote(b []byte, max int) string {
	cut := ""
	if len(b) > max {
		b, cut = b[:max], "…"
		for k := 0; k < 3 && !utf8.Valid(b); k++ {
			b = b[:len(b)-1] // do not split a character
		}
	}
	if utf8.Valid(b) {
		return strconv.Quote(string(b)) + cut
	}
	return "0x" + strings.ReplaceAll(dkHexBytes(b), " ", "") + cut
}
