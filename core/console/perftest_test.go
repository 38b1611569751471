package console

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// The expected texts in this file were printed by the real libraries:
// argparse4j 0.7.0 (the version Kafka 3.8 ships) running ProducerPerformance's
// parser, and JDK 17's Formatter, BreakIterator and SplittableRandom.

func TestPerfArgsMatchArgparse4j(t *testing.T) {
	cases := []struct {
		args []string
		code int
		tail []string // the lines after the usage
	}{
		{[]string{"--topic"}, 1, []string{"producer-performance: error: argument --topic: expected one argument"}},
		{[]string{"--topic", "t"}, 1, []string{"producer-performance: error: argument --throughput is required"}},
		{[]string{"--topc", "t"}, 1, []string{"producer-performance: error: unrecognized arguments: '--topc'", "", "Did you mean:", "\t--topic"}},
		{[]string{"--bogus"}, 1, []string{"producer-performance: error: unrecognized arguments: '--bogus'"}},
		{[]string{"--producer", "x"}, 1, []string{
			"producer-performance: error: ambiguous  option:  --producer  could match --",
			"producer-props, --producer.config"}},
		{[]string{"--throughput", "-1.5"}, 1, []string{"producer-performance: error: argument --throughput: expected one argument"}},
		{[]string{"--num-records", "+"}, 1, []string{
			"producer-performance: error: argument --num-records:  could not convert '+'",
			`to Long (For input string: "+")`}},
		{[]string{"--throughput", "99999999999"}, 1, []string{
			"producer-performance:  error:  argument  --throughput:  could  not  convert",
			`'99999999999' to Integer (For input string: "99999999999")`}},
		{[]string{"--help=x"}, 1, []string{
			"producer-performance: error: argument  -h/--help:  ignore implicit argument",
			"'x'"}},
		{[]string{"--record-size", "1", "--payload-file"}, 1, []string{
			"producer-performance: error:  argument  --payload-file:  not  allowed  with",
			"argument --record-size"}},
		{[]string{"--topic", "t", "--num-records", "1", "--throughput", "1", "--producer-props", "a"}, 1, []string{
			"producer-performance: error: one of  the arguments --record-size --payload-",
			"file is required"}},
		{[]string{"--topic", "t", "--num-records", "5", "--throughput", "1", "--record-size", "1"}, 1, []string{
			"producer-performance: error: Either  --producer-props  or --producer.config",
			"must be specified."}},
		{[]string{"--producer-props", "a", "--", "b"}, 1, []string{"producer-performance: error: unrecognized arguments: 'b'"}},
		{[]string{"positional", "--topic", "t"}, 1, []string{
			"producer-performance: error:  unrecognized  arguments:  'positional --topic",
			"t'"}},
	}
	p := perfParser()
	usage := p.usageLines()
	for _, c := range cases {
		v, lines, code := perfArgs(p, c.args)
		if v != nil || code != c.code || !slices.Equal(lines[:len(usage)], usage) || !slices.Equal(lines[len(usage):], c.tail) {
			t.Errorf("%q: exit %d, printed\n%s", c.args, code, strings.Join(lines, "\n"))
		}
	}
}

func TestPerfArgsAcceptPrefixesAndNegativeNumbers(t *testing.T) {
	p := perfParser()
	v, lines, _ := perfArgs(p, []string{"--top", "t", "--num", "5", "--thr", "-1", "--rec=7", "--producer-p", "a=1", "b=2", "--print"})
	if v == nil {
		t.Fatalf("rejected:\n%s", strings.Join(lines, "\n"))
	}
	if v.str[p.arg("--topic")] != "t" || v.nums[p.arg("--num-records")] != 5 || v.nums[p.arg("--throughput")] != -1 ||
		v.nums[p.arg("--record-size")] != 7 || !slices.Equal(v.list[p.arg("--producer-props")], []string{"a=1", "b=2"}) ||
		!v.given(p.arg("--print-metrics")) {
		t.Fatalf("parsed %+v", v)
	}
}

func TestPerfHelp(t *testing.T) {
	p := perfParser()
	_, lines, code := perfArgs(p, nil)
	if code != 0 || !slices.Equal(lines, p.helpLines()) {
		t.Fatalf("no arguments: exit %d", code)
	}
	if _, lines, code = perfArgs(p, []string{"-hx"}); code != 1 || !slices.Equal(lines, p.helpLines()) {
		t.Fatalf("-hx: exit %d", code)
	}
	want := []string{
		"usage: producer-performance [-h] --topic TOPIC --num-records NUM-RECORDS",
		"                            [--payload-delimiter PAYLOAD-DELIMITER]",
		"                            --throughput THROUGHPUT",
		"                            [--producer-props PROP-NAME=PROP-VALUE [PROP-NAME=PROP-VALUE ...]]",
		"                            [--producer.config CONFIG-FILE]",
		"                            [--print-metrics]",
		"                            [--transactional-id TRANSACTIONAL-ID]",
		"                            [--transaction-duration-ms TRANSACTION-DURATION]",
		"                            (--record-size RECORD-SIZE |",
		"                            --payload-file PAYLOAD-FILE)",
	}
	if got := p.usageLines(); !slices.Equal(got, want) {
		t.Fatalf("usage:\n%s", strings.Join(got, "\n"))
	}
}

