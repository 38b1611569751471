package zookeeper

import "kafkascope/core/sim"

// The client protocol's messages (zookeeper.jute, release-3.5.9:
// ConnectRequest, ConnectResponse, RequestHeader with the request
// records, ReplyHeader with the response records, WatcherEvent), as sim
// messages. Nothing is serialized: a message is its fields.

// More op codes (ZooDefs.OpCode, release-3.5.9) for the requests that are
// not transactions.
const (
	OpExists       OpCode = 3
	OpGetData      OpCode = 4
	OpGetChildren2 OpCode = 12
	OpPing         OpCode = 11
	OpSetWatches   OpCode = 101
)

func init() {
	opNames[OpExists] = "exists"
	opNames[OpGetData] = "getData"
	opNames[OpGetChildren2] = "getChildren2"
	opNames[OpPing] = "ping"
	opNames[OpSetWatches] = "setWatches"
}

// Special xids (ClientCnxn.java, release-3.5.9): a notification's reply
// header carries -1 (NIOServerCnxn.process sends WatcherEvent with
// ReplyHeader(-1, -1L, 0)), a ping -2, setWatches -8.
const (
	NotificationXid int32 = -1
	PingXid         int32 = -2
	SetWatchesXid   int32 = -8
)

// ConnectRequest opens (SessionID 0) or resumes a session.
type ConnectRequest struct {
	LastZxidSeen int64
	Timeout      int32 // the session timeout the client asks for, ms
	SessionID    int64
}

// Kind implements sim.Message.
func (*ConnectRequest) Kind() string { return "connect" }

// ConnectResponse carries the negotiated timeout; Timeout 0 and SessionID
// 0 say the session is gone (ZooKeeperServer.finishSessionInit).
type ConnectResponse struct {
	Timeout   int32
	SessionID int64
}

// Kind implements sim.Message.
func (*ConnectResponse) Kind() string { return "connectResponse" }

// Request is RequestHeader (xid, type) and its record. Ops is a multi's
// steps; the watch lists and RelativeZxid are SetWatches'.
type Request struct {
	Xid     int32
	Type    OpCode
	Path    string
	Data    []byte
	Mode    CreateMode
	Version int32
	Watch   bool
	Ops     []Op

	RelativeZxid                            int64
	DataWatches, ExistWatches, ChildWatches []string
}

// Kind implements sim.Message: the op's name, as ZooDefs.opNames has it.
func (r *Request) Kind() string { return r.Type.String() }

// Reply is ReplyHeader (xid, zxid, err) and the response record.
type Reply struct {
	Xid      int32
	Zxid     int64
	Err      Code
	Type     OpCode // the request's type, for the trace
	Path     string // CreateResponse
	Data     []byte
	Stat     Stat
	Children []string
	Multi    []OpResult
}

// Kind implements sim.Message.
func (r *Reply) Kind() string { return r.Type.String() + "Response" }

// Notification is a watch firing, sent to the connection that set it.
type Notification struct {
	Event WatchedEvent
}

// Kind implements sim.Message.
func (*Notification) Kind() string { return "notification" }

// Summary implements sim.Summarizer.
func (n *Notification) Summary() string { return n.Event.String() }

var (
	_ sim.Message = (*ConnectRequest)(nil)
	_ sim.Message = (*Reply)(nil)
)

// Summary implements sim.Summarizer.
func (r *Request) Summary() string {
	if r.Path == "" {
		return r.Type.String()
	}
	return r.Type.String() + " " + r.Path
}

// Summary implements sim.Summarizer.
func (r *Reply) Summary() string {
	if r.Err != OK {
		return r.Type.String() + " " + r.Err.String()
	}
	return r.Type.String() + " OK"
}
