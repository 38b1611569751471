package console

import (
	"math"
	"slices"
	"strings"
	"testing"

	"kafkascope/core/release"
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
	usage := p.UsageLines()
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
	if v.Str(p.Arg("--topic")) != "t" || v.Num(p.Arg("--num-records")) != 5 || v.Num(p.Arg("--throughput")) != -1 ||
		v.Num(p.Arg("--record-size")) != 7 || !slices.Equal(v.List(p.Arg("--producer-props")), []string{"a=1", "b=2"}) ||
		!v.Given(p.Arg("--print-metrics")) {
		t.Fatalf("parsed %+v", v)
	}
}

func TestPerfHelp(t *testing.T) {
	p := perfParser()
	_, lines, code := perfArgs(p, nil)
	if code != 0 || !slices.Equal(lines, p.HelpLines()) {
		t.Fatalf("no arguments: exit %d", code)
	}
	if _, lines, code = perfArgs(p, []string{"-hx"}); code != 1 || !slices.Equal(lines, p.HelpLines()) {
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
	if got := p.UsageLines(); !slices.Equal(got, want) {
		t.Fatalf("usage:\n%s", strings.Join(got, "\n"))
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
		total, exc := s.total(c.nowMs, release.Default)
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
