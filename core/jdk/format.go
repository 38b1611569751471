package jdk

import (
	"math"
	"strings"
)

// FormatFixed formats x as Java's Formatter does for %.Nf: the shortest
// decimal that identifies the double, rounded half-up to prec places (so
// 0.125 gives 0.13, where Go's fmt gives 0.12); NaN and Infinity as words.
func FormatFixed(x float64, prec int) string {
	if s, ok := nonFinite(x); ok {
		return s
	}
	sign := ""
	if math.Signbit(x) {
		sign, x = "-", -x
	}
	digits, exp := shortestDecimal(x)
	point := exp + 1 // digits before the decimal point
	// Work on a digit string with the point at a known place: pad so that
	// both the integer part and prec fraction digits (plus one to round)
	// exist.
	if point < 0 {
		digits = strings.Repeat("0", -point) + digits
		point = 0
	}
	for len(digits) < point+prec+1 {
		digits += "0"
	}
	keep := []byte(digits[:point+prec])
	if digits[point+prec] >= '5' {
		i := len(keep) - 1
		for ; i >= 0; i-- {
			if keep[i] < '9' {
				keep[i]++
				break
			}
			keep[i] = '0'
		}
		if i < 0 {
			keep = append([]byte{'1'}, keep...)
			point++
		}
	}
	intPart := strings.TrimLeft(string(keep[:point]), "0")
	if intPart == "" {
		intPart = "0"
	}
	if prec == 0 {
		return sign + intPart
	}
	return sign + intPart + "." + string(keep[point:])
}
