package jdk

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// The expected values in this file were printed by JDK 17.

func TestFormatFixedRoundsHalfUpOnTheShortestDecimal(t *testing.T) {
	cases := []struct {
		x    float64
		want string // %.1f %.2f %f
	}{
		{0.125, "0.1 0.13 0.125000"},
		{0.15, "0.2 0.15 0.150000"},
		{3.795, "3.8 3.80 3.795000"},
		{42.815, "42.8 42.82 42.815000"},
		{16.985, "17.0 16.99 16.985000"},
		{14280.625, "14280.6 14280.63 14280.625000"},
		{1.0 / 3, "0.3 0.33 0.333333"},
		{9.999999, "10.0 10.00 9.999999"},
		{1e300, "1" + strings.Repeat("0", 300) + ".0 1" + strings.Repeat("0", 300) + ".00 1" + strings.Repeat("0", 300) + ".000000"},
		{0, "0.0 0.00 0.000000"},
		{math.NaN(), "NaN NaN NaN"},
		{math.Inf(1), "Infinity Infinity Infinity"},
	}
	for _, c := range cases {
		if got := FormatFixed(c.x, 1) + " " + FormatFixed(c.x, 2) + " " + FormatFixed(c.x, 6); got != c.want {
			t.Errorf("%v: %q, want %q", c.x, got, c.want)
		}
	}
}

func TestSplittableRandomNextIntRejectsLikeJava(t *testing.T) {
	r := &SplittableRandom{}
	var got []int32
	for i := 0; i < 12; i++ {
		got = append(got, r.NextInt(1000003))
	}
	want := []int32{556448, 206906, 777146, 413813, 17531, 829533, 72497, 738647, 812785, 342678, 871942, 829977}
	if !slices.Equal(got, want) {
		t.Fatalf("nextInt(1000003): %v", got)
	}
}

func TestLoadProperties(t *testing.T) {
	text := "# comment\n! also a comment\n  bootstrap.servers = kafka-1:9092\nacks: 1\nlinger.ms 5\nclient.id=a\\\n    b\nkey\\ with\\=escapes=\\u0041\\t\n\xe9=latin\nempty\n"
	got, exc := LoadProperties(text)
	want := map[string]string{"bootstrap.servers": "kafka-1:9092", "acks": "1", "linger.ms": "5", "client.id": "ab",
		"key with=escapes": "A\t", "\u00e9": "latin", "empty": ""}
	if exc != "" || len(got) != len(want) {
		t.Fatalf("got %q, %s", got, exc)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q = %q, want %q", k, got[k], v)
		}
	}
	if _, exc := LoadProperties("a=\\u12"); exc != `java.lang.IllegalArgumentException: Malformed \uxxxx encoding.` {
		t.Errorf("bad escape: %q", exc)
	}
}

func TestSplitRegex(t *testing.T) {
	for _, c := range []struct {
		s, re string
		want  []string
	}{
		{"a\nb\n\n", "\n", []string{"a", "b"}},
		{"a,b,,c,,", ",", []string{"a", "b", "", "c"}},
		{"abc", "", []string{"a", "b", "c"}},
		{"none", ",", []string{"none"}},
		{"\n\n", "\n", nil},
	} {
		got, err := SplitRegex(c.s, c.re)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("split(%q, %q) = %q, %v", c.s, c.re, got, err)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		s, sep string
		want   []string
	}{
		{"a=b", "=", []string{"a", "b"}},
		{"a,b,,", ",", []string{"a", "b"}},
		{",a", ",", []string{"", "a"}},
		{",,,", ",", nil},
		{"abc", ",", []string{"abc"}},
		{"", ",", nil}, // Java: [""] (see Split)
	} {
		if got := Split(c.s, c.sep); !slices.Equal(got, c.want) {
			t.Errorf("split(%q, %q) = %q", c.s, c.sep, got)
		}
	}
}

func TestTrimStripsControlCharactersButNotOtherSpaces(t *testing.T) {
	if got := Trim(" \t\x00a b\n\r"); got != "a b" {
		t.Errorf("Trim = %q", got)
	}
	if got := Trim("\u00a0a\u3000"); got != "\u00a0a\u3000" {
		t.Errorf("Trim took a no-break or ideographic space: %q", got)
	}
}

// Less is UTF-16 order: a character outside the Basic Multilingual Plane
// (a surrogate pair, from 0xD800) sorts before U+FFFF, where UTF-8 byte
// order puts it after.
func TestLessComparesUTF16Units(t *testing.T) {
	if !Less("\U0001F600", "\uFFFF") || Less("\uFFFF", "\U0001F600") {
		t.Error("a supplementary character must sort before U+FFFF")
	}
	if !Less("a", "b") || !Less("", "a") || Less("a", "a") {
		t.Error("ASCII order")
	}
}

// StringLength counts UTF-16 code units, as String.length() does; an
// invalid byte is one U+FFFD, one unit.
func TestStringLength(t *testing.T) {
	for s, want := range map[string]int{"": 0, "topic": 5, "토픽": 2, "a😀b": 4, "\xff": 1} {
		if got := StringLength(s); got != want {
			t.Errorf("StringLength(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestParseIntLikeLongParseLong(t *testing.T) {
	for _, c := range []struct {
		s    string
		bits int
		want int64
		ok   bool
	}{
		{"42", 32, 42, true},
		{"+7", 32, 7, true},
		{"-0", 32, 0, true},
		{"\u0663\u0664", 32, 34, true}, // Arabic-Indic digits
		{"\uff11\uff12", 64, 12, true}, // fullwidth digits
		{"2147483647", 32, math.MaxInt32, true},
		{"2147483648", 32, 0, false},
		{"-2147483648", 32, math.MinInt32, true},
		{"-9223372036854775808", 64, math.MinInt64, true},
		{"9223372036854775808", 64, 0, false},
		{"", 32, 0, false},
		{"-", 32, 0, false},
		{"1_0", 32, 0, false},
		{" 1", 32, 0, false},
		{"\U0001D7CF", 32, 0, false}, // a digit outside the BMP: two chars, neither a digit
	} {
		if got, ok := ParseInt(c.s, c.bits); got != c.want || ok != c.ok {
			t.Errorf("ParseInt(%q, %d) = %d, %v", c.s, c.bits, got, ok)
		}
	}
}

// The tools' default pattern and a few others, by hand (2024-01-01
// 00:00:12.150 UTC is 1704067212150).
func TestSimpleDateFormat(t *testing.T) {
	for pattern, want := range map[string]string{
		"yyyy-MM-dd HH:mm:ss:SSS": "2024-01-01 00:00:12:150",
		"yy/M/d h:m:s.S":          "24/1/1 12:0:12.150",
		"'at' HH'h' ''mm''":       "at 00h '00'",
	} {
		f, illegal, unsupported := SimpleDateFormat(pattern)
		if illegal != nil || unsupported != "" {
			t.Fatalf("%s: %v %q", pattern, illegal, unsupported)
		}
		if got := f(1704067212150); got != want {
			t.Errorf("%s: %q, want %q", pattern, got, want)
		}
	}
	if _, illegal, _ := SimpleDateFormat("yyyy-bb"); illegal == nil || illegal.Error() != "Illegal pattern character 'b'" {
		t.Errorf("an unknown letter: %v", illegal)
	}
	if _, _, unsupported := SimpleDateFormat("EEE MMM d"); unsupported != "EEE" {
		t.Errorf("a text field: %q", unsupported)
	}
}
