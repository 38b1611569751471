package jdk

import (
	"regexp"
	"strconv"
	"strings"
)

// LoadProperties is Properties.load from a file: ISO-8859-1 text,
// '#' and '!' comments, "key=value", "key: value" or "key value",
// backslash escapes and line continuations. It returns the exception a
// malformed \u escape raises.
func LoadProperties(text string) (map[string]string, string) {
	// The file's bytes are read as ISO-8859-1: one character per byte.
	latin := make([]rune, len(text))
	for i := 0; i < len(text); i++ {
		latin[i] = rune(text[i])
	}
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\f' }
	var lines [][]rune
	var cur []rune
	continuing := false
	natural := lineEndRe.Split(string(latin), -1)
	for _, nl := range natural {
		l := []rune(nl)
		i := 0
		for i < len(l) && isSpace(l[i]) {
			i++
		}
		l = l[i:]
		if !continuing && (len(l) == 0 || l[0] == '#' || l[0] == '!') {
			continue
		}
		slashes := 0
		for j := len(l) - 1; j >= 0 && l[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 1 {
			cur = append(cur, l[:len(l)-1]...)
			// A continuation of nothing yet starts afresh: the next
			// line may still be blank or a comment.
			continuing = len(cur) > 0
			continue
		}
		cur = append(cur, l...)
		lines = append(lines, cur)
		cur, continuing = nil, false
	}
	if continuing {
		lines = append(lines, cur)
	}
	props := map[string]string{}
	for _, l := range lines {
		keyEnd, valStart := len(l), len(l)
		for i := 0; i < len(l); i++ {
			if l[i] == '\\' {
				i++
				continue
			}
			if l[i] == '=' || l[i] == ':' || isSpace(l[i]) {
				keyEnd = i
				j := i
				for j < len(l) && isSpace(l[j]) {
					j++
				}
				if j < len(l) && (l[j] == '=' || l[j] == ':') && (isSpace(l[i]) || j == i) {
					j++
					for j < len(l) && isSpace(l[j]) {
						j++
					}
				}
				valStart = j
				break
			}
		}
		k, err := unescape(l[:keyEnd])
		if err != "" {
			return nil, err
		}
		v, err := unescape(l[min(valStart, len(l)):])
		if err != "" {
			return nil, err
		}
		props[k] = v
	}
	return props, ""
}

var lineEndRe = regexp.MustCompile(`\r\n|\r|\n`)

// unescape is Properties.loadConvert: \t \n \r \f, \uXXXX, and a
// backslash before any other character keeps that character.
func unescape(rs []rune) (string, string) {
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if rs[i] != '\\' || i+1 >= len(rs) {
			b.WriteRune(rs[i])
			continue
		}
		i++
		switch rs[i] {
		case 't':
			b.WriteRune('\t')
		case 'n':
			b.WriteRune('\n')
		case 'r':
			b.WriteRune('\r')
		case 'f':
			b.WriteRune('\f')
		case 'u':
			if i+4 >= len(rs) {
				return "", "java.lang.IllegalArgumentException: Malformed \\uxxxx encoding."
			}
			n, err := strconv.ParseUint(string(rs[i+1:i+5]), 16, 16)
			if err != nil {
				return "", "java.lang.IllegalArgumentException: Malformed \\uxxxx encoding."
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteRune(rs[i])
		}
	}
	return b.String(), ""
}
