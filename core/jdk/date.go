package jdk

import "time"

// DateToString is java.util.Date.toString() ("EEE MMM dd HH:mm:ss zzz
// yyyy") for a time in milliseconds since the epoch, in the UTC time zone
// (the JVM prints its default zone; the simulator has no host zone, so it
// uses UTC, which Java names "UTC").
func DateToString(millis int64) string {
	return time.UnixMilli(millis).UTC().Format("Mon Jan 02 15:04:05 UTC 2006")
}
