package timeline

import (
	"errors"
	"strconv"

	"kafkascope/core/jsonvalue"
)

// A link's JSON is what encoding/json wrote and read for shared and
// Action (their struct tags name the fields), written and read here by
// hand to keep encoding/json out of the page. The bytes are the same as
// json.Marshal's, so that a session's link does not change between
// builds, and reading follows json.Decoder with DisallowUnknownFields
// (jsonvalue's Decode functions and KeyIs; what follows the top-level
// value is not read). The tests hold both to encoding/json.

// encodeShared is json.Marshal(sh).
func encodeShared(sh shared) []byte {
	b := append([]byte(`{"v":`), strconv.Itoa(sh.V)...)
	b = append(b, `,"a":`...)
	if sh.Actions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range sh.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAction(b, a)
		}
		b = append(b, ']')
	}
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(sh.At), 10)
	if sh.End != 0 {
		b = append(b, `,"e":`...)
		b = strconv.AppendInt(b, int64(sh.End), 10)
	}
	return append(b, '}')
}

func appendAction(b []byte, a Action) []byte {
	b = append(b, `{"t":`...)
	b = strconv.AppendInt(b, int64(a.At), 10)
	if a.Line != "" {
		b = append(b, `,"c":`...)
		b = jsonvalue.AppendString(b, a.Line)
	}
	if len(a.Stdin) > 0 {
		b = append(b, `,"i":[`...)
		for i, in := range a.Stdin {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, in)
		}
		b = append(b, ']')
	}
	if a.Interrupt {
		b = append(b, `,"x":true`...)
	}
	return append(b, '}')
}

// errUnknownField is a key that names no field (DisallowUnknownFields).
var errUnknownField = errors.New("unknown field")

// parseShared decodes a link's JSON into sh as json.Decoder.Decode does.
func parseShared(data []byte, sh *shared) error {
	v, _, err := jsonvalue.ParsePrefix(string(data))
	if err != nil {
		return err
	}
	return jsonvalue.DecodeObject(v, func(key string, f *jsonvalue.Value) error {
		switch {
		case jsonvalue.KeyIs(key, "v"):
			return jsonvalue.DecodeInt(f, &sh.V)
		case jsonvalue.KeyIs(key, "a"):
			return jsonvalue.DecodeList(f, &sh.Actions, decodeAction)
		case jsonvalue.KeyIs(key, "at"):
			return jsonvalue.DecodeInt(f, &sh.At)
		case jsonvalue.KeyIs(key, "e"):
			return jsonvalue.DecodeInt(f, &sh.End)
		}
		return errUnknownField
	})
}

func decodeAction(v *jsonvalue.Value, a *Action) error {
	return jsonvalue.DecodeObject(v, func(key string, f *jsonvalue.Value) error {
		switch {
		case jsonvalue.KeyIs(key, "t"):
			return jsonvalue.DecodeInt(f, &a.At)
		case jsonvalue.KeyIs(key, "c"):
			return jsonvalue.DecodeString(f, &a.Line)
		case jsonvalue.KeyIs(key, "i"):
			return jsonvalue.DecodeList(f, &a.Stdin, jsonvalue.DecodeString)
		case jsonvalue.KeyIs(key, "x"):
			return jsonvalue.DecodeBool(f, &a.Interrupt)
		}
		return errUnknownField
	})
}
