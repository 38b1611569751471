package jdk

import (
	"math"
	"testing"
)

// Double.valueOf's grammar: what it accepts and the value it gives.
func TestParseDouble(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"1", 1}, {"-1", -1}, {"+2.5", 2.5}, {" 3.5 ", 3.5}, {"1.", 1}, {".5", 0.5},
		{"1e3", 1000}, {"1E-2", 0.01}, {"2.5d", 2.5}, {"2f", 2}, {"0x1.8p1", 3}, {"0X10P0", 16},
		{"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}, {"1e400", math.Inf(1)}, {"1e-400", 0},
		{"\t7\n", 7},
	} {
		got, err := ParseDouble(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDouble(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if v, err := ParseDouble("NaN"); err != nil || !math.IsNaN(v) {
		t.Errorf("ParseDouble(NaN) = %v, %v", v, err)
	}
	for _, c := range []struct{ in, msg string }{
		{"", "empty String"}, {"  ", "empty String"}, {"abc", `For input string: "abc"`},
		{"nan", `For input string: "nan"`}, {"inf", `For input string: "inf"`}, {"1_000", `For input string: "1_000"`},
		{"0x1.8", `For input string: "0x1.8"`}, {"1e", `For input string: "1e"`}, {"1.5dd", `For input string: "1.5dd"`},
		{".", `For input string: "."`}, {"١", `For input string: "١"`},
	} {
		if _, err := ParseDouble(c.in); err == nil || err.Error() != c.msg {
			t.Errorf("ParseDouble(%q) error %v, want %q", c.in, err, c.msg)
		}
	}
}
