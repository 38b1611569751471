package jdk

import (
	"math"
	"strconv"
	"testing"
)

// Double.toString's outputs on JDK 19 and later. Sources: the method's
// Javadoc (the special values, plain notation in [10^-3, 10^7) with at
// least one fraction digit, computerized scientific notation outside);
// the constants' Javadoc (MIN_VALUE 4.9e-324, MIN_NORMAL
// 2.2250738585072014E-308, MAX_VALUE 1.7976931348623157E308); JDK-4511638
// (1.0E23, which older JDKs printed as 9.999999999999999E22); JDK-8291240
// (2*MIN_VALUE: 9.9E-324 on JDK 19, 1.0E-323 before).
func TestDoubleToString(t *testing.T) {
	cases := []struct {
		x    float64
		want string
	}{
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1, "-1.0"},
		{100, "100.0"},
		{1024, "1024.0"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{1.25e-7, "1.25E-7"},
		{123456.789, "123456.789"},
		{9999999, "9999999.0"},
		{9999999.5, "9999999.5"},
		{1e7, "1.0E7"},
		{-1.5e7, "-1.5E7"},
		{1e21, "1.0E21"},
		{1e23, "1.0E23"},
		{2e23, "2.0E23"},
		{1.5e300, "1.5E300"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{0x1p-1022, "2.2250738585072014E-308"},
		{math.SmallestNonzeroFloat64, "4.9E-324"},
		{2 * math.SmallestNonzeroFloat64, "9.9E-324"},
		{-math.SmallestNonzeroFloat64, "-4.9E-324"},
	}
	for _, c := range cases {
		if got := DoubleToString(c.x); got != c.want {
			t.Errorf("DoubleToString(%v) = %s, want %s", c.x, got, c.want)
		}
	}
}

// Every finite double's text reads back as the same double, the property
// the Javadoc asks of the selected decimal.
func TestDoubleToStringReadsBack(t *testing.T) {
	for _, x := range []float64{math.Pi, math.E, 1e-5, 0.3, 7e22, 123.456e-200, 5e-324, 3 * 5e-324, 1 << 62} {
		s := DoubleToString(x)
		if back, err := strconv.ParseFloat(s, 64); err != nil || back != x {
			t.Errorf("DoubleToString(%v) = %s reads back as %v (%v)", x, s, back, err)
		}
	}
}
