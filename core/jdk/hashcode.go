package jdk

import "unicode/utf16"

// StringHashCode is String.hashCode: h = 31*h + c over the string's UTF-16
// code units, in wrapping int32 arithmetic. Kafka places group and
// transactional ids on partitions with it, and a HashMap of Strings
// iterates by it (HashSetOrder), so it must match Java exactly.
//
// s is read as UTF-8 and each rune outside the Basic Multilingual Plane
// contributes two code units (its surrogate pair), as in Java. Invalid UTF-8
// is decoded the Go way, one U+FFFD per bad byte; Java's decoder sometimes
// folds a malformed sequence into a single U+FFFD, so hashes of invalid UTF-8
// can differ from Java's. Kafka ids arrive as protocol strings, which are
// UTF-8, so this only matters for garbage input.
func StringHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r < 0x10000 {
			// In the BMP: one code unit, equal to the rune.
			h = 31*h + int32(r)
			continue
		}
		// Supplementary rune: two code units, high surrogate first.
		hi, lo := utf16.EncodeRune(r)
		h = 31*h + int32(hi)
		h = 31*h + int32(lo)
	}
	return h
}
