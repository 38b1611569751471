package console

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// scanfInts reads s as fmt.Sscanf(s, format, &v...) does into ints, for a
// format of literal characters other than spaces and %d verbs with an
// optional width, and reports whether Sscanf would have filled every verb
// without error. It exists so that the page's engine need not link fmt's
// scanner (about 14 KB of the compressed wasm) for the one date it reads;
// a test compares it with fmt.Sscanf.
//
// The rules it keeps from fmt: spaces before a verb's number are skipped
// and do not count towards its width, but a newline there is an error; the
// number is an optional sign and then at least one decimal digit, at most
// width characters in all; a literal must match the next character
// exactly; input after the last verb is ignored.
func scanfInts(s, format string) ([]int, bool) {
	var vals []int
	for i := 0; i < len(format); {
		if format[i] != '%' {
			want, w := utf8.DecodeRuneInString(format[i:])
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 || r != want {
				return nil, false
			}
			s, i = s[n:], i+w
			continue
		}
		width := 0
		for i++; i < len(format) && '0' <= format[i] && format[i] <= '9'; i++ {
			width = width*10 + int(format[i]-'0')
		}
		if i == len(format) || format[i] != 'd' {
			return nil, false // not a format this reads
		}
		i++
		if width == 0 {
			width = len(s) // no width: up to the end
		}
		for {
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 || !scanSpace(r) {
				break
			}
			if r == '\n' || r == '\r' && strings.HasPrefix(s[n:], "\n") {
				return nil, false // fmt: "unexpected newline"
			}
			s = s[n:]
		}
		k := 0
		if k < width && k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		digits := k
		for k < width && k < len(s) && '0' <= s[k] && s[k] <= '9' {
			k++
		}
		if k == digits {
			return nil, false // fmt: "expected integer" or unexpected EOF
		}
		v, err := strconv.ParseInt(s[:k], 10, 64)
		if err != nil {
			return nil, false // out of range
		}
		vals = append(vals, int(v))
		s = s[k:]
	}
	return vals, true
}

// scanSpace is fmt's isSpace: the characters its scanner skips.
func scanSpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0d, r == ' ', r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
