package jdk

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The forms Double.valueOf accepts after the sign (FloatingDecimal.
// readJavaFormatString, the grammar of Double.valueOf's Javadoc): ASCII
// decimal digits with an optional fraction and exponent, or a hexadecimal
// significand with a mandatory binary exponent, each with an optional
// float-type suffix.
var (
	javaDecimal = regexp.MustCompile(`^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?$`)
	javaHex     = regexp.MustCompile(`^0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?$`)
)

// ParseDouble is Double.valueOf(String): leading and trailing characters
// up to U+0020 trimmed (String.trim), an optional sign, then "NaN",
// "Infinity", or a decimal or hexadecimal floating-point literal, rounded
// to the nearest double (a literal too large is Infinity, too small 0).
// The error is NumberFormatException's message.
func ParseDouble(s string) (float64, error) {
	t := strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if t == "" {
		return 0, errors.New("empty String")
	}
	body, neg := t, false
	if body[0] == '+' || body[0] == '-' {
		body, neg = body[1:], body[0] == '-'
	}
	var v float64
	switch {
	case body == "NaN":
		return math.NaN(), nil
	case body == "Infinity":
		v = math.Inf(1)
	case javaDecimal.MatchString(body), javaHex.MatchString(body):
		// Both forms end in a decimal digit (of the number or of the
		// binary exponent) unless a type suffix follows.
		if strings.IndexByte("fFdD", body[len(body)-1]) >= 0 {
			body = body[:len(body)-1]
		}
		f, err := strconv.ParseFloat(body, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, errors.New(`For input string: "` + s + `"`)
		}
		v = f
	default:
		return 0, errors.New(`For input string: "` + s + `"`)
	}
	if neg {
		v = -v
	}
	return v, nil
}
