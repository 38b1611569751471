package metadata

import (
	"encoding/binary"
	"fmt"
	"math"
)

// gmsg is a record (or nested struct) in generic form: one value per schema
// field, in schema order. The values (gvalue) are, by field type:
//
//	bool, int8, int16, uint16, int32, int64, float64, Uuid
//	string fields: string, or nil for null
//	bytes fields:  []byte (nil is null where the field is nullable)
//	arrays:        []int32, []Uuid, []string or []*gmsg (nil is null where
//	               the field is nullable, and empty otherwise)
type gmsg struct {
	s    *schema
	vals []any
}

// newMsg returns a message with every field at its default.
func newMsg(s *schema) *gmsg {
	m := &gmsg{s: s, vals: make([]any, len(s.fields))}
	for i := range s.fields {
		m.vals[i] = s.fields[i].defaultOf()
	}
	return m
}

// set stores a field's value by name; it panics on an unknown name (a bug in
// this package's mapping code).
func (m *gmsg) set(name string, v any) {
	for i := range m.s.fields {
		if m.s.fields[i].name == name {
			m.vals[i] = v
			return
		}
	}
	panic("metadata: " + m.s.name + " has no field " + name)
}

// get returns a field's value by name.
func (m *gmsg) get(name string) any {
	for i := range m.s.fields {
		if m.s.fields[i].name == name {
			return m.vals[i]
		}
	}
	panic("metadata: " + m.s.name + " has no field " + name)
}

// isNull reports whether a variable-length value is null.
func isNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []byte:
		return x == nil
	case []int32:
		return x == nil
	case []Uuid:
		return x == nil
	case []string:
		return x == nil
	case []*gmsg:
		return x == nil
	}
	return false
}

func arrayLen(v any) int {
	switch x := v.(type) {
	case []int32:
		return len(x)
	case []Uuid:
		return len(x)
	case []string:
		return len(x)
	case []*gmsg:
		return len(x)
	case []byte:
		return len(x)
	}
	return 0
}

// nonDefault reports whether a value differs from the field's default, the
// way Kafka's generated code decides whether to write a tagged field
// (FieldSpec.generateNonDefaultValueCheck). It uses the field's nullability
// in any version, as Kafka does.
func (f *fieldSpec) nonDefault(v any) bool {
	if f.array || f.typ == tBytes {
		switch {
		case f.def == "null":
			return !isNull(v)
		case !f.canBeNull():
			return arrayLen(v) != 0
		default:
			return isNull(v) || arrayLen(v) != 0
		}
	}
	switch f.typ {
	case tString:
		if f.def == "null" {
			return v != nil
		}
		// null (only possible when nullable) or a different string
		s, ok := v.(string)
		return !ok || s != f.def
	case tFloat64:
		d := f.defaultOf().(float64)
		x, _ := v.(float64)
		return x != d // Java compares doubles with != too
	}
	return v != f.defaultOf()
}

// encodeError is what a write that Kafka's generated code would refuse
// returns.
type encodeError struct{ msg string }

func (e *encodeError) Error() string { return "metadata: " + e.msg }

// writer accumulates the serialized form.
type writer struct{ b []byte }

func (w *writer) uvarint(v uint32) { w.b = binary.AppendUvarint(w.b, uint64(v)) }
func (w *writer) u8(v byte)        { w.b = append(w.b, v) }
func (w *writer) u16(v uint16)     { w.b = binary.BigEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32)     { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)     { w.b = binary.BigEndian.AppendUint64(w.b, v) }

