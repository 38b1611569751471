package jdk

import (
	"math"
	"testing"
	"unicode/utf16"
)

// "polygenelubricants" is the well-known ASCII string whose hashCode is
// Integer.MIN_VALUE, the case Kafka's Utils.abs exists for; the others are
// the ids the tools' examples use.
var stringHashVectors = []struct {
	in   string
	want int32
}{
	{"", 0},
	{"a", 97},
	{"group", 98629247},
	{"my-group", -1906497762},
	{"test-group", 627841412},
	{"group1", -1237460590},
	{"console-consumer-1", 35782224},
	{"my-app", -1061206400},
	{"polygenelubricants", math.MinInt32},
	{"Aa", 2112}, // "Aa" and "BB" collide: 65*31+97 = 66*31+66
	{"BB", 2112},
}

func TestStringHashCodeVectors(t *testing.T) {
	for _, v := range stringHashVectors {
		if h := StringHashCode(v.in); h != v.want {
			t.Errorf("StringHashCode(%q) = %d, want %d", v.in, h, v.want)
		}
	}
}

// U+1F600 is the surrogate pair D83D DE00 in UTF-16, so Java gives
// 31*0xD83D + 0xDE00 = 1772899 (worked by hand). Hashing the rune as one unit
// would give 0x1F600 = 128512 instead.
func TestStringHashCodeSurrogatePair(t *testing.T) {
	if got := StringHashCode("\U0001F600"); got != 1772899 {
		t.Fatalf("hash(U+1F600) = %d, want 1772899", got)
	}
}

// A second, independent definition: encode to UTF-16 with the standard
// library and fold. Covers ASCII, 2- and 3-byte UTF-8, U+FFFD itself, BMP
// edges and supplementary runes.
func TestStringHashCodeMatchesUTF16Fold(t *testing.T) {
	inputs := []string{
		"", "x", "ümlaut", "日本語グループ", "\uFFFD", "\uFFFF", "\U00010000",
		"\U0010FFFF", "a\U0001F600b\U0001F601", "mixed-日本-\U0001F680-end",
	}
	for _, s := range inputs {
		var want int32
		for _, u := range utf16.Encode([]rune(s)) {
			want = 31*want + int32(u)
		}
		if got := StringHashCode(s); got != want {
			t.Errorf("StringHashCode(%q) = %d, want %d", s, got, want)
		}
	}
}

func BenchmarkStringHashCode(b *testing.B) {
	for b.Loop() {
		StringHashCode("console-consumer-1")
	}
}
