package kafkazk

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"kafkascope/core/jsonvalue"
)

// Reading znode JSON as Kafka's Json.parseBytes and JsonValue do
// (kafka/utils/Json.scala and kafka/utils/json/DecodeJson.scala, 2.8.0):
// Jackson's readTree, where a later duplicate key wins and what follows
// the first value is not looked at, then typed reads that fail on a
// missing key or a value of the wrong JSON type (DecodeInt takes only an
// integer that fits an Int, DecodeString only a string).

// parseJSON parses the value the data starts with. Jackson rejects
// invalid UTF-8 and empty input.
func parseJSON(data []byte) (*jsonvalue.Value, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("kafkazk: invalid UTF-8 in znode data")
	}
	v, _, err := jsonvalue.ParsePrefix(string(data))
	if err != nil {
		return nil, fmt.Errorf("kafkazk: %w", err)
	}
	return v, nil
}

// parseObject parses data that must be a JSON object (asJsonObject).
func parseObject(data []byte) (*jsonvalue.Value, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != jsonvalue.Object {
		return nil, fmt.Errorf("kafkazk: znode data is not a JSON object")
	}
	return v, nil
}

// field is obj(key): the member, which must be there.
func field(obj *jsonvalue.Value, key string) (*jsonvalue.Value, error) {
	v, ok := obj.Field(key)
	if !ok {
		return nil, fmt.Errorf("kafkazk: no %q in znode data", key)
	}
	return v, nil
}

// asInt32 is to[Int]: an integer literal within Int's range.
func asInt32(v *jsonvalue.Value, what string) (int32, error) {
	if v.Kind == jsonvalue.Number {
		if n, err := strconv.ParseInt(v.Str, 10, 32); err == nil {
			return int32(n), nil
		}
	}
	return 0, fmt.Errorf("kafkazk: %s is not an Int", what)
}

// asString is to[String]: a JSON string.
func asString(v *jsonvalue.Value, what string) (string, error) {
	if v.Kind != jsonvalue.String {
		return "", fmt.Errorf("kafkazk: %s is not a string", what)
	}
	return v.Str, nil
}

// asInt32s is to[Seq[Int]]: an array of Ints.
func asInt32s(v *jsonvalue.Value, what string) ([]int32, error) {
	if v.Kind != jsonvalue.Array {
		return nil, fmt.Errorf("kafkazk: %s is not an array", what)
	}
	out := make([]int32, len(v.Items))
	for i, it := range v.Items {
		n, err := asInt32(it, what)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// intField is obj(key).to[Int].
func intField(obj *jsonvalue.Value, key string) (int32, error) {
	v, err := field(obj, key)
	if err != nil {
		return 0, err
	}
	return asInt32(v, strconv.Quote(key))
}

// stringField is obj(key).to[String].
func stringField(obj *jsonvalue.Value, key string) (string, error) {
	v, err := field(obj, key)
	if err != nil {
		return "", err
	}
	return asString(v, strconv.Quote(key))
}
