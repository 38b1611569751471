package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/sim"
)

// fmtVirtualTime formats a virtual time as T+12.345s: seconds since the
// cluster's clock started, to the millisecond.
func fmtVirtualTime(t sim.Time) string {
	ms := max(t.Millis(), 0)
	return fmt.Sprintf("T+%d.%03ds", ms/1000, ms%1000)
}

// fmtClockTime formats a virtual time wall-clock style: 00:00:12 (hours grow
// past 24 rather than wrapping, so a 7-day advance reads 168:00:00).
func fmtClockTime(t sim.Time) string {
	s := max(t.Millis(), 0) / 1000
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// fmtSpeed is how a playback speed reads on its button: 0.1×, 1×, 25×.
func fmtSpeed(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64) + "×"
}

// parseSpeedValue reads a speed option's value; ok is false for anything
// that is not a positive number (player clamps it to its range).
func parseSpeedValue(s string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || x <= 0 {
		return 0, false
	}
	return x, true
}

// parseSliderMillis converts a slider value (milliseconds of virtual time)
// to a time.
func parseSliderMillis(s string) (sim.Time, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > 1e15 {
		return 0, false
	}
	return sim.Time(time.Duration(f) * time.Millisecond), true
}

// pctOf is x/of as a CSS percentage, clamped to 0..100.
func pctOf(x, of sim.Time) string {
	if of <= 0 {
		return "0%"
	}
	p := min(max(float64(x)/float64(of)*100, 0), 100)
	return strconv.FormatFloat(p, 'f', 3, 64) + "%"
}
