package zookeeper

import "strconv"

// Code is KeeperException.Code: the error a request ends with, as the
// server puts it in its reply header and in a multi's ErrorResult
// (KeeperException.java, release-3.5.9, enum Code and interface
// CodeDeprecated for the numbers).
type Code int32

const (
	OK                           Code = 0
	SystemError                  Code = -1
	RuntimeInconsistency         Code = -2
	DataInconsistency            Code = -3
	ConnectionLoss               Code = -4
	MarshallingError             Code = -5
	Unimplemented                Code = -6
	OperationTimeout             Code = -7
	BadArguments                 Code = -8
	UnknownSession               Code = -12
	NewConfigNoQuorum            Code = -13
	ReconfigInProgress           Code = -14
	APIError                     Code = -100
	NoNode                       Code = -101
	NoAuth                       Code = -102
	BadVersion                   Code = -103
	NoChildrenForEphemerals      Code = -108
	NodeExists                   Code = -110
	NotEmpty                     Code = -111
	SessionExpired               Code = -112
	InvalidCallback              Code = -113
	InvalidACL                   Code = -114
	AuthFailed                   Code = -115
	SessionMoved                 Code = -118
	NotReadOnly                  Code = -119
	EphemeralOnLocalSession      Code = -120
	NoWatcher                    Code = -121
	RequestTimeout               Code = -122
	ReconfigDisabled             Code = -123
	SessionClosedRequireSaslAuth Code = -124
)

var codeNames = map[Code]string{
	OK: "OK", SystemError: "SYSTEMERROR", RuntimeInconsistency: "RUNTIMEINCONSISTENCY",
	DataInconsistency: "DATAINCONSISTENCY", ConnectionLoss: "CONNECTIONLOSS",
	MarshallingError: "MARSHALLINGERROR", Unimplemented: "UNIMPLEMENTED",
	OperationTimeout: "OPERATIONTIMEOUT", BadArguments: "BADARGUMENTS",
	UnknownSession: "UNKNOWNSESSION", NewConfigNoQuorum: "NEWCONFIGNOQUORUM",
	ReconfigInProgress: "RECONFIGINPROGRESS", APIError: "APIERROR", NoNode: "NONODE",
	NoAuth: "NOAUTH", BadVersion: "BADVERSION", NoChildrenForEphemerals: "NOCHILDRENFOREPHEMERALS",
	NodeExists: "NODEEXISTS", NotEmpty: "NOTEMPTY", SessionExpired: "SESSIONEXPIRED",
	InvalidCallback: "INVALIDCALLBACK", InvalidACL: "INVALIDACL", AuthFailed: "AUTHFAILED",
	SessionMoved: "SESSIONMOVED", NotReadOnly: "NOTREADONLY",
	EphemeralOnLocalSession: "EPHEMERALONLOCALSESSION", NoWatcher: "NOWATCHER",
	RequestTimeout: "REQUESTTIMEOUT", ReconfigDisabled: "RECONFIGDISABLED",
	SessionClosedRequireSaslAuth: "SESSIONCLOSEDREQUIRESASLAUTH",
}

// String is the Java enum constant's name (Code.NONODE prints "NONODE").
func (c Code) String() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return "Code(" + strconv.Itoa(int(c)) + ")"
}

// codeMessages is KeeperException.getCodeMessage; codes it has no case
// for (UNKNOWNSESSION, REQUESTTIMEOUT) fall to its default,
// "Unknown error " + code.
var codeMessages = map[Code]string{
	OK: "ok", SystemError: "SystemError", RuntimeInconsistency: "RuntimeInconsistency",
	DataInconsistency: "DataInconsistency", ConnectionLoss: "ConnectionLoss",
	MarshallingError: "MarshallingError", NewConfigNoQuorum: "NewConfigNoQuorum",
	ReconfigInProgress: "ReconfigInProgress", Unimplemented: "Unimplemented",
	OperationTimeout: "OperationTimeout", BadArguments: "BadArguments", APIError: "APIError",
	NoNode: "NoNode", NoAuth: "NoAuth", BadVersion: "BadVersion",
	NoChildrenForEphemerals: "NoChildrenForEphemerals", NodeExists: "NodeExists",
	InvalidACL: "InvalidACL", AuthFailed: "AuthFailed", NotEmpty: "Directory not empty",
	SessionExpired: "Session expired", InvalidCallback: "Invalid callback",
	SessionMoved: "Session moved", NotReadOnly: "Not a read-only call",
	EphemeralOnLocalSession: "Ephemeral node on local session", NoWatcher: "No such watcher",
	ReconfigDisabled:             "Reconfig is disabled",
	SessionClosedRequireSaslAuth: "Session closed because client failed to authenticate",
}

// Message is KeeperException.getCodeMessage(code).
func (c Code) Message() string {
	if m, ok := codeMessages[c]; ok {
		return m
	}
	return "Unknown error " + c.String()
}

// Error is a KeeperException as the client raises it: the reply's code and
// the path the client asked about (the client rebuilds the exception from
// the code alone, KeeperException.create(code, clientPath) in
// ZooKeeper.java; the server's own exception, which may name the parent,
// stays in its log). A multi's exception has no path (ZooKeeper.java
// multiInternal: KeeperException.create(code)).
type Error struct {
	Code Code
	Path string
}

// Error is KeeperException.getMessage: "KeeperErrorCode = NoNode for /a",
// or without " for …" when there is no path.
func (e *Error) Error() string {
	if e.Path == "" {
		return "KeeperErrorCode = " + e.Code.Message()
	}
	return "KeeperErrorCode = " + e.Code.Message() + " for " + e.Path
}

// ErrCode is the Code of err: OK for nil, the code of an *Error, and
// SystemError for anything else.
func ErrCode(err error) Code {
	if err == nil {
		return OK
	}
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return SystemError
}

func errFor(c Code, path string) error {
	if c == OK {
		return nil
	}
	return &Error{Code: c, Path: path}
}
