package kafkazk

import (
	"strconv"
	"unicode/utf8"
)

// Writing JSON as Kafka's Json.encodeAsBytes does: a default Jackson
// ObjectMapper (jackson-databind 2.10.5 in Kafka 2.8.0,
// gradle/dependencies.gradle) writing UTF-8 bytes. It is compact (no
// spaces), writes object members in the order the map iterates (the
// callers order them), and escapes strings with Jackson's default table
// (CharTypes.sOutputEscapes128): '"' and '\\' with a backslash, \b \t \n
// \f \r by name, other characters below 0x20 as \u00XX with upper-case
// hex; '/', DEL and every non-ASCII character are written as they are.

// member is one name and its already encoded value.
type member struct {
	key   string
	value []byte
}

// jsonObject writes the members in the given order.
func jsonObject(members []member) []byte {
	out := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, m.key)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}')
}

// jsonObjectIn writes the members in the order of keys, which names each
// member once.
func jsonObjectIn(keys []string, members []member) []byte {
	ordered := make([]member, 0, len(members))
	for _, k := range keys {
		for _, m := range members {
			if m.key == k {
				ordered = append(ordered, m)
				break
			}
		}
	}
	return jsonObject(ordered)
}

// jsonArray writes the already encoded items.
func jsonArray(items [][]byte) []byte {
	out := []byte{'['}
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	return append(out, ']')
}

// jsonInts writes a list of Java Integers.
func jsonInts(ns []int32) []byte {
	items := make([][]byte, len(ns))
	for i, n := range ns {
		items[i] = jsonInt(int64(n))
	}
	return jsonArray(items)
}

// jsonInt writes a Java Integer or Long.
func jsonInt(n int64) []byte { return strconv.AppendInt(nil, n, 10) }

// jsonString writes a Java String.
func jsonString(s string) []byte { return appendJSONString(nil, s) }

// jsonNull is a null value (a null String).
var jsonNull = []byte("null")

// appendJSONString appends s quoted and escaped as Jackson's
// UTF8JsonGenerator writes it. An invalid UTF-8 byte becomes U+FFFD, as
// decoding the bytes into a Java String would have made it.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			dst = append(dst, c)
		}
		i++
	}
	return append(dst, '"')
}
