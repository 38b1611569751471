package protocol

import "strings"

// ErrorCode is a Kafka protocol error code. The constants carry Kafka's own
// names (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, ...) so the engine reads
// like Kafka's source and prints like Kafka's tools.
type ErrorCode int16

type errorInfo struct {
	code      ErrorCode
	name      string
	message   string // Kafka's default message for the error
	exception string // fully qualified client exception class
	retriable bool   // whether the client exception is a RetriableException
}

var errorsByCode = func() map[ErrorCode]*errorInfo {
	m := make(map[ErrorCode]*errorInfo, len(errorTable))
	for i := range errorTable {
		m[errorTable[i].code] = &errorTable[i]
	}
	return m
}()

func (c ErrorCode) info() *errorInfo {
	if i, ok := errorsByCode[c]; ok {
		return i
	}
	return errorsByCode[UNKNOWN_SERVER_ERROR]
}

// String is the protocol name, e.g. "NOT_ENOUGH_REPLICAS".
func (c ErrorCode) String() string { return c.info().name }

// Message is Kafka's default message for the error.
func (c ErrorCode) Message() string { return c.info().message }

// Exception is the fully qualified client exception class, e.g.
// "org.apache.kafka.common.errors.NotEnoughReplicasException".
func (c ErrorCode) Exception() string { return c.info().exception }

// ExceptionName is the exception's simple class name.
func (c ErrorCode) ExceptionName() string {
	e := c.Exception()
	return e[strings.LastIndexByte(e, '.')+1:]
}

// Retriable reports whether clients retry the error.
func (c ErrorCode) Retriable() bool { return c.info().retriable }

// Err turns a code into a Go error (nil for NONE).
func (c ErrorCode) Err() error {
	if c == NONE {
		return nil
	}
	return &Error{Code: c}
}

// Error is a Kafka error as a Go error, with an optional message that
// replaces the default one (as Kafka's error_message fields do).
type Error struct {
	Code    ErrorCode
	Message string
}

func (e *Error) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return e.Code.Message()
}

// CodeOf extracts the Kafka error code of err (NONE for nil,
// UNKNOWN_SERVER_ERROR for a foreign error).
func CodeOf(err error) ErrorCode {
	if err == nil {
		return NONE
	}
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return UNKNOWN_SERVER_ERROR
}

// Errorf makes an *Error with a specific message.
func Errorf(code ErrorCode, msg string) *Error { return &Error{Code: code, Message: msg} }
