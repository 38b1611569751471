package console

import "strings"

// ReadsStdin reports whether a command line reads lines of standard input
// after it (a terminal collects them until an empty line): the console
// producer, unless it only prints its help or version, and "cat > FILE".
func ReadsStdin(line string) bool {
	words, err := splitWords(line)
	if err != nil || len(words) == 0 {
		return false
	}
	if words[len(words)-1] == "&" {
		words = words[:len(words)-1]
	}
	switch {
	case toolName(words[0]) == "kafka-console-producer":
		for _, w := range words[1:] {
			if w == "--help" || w == "--version" {
				return false
			}
		}
		return true
	case words[0] == "cat" && len(words) >= 2:
		return strings.HasPrefix(words[1], ">")
	}
	return false
}
