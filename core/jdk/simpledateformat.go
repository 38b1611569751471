package jdk

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SimpleDateFormat compiles a java.text.SimpleDateFormat pattern for the
// numeric fields the tools' date options use: y (year; "yy" its last two
// digits), M (month, as a number), d, H, h, m, s and S (milliseconds),
// each padded with zeros to the letters' count, literal characters and
// 'quoted text' (two single quotes for one). Times are formatted in UTC, the zone of
// the Kafka images' JVMs. A letter Java does not know is its
// IllegalArgumentException ("Illegal pattern character 'x'"); one it knows
// but this does not (text fields: MMM, E, a, z, ...) is unsupported.
func SimpleDateFormat(pattern string) (format func(ms int64) string, illegal error, unsupported string) {
	type field struct {
		letter byte
		count  int
		text   string
	}
	var fields []field
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for ; j < len(pattern); j++ {
				if pattern[j] == '\'' {
					if j+1 < len(pattern) && pattern[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(pattern[j])
			}
			if i+1 < len(pattern) && pattern[i+1] == '\'' {
				fields = append(fields, field{text: "'"})
				i += 2
				continue
			}
			if j >= len(pattern) {
				return nil, fmt.Errorf("Unterminated quote"), ""
			}
			fields = append(fields, field{text: b.String()})
			i = j + 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(pattern) && pattern[j] == c {
				j++
			}
			n := j - i
			switch {
			case strings.IndexByte("yMdHhmsS", c) >= 0 && !(c == 'M' && n >= 3):
				fields = append(fields, field{letter: c, count: n})
			case strings.IndexByte("GyYMLwWDdFEuaHkKhmsSzZX", c) >= 0:
				return nil, nil, pattern[i:j]
			default:
				return nil, fmt.Errorf("Illegal pattern character '%c'", c), ""
			}
			i = j
		default:
			fields = append(fields, field{text: string(c)})
			i++
		}
	}
	return func(ms int64) string {
		t := time.UnixMilli(ms).UTC()
		var b strings.Builder
		for _, f := range fields {
			if f.letter == 0 {
				b.WriteString(f.text)
				continue
			}
			var v int
			switch f.letter {
			case 'y':
				v = t.Year()
				if f.count == 2 {
					v %= 100
				}
			case 'M':
				v = int(t.Month())
			case 'd':
				v = t.Day()
			case 'H':
				v = t.Hour()
			case 'h':
				v = t.Hour() % 12
				if v == 0 {
					v = 12
				}
			case 'm':
				v = t.Minute()
			case 's':
				v = t.Second()
			case 'S':
				v = t.Nanosecond() / int(time.Millisecond)
			}
			s := strconv.Itoa(v)
			for len(s) < f.count {
				s = "0" + s
			}
			b.WriteString(s)
		}
		return b.String()
	}, nil, ""
}
