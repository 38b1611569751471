package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Time is a point in virtual time: nanoseconds since the simulation began.
// It never goes backwards.
type Time int64

// EpochUnixMilli is the wall-clock instant (2024-01-01T00:00:00Z) that virtual
// time zero stands for. Record timestamps and log lines are derived from it, so
// every run prints the same dates.
const EpochUnixMilli int64 = 1704067200000

// Add returns t moved forward by d.
func (t Time) Add(d time.Duration) Time { return t + Time(d) }

// Sub returns the duration t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// UnixMilli is the wall-clock milliseconds (as Kafka timestamps count them)
// that t stands for.
func (t Time) UnixMilli() int64 { return EpochUnixMilli + int64(t)/int64(time.Millisecond) }

// FromUnixMilli is the instant that wall-clock milliseconds ms stand for
// (the inverse of UnixMilli, to the millisecond).
func FromUnixMilli(ms int64) Time { return Time((ms - EpochUnixMilli) * int64(time.Millisecond)) }

// Wall returns t as a UTC wall-clock time, for formatting log lines.
func (t Time) Wall() time.Time {
	return time.UnixMilli(EpochUnixMilli).UTC().Add(time.Duration(t))
}

// Millis is t in whole milliseconds since the simulation began.
func (t Time) Millis() int64 { return int64(t) / int64(time.Millisecond) }

// String formats t as an offset from the start, e.g. "T+12.345s".
func (t Time) String() string {
	return "T+" + FormatDuration(time.Duration(t))
}

// FormatDuration prints d compactly with millisecond precision: 0s, 1ms,
// 1.5s, 2m30s, 7d.
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	neg := d < 0
	if neg {
		d = -d
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if d < time.Second {
		if d%time.Millisecond == 0 {
			fmt.Fprintf(&b, "%dms", d/time.Millisecond)
		} else {
			fmt.Fprintf(&b, "%gms", float64(d)/float64(time.Millisecond))
		}
		return b.String()
	}
	day := 24 * time.Hour
	if days := d / day; days > 0 {
		fmt.Fprintf(&b, "%dd", days)
		d -= days * day
	}
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
		d -= m * time.Minute
	}
	if d > 0 {
		s := float64(d/time.Millisecond) / 1000
		b.WriteString(strconv.FormatFloat(s, 'f', -1, 64) + "s")
	}
	return b.String()
}

// ParseDuration reads a duration as users type it in the terminal: Go's units
// (ns, us, ms, s, m, h) plus d for days, in any combination ("7d", "1h30m",
// "500ms", "1.5s"). A bare number is milliseconds, as in Kafka configs.
func ParseDuration(s string) (time.Duration, error) {
	orig := s
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("invalid duration %q", orig)
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("invalid duration %q: must not be negative", orig)
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	var total time.Duration
	rest := s
	for rest != "" {
		i := strings.Index(rest, "d")
		j := strings.IndexAny(rest, "hmsun")
		if i >= 0 && (j < 0 || i < j) {
			days, err := strconv.ParseFloat(rest[:i], 64)
			if err != nil || days < 0 {
				return 0, fmt.Errorf("invalid duration %q", orig)
			}
			total += time.Duration(days * float64(24*time.Hour))
			rest = rest[i+1:]
			continue
		}
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("invalid duration %q", orig)
		}
		total += d
		rest = ""
	}
	return total, nil
}
