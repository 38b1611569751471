package jsonvalue

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// The Decode functions store a value into a Go variable as encoding/json's
// Unmarshal stores it into a field of that type, for formats that used to
// be read with encoding/json: null leaves a number, string, bool or
// struct as it was and makes a list nil; a list decodes over the one
// already there; any other type of value is ErrType.

// ErrType is a value of the wrong type for its variable.
var ErrType = errors.New("JSON value of the wrong type")

// DecodeObject calls field for each member of an object, in input order
// (a later duplicate is seen last); null is no object and no error.
func DecodeObject(v *Value, field func(key string, f *Value) error) error {
	switch v.Kind {
	case Null:
		return nil
	case Object:
		for _, m := range v.Members {
			if err := field(m.Key, m.Value); err != nil {
				return err
			}
		}
		return nil
	}
	return ErrType
}

// DecodeList decodes an array into *list as encoding/json decodes into a
// slice: each element over the one already at its index (with elem), the
// slice cut to the array's length, an empty array an empty, non-nil list.
func DecodeList[T any](v *Value, list *[]T, elem func(*Value, *T) error) error {
	switch v.Kind {
	case Null:
		*list = nil
		return nil
	case Array:
	default:
		return ErrType
	}
	s := *list
	for i, it := range v.Items {
		// reflect.Value.Grow then SetLen, as encoding/json grows it: an
		// element between the length and the capacity is reused as is.
		if i == cap(s) {
			var zero T
			s = append(s, zero)
		} else if i >= len(s) {
			s = s[:i+1]
		}
		if err := elem(it, &s[i]); err != nil {
			return err
		}
	}
	s = s[:len(v.Items)]
	if len(s) == 0 {
		s = []T{}
	}
	*list = s
	return nil
}

// DecodeString decodes a string.
func DecodeString(v *Value, s *string) error {
	switch v.Kind {
	case Null:
		return nil
	case String:
		*s = v.Str
		return nil
	}
	return ErrType
}

// DecodeBool decodes true or false.
func DecodeBool(v *Value, b *bool) error {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		*b = v.Str == "true"
		return nil
	}
	return ErrType
}

// DecodeInt decodes an integer literal in T's range ("1.0" and "1e2" are
// not integers).
func DecodeInt[T ~int | ~int16 | ~int32 | ~int64](v *Value, n *T) error {
	switch v.Kind {
	case Null:
		return nil
	case Number:
		i, err := strconv.ParseInt(v.Str, 10, 64)
		if err != nil || int64(T(i)) != i {
			return ErrType
		}
		*n = T(i)
		return nil
	}
	return ErrType
}

// KeyIs reports whether an object's key selects the field named name as
// encoding/json matches keys to a struct's fields: equal, or equal but
// for case as bytes.EqualFold says (name is ASCII; of the other runes,
// only U+017F folds to s and U+212A to k).
func KeyIs(key, name string) bool {
	if key == name {
		return true
	}
	j := 0
	for _, r := range key {
		if j >= len(name) {
			return false
		}
		switch r {
		case 'ſ':
			r = 's'
		case 'K':
			r = 'k'
		}
		if r >= utf8.RuneSelf || lower(byte(r)) != lower(name[j]) {
			return false
		}
		j++
	}
	return j == len(name)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
