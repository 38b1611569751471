package metadata

import (
	"strings"
	"testing"
)

func TestUuidStringKnownValues(t *testing.T) {
	// Kafka: Uuid.ZERO_UUID and Uuid.ONE_UUID (the metadata topic's id).
	if got := ZeroUuid.String(); got != "AAAAAAAAAAAAAAAAAAAAAA" {
		t.Errorf("ZERO_UUID = %q", got)
	}
	if got := MetadataTopicID.String(); got != "AAAAAAAAAAAAAAAAAAAAAQ" {
		t.Errorf("ONE_UUID = %q", got)
	}
	all := Uuid{}
	for i := range all {
		all[i] = 0xff
	}
	if got := all.String(); got != "_____________________w" {
		t.Errorf("all ones = %q (URL-safe alphabet, no padding)", got)
	}
	// new Uuid(0x0123456789abcdefL, 0xfedcba9876543210L) in Kafka.
	u := Uuid{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}
	if got := u.String(); got != "ASNFZ4mrze_-3LqYdlQyEA" {
		t.Errorf("String = %q", got)
	}
}

func TestParseUuidRoundTrip(t *testing.T) {
	next := seq(0x0123456789abcdef, 0xfedcba9876543210, 0xdeadbeefcafebabe, 0x1, 42, 43)
	for range 3 {
		u := RandomUuid(next)
		s := u.String()
		if len(s) != 22 {
			t.Fatalf("%q is %d characters, want 22", s, len(s))
		}
		back, err := ParseUuid(s)
		if err != nil || back != u {
			t.Fatalf("ParseUuid(%q) = %v, %v; want %v", s, back, err, u)
		}
	}
	for _, s := range []string{"AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAQ", "ASNFZ4mrze_-3LqYdlQyEA"} {
		u, err := ParseUuid(s)
		if err != nil || u.String() != s {
			t.Errorf("ParseUuid(%q) = %v, %v", s, u, err)
		}
	}
}

func TestParseUuidErrors(t *testing.T) {
	for _, s := range []string{
		"",
		"AAAAAAAAAAAAAAAAAAAAA",    // 21
		"AAAAAAAAAAAAAAAAAAAAAAA",  // 23
		"AAAAAAAAAAAAAAAAAAAAAAAA", // 24: 18 bytes
		"AAAAAAAAAAAAAAAAAAAAAA==", // padded
		"ASNFZ4mrze/+3LqYdlQyEA",   // standard alphabet
		"AAAAAAAAAAAAAAAAAAAA A",
		"01234567-89ab-cdef-0123-456789abcdef",
	} {
		if u, err := ParseUuid(s); err == nil {
			t.Errorf("ParseUuid(%q) = %v, accepted", s, u)
		} else if err.Error() != `invalid uuid "`+s+`"` {
			t.Errorf("ParseUuid(%q) error %q", s, err)
		}
	}
}

// seq returns a generator yielding vs in order, then failing the test.
func seq(vs ...uint64) func() uint64 {
	i := 0
	return func() uint64 {
		if i >= len(vs) {
			panic("RandomUuid drew more numbers than expected")
		}
		v := vs[i]
		i++
		return v
	}
}

func TestRandomUuidLayoutAndVersionBits(t *testing.T) {
	u := RandomUuid(seq(0x0123456789abcdef, 0xfedcba9876543210))
	// Big-endian hi then lo, with version 4 in byte 6's high nibble and the
	// IETF variant (10xx) in byte 8's top bits, as java.util.UUID.randomUUID.
	want := Uuid{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0x4d, 0xef, 0xbe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}
	if u != want {
		t.Fatalf("RandomUuid = % x\nwant         % x", u[:], want[:])
	}
	// Across many draws: always version 4, variant 2, never reserved.
	var state uint64 = 0x9e3779b97f4a7c15
	next := func() uint64 {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return state
	}
	for range 20000 {
		u := RandomUuid(next)
		if u[6]>>4 != 4 || u[8]>>6 != 2 {
			t.Fatalf("%x: version %d, variant bits %b", u[:], u[6]>>4, u[8]>>6)
		}
		s := u.String()
		if s[0] == '-' || len(s) != 22 || strings.ContainsAny(s, "+/=") {
			t.Fatalf("bad string form %q", s)
		}
		if u == ZeroUuid || u == MetadataTopicID {
			t.Fatal("reserved id drawn")
		}
	}
}

func TestRandomUuidNeverStartsWithDash(t *testing.T) {
	// A first byte 0xf8..0xfb encodes as '-' (index 62); Kafka redraws.
	u := RandomUuid(seq(0xf800000000000000, 0, 0xf9ffffffffffffff, 0, 0x0400000000000000, 0))
	if s := u.String(); s[0] == '-' {
		t.Fatalf("RandomUuid returned %q", s)
	}
	if u[0] != 0x04 {
		t.Fatalf("RandomUuid kept drawing badly: % x (want the third draw)", u[:])
	}
	// '_' (index 63, first byte 0xfc..0xff) is fine: Kafka only refuses '-'.
	u = RandomUuid(seq(0xfc00000000000000, 0))
	if s := u.String(); s[0] != '_' {
		t.Fatalf("RandomUuid redrew an id starting with '_': %q", s)
	}
}
