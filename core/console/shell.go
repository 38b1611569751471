package console

import (
	"fmt"
	"strings"
)

// splitWords splits a command line like a POSIX shell: whitespace separates
// words; single quotes keep everything literally; double quotes keep
// whitespace and honour \" and \\; a backslash outside quotes escapes the
// next character.
func splitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unexpected EOF while looking for matching `''")
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\' || line[i+1] == '$') {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unexpected EOF while looking for matching `\"'")
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// toolName reduces a command word to the tool's base name: any path prefix
// and a ".sh" suffix are dropped (/opt/kafka/bin/kafka-topics.sh and
// kafka-topics both name kafka-topics).
func toolName(word string) string {
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		word = word[i+1:]
	}
	return strings.TrimSuffix(word, ".sh")
}
