package hashing

import (
	"math"
	"unicode/utf16"
)

// JavaStringHashCode is Java's String.hashCode for s: h = 31*h + c over the
// string's UTF-16 code units, in wrapping int32 arithmetic. Kafka's group and
// transaction coordinators place ids with it, so it must match Java exactly.
//
// s is read as UTF-8 and each rune outside the Basic Multilingual Plane
// contributes two code units (its surrogate pair), as in Java. Invalid UTF-8
// is decoded the Go way, one U+FFFD per bad byte; Java's decoder sometimes
// folds a malformed sequence into a single U+FFFD, so hashes of invalid UTF-8
// can differ from Java's. Kafka ids arrive as protocol strings, which are
// UTF-8, so this only matters for garbage input.
func JavaStringHashCode(s string) int32 {
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

// JavaStringLength is Java's String.length() for s: its UTF-16 code units
// (a rune outside the Basic Multilingual Plane counts two). Kafka's limits
// on names and the tools' column widths are in these units.
func JavaStringLength(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// Abs is Kafka's Utils.abs: |n|, except that MinInt32 (whose negation
// overflows back to itself in Java's Math.abs) maps to 0. The result is never
// negative, so Abs(h) % n is a valid partition index.
func Abs(n int32) int32 {
	if n == math.MinInt32 {
		return 0
	}
	if n < 0 {
		return -n
	}
	return n
}
