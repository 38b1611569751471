package javacli

import (
	"slices"
	"testing"
)

// The expected texts in this file were printed by argparse4j 0.7.0 (the
// version Kafka 3.8 ships) and JDK 17's BreakIterator.

func TestApWrapJustifiesLikeArgparse4j(t *testing.T) {
	got := apWrap("producer-performance: error: argument --transaction-duration-ms: could not convert '5x' to Long (For input string: \"5x\")\n", formatWidth, 0, "", "")
	want := "producer-performance: error: argument  --transaction-duration-ms: could not\n" +
		"convert '5x' to Long (For input string: \"5x\")\n"
	if got != want {
		t.Fatalf("got\n%s", got)
	}
}

func TestLineBreaksMatchJDK(t *testing.T) {
	cases := []struct {
		s    string
		want []int
	}{
		{"hello world", []int{6, 11}},
		{"a-b", []int{2, 3}},
		{"a--b", []int{3, 4}},
		{"--producer.config", []int{2, 11, 17}},
		{"argument(s)", []int{8, 11}},
		{`could not convert '1.5' to Integer (For input string: "1.5")`, []int{6, 10, 18, 24, 27, 35, 40, 46, 54, 60}},
		{"x 1.5 y", []int{2, 6, 7}},
		{"a.b", []int{2, 3}},
		{"$5", []int{2}},
		{"a$b", []int{3}},
		{"a(b", []int{1, 3}},
		{"a)b", []int{2, 3}},
		{"a/b", []int{3}},
		{"a  b", []int{3, 4}},
		{"1-2", []int{2, 3}},
		{"-1", []int{2}},
		{"a'b", []int{3}},
		{`a"b`, []int{2, 3}},
		{`"1`, []int{2}},
	}
	for _, c := range cases {
		if got := lineBreaks([]rune(c.s)); !slices.Equal(got, c.want) {
			t.Errorf("%q: breaks %v, want %v", c.s, got, c.want)
		}
	}
}

func TestGitLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"topc", "topic", 1}, {"tpoic", "topic", 0}, {"topicx", "topic", 4}, {"tapic", "topic", 2}} {
		if got := gitLevenshtein(c.a, c.b); got != c.want {
			t.Errorf("%s→%s: %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
