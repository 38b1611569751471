package console

import (
	"regexp"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/release"
)

// addConfigFormatError is the IllegalArgumentException ConfigCommand raises
// for a malformed --add-config; from 4.0 it goes on about brackets (with
// two spaces before "key=[", as ConfigCommand.parseConfigsToBeAdded has it).
const (
	addConfigFormatError   = `requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".`
	addConfigFormatError40 = `requirement failed: Invalid entity config: all configs to be added must be in the format "key=val" or  "key=[val1,val2]" to group values which contain commas.`
)

// outsideBrackets reports whether the text after a separator is outside a
// [...] group: ConfigCommand's lookahead (?=[^\]]*(?:\[|$)), which holds
// when a '[' comes before the next ']' or no ']' follows at all.
func outsideBrackets(rest string) bool {
	k := strings.IndexByte(rest, ']')
	if k < 0 {
		return true
	}
	return strings.IndexByte(rest[:k], '[') >= 0
}

// splitOutsideBrackets splits s at each separator match that is outside
// brackets, as Java's String.split does with that lookahead: with keepAll
// false trailing empty pieces are dropped (split(regex)); with it they are
// kept (split(regex, -1)). An empty s gives one empty piece.
func splitOutsideBrackets(s string, sep *regexp.Regexp, keepAll bool) []string {
	var out []string
	start := 0
	for _, m := range sep.FindAllStringIndex(s, -1) {
		if m[1] > m[0] && outsideBrackets(s[m[1]:]) {
			out = append(out, s[start:m[0]])
			start = m[1]
		}
	}
	out = append(out, s[start:])
	if !keepAll && len(out) > 1 {
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	return out
}

var (
	commaRe     = regexp.MustCompile(`,`)
	equalsRe    = regexp.MustCompile(`\s*=\s*`)
	configKeyRe = regexp.MustCompile(`^[a-zA-Z0-9._-]*$`)
	// configKeyRe43: 4.3 also allows '$' (logger names of inner classes).
	configKeyRe43 = regexp.MustCompile(`^[$a-zA-Z0-9._-]*$`)
)

// parseAddConfig parses --add-config as ConfigCommand.parseConfigsToBeAdded
// does: pairs separated by commas outside [...], each "key=value" (spaces
// around '=' allowed), every '[' and ']' removed from values, keys of
// [a-zA-Z0-9._-] only (empty allowed), the last duplicate wins. It returns
// the keys in first-seen order, the values, and the error line. rel is the
// release whose messages and key rule apply.
func parseAddConfig(s string, rel release.Version) ([]string, map[string]string, string) {
	var keys []string
	values := map[string]string{}
	for _, pair := range splitOutsideBrackets(s, commaRe, false) {
		kv := splitOutsideBrackets(pair, equalsRe, true)
		if len(kv) != 2 {
			if rel.AtLeast(4, 0) {
				return nil, nil, addConfigFormatError40
			}
			return nil, nil, addConfigFormatError
		}
		k := jdk.Trim(kv[0])
		v := jdk.Trim(strings.NewReplacer("[", "", "]", "").Replace(kv[1]))
		if _, seen := values[k]; !seen {
			keys = append(keys, k)
		}
		values[k] = v
	}
	keyRe := configKeyRe
	if rel.AtLeast(4, 3) {
		keyRe = configKeyRe43
	}
	for _, k := range keys {
		if !keyRe.MatchString(k) {
			return nil, nil, "Invalid character found for config key: " + k
		}
	}
	return keys, values, ""
}
