package deflate

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// inflate decodes a raw DEFLATE stream with the standard library.
func inflate(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatalf("compress/flate cannot read the stream: %v", err)
	}
	return out
}

// Every stream decodes, with the standard library's reader, to its input:
// empty and one-byte inputs, noise (literals only), repeats far apart
// (distances up to the window and beyond it), runs longer than a match,
// and the text links carry.
func TestEncodeRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 70_000)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	var far bytes.Buffer
	for i := 0; i < 40; i++ {
		far.Write(noise[:1000])
		far.Write(noise[1000+i*1500 : 1000+(i+1)*1500])
	}
	session := strings.Repeat(`{"l":"kafka-console-producer.sh --bootstrap-server localhost:9092 --topic orders","at":1500000},`, 300)
	cases := map[string][]byte{
		"empty":   {},
		"one":     {'x'},
		"two":     []byte("ab"),
		"three":   []byte("aaa"),
		"noise":   noise,
		"far":     far.Bytes(),
		"run":     bytes.Repeat([]byte{'z'}, 100_000),
		"session": []byte(session),
		"binary":  bytes.Repeat([]byte{0, 1, 2, 255, 254, 143, 144, 255}, 5000),
	}
	kinds := map[byte]bool{}
	for name, in := range cases {
		out := Encode(in)
		if got := inflate(t, out); !bytes.Equal(got, in) {
			t.Errorf("%s: %d bytes decoded to %d bytes, not the input", name, len(in), len(got))
		}
		kinds[out[0]>>1&3] = true // BTYPE, after BFINAL
	}
	// Both kinds of block were written: fixed codes for the short
	// inputs, codes of their own for the long ones.
	if !kinds[1] || !kinds[2] || len(kinds) != 2 {
		t.Errorf("block types written: %v, want fixed (1) and dynamic (2)", kinds)
	}
}

// Matches are found: a repetitive session compresses to a small fraction
// of itself, and within 5% of compress/flate's best.
func TestEncodeCompressesLikeFlate(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		b.WriteString(`{"l":"kafka-topics.sh --bootstrap-server localhost:9092 --create --topic t`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(` --partitions 3 --replication-factor 3","at":`)
		b.WriteString(strings.Repeat("1", 1+i%5))
		b.WriteString("},")
	}
	in := []byte(b.String())
	ours := len(Encode(in))
	var best bytes.Buffer
	w, _ := flate.NewWriter(&best, flate.BestCompression)
	w.Write(in)
	w.Close()
	if ours*10 > len(in) {
		t.Errorf("%d bytes encode to %d: matches are not being found", len(in), ours)
	}
	t.Logf("%d bytes: ours %d, flate best %d", len(in), ours, best.Len())
	if float64(ours) > 1.05*float64(best.Len()) {
		t.Errorf("%d bytes encode to %d, flate's best to %d", len(in), ours, best.Len())
	}
}

func FuzzEncode(f *testing.F) {
	f.Add([]byte("hello hello hello"))
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte("ab"), 300))
	f.Fuzz(func(t *testing.T, in []byte) {
		if got := inflate(t, Encode(in)); !bytes.Equal(got, in) {
			t.Fatalf("%q decoded to %q", in, got)
		}
	})
}
