package jdk

import "unicode"

// ParseInt is Long.parseLong / Integer.parseInt in base 10: an optional
// sign, then decimal digits of any script in the Basic Multilingual Plane,
// within range.
func ParseInt(s string, bits int) (int64, bool) {
	rs := []rune(s)
	if len(rs) == 0 {
		return 0, false
	}
	neg := false
	if rs[0] == '-' || rs[0] == '+' {
		neg = rs[0] == '-'
		rs = rs[1:]
		if len(rs) == 0 {
			return 0, false
		}
	}
	limit := uint64(1)<<(bits-1) - 1
	if neg {
		limit++
	}
	var n uint64
	for _, r := range rs {
		d, ok := decimalDigit(r)
		if !ok {
			return 0, false
		}
		if n > (limit-uint64(d))/10 {
			return 0, false
		}
		n = n*10 + uint64(d)
	}
	if neg {
		return -int64(n-1) - 1, true
	}
	return int64(n), true
}

// decimalDigit is Character.digit(ch, 10): the value of a decimal digit
// (Unicode category Nd) in the BMP. Nd digits come in runs of ten from 0.
func decimalDigit(r rune) (int, bool) {
	if r > 0xFFFF || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	k := 0
	for k < 100 && unicode.Is(unicode.Nd, r-rune(k)-1) {
		k++
	}
	return k % 10, true
}
