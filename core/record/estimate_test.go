package record

import "testing"

// The upper bound is 61 + 21 + the key, value and header fields with their
// varint lengths (AbstractRecords.estimateSizeInBytesUpperBound). The
// sizes below are what Kafka 3.8 computes: a 1 MiB value's length takes 4
// varint bytes (zigzag makes it 2097152, which needs 22 bits).
func TestEstimateSizeInBytesUpperBound(t *testing.T) {
	for _, c := range []struct {
		name       string
		key, value []byte
		headers    []Header
		want       int
	}{
		{"null key and value", nil, nil, nil, 61 + 21 + 1 + 1 + 1},
		{"empty value", nil, []byte{}, nil, 61 + 21 + 1 + 1 + 1},
		{"key and value", []byte("k1"), []byte("hello"), nil, 61 + 21 + 3 + 6 + 1},
		{"63-byte value (1-byte length)", nil, make([]byte, 63), nil, 61 + 21 + 1 + 64 + 1},
		{"64-byte value (2-byte length)", nil, make([]byte, 64), nil, 61 + 21 + 1 + 66 + 1},
		{"1 MiB value", nil, make([]byte, 1<<20), nil, 61 + 21 + 1 + 4 + 1<<20 + 1},
		{"headers", nil, []byte("v"), []Header{{Key: "h", Value: []byte("xy")}, {Key: "n"}}, 61 + 21 + 1 + 2 + 1 + (2 + 3) + (2 + 1)},
	} {
		if got := EstimateSizeInBytesUpperBound(c.key, c.value, c.headers); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
