package protocol

import "encoding/binary"

// Reader reads Kafka's classic (non-flexible) big-endian encodings: the
// consumer protocol's subscription and assignment, the group coordinator's
// __consumer_offsets records and the sticky assignors' user data. Strings
// carry an int16 length (-1: null), bytes an int32 length.
//
// Invariant: after the first short or malformed read Err is set and every
// later read returns a zero value, so a decoder reads on and checks once.
type Reader struct {
	b   []byte
	err error
	bad error // what Err becomes on a malformed read
}

// NewReader reads b; bad is the error a malformed read reports.
func NewReader(b []byte, bad error) *Reader { return &Reader{b: b, bad: bad} }

// Err is nil while every read so far succeeded.
func (r *Reader) Err() error { return r.err }

// Fail marks the input malformed (a decoder's own check failed).
func (r *Reader) Fail() { r.err = r.bad }

// Take returns the next n bytes (nil and Err set if there are fewer, or n
// is negative).
func (r *Reader) Take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = r.bad
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *Reader) Int16() int16 {
	if b := r.Take(2); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (r *Reader) Int32() int32 {
	if b := r.Take(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

func (r *Reader) Int64() int64 {
	if b := r.Take(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

// String reads a non-nullable string: a negative length is malformed.
func (r *Reader) String() string { return string(r.Take(int(r.Int16()))) }

// NullableString reads a nullable string; null reads as "".
func (r *Reader) NullableString() string {
	n := r.Int16()
	if n < 0 {
		return ""
	}
	return string(r.Take(int(n)))
}

// Bytes reads a non-nullable bytes field, copied: a negative length is
// malformed (Kafka: "non-nullable field ... was serialized as null").
func (r *Reader) Bytes() []byte {
	b := r.Take(int(r.Int32()))
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// NullableBytes reads a nullable bytes field, copied; null reads as nil.
func (r *Reader) NullableBytes() []byte {
	n := r.Int32()
	if n < 0 {
		return nil
	}
	return append([]byte{}, r.Take(int(n))...)
}
