package jmx

import (
	"errors"
	"strings"
)

// Property is one key=value of an ObjectName's key property list.
type Property struct {
	Key, Value string
	// Pattern: the value holds an unquoted or quoted '*' or '?' (a
	// property value pattern).
	Pattern bool
}

// ObjectName is a parsed javax.management.ObjectName: domain:key=value,...
// Its String is the name as written, as ObjectName.toString returns a
// name built from a string (Kafka's metric names keep their tags'
// order: type, name, then the tags).
type ObjectName struct {
	text   string
	Domain string
	Props  []Property
	// ListPattern: the property list ends with '*' (matches names with
	// more properties).
	ListPattern   bool
	domainPattern bool
}

func (n ObjectName) String() string { return n.text }

// IsPattern is ObjectName.isPattern: a domain, property list or
// property value pattern.
func (n ObjectName) IsPattern() bool {
	if n.domainPattern || n.ListPattern {
		return true
	}
	for _, p := range n.Props {
		if p.Pattern {
			return true
		}
	}
	return false
}

// Prop is the value of key, if the name has it.
func (n ObjectName) Prop(key string) (string, bool) {
	for _, p := range n.Props {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// MalformedObjectName is javax.management.MalformedObjectNameException;
// its messages are the JDK's.
type MalformedObjectName struct{ Message string }

func (e *MalformedObjectName) Error() string { return e.Message }

func malformed(msg string) error { return &MalformedObjectName{Message: msg} }

// ParseObjectName parses s as new ObjectName(s) does, with its errors.
func ParseObjectName(s string) (ObjectName, error) {
	n := ObjectName{text: s}
	if s == "" { // the empty name is *:*
		n.Domain, n.ListPattern, n.domainPattern = "*", true, true
		return n, nil
	}
	colon := -1
	for i := 0; i < len(s) && colon < 0; i++ {
		switch s[i] {
		case ':':
			colon = i
		case '=':
			if !strings.Contains(s[i+1:], ":") {
				return n, malformed("Domain part must be specified")
			}
		case '\n':
			return n, malformed(`Invalid character '\n' in domain name`)
		case '*', '?':
			n.domainPattern = true
		}
	}
	if colon < 0 || colon == len(s)-1 {
		return n, malformed("Key properties cannot be empty")
	}
	n.Domain = s[:colon]
	rest := s[colon+1:]
	seen := map[string]bool{}
	for len(rest) > 0 {
		if rest[0] == '*' {
			if n.ListPattern {
				return n, malformed("Cannot have several '*' characters in pattern property list")
			}
			n.ListPattern = true
			if len(rest) > 1 && rest[1] != ',' {
				return n, malformed("Invalid character found after '*': end of name or ',' expected")
			}
			rest = strings.TrimPrefix(rest[1:], ",")
			continue
		}
		p, tail, err := parseProperty(rest)
		if err != nil {
			return n, err
		}
		if seen[p.Key] {
			return n, malformed("key `" + p.Key + "' already defined")
		}
		seen[p.Key] = true
		n.Props = append(n.Props, p)
		rest = tail
	}
	return n, nil
}

// parseProperty reads one key=value from the start of s and returns what
// follows its separating comma.
func parseProperty(s string) (Property, string, error) {
	if s[0] == '=' {
		return Property{}, "", malformed("Invalid key (empty)")
	}
	eq := -1
	for i := 0; i < len(s) && eq < 0; i++ {
		switch c := s[i]; c {
		case '=':
			eq = i
		case '*', '?', ',', ':', '\n':
			return Property{}, "", malformed("Invalid character '" + printable(c) + "' in key part of property")
		}
	}
	if eq < 0 {
		return Property{}, "", malformed("Unterminated key property part")
	}
	p := Property{Key: s[:eq]}
	i := eq + 1
	if i < len(s) && s[i] == '"' {
		end, pattern, err := quotedEnd(s, i)
		if err != nil {
			return Property{}, "", err
		}
		p.Value, p.Pattern, i = s[eq+1:end], pattern, end
		if i == len(s)-1 {
			return Property{}, "", malformed("Invalid ending character `" + s[i:] + "'")
		}
	} else {
		for ; i < len(s) && s[i] != ','; i++ {
			switch c := s[i]; c {
			case '*', '?':
				p.Pattern = true
			case '=', ':', '"', '\n':
				return Property{}, "", malformed("Invalid character '" + printable(c) + "' in value part of property")
			}
		}
		p.Value = s[eq+1 : i]
		if i == len(s)-1 {
			return Property{}, "", malformed("Invalid ending comma")
		}
	}
	if i < len(s) {
		i++ // the comma
	}
	return p, s[i:], nil
}

// quotedEnd is the index just past the quoted value starting at s[at].
func quotedEnd(s string, at int) (int, bool, error) {
	pattern := false
	for i := at + 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, pattern, nil
		case '\\':
			i++
			if i == len(s) {
				return 0, false, malformed("Unterminated quoted value")
			}
			if !strings.ContainsRune(`\"?*n`, rune(s[i])) {
				return 0, false, malformed(`Invalid escape sequence '\` + s[i:i+1] + "' in quoted value")
			}
		case '\n':
			return 0, false, malformed("Newline in quoted value")
		case '*', '?':
			pattern = true
		}
	}
	return 0, false, malformed("Unterminated quoted value")
}

func printable(c byte) string {
	if c == '\n' {
		return `\n`
	}
	return string(c)
}

// Matches is ObjectName.apply: pattern (or an exact name) matches name,
// a registered (non-pattern) name. The domain and property values match
// as wildcards ('*' any run, '?' one character); without a list pattern
// the key sets must be equal, with one the name may have more keys.
func (pattern ObjectName) Matches(name ObjectName) bool {
	if !wildcard(pattern.Domain, name.Domain) {
		return false
	}
	if !pattern.ListPattern && len(pattern.Props) != len(name.Props) {
		return false
	}
	for _, p := range pattern.Props {
		v, ok := name.Prop(p.Key)
		if !ok {
			return false
		}
		if p.Pattern && !wildcard(p.Value, v) || !p.Pattern && p.Value != v {
			return false
		}
	}
	return true
}

// wildcard matches s against a '*' and '?' pattern.
func wildcard(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if wildcard(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && wildcard(pat[1:], s[1:])
	}
	return s != "" && s[0] == pat[0] && wildcard(pat[1:], s[1:])
}

// MustObjectName parses a name the simulator itself builds.
func MustObjectName(s string) ObjectName {
	n, err := ParseObjectName(s)
	if err != nil {
		panic(errors.New("jmx: " + s + ": " + err.Error()))
	}
	return n
}
