package client

import (
	"fmt"

	"kafkascope/core/sim"
)

// Level is a log4j level; the tools show WARN and ERROR.
type Level string

const (
	LevelWarn  Level = "WARN"
	LevelError Level = "ERROR"
)

// Logger receives log lines: the time, the level, the message, the logger
// (Java class) name, and the lines of an attached exception (if any).
type Logger func(at sim.Time, level Level, msg, logger string, exception []string)

// FormatLogLine renders a line with the tools' log4j layout
// "[%d] %p %m (%c)%n", timestamps in UTC.
func FormatLogLine(at sim.Time, level Level, msg, logger string) string {
	return fmt.Sprintf("%s %s (%s)", LogPrefix(at, level), msg, logger)
}

// LogPrefix is the "[timestamp] LEVEL" start of a log line.
func LogPrefix(at sim.Time, level Level) string {
	return fmt.Sprintf("[%s] %s", at.Wall().Format("2006-01-02 15:04:05,000"), level)
}

// Exception renders a Kafka exception as the first line of its stack trace
// ("class: message", or just the class when there is no message). The
// simulator prints no Java stack frames.
func Exception(class, msg string) string {
	if msg == "" {
		return class
	}
	return class + ": " + msg
}

// Error is a client-side failure, carrying the Java exception class the real
// client would raise.
type Error struct {
	Class   string // e.g. org.apache.kafka.common.errors.TimeoutException
	Message string
	Cause   *Error
	// retriable: a RetriableException, which the admin client retries
	// until the call's deadline.
	retriable bool
	// thrown: send threw it to the application instead of giving it to
	// the record's callback.
	thrown bool
}

func (e *Error) Error() string { return Exception(e.Class, e.Message) }

// Lines renders the exception and its causes as printStackTrace would,
// without frames.
func (e *Error) Lines() []string {
	out := []string{e.Error()}
	for c := e.Cause; c != nil; c = c.Cause {
		out = append(out, "Caused by: "+c.Error())
	}
	return out
}

// CausedBy is the exception as the cause of another: its lines, each
// starting "Caused by: ".
func (e *Error) CausedBy() []string {
	var out []string
	for c := e; c != nil; c = c.Cause {
		out = append(out, "Caused by: "+c.Error())
	}
	return out
}

const (
	classTimeout = "org.apache.kafka.common.errors.TimeoutException"
)
