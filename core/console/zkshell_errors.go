package console

import "kafkascope/core/zookeeper"

// How zookeeper-shell 3.5.9 words a failed request (release-3.5.9,
// zookeeper-server/src/main/java/org/apache/zookeeper/).

// keeperClass is the KeeperException subclass KeeperException.create(code)
// makes for a code.
var keeperClass = map[zookeeper.Code]string{
	zookeeper.SystemError: "SystemErrorException", zookeeper.RuntimeInconsistency: "RuntimeInconsistencyException",
	zookeeper.DataInconsistency: "DataInconsistencyException", zookeeper.ConnectionLoss: "ConnectionLossException",
	zookeeper.MarshallingError: "MarshallingErrorException", zookeeper.Unimplemented: "UnimplementedException",
	zookeeper.OperationTimeout: "OperationTimeoutException", zookeeper.NewConfigNoQuorum: "NewConfigNoQuorum",
	zookeeper.ReconfigInProgress: "ReconfigInProgress", zookeeper.BadArguments: "BadArgumentsException",
	zookeeper.APIError: "APIErrorException", zookeeper.NoNode: "NoNodeException", zookeeper.NoAuth: "NoAuthException",
	zookeeper.BadVersion: "BadVersionException", zookeeper.NoChildrenForEphemerals: "NoChildrenForEphemeralsException",
	zookeeper.NodeExists: "NodeExistsException", zookeeper.InvalidACL: "InvalidACLException",
	zookeeper.AuthFailed: "AuthFailedException", zookeeper.NotEmpty: "NotEmptyException",
	zookeeper.SessionExpired: "SessionExpiredException", zookeeper.InvalidCallback: "InvalidCallbackException",
	zookeeper.SessionMoved: "SessionMovedException", zookeeper.NotReadOnly: "NotReadOnlyException",
	zookeeper.EphemeralOnLocalSession: "EphemeralOnLocalSessionException", zookeeper.NoWatcher: "NoWatcherException",
	zookeeper.ReconfigDisabled: "ReconfigDisabledException", zookeeper.RequestTimeout: "RequestTimeoutException",
	zookeeper.SessionClosedRequireSaslAuth: "SessionClosedRequireAuthException",
}

// keeperToString is the exception's toString, which GetCommand prints
// (it wraps it in new CliException(ex), whose message is the cause's
// toString): "org.apache.zookeeper.KeeperException$NoNodeException:
// KeeperErrorCode = NoNode for /a".
func keeperToString(code zookeeper.Code, path string) string {
	return "org.apache.zookeeper.KeeperException$" + keeperClass[code] + ": " + (&zookeeper.Error{Code: code, Path: path}).Error()
}

// cliWrapperMessage is cli/CliWrapperException.getMessage, which every
// other command prints: a sentence for the common codes, else the
// exception's getMessage.
func cliWrapperMessage(code zookeeper.Code, path string) string {
	switch code {
	case zookeeper.NoNode:
		return "Node does not exist: " + path
	case zookeeper.NoChildrenForEphemerals:
		return "Ephemerals cannot have children: " + path
	case zookeeper.NodeExists:
		return "Node already exists: " + path
	case zookeeper.NotEmpty:
		return "Node not empty: " + path
	case zookeeper.NotReadOnly:
		return "Not a read-only call: " + path
	case zookeeper.InvalidACL:
		return "Acl is not valid : " + path
	case zookeeper.NoAuth:
		return "Authentication is not valid : " + path
	case zookeeper.BadArguments:
		return "Arguments are not valid : " + path
	case zookeeper.BadVersion:
		return "version No is not valid : " + path
	}
	return (&zookeeper.Error{Code: code, Path: path}).Error()
}

// javaNumberFormat is NumberFormatException.forInputString's message,
// which Integer.parseInt and Long.parseLong throw (Java 8 and 11).
func javaNumberFormat(s string) string {
	return `java.lang.NumberFormatException: For input string: "` + s + `"`
}
