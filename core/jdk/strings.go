package jdk

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"
)

// Split is String.split(sep) for a separator that is no regular expression
// (one character, none of the metacharacters .$|()[{^?*+\ : Java's fast
// path): the pieces between separators, trailing empty pieces dropped.
// It differs from Java in one case: an empty s gives no piece, where Java
// gives one empty piece.
func Split(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// SplitRegex is String.split(regex): pieces between matches, no empty
// first piece for an empty match at the start, trailing empty pieces
// dropped, the whole text when nothing matches. The expression is compiled
// by Go (RE2), which accepts most delimiters the way Java does.
func SplitRegex(s, expr string) ([]string, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	var out []string
	start := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[0] == 0 && m[1] == 0 {
			continue
		}
		out = append(out, s[start:m[0]])
		start = m[1]
	}
	if start == 0 && len(out) == 0 {
		return []string{s}, nil
	}
	out = append(out, s[start:])
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, nil
}

// Trim is String.trim: it strips characters up to and including ' '.
func Trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// Less reports whether a sorts before b by String.compareTo: in the order
// of their UTF-16 code units.
func Less(a, b string) bool { return Compare(a, b) < 0 }

// Compare is String.compareTo's sign: -1, 0 or 1 in the order of the
// strings' UTF-16 code units.
func Compare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// StringLength is String.length(): s's UTF-16 code units (a rune outside
// the Basic Multilingual Plane counts two). Kafka's limits on names and
// the tools' column widths are in these units, and so are a browser's
// string offsets.
func StringLength(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