func sizeOfUvarint(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// encodeFrame serializes a record as Kafka's MetadataRecordSerde does
// (AbstractApiMessageSerde.write): the unsigned varint frame version 1, the
// unsigned varint api key, the unsigned varint record version, then the
// message body at that version.
func encodeFrame(m *gmsg, version int16) ([]byte, error) {
	if version < 0 || version > m.s.maxVersion {
		return nil, &encodeError{fmt.Sprintf("%s has no version %d", m.s.name, version)}
	}
	w := &writer{}
	w.uvarint(frameVersion)
	w.uvarint(uint32(m.s.apiKey))
	w.uvarint(uint32(version))
	if err := w.message(m, version); err != nil {
		return nil, err
	}
	return w.b, nil
}

// message writes a struct body in Kafka's flexible-version format: the
// untagged fields present at this version in schema order, then the tagged
// field section (count, then tag/size/value in tag order) holding the tagged
// fields whose value is not the default.
func (w *writer) message(m *gmsg, v int16) error {
	type taggedField struct {
		f   *fieldSpec
		val any
	}
	var tagged []taggedField
	for i := range m.s.fields {
		f := &m.s.fields[i]
		val := m.vals[i]
		if !f.presentAt(v) {
			// Kafka refuses to drop a non-default value of a field the
			// version lacks (generateNonIgnorableFieldCheck).
			if f.nonDefault(val) {
				return &encodeError{fmt.Sprintf("Attempted to write a non-default %s at version %d", f.name, v)}
			}
			continue
		}
		if f.taggedAt(v) {
			if f.nonDefault(val) {
				tagged = append(tagged, taggedField{f, val})
			}
			continue
		}
		if err := w.value(f, val, v); err != nil {
			return err
		}
	}
	// Tags are written in increasing order (Kafka sorts them in a TreeMap).
	for i := 1; i < len(tagged); i++ {
		for j := i; j > 0 && tagged[j].f.tag < tagged[j-1].f.tag; j-- {
			tagged[j], tagged[j-1] = tagged[j-1], tagged[j]
		}
	}
	w.uvarint(uint32(len(tagged)))
	for _, t := range tagged {
		w.uvarint(uint32(t.f.tag))
		if isNull(t.val) {
			// A null value of a tagged field whose default is not null.
			w.uvarint(1)
			w.uvarint(0)
			continue
		}
		inner := &writer{}
		if err := inner.value(t.f, t.val, v); err != nil {
			return err
		}
		w.uvarint(uint32(len(inner.b)))
		w.b = append(w.b, inner.b...)
	}
	return nil
}

// value writes one field's value (not its tag).
func (w *writer) value(f *fieldSpec, val any, v int16) error {
	if f.array {
		if isNull(val) && f.nullableAt(v) {
			w.uvarint(0)
			return nil
		}
		n := arrayLen(val)
		w.uvarint(uint32(n) + 1)
		switch x := val.(type) {
		case []int32:
			for _, e := range x {
				w.u32(uint32(e))
			}
		case []Uuid:
			for _, e := range x {
				w.b = append(w.b, e[:]...)
			}
		case []string:
			for _, e := range x {
				if err := w.str(f, e); err != nil {
					return err
				}
			}
		case []*gmsg:
			for _, e := range x {
				if err := w.message(e, v); err != nil {
					return err
				}
			}
		case nil:
		default:
			return &encodeError{fmt.Sprintf("field %s holds %T", f.name, val)}
		}
		return nil
	}
	switch f.typ {
	case tBool:
		if val.(bool) {
			w.u8(1)
		} else {
			w.u8(0)
		}
	case tInt8:
		w.u8(byte(val.(int8)))
	case tInt16:
		w.u16(uint16(val.(int16)))
	case tUint16:
		w.u16(val.(uint16))
	case tInt32:
		w.u32(uint32(val.(int32)))
	case tInt64:
		w.u64(uint64(val.(int64)))
	case tFloat64:
		w.u64(math.Float64bits(val.(float64)))
	case tUuid:
		u := val.(Uuid)
		w.b = append(w.b, u[:]...)
	case tString:
		if val == nil {
			if !f.nullableAt(v) {
				return &encodeError{fmt.Sprintf("non-nullable field %s is null", f.name)}
			}
			w.uvarint(0)
			return nil
		}
		return w.str(f, val.(string))
	case tBytes:
		b := val.([]byte)
		if b == nil && f.nullableAt(v) {
			w.uvarint(0)
			return nil
		}
		w.uvarint(uint32(len(b)) + 1)
		w.b = append(w.b, b...)
	default:
		return &encodeError{fmt.Sprintf("field %s has no scalar type", f.name)}
	}
	return nil
}

// str writes a compact string: unsigned varint length+1, then its bytes.
// Like Kafka (MessageDataGenerator.generateStringToBytes), it refuses
// strings over 0x7fff bytes.
func (w *writer) str(f *fieldSpec, s string) error {
	if len(s) > 0x7fff {
		return &encodeError{fmt.Sprintf("'%s' field is too long to be serialized", f.name)}
	}
	w.uvarint(uint32(len(s)) + 1)
	w.b = append(w.b, s...)
	return nil
}
