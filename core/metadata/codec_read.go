package metadata

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ParseError is a record value that Kafka's MetadataRecordSerde refuses. Its
// message is the one Kafka's MetadataParseException carries, which is what
// kafka-dump-log.sh prints after "Error at <offset>, skipping. ".
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

const frameVersion = 1 // AbstractApiMessageSerde.DEFAULT_FRAME_VERSION

// atLeast reports whether version v is in the range "since+". Kafka's
// generated code tests "_version >= since" only when since > 0; a "0+" range
// needs no test and so holds for any version read from the wire.
func atLeast(v, since int16) bool { return since == 0 || v >= since }

func (f *fieldSpec) presentAt(v int16) bool  { return atLeast(v, f.since) }
func (f *fieldSpec) taggedAt(v int16) bool   { return f.tagged != never && atLeast(v, f.tagged) }
func (f *fieldSpec) nullableAt(v int16) bool { return f.nullable != never && atLeast(v, f.nullable) }

// reader walks a record value the way Kafka's ByteBufferAccessor and the
// generated read methods do. Any failure sets bad; reads after that return
// zero values.
type reader struct {
	b   []byte
	off int
	bad bool
}

func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) take(n int) []byte {
	if r.bad || n < 0 || n > r.remaining() {
		r.bad = true
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// uvarint is ByteUtils.readUnsignedVarint: at most five bytes; the fifth
// must not have its high bit set, and its bits beyond 32 are dropped.
func (r *reader) uvarint() int32 {
	var result uint32
	for i := 0; i < 5; i++ {
		p := r.take(1)
		if p == nil {
			return 0
		}
		b := p[0]
		if i == 4 {
			if b&0x80 != 0 {
				r.bad = true
				return 0
			}
			return int32(result | uint32(b)<<28)
		}
		result |= uint32(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			return int32(result)
		}
	}
	return 0
}

func (r *reader) u8() byte {
	if p := r.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if p := r.take(2); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if p := r.take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if p := r.take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

func (r *reader) uuid() Uuid {
	var u Uuid
	if p := r.take(16); p != nil {
		copy(u[:], p)
	}
	return u
}

// headerShort is AbstractApiMessageSerde.unsignedIntToShort.
func (r *reader) headerShort(entity string) (int16, error) {
	v := r.uvarint()
	if r.bad {
		return 0, &ParseError{"Error while reading " + entity}
	}
	if v > math.MaxInt16 {
		return 0, &ParseError{"Value for " + entity + " was too large."}
	}
	return int16(v), nil // Java's (short) cast keeps the low 16 bits
}

// decodeFrame parses a record value as MetadataRecordSerde.read does,
// failing where it fails, with its messages.
func decodeFrame(b []byte) (*gmsg, int16, error) {
	r := &reader{b: b}
	fv, err := r.headerShort("frame version")
	if err != nil {
		return nil, 0, err
	}
	if fv == 0 {
		return nil, 0, &ParseError{"Could not deserialize metadata record with frame version 0. " +
			"Note that upgrades from the preview release of KRaft in 2.8 to newer versions are not supported."}
	}
	if fv != frameVersion {
		return nil, 0, &ParseError{fmt.Sprintf("Could not deserialize metadata record due to unknown frame version %d(only frame version %d is supported)", fv, frameVersion)}
	}
	key, err := r.headerShort("type")
	if err != nil {
		return nil, 0, err
	}
	version, err := r.headerShort("version")
	if err != nil {
		return nil, 0, err
	}
	s := schemaByKey[key]
	if s == nil {
		// MetadataParseException(Throwable) takes the cause's toString.
		return nil, 0, &ParseError{fmt.Sprintf("org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id %d", key)}
	}
	m := r.message(s, version, s.maxVersion)
	if r.bad {
		return nil, 0, &ParseError{fmt.Sprintf("Failed to deserialize record with type %d", key)}
	}
	if n := r.remaining(); n > 0 {
		return nil, 0, &ParseError{fmt.Sprintf("Found %d byte(s) of garbage after %d", n, key)}
	}
	return m, version, nil
}

// message reads a struct at version v; top is the record's highest valid
// version, past which nested structs refuse to read ("Can't read version").
func (r *reader) message(s *schema, v, top int16) *gmsg {
	if s.apiKey < 0 && v > top {
		r.bad = true
		return nil
	}
	m := newMsg(s)
	for i := range s.fields {
		f := &s.fields[i]
		if !f.presentAt(v) || f.taggedAt(v) {
			continue // absent or tagged: the default stands
		}
		m.vals[i] = r.value(f, v, top)
		if r.bad {
			return nil
		}
	}
	n := r.uvarint()
	for i := int32(0); i < n && !r.bad; i++ {
		tag := r.uvarint()
		size := r.uvarint()
		if r.bad {
			break
		}
		idx := -1
		for j := range s.fields {
			if s.fields[j].tagged != never && s.fields[j].tag == tag {
				idx = j
				break
			}
		}
		if idx < 0 {
			r.take(int(size)) // an unknown tag is skipped (and kept) by Kafka
			continue
		}
		f := &s.fields[idx]
		if !atLeast(v, f.firstTaggedVersion()) {
			r.bad = true // "Tag N is not valid for version V"
			break
		}
		// Kafka reads a known tag's value directly; the size is not checked.
		m.vals[idx] = r.value(f, v, top)
	}
	if r.bad {
		return nil
	}
	return m
}

// value reads one field's value.
func (r *reader) value(f *fieldSpec, v, top int16) any {
	if f.array {
		n := r.uvarint() - 1
		if r.bad {
			return nil
		}
		if n < 0 {
			if !f.nullableAt(v) {
				r.bad = true // "non-nullable field X was serialized as null"
			}
			return nil
		}
		if int(n) > r.remaining() {
			r.bad = true // "Tried to allocate a collection of size N ..."
			return nil
		}
		switch f.typ {
		case tInt32:
			out := make([]int32, 0, n)
			for i := int32(0); i < n && !r.bad; i++ {
				out = append(out, int32(r.u32()))
			}
			return out
		case tUuid:
			out := make([]Uuid, 0, n)
			for i := int32(0); i < n && !r.bad; i++ {
				out = append(out, r.uuid())
			}
			return out
		case tString:
			out := make([]string, 0, n)
			for i := int32(0); i < n && !r.bad; i++ {
				s, null := r.str()
				if null {
					r.bad = true // array elements are never nullable
				}
				out = append(out, s)
			}
			return out
		case tStruct:
			out := make([]*gmsg, 0, n)
			for i := int32(0); i < n && !r.bad; i++ {
				out = append(out, r.message(f.elem, v, top))
			}
			return out
		}
		r.bad = true
		return nil
	}
	switch f.typ {
	case tBool:
		return r.u8() != 0
	case tInt8:
		return int8(r.u8())
	case tInt16:
		return int16(r.u16())
	case tUint16:
		return r.u16()
	case tInt32:
		return int32(r.u32())
	case tInt64:
		return int64(r.u64())
	case tFloat64:
		return math.Float64frombits(r.u64())
	case tUuid:
		return r.uuid()
	case tString:
		s, null := r.str()
		if null {
			if !f.nullableAt(v) {
				r.bad = true
			}
			return nil
		}
		return s
	case tBytes:
		n := r.uvarint() - 1
		if r.bad {
			return []byte(nil)
		}
		if n < 0 {
			if !f.nullableAt(v) {
				r.bad = true
			}
			return []byte(nil)
		}
		return append([]byte{}, r.take(int(n))...)
	}
	r.bad = true
	return nil
}

// str reads a compact string; null reports a negative length.
func (r *reader) str() (s string, null bool) {
	n := r.uvarint() - 1
	if r.bad {
		return "", false
	}
	if n < 0 {
		return "", true
	}
	if n > 0x7fff {
		r.bad = true // "string field X had invalid length N"
		return "", false
	}
	return string(r.take(int(n))), false
}
