package record

import "encoding/binary"

// Valid is one record batch that passed Validate, with its parsed header.
// Only ValidateBatch and Restamped make one, so a Valid carries its proof:
// a log can append it without parsing and checking it again. A KRaft
// leader's NoOps over a leaped span are one validated batch restamped
// thousands of times; validating each copy again (three CRCs and a parse
// of its records per NoOp, one on each voter) was a tenth of a leaped
// week in the page.
//
// Invariant: buf is exactly one batch, h is ParseHeader(buf), and
// Validate(buf) returns nil. buf must not be changed by anyone.
type Valid struct {
	buf []byte
	h   BatchHeader
}

// ValidateBatch validates buf (Validate) and returns it as a Valid batch.
func ValidateBatch(buf []byte) (Valid, error) {
	if err := Validate(buf); err != nil {
		return Valid{}, err
	}
	h, err := ParseHeader(buf)
	if err != nil {
		return Valid{}, err // unreachable: Validate parsed it
	}
	return Valid{buf: buf, h: h}, nil
}

// Bytes is the batch.
func (v Valid) Bytes() []byte { return v.buf }

// Header is the batch's header.
func (v Valid) Header() BatchHeader { return v.h }

// Restamped copies the batch into dst (exactly the batch's size) with base
// offset baseOffset and its timestamps moved to baseTimestamp (Restamp).
// The copy is valid: the base offset lies outside the CRC, and Restamp
// recomputes the CRC over the moved timestamps; the records, which hold
// only deltas, are unchanged.
func (v Valid) Restamped(dst []byte, baseOffset, baseTimestamp int64) Valid {
	if len(dst) != len(v.buf) {
		panic("record: Restamped into a buffer of another size")
	}
	copy(dst, v.buf)
	SetBaseOffset(dst, baseOffset)
	Restamp(dst, baseTimestamp)
	h := v.h
	h.BaseOffset = baseOffset
	h.MaxTimestamp = baseTimestamp + h.MaxTimestamp - h.BaseTimestamp
	h.BaseTimestamp = baseTimestamp
	h.CRC = binary.BigEndian.Uint32(dst[crcOffset:])
	return Valid{buf: dst, h: h}
}
