package record

import "fmt"

// reader consumes a record body front to back. The first failure sticks in
// err and every later read returns a zero value, so a parse can read all
// fields and check err once; nothing ever indexes past buf.
type reader struct {
	buf []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.buf = nil
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.buf) < 1 {
		r.fail(fmt.Errorf("no bytes left"))
		return 0
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *reader) varint() int32 {
	if r.err != nil {
		return 0
	}
	v, n, err := ReadVarint(r.buf)
	if err != nil {
		r.fail(err)
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) varlong() int64 {
	if r.err != nil {
		return 0
	}
	v, n, err := ReadVarlong(r.buf)
	if err != nil {
		r.fail(err)
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// bytes takes the next n bytes, capped so an append by the caller cannot
// spill into the bytes that follow.
func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf) {
		r.fail(fmt.Errorf("length %d with %d bytes left", n, len(r.buf)))
		return nil
	}
	p := r.buf[:n:n]
	r.buf = r.buf[n:]
	return p
}

// nullableBytes reads a varint length and that many bytes; -1 is null (nil).
// Other negative lengths are refused, where Kafka would read them as null,
// so that every accepted record re-encodes to the same bytes.
func (r *reader) nullableBytes() []byte {
	l := r.varint()
	if r.err != nil {
		return nil
	}
	if l == -1 {
		return nil
	}
	if l < -1 {
		r.fail(fmt.Errorf("length %d: only -1 means null", l))
		return nil
	}
	return r.bytes(int(l))
}
