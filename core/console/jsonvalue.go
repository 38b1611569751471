package console

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonNode is a parsed JSON value that keeps what Kafka's tools need to
// report it the way Jackson does: object keys in their input order, and
// whether a number is an int, a long or a floating-point value.
type jsonNode struct {
	kind   jsonKind
	str    string // string value; number literal as written
	num    int64  // value of an int or long
	items  []*jsonNode
	keys   []string
	fields map[string]*jsonNode
}

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonInt    // fits in 32 bits (Jackson IntNode)
	jsonLong   // fits in 64 bits (LongNode)
	jsonDouble // anything else numeric (DoubleNode / BigInteger)
	jsonString
	jsonArray
	jsonObject
)

// maxJSONDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxJSONDepth = 64

// parseJSON parses one JSON document (the whole input).
func parseJSON(s string) (*jsonNode, error) {
	p := &jsonParser{s: s}
	p.space()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected %s after the JSON value", p.what())
	}
	return n, nil
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) errorf(format string, args ...any) error {
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

func (p *jsonParser) what() string {
	if p.i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return fmt.Sprintf("character %q", r)
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	if depth > maxJSONDepth {
		return nil, p.errorf("JSON nested deeper than %d levels", maxJSONDepth)
	}
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
		return &jsonNode{kind: jsonString, str: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &jsonNode{kind: jsonBool, str: "true"}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &jsonNode{kind: jsonBool, str: "false"}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &jsonNode{kind: jsonNull}, nil
	}
	return nil, p.errorf("unexpected %s: expected a JSON value", p.what())
}

func (p *jsonParser) object(depth int) (*jsonNode, error) {
	n := &jsonNode{kind: jsonObject, fields: map[string]*jsonNode{}}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, nil
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
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, dup := n.fields[k]; !dup {
			n.keys = append(n.keys, k)
		}
		n.fields[k] = v // the last duplicate wins, as in Jackson's tree model
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return n, nil
		}
		return nil, p.errorf("unexpected %s: expected ',' or '}'", p.what())
	}
}

func (p *jsonParser) array(depth int) (*jsonNode, error) {
	n := &jsonNode{kind: jsonArray}
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		return nil, p.errorf("unexpected %s: expected ',' or ']'", p.what())
	}
}

func (p *jsonParser) string() (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			switch e := p.s[p.i]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.i+4 >= len(p.s) {
					return "", p.errorf("unexpected end of input in a \\u escape")
				}
				v, err := strconv.ParseUint(p.s[p.i+1:p.i+5], 16, 16)
				if err != nil {
					return "", p.errorf("invalid \\u escape")
				}
				b.WriteRune(rune(v))
				p.i += 4
			default:
				return "", p.errorf("invalid escape \\%c", e)
			}
			p.i++
		case c < 0x20:
			return "", p.errorf("control character in a string")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", p.errorf("unexpected end of input in a string")
}

func (p *jsonParser) number() (*jsonNode, error) {
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
	if digits() == 0 {
		return nil, p.errorf("invalid number")
	}
	integral := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		integral = false
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		integral = false
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	lit := p.s[start:p.i]
	n := &jsonNode{kind: jsonDouble, str: lit}
	if integral {
		if v, err := strconv.ParseInt(lit, 10, 64); err == nil {
			n.num, n.kind = v, jsonLong
			if v >= -1<<31 && v < 1<<31 {
				n.kind = jsonInt
			}
		}
	}
	return n, nil
}

// String renders the node compactly, as Jackson's JsonNode.toString does.
func (n *jsonNode) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *jsonNode) write(b *strings.Builder) {
	switch n.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool, jsonDouble:
		b.WriteString(n.str)
	case jsonInt, jsonLong:
		b.WriteString(strconv.FormatInt(n.num, 10))
	case jsonString:
		writeJSONString(b, n.str)
	case jsonArray:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.write(b)
		}
		b.WriteByte(']')
	case jsonObject:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			n.fields[k].write(b)
		}
		b.WriteByte('}')
	}
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// jsonMappingError is Jackson's JsonMappingException as Kafka's JSON
// helpers raise it (server-common util/json): a message without a location.
type jsonMappingError struct{ msg string }

func (e *jsonMappingError) Error() string { return e.msg }

func expectedValue(typ string, n *jsonNode) error {
	return &jsonMappingError{fmt.Sprintf("Expected `%s` value, received %s", typ, n)}
}

// object is JsonValue.asJsonObject.
func (n *jsonNode) object() (*jsonNode, error) {
	if n.kind != jsonObject {
		return nil, &jsonMappingError{"Expected JSON object, received " + n.String()}
	}
	return n, nil
}

// array is JsonValue.asJsonArray.
func (n *jsonNode) array() ([]*jsonNode, error) {
	if n.kind != jsonArray {
		return nil, &jsonMappingError{"Expected JSON array, received " + n.String()}
	}
	return n.items, nil
}

// field is JsonObject.apply: a required field.
func (n *jsonNode) field(name string) (*jsonNode, error) {
	v, ok := n.fields[name]
	if !ok {
		return nil, &jsonMappingError{"No such field exists: `" + name + "`"}
	}
	return v, nil
}

// toInt is DecodeJson.DecodeInteger.
func (n *jsonNode) toInt() (int32, error) {
	if n.kind != jsonInt {
		return 0, expectedValue("Integer", n)
	}
	return int32(n.num), nil
}

// toString is DecodeJson.DecodeString.
func (n *jsonNode) toString() (string, error) {
	if n.kind != jsonString {
		return "", expectedValue("String", n)
	}
	return n.str, nil
}

// toIntList decodes a JSON array of ints.
func (n *jsonNode) toIntList() ([]int32, error) {
	if n.kind != jsonArray {
		return nil, expectedValue("JSON array", n)
	}
	out := make([]int32, 0, len(n.items))
	for _, it := range n.items {
		v, err := it.toInt()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// toStringList decodes a JSON array of strings.
func (n *jsonNode) toStringList() ([]string, error) {
	if n.kind != jsonArray {
		return nil, expectedValue("JSON array", n)
	}
	out := make([]string, 0, len(n.items))
	for _, it := range n.items {
		v, err := it.toString()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
