package record

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// Vectors from Kafka's ByteUtilsTest.testVarintSerde / testVarlongSerde.
var varintVectors = []struct {
	v   int32
	enc []byte
}{
	{0, []byte{0x00}},
	{-1, []byte{0x01}},
	{1, []byte{0x02}},
	{63, []byte{0x7E}},
	{-64, []byte{0x7F}},
	{64, []byte{0x80, 0x01}},
	{-65, []byte{0x81, 0x01}},
	{8191, []byte{0xFE, 0x7F}},
	{-8192, []byte{0xFF, 0x7F}},
	{8192, []byte{0x80, 0x80, 0x01}},
	{-8193, []byte{0x81, 0x80, 0x01}},
	{1048575, []byte{0xFE, 0xFF, 0x7F}},
	{-1048576, []byte{0xFF, 0xFF, 0x7F}},
	{1048576, []byte{0x80, 0x80, 0x80, 0x01}},
	{-1048577, []byte{0x81, 0x80, 0x80, 0x01}},
	{134217727, []byte{0xFE, 0xFF, 0xFF, 0x7F}},
	{-134217728, []byte{0xFF, 0xFF, 0xFF, 0x7F}},
	{134217728, []byte{0x80, 0x80, 0x80, 0x80, 0x01}},
	{-134217729, []byte{0x81, 0x80, 0x80, 0x80, 0x01}},
	{math.MaxInt32, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0x0F}},
	{math.MinInt32, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}},
}

var varlongVectors = []struct {
	v   int64
	enc []byte
}{
	{0, []byte{0x00}},
	{-1, []byte{0x01}},
	{1, []byte{0x02}},
	{8192, []byte{0x80, 0x80, 0x01}},
	{math.MaxInt32, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0x0F}},
	{math.MinInt32, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}},
	{17179869183, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0x7F}},
	{-17179869184, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x7F}},
	{17179869184, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{-17179869185, []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{2199023255551, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}},
	{281474976710656, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{-281474976710657, []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{36028797018963968, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{4611686018427387903, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}},
	{4611686018427387904, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{-4611686018427387905, []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{math.MaxInt64, []byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}},
	{math.MinInt64, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}},
}

func TestVarintKafkaVectors(t *testing.T) {
	for _, c := range varintVectors {
		if got := AppendVarint(nil, c.v); !bytes.Equal(got, c.enc) {
			t.Errorf("AppendVarint(%d) = % x, want % x", c.v, got, c.enc)
		}
		if n := SizeOfVarint(c.v); n != len(c.enc) {
			t.Errorf("SizeOfVarint(%d) = %d, want %d", c.v, n, len(c.enc))
		}
		v, n, err := ReadVarint(append(c.enc, 0xAA)) // trailing byte must be left alone
		if err != nil || v != c.v || n != len(c.enc) {
			t.Errorf("ReadVarint(% x) = %d, %d, %v; want %d, %d", c.enc, v, n, err, c.v, len(c.enc))
		}
	}
}

func TestVarlongKafkaVectors(t *testing.T) {
	for _, c := range varlongVectors {
		if got := AppendVarlong(nil, c.v); !bytes.Equal(got, c.enc) {
			t.Errorf("AppendVarlong(%d) = % x, want % x", c.v, got, c.enc)
		}
		if n := SizeOfVarlong(c.v); n != len(c.enc) {
			t.Errorf("SizeOfVarlong(%d) = %d, want %d", c.v, n, len(c.enc))
		}
		v, n, err := ReadVarlong(c.enc)
		if err != nil || v != c.v || n != len(c.enc) {
			t.Errorf("ReadVarlong(% x) = %d, %d, %v; want %d, %d", c.enc, v, n, err, c.v, len(c.enc))
		}
	}
}

func TestVarintRejects(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"cut off", []byte{0x80, 0x80}, ErrTruncated},
		// Kafka's ByteUtilsTest.testInvalidVarint: five continuation bytes.
		{"too long", []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, ErrCorrupt},
		{"bits beyond 32", []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, ErrCorrupt},
		{"overlong zero", []byte{0x80, 0x00}, ErrCorrupt},
		{"overlong one", []byte{0x82, 0x80, 0x00}, ErrCorrupt},
	}
	for _, c := range cases {
		if _, _, err := ReadVarint(c.in); !errors.Is(err, c.want) {
			t.Errorf("%s: ReadVarint(% x) err = %v, want %v", c.name, c.in, err, c.want)
		}
	}
	// Kafka's testInvalidVarlong: ten continuation bytes.
	long := bytes.Repeat([]byte{0xFF}, 10)
	if _, _, err := ReadVarlong(append(long, 0x01)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ReadVarlong(too long) err = %v", err)
	}
	if _, _, err := ReadVarlong([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ReadVarlong(bits beyond 64) err = %v", err)
	}
	if _, _, err := ReadVarlong([]byte{0x80, 0x00}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ReadVarlong(overlong) err = %v", err)
	}
}

func TestVarintRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		v32 := int32(rng.Uint32()) >> rng.IntN(32)
		enc := AppendVarint(nil, v32)
		got, n, err := ReadVarint(enc)
		if err != nil || got != v32 || n != len(enc) || n != SizeOfVarint(v32) {
			t.Fatalf("varint %d: got %d, %d, %v (enc % x)", v32, got, n, err, enc)
		}
		v64 := int64(rng.Uint64()) >> rng.IntN(64)
		enc = AppendVarlong(nil, v64)
		got64, n, err := ReadVarlong(enc)
		if err != nil || got64 != v64 || n != len(enc) || n != SizeOfVarlong(v64) {
			t.Fatalf("varlong %d: got %d, %d, %v (enc % x)", v64, got64, n, err, enc)
		}
	}
}
