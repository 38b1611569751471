// Package jsonvalue reads JSON into a tree of values and writes JSON
// strings, without reflection: the one JSON reader of the engine and the
// page (share links, the quorum-state file, Kafka tools' JSON files, the
// page's DOM event summaries).
//
// encoding/json made up 0.2 MB of main.wasm's code for the three small
// formats the page reads and writes, besides the reflection it keeps
// alive (36 KB of the engine's brotli size). Each format maps the tree
// onto its own fields in a few lines instead, with encoding/json's rules
// (decode.go) where it replaces encoding/json.
//
// The syntax is RFC 8259's, checked as encoding/json's scanner checks
// it; strings are unescaped as encoding/json does (surrogate pairs
// joined, a lone surrogate or an invalid UTF-8 byte read as U+FFFD).
package jsonvalue

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is a JSON value's type.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is a parsed JSON value.
type Value struct {
	Kind Kind
	// Str is a String's text, a Number's literal as written, and "true" or
	// "false" for a Bool.
	Str   string
	Items []*Value // an Array's elements
	// Members are an Object's members in input order, duplicates included.
	Members []Member
}

// Member is one name/value pair of an object.
type Member struct {
	Key   string
	Value *Value
}

// Field returns an object's member named name (the last one if the name
// repeats: a later duplicate wins, as in Jackson's tree model and
// encoding/json's maps).
func (v *Value) Field(name string) (*Value, bool) {
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == name {
			return v.Members[i].Value, true
		}
	}
	return nil, false
}

// Keys returns an object's member names in first-seen order, each once.
func (v *Value) Keys() []string {
	var keys []string
	for i, m := range v.Members {
		first := true
		for _, p := range v.Members[:i] {
			if p.Key == m.Key {
				first = false
				break
			}
		}
		if first {
			keys = append(keys, m.Key)
		}
	}
	return keys
}

// MaxDepth bounds nesting, so that hostile input cannot exhaust the stack:
// encoding/json's limit (maxNestingDepth).
const MaxDepth = 10000

// Parse parses one JSON document: a value with only whitespace around it
// (encoding/json's Unmarshal). Errors name the line and column.
func Parse(s string) (*Value, error) {
	v, end, err := ParsePrefix(s)
	if err != nil {
		return nil, err
	}
	p := &parser{s: s, i: end}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected %s after the JSON value", p.what())
	}
	return v, nil
}

// ParsePrefix parses the value that s starts with (after whitespace) and
// returns where it ends; what follows is not looked at (encoding/json's
// Decoder.Decode).
func ParsePrefix(s string) (*Value, int, error) {
	p := &parser{s: s}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, 0, err
	}
	return v, p.i, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, r := range p.s[:min(p.i, len(p.s))] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("%s (line %d, column %d)", fmt.Sprintf(format, args...), line, col)
}

func (p *parser) what() string {
	if p.i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return fmt.Sprintf("character %q", r)
}

// space skips JSON's whitespace: space, tab, CR and LF only.
func (p *parser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value reads a value inside depth open arrays and objects.
func (p *parser) value(depth int) (*Value, error) {
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end of input: expected a JSON value")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.string()
		return &Value{Kind: String, Str: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, lit := range [...]struct {
		text string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if strings.HasPrefix(p.s[p.i:], lit.text) {
			p.i += len(lit.text)
			v := &Value{Kind: lit.kind}
			if lit.kind == Bool {
				v.Str = lit.text
			}
			return v, nil
		}
	}
	return nil, p.errorf("unexpected %s: expected a JSON value", p.what())
}

func (p *parser) object(depth int) (*Value, error) {
	if depth >= MaxDepth {
		return nil, p.errorf("JSON nested deeper than %d levels", MaxDepth)
	}
	v := &Value{Kind: Object}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errorf("unexpected %s: expected a field name in double quotes", p.what())
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("unexpected %s: expected ':'", p.what())
		}
		p.i++
		p.space()
		m, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{k, m})
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		return nil, p.errorf("unexpected %s: expected ',' or '}'", p.what())
	}
}

func (p *parser) array(depth int) (*Value, error) {
	if depth >= MaxDepth {
		return nil, p.errorf("JSON nested deeper than %d levels", MaxDepth)
	}
	v := &Value{Kind: Array}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		it, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, it)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return v, nil
		}
		return nil, p.errorf("unexpected %s: expected ',' or ']'", p.what())
	}
}

// string reads a string literal from its opening quote. Escapes and
// invalid UTF-8 are read as encoding/json's unquote reads them.
func (p *parser) string() (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("control character in a string")
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r) // utf8.RuneError for an invalid byte (n is 1)
			p.i += n
		}
	}
	return "", p.errorf("unexpected end of input in a string")
}

// escape reads one escape sequence from its backslash.
func (p *parser) escape(b *strings.Builder) error {
	if p.i+1 >= len(p.s) {
		p.i++
		return p.errorf("unexpected end of input in a string")
	}
	p.i++
	e := p.s[p.i]
	if i := strings.IndexByte(`"\/bfnrt`, e); i >= 0 {
		b.WriteByte("\"\\/\b\f\n\r\t"[i])
		p.i++
		return nil
	}
	if e != 'u' {
		return p.errorf("invalid escape \\%c", e)
	}
	if p.i+4 >= len(p.s) {
		return p.errorf("unexpected end of input in a \\u escape")
	}
	r, ok := p.hex4(p.i + 1)
	if !ok {
		return p.errorf("invalid \\u escape")
	}
	p.i += 5
	if utf16.IsSurrogate(r) {
		// A valid pair joins into one rune; anything else reads as
		// U+FFFD, and an escape that follows is read on its own.
		pair := utf8.RuneError
		if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
			if r2, ok := p.hex4(p.i + 2); ok {
				pair = utf16.DecodeRune(r, r2)
			}
		}
		if pair != utf8.RuneError {
			p.i += 6
		}
		r = pair
	}
	b.WriteRune(r)
	return nil
}

// hex4 reads four hex digits at s[i:].
func (p *parser) hex4(i int) (rune, bool) {
	if i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *parser) number() (*Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if first := p.i; digits() == 0 || (p.s[first] == '0' && p.i-first > 1) {
		return nil, p.errorf("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	return &Value{Kind: Number, Str: p.s[start:p.i]}, nil
}

// Any is v as encoding/json decodes it into an interface: nil, bool,
// float64, string, []any and map[string]any (a later duplicate key
// wins). It fails on a number out of float64's range.
func (v *Value) Any() (any, error) {
	switch v.Kind {
	case Bool:
		return v.Str == "true", nil
	case Number:
		return strconv.ParseFloat(v.Str, 64)
	case String:
		return v.Str, nil
	case Array:
		out := make([]any, 0, len(v.Items))
		for _, it := range v.Items {
			x, err := it.Any()
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	case Object:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			x, err := m.Value.Any()
			if err != nil {
				return nil, err
			}
			out[m.Key] = x
		}
		return out, nil
	}
	return nil, nil
}
