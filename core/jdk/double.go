package jdk

import (
	"math"
	"strconv"
	"strings"
)

// DoubleToString is Double.toString(double) as JDK 19 and later compute
// it (Raffaello Giulietti's algorithm, JDK-4511638; its specification is
// the method's Javadoc since JDK 19): "NaN", "Infinity", "-Infinity",
// "0.0" and "-0.0" for the special values; otherwise the decimal of fewest
// digits that reads back as x, the one closest to x if several have that
// length, written in plain notation with at least one fraction digit when
// it lies in [10^-3, 10^7) and in computerized scientific notation ("1.0E7",
// "1.25E-7") outside. Where the fewest is one digit, the decimal of one or
// two digits closest to x is chosen: 4.9E-324 for Double.MIN_VALUE, not
// 5.0E-324. Earlier JDKs, 17 among them (Kafka 3.8 runs on 17 or 21),
// print another decimal for a few doubles: a longer one (the case
// JDK-4511638 reports), or 1.0E-323 for 2*MIN_VALUE where JDK 19 prints
// 9.9E-324 (JDK-8291240). The simulator follows JDK 19 and later.
func DoubleToString(x float64) string {
	if s, ok := nonFinite(x); ok {
		return s
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	digits, exp := shortestDecimal(x)
	if len(digits) == 1 {
		digits, exp = closestOfTwoDigits(x, digits, exp)
	}
	if x >= 1e-3 && x < 1e7 {
		var intPart, frac string
		switch {
		case exp < 0:
			intPart, frac = "0", strings.Repeat("0", -exp-1)+digits
		case len(digits) <= exp+1:
			intPart, frac = digits+strings.Repeat("0", exp+1-len(digits)), "0"
		default:
			intPart, frac = digits[:exp+1], digits[exp+1:]
		}
		return sign + intPart + "." + frac
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

// nonFinite is how Java writes a NaN or an infinity, in Double.toString
// and in Formatter's conversions alike.
func nonFinite(x float64) (string, bool) {
	switch {
	case math.IsNaN(x):
		return "NaN", true
	case math.IsInf(x, 1):
		return "Infinity", true
	case math.IsInf(x, -1):
		return "-Infinity", true
	}
	return "", false
}

// shortestDecimal is the decimal of fewest digits that reads back as the
// finite positive x, the closest to x among those (strconv's shortest
// formatting): its digits, without trailing zeros, and the decimal exponent
// of the first digit, so that x reads digits[0].digits[1:] × 10^exp.
func shortestDecimal(x float64) (digits string, exp int) {
	e := strconv.FormatFloat(x, 'e', -1, 64) // "d.ddde±XX"
	mant, expPart, _ := strings.Cut(e, "e")
	exp, _ = strconv.Atoi(expPart)
	return strings.Replace(mant, ".", "", 1), exp
}

// closestOfTwoDigits applies Double.toString's rule for a double whose
// shortest decimal has one digit: of the decimals of one or two digits that
// read back as x, the closest to x. That is x rounded to two significant
// digits whenever this reads back as x, which it does wherever it differs
// from the one-digit decimal (only among the subnormals, whose neighbours
// are far apart); the check keeps the one-digit decimal otherwise.
func closestOfTwoDigits(x float64, digits string, exp int) (string, int) {
	two := strconv.FormatFloat(x, 'e', 1, 64) // "d.de±XX"
	if back, err := strconv.ParseFloat(two, 64); err != nil || back != x {
		return digits, exp
	}
	mant, expPart, _ := strings.Cut(two, "e")
	e, _ := strconv.Atoi(expPart)
	return strings.TrimSuffix(strings.Replace(mant, ".", "", 1), "0"), e
}
