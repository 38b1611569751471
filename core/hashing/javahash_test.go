package hashing

import (
	"math"
	"testing"
	"unicode/utf16"
)

// Vectors from the brief; "polygenelubricants" is the well-known ASCII string
// whose Java hashCode is Integer.MIN_VALUE, the case Utils.abs exists for.
var javaHashVectors = []struct {
	in       string
	want     int32
	absMod50 int32 // Abs(hash) % 50: the __consumer_offsets partition with the default 50
}{
	{"", 0, 0},
	{"a", 97, 47},
	{"group", 98629247, 47},
	{"my-group", -1906497762, 12},
	{"test-group", 627841412, 12},
	{"group1", -1237460590, 40},
	{"console-consumer-1", 35782224, 24},
	{"my-app", -1061206400, 0},
	{"polygenelubricants", math.MinInt32, 0},
}

func TestJavaStringHashCodeVectors(t *testing.T) {
	for _, v := range javaHashVectors {
		h := JavaStringHashCode(v.in)
		if h != v.want {
			t.Errorf("JavaStringHashCode(%q) = %d, want %d", v.in, h, v.want)
		}
		if got := Abs(h) % 50; got != v.absMod50 {
			t.Errorf("Abs(hash(%q)) %% 50 = %d, want %d", v.in, got, v.absMod50)
		}
	}
}

// U+1F600 is the surrogate pair D83D DE00 in UTF-16, so Java gives
// 31*0xD83D + 0xDE00 = 1772899 (worked by hand). Hashing the rune as one unit
// would give 0x1F600 = 128512 instead.
func TestJavaStringHashCodeSurrogatePair(t *testing.T) {
	if got := JavaStringHashCode("\U0001F600"); got != 1772899 {
		t.Fatalf("hash(U+1F600) = %d, want 1772899", got)
	}
}

// A second, independent definition: encode to UTF-16 with the standard
// library and fold. Covers ASCII, 2- and 3-byte UTF-8, U+FFFD itself, BMP
// edges and supplementary runes.
func TestJavaStringHashCodeMatchesUTF16Fold(t *testing.T) {
	inputs := []string{
		"", "x", "ümlaut", "日本語グループ", "\uFFFD", "\uFFFF", "\U00010000",
		"\U0010FFFF", "a\U0001F600b\U0001F601", "mixed-日本-\U0001F680-end",
	}
	for _, s := range inputs {
		var want int32
		for _, u := range utf16.Encode([]rune(s)) {
			want = 31*want + int32(u)
		}
		if got := JavaStringHashCode(s); got != want {
			t.Errorf("JavaStringHashCode(%q) = %d, want %d", s, got, want)
		}
	}
}

// Kafka's UtilsTest.testAbs plus the MinInt32 edge.
func TestAbs(t *testing.T) {
	cases := []struct{ in, want int32 }{
		{math.MinInt32, 0},
		{-10, 10},
		{10, 10},
		{0, 0},
		{-1, 1},
		{math.MaxInt32, math.MaxInt32},
		{math.MinInt32 + 1, math.MaxInt32},
	}
	for _, c := range cases {
		if got := Abs(c.in); got != c.want {
			t.Errorf("Abs(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

// JavaStringLength counts UTF-16 code units, as String.length() does.
func TestJavaStringLength(t *testing.T) {
	for s, want := range map[string]int{"": 0, "topic": 5, "토픽": 2, "a😀b": 4, "\xff": 1} {
		if got := JavaStringLength(s); got != want {
			t.Errorf("JavaStringLength(%q) = %d, want %d", s, got, want)
		}
	}
}
