package zookeeper

import "strconv"

// OpCode is ZooDefs.OpCode (ZooDefs.java, release-3.5.9): the type of a
// request, and of the transaction it becomes.
type OpCode int32

const (
	OpError         OpCode = -1
	OpCreate        OpCode = 1
	OpDelete        OpCode = 2
	OpSetData       OpCode = 5
	OpCheck         OpCode = 13
	OpMulti         OpCode = 14
	OpCreateSession OpCode = -10
	OpCloseSession  OpCode = -11
)

var opNames = map[OpCode]string{
	OpError: "error", OpCreate: "create", OpDelete: "delete", OpSetData: "setData",
	OpCheck: "check", OpMulti: "multi", OpCreateSession: "createSession",
	OpCloseSession: "closeSession",
}

// String is the op's name as ZooDefs.opNames and the server's logs spell it.
func (o OpCode) String() string {
	if n, ok := opNames[o]; ok {
		return n
	}
	return "OpCode(" + strconv.Itoa(int(o)) + ")"
}

// CreateMode is org.apache.zookeeper.CreateMode, by its flag value
// (CONTAINER and the TTL modes are not modelled).
type CreateMode int32

const (
	Persistent           CreateMode = 0
	Ephemeral            CreateMode = 1
	PersistentSequential CreateMode = 2
	EphemeralSequential  CreateMode = 3
)

// IsEphemeral is CreateMode.isEphemeral.
func (m CreateMode) IsEphemeral() bool { return m == Ephemeral || m == EphemeralSequential }

// IsSequential is CreateMode.isSequential.
func (m CreateMode) IsSequential() bool {
	return m == PersistentSequential || m == EphemeralSequential
}

// String is the enum constant's name.
func (m CreateMode) String() string {
	switch m {
	case Persistent:
		return "PERSISTENT"
	case Ephemeral:
		return "EPHEMERAL"
	case PersistentSequential:
		return "PERSISTENT_SEQUENTIAL"
	case EphemeralSequential:
		return "EPHEMERAL_SEQUENTIAL"
	}
	return "CreateMode(" + strconv.Itoa(int(m)) + ")"
}

// Op is one write request: alone, or one step of a multi
// (org.apache.zookeeper.Op: Create, Delete, SetData, Check). Data nil is
// Java's null (a node created with null data reads back as null, which
// zookeeper-shell's get prints as "null"); []byte{} is an empty array.
type Op struct {
	Type    OpCode
	Path    string
	Data    []byte
	Mode    CreateMode
	Version int32 // the expected version; -1 matches any
}

// CreateOp is Op.create(path, data, acl, mode) (with the open ACL).
func CreateOp(path string, data []byte, mode CreateMode) Op {
	return Op{Type: OpCreate, Path: path, Data: data, Mode: mode}
}

// DeleteOp is Op.delete(path, version).
func DeleteOp(path string, version int32) Op {
	return Op{Type: OpDelete, Path: path, Version: version}
}

// SetDataOp is Op.setData(path, data, version).
func SetDataOp(path string, data []byte, version int32) Op {
	return Op{Type: OpSetData, Path: path, Data: data, Version: version}
}

// CheckOp is Op.check(path, version).
func CheckOp(path string, version int32) Op {
	return Op{Type: OpCheck, Path: path, Version: version}
}

// Txn is a transaction as the leader logs and proposes it: TxnHeader
// (clientId, zxid, time, type) and its record (CreateTxn, DeleteTxn,
// SetDataTxn, CheckVersionTxn, ErrorTxn, CreateSessionTxn, MultiTxn; see
// zookeeper.jute, release-3.5.9). A multi's steps share its header.
type Txn struct {
	Session int64 // TxnHeader.clientId
	Zxid    int64
	Time    int64 // the time the leader prepared it (ms; the caller's clock)
	Type    OpCode

	Path           string
	Data           []byte
	Ephemeral      bool  // CreateTxn.ephemeral
	ParentCVersion int32 // CreateTxn.parentCVersion: the parent's new (persisted) cversion
	Version        int32 // SetDataTxn and CheckVersionTxn: the new version
	Err            Code  // ErrorTxn.err
	Timeout        int32 // CreateSessionTxn.timeOut
	Ops            []Txn // MultiTxn
}

// OpResult is one step's result in a multi's reply (OpResult.java:
// CreateResult with the created path, DeleteResult, SetDataResult with the
// new stat, CheckResult, ErrorResult with a code), chosen as
// FinalRequestProcessor does from the step's type.
type OpResult struct {
	Type OpCode // OpCreate, OpDelete, OpSetData, OpCheck or OpError
	Path string // CreateResult
	Stat Stat   // SetDataResult
	Err  Code   // ErrorResult
}

// Result is what applying a transaction gives (DataTree.ProcessTxnResult)
// and the watches it fired, in firing order.
type Result struct {
	Zxid   int64
	Type   OpCode
	Err    Code   // the first failing step's code for a multi
	Path   string // the created path (with its sequence suffix) for a create
	Stat   Stat   // after a setData
	Multi  []OpResult
	Events []Fired
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
