package console

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/jsonvalue"
)

// jsonNode is a parsed JSON value (core/jsonvalue), read the way Kafka's
// tools read it through Jackson's tree model: object keys in their input
// order (a later duplicate's value under the first one's key), and a
// number an int, a long or a floating-point value.
type jsonNode = jsonvalue.Value

// parseJSON parses one JSON document (the whole input).
func parseJSON(s string) (*jsonNode, error) { return jsonvalue.Parse(s) }

// jsonInt reports whether n is a number Jackson reads as an IntNode (an
// integer literal that fits in 32 bits), and its value.
func jsonInt(n *jsonNode) (int32, bool) {
	v, ok := jsonLong(n)
	if !ok || v < -1<<31 || v >= 1<<31 {
		return 0, false
	}
	return int32(v), true
}

// jsonLong reports whether n is an integer literal that fits in 64 bits
// (an IntNode or a LongNode), and its value.
func jsonLong(n *jsonNode) (int64, bool) {
	if n.Kind != jsonvalue.Number || strings.ContainsAny(n.Str, ".eE") {
		return 0, false
	}
	v, err := strconv.ParseInt(n.Str, 10, 64)
	return v, err == nil
}

// jsonString renders the node compactly, as Jackson's JsonNode.toString
// does.
func jsonString(n *jsonNode) string {
	var b strings.Builder
	writeJSON(&b, n)
	return b.String()
}

func writeJSON(b *strings.Builder, n *jsonNode) {
	switch n.Kind {
	case jsonvalue.Null:
		b.WriteString("null")
	case jsonvalue.Bool:
		b.WriteString(n.Str)
	case jsonvalue.Number:
		if v, ok := jsonLong(n); ok {
			b.WriteString(strconv.FormatInt(v, 10))
		} else {
			b.WriteString(n.Str) // a DoubleNode or BigInteger, as written
		}
	case jsonvalue.String:
		writeJSONString(b, n.Str)
	case jsonvalue.Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	case jsonvalue.Object:
		b.WriteByte('{')
		for i, k := range n.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			v, _ := n.Field(k)
			writeJSON(b, v)
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
	return &jsonMappingError{fmt.Sprintf("Expected `%s` value, received %s", typ, jsonString(n))}
}

// jsonObject is JsonValue.asJsonObject.
func jsonObject(n *jsonNode) (*jsonNode, error) {
	if n.Kind != jsonvalue.Object {
		return nil, &jsonMappingError{"Expected JSON object, received " + jsonString(n)}
	}
	return n, nil
}

// jsonArray is JsonValue.asJsonArray.
func jsonArray(n *jsonNode) ([]*jsonNode, error) {
	if n.Kind != jsonvalue.Array {
		return nil, &jsonMappingError{"Expected JSON array, received " + jsonString(n)}
	}
	return n.Items, nil
}

// jsonField is JsonObject.apply: a required field.
func jsonField(n *jsonNode, name string) (*jsonNode, error) {
	v, ok := n.Field(name)
	if !ok {
		return nil, &jsonMappingError{"No such field exists: `" + name + "`"}
	}
	return v, nil
}

// jsonToInt is DecodeJson.DecodeInteger.
func jsonToInt(n *jsonNode) (int32, error) {
	v, ok := jsonInt(n)
	if !ok {
		return 0, expectedValue("Integer", n)
	}
	return v, nil
}

// jsonToString is DecodeJson.DecodeString.
func jsonToString(n *jsonNode) (string, error) {
	if n.Kind != jsonvalue.String {
		return "", expectedValue("String", n)
	}
	return n.Str, nil
}

// jsonToIntList decodes a JSON array of ints.
func jsonToIntList(n *jsonNode) ([]int32, error) {
	if n.Kind != jsonvalue.Array {
		return nil, expectedValue("JSON array", n)
	}
	out := make([]int32, 0, len(n.Items))
	for _, it := range n.Items {
		v, err := jsonToInt(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// jsonToStringList decodes a JSON array of strings.
func jsonToStringList(n *jsonNode) ([]string, error) {
	if n.Kind != jsonvalue.Array {
		return nil, expectedValue("JSON array", n)
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		v, err := jsonToString(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
