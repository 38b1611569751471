package metadata

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"kafkascope/core/jdk"
)

// The JSON form is what kafka-dump-log.sh --cluster-metadata-decoder prints
// (DumpLogSegments.ClusterMetadataLogMessageParser): a Jackson ObjectNode
// {"type":<MetadataRecordType name>,"version":<n>,"data":<record>} rendered
// compactly by ObjectNode.toString, where <record> is the generated
// <Record>JsonConverter.write(record, version)
// (generator/.../JsonConverterGenerator.java generateWrite):
//
//   - fields in schema order, named in lowerCamelCase; fields absent at the
//     version are left out;
//   - a tagged field only when its value is not the default (the same test
//     the binary writer uses);
//   - bool → true/false; int8/int16 (ShortNode), int32/uint16 (IntNode),
//     int64 (LongNode) → decimal numbers; float64 (DoubleNode) → Java's
//     Double.toString, or the quoted string "NaN"/"Infinity"/"-Infinity";
//     uuid → its 22-character base64url form; string → a JSON string;
//     bytes (BinaryNode) → standard base64 with padding; arrays → [...];
//     structs → nested objects; a null nullable value → null.
//
// Jackson escapes '"', '\\' and the control characters below U+0020 (as \b,
// \t, \n, \f, \r or \u00XX with upper-case hex) and writes everything else,
// '/' and non-ASCII included, as is.

// jsonEnvelope renders the whole payload for a record at a version.
func jsonEnvelope(m *gmsg, version int16) string {
	var b strings.Builder
	b.WriteString(`{"type":"`)
	b.WriteString(typeName(m.s.name))
	b.WriteString(`","version":`)
	b.WriteString(strconv.Itoa(int(version)))
	b.WriteString(`,"data":`)
	writeJSONMessage(&b, m, version)
	b.WriteByte('}')
	return b.String()
}

func writeJSONMessage(b *strings.Builder, m *gmsg, v int16) {
	b.WriteByte('{')
	first := true
	for i := range m.s.fields {
		f := &m.s.fields[i]
		val := m.vals[i]
		if !f.presentAt(v) {
			continue
		}
		if f.taggedAt(v) && !f.nonDefault(val) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeJSONString(b, f.name)
		b.WriteByte(':')
		writeJSONValue(b, f, val, v)
	}
	b.WriteByte('}')
}

func writeJSONValue(b *strings.Builder, f *fieldSpec, val any, v int16) {
	if f.array {
		if isNull(val) && f.nullableAt(v) {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		switch x := val.(type) {
		case []int32:
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatInt(int64(e), 10))
			}
		case []Uuid:
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSONString(b, e.String())
			}
		case []string:
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSONString(b, e)
			}
		case []*gmsg:
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSONMessage(b, e, v)
			}
		}
		b.WriteByte(']')
		return
	}
	switch x := val.(type) {
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int8:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int16:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case uint16:
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		s := jdk.DoubleToString(x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			writeJSONString(b, s) // QUOTE_NON_NUMERIC_NUMBERS is on by default
		} else {
			b.WriteString(s)
		}
	case Uuid:
		writeJSONString(b, x.String())
	case string:
		writeJSONString(b, x)
	case []byte:
		if x == nil && f.nullableAt(v) {
			b.WriteString("null")
			return
		}
		writeJSONString(b, base64.StdEncoding.EncodeToString(x))
	case nil:
		b.WriteString("null")
	}
}

const hexDigits = "0123456789ABCDEF"

// writeJSONString writes s as Jackson does. s holds the raw bytes read from
// the record; Java decodes them as UTF-8, turning malformed bytes into
// U+FFFD (here one per malformed byte, Go's rule; Java's grouping of a
// malformed sequence may differ).
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
}