func TestApWrapJustifiesLikeArgparse4j(t *testing.T) {
	got := apWrap("producer-performance: error: argument --transaction-duration-ms: could not convert '5x' to Long (For input string: \"5x\")\n", apFormatWidth, 0, "", "")
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

func TestJavaFixedRoundsHalfUpOnTheShortestDecimal(t *testing.T) {
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
		if got := javaFixed(c.x, 1) + " " + javaFixed(c.x, 2) + " " + javaFixed(c.x, 6); got != c.want {
			t.Errorf("%v: %q, want %q", c.x, got, c.want)
		}
	}
}

func TestPayloadIsSplittableRandomZero(t *testing.T) {
	r := &perfRun{recordSize: 60}
	if got := string(r.payload()); got != "YQHHNEBSEPDNSEIFGAMSUJXKOLTXSPLGHDIOYZJFNIDSPWHZMKVJAXDBZFCO" {
		t.Fatalf("payload %s", got)
	}
}

func TestPerfStatsEdges(t *testing.T) {
	cases := []struct {
		n         int64
		ctorExc   string
		total     string
		totalExc  string
		latencies []int32
		nowMs     int64 // when the totals are printed (the run started at 0)
	}{
		{n: 0, ctorExc: "java.lang.ArithmeticException: / by zero"},
		{n: -2, ctorExc: "java.lang.NegativeArraySizeException: -1"},
		{n: -1, totalExc: "java.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds for length 0"},
		{n: math.MinInt64, total: "0 records sent, NaN records/sec (NaN MB/sec), NaN ms avg latency, 0.00 ms max latency, 0 ms 50th, 0 ms 95th, 0 ms 99th, 0 ms 99.9th."},
		{n: 4, latencies: []int32{7, 1, 3, 2}, nowMs: 1, total: "4 records sent, 4000.000000 records/sec (0.38 MB/sec), 3.25 ms avg latency, 7.00 ms max latency, 3 ms 50th, 7 ms 95th, 7 ms 99th, 7 ms 99.9th."},
	}
	for _, c := range cases {
		s, exc := newPerfStats(c.n, 0)
		if exc != c.ctorExc {
			t.Errorf("%d: constructor %q", c.n, exc)
			continue
		}
		if exc != "" {
			continue
		}
		tr := &toolRun{s: NewSession()}
		for _, l := range c.latencies {
			s.record(tr, l, 100, c.nowMs)
			s.iteration++
		}
		total, exc := s.total(c.nowMs)
		if total != c.total || exc != c.totalExc {
			t.Errorf("%d: total %q, exception %q", c.n, total, exc)
		}
	}
}

func TestPerfWindowReportsAfterFiveSeconds(t *testing.T) {
	s := NewSession()
	tr := &toolRun{s: s}
	st, _ := newPerfStats(10, 0)
	st.record(tr, 4, 100, 4999)
	st.record(tr, 6, 100, 5000)
	st.record(tr, 5, 100, 5001)
	want := []string{"2 records sent, 0.4 records/sec (0.00 MB/sec), 5.0 ms avg latency, 6.0 ms max latency."}
	if got := s.Output(); !slices.Equal(got, want) {
		t.Fatalf("printed %q", got)
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

func TestSplitMixNextIntRejectsLikeJava(t *testing.T) {
	r := &splitMix{}
	var got []int32
	for i := 0; i < 12; i++ {
		got = append(got, r.nextInt(1000003))
	}
	want := []int32{556448, 206906, 777146, 413813, 17531, 829533, 72497, 738647, 812785, 342678, 871942, 829977}
	if !slices.Equal(got, want) {
		t.Fatalf("nextInt(1000003): %v", got)
	}
}

func TestJavaLoadProperties(t *testing.T) {
	text := "# comment\n! also a comment\n  bootstrap.servers = kafka-1:9092\nacks: 1\nlinger.ms 5\nclient.id=a\\\n    b\nkey\\ with\\=escapes=\\u0041\\t\n\xe9=latin\nempty\n"
	got, exc := javaLoadProperties(text)
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
	if _, exc := javaLoadProperties("a=\\u12"); exc != `java.lang.IllegalArgumentException: Malformed \uxxxx encoding.` {
		t.Errorf("bad escape: %q", exc)
	}
}

func TestJavaRegexSplit(t *testing.T) {
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
		got, err := javaRegexSplit(c.s, c.re)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("split(%q, %q) = %q, %v", c.s, c.re, got, err)
		}
	}
}
