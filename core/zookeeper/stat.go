package zookeeper

import (
	"strconv"
	"strings"

	"kafkascope/core/jdk"
)

// Stat is org.apache.zookeeper.data.Stat (zookeeper.jute, release-3.5.9,
// class Stat): what a client is told about a znode. Times are
// milliseconds since the epoch, zxids as in zxid.go.
type Stat struct {
	Czxid          int64 // the zxid of the create
	Mzxid          int64 // the zxid of the last setData (the create's at first)
	Ctime          int64
	Mtime          int64
	Version        int32 // data version: setData calls since the create
	Cversion       int32 // child version: creates and deletes of children
	Aversion       int32 // ACL version
	EphemeralOwner int64 // the owning session, 0 for a persistent node
	DataLength     int32
	NumChildren    int32
	Pzxid          int64 // the zxid of the last create or delete of a child
}

// Format is the stat as zookeeper-shell 3.5.9 prints it
// (cli/StatPrinter.java: one "name = value" line each, zxids and the
// owner as "0x" + Long.toHexString, times as new Date(ms).toString(),
// here in UTC), each line ending in "\n". `stat PATH` prints exactly
// this; `get -s PATH` prints the data's line first; `ls -s PATH` prints
// the children's list with no newline before it and an empty line after
// it (cli/LsCommand.java printChildren).
func (s Stat) Format() string {
	var b strings.Builder
	line := func(name, value string) {
		b.WriteString(name)
		b.WriteString(" = ")
		b.WriteString(value)
		b.WriteByte('\n')
	}
	hex := func(v int64) string { return "0x" + strconv.FormatUint(uint64(v), 16) }
	line("cZxid", hex(s.Czxid))
	line("ctime", jdk.DateToString(s.Ctime))
	line("mZxid", hex(s.Mzxid))
	line("mtime", jdk.DateToString(s.Mtime))
	line("pZxid", hex(s.Pzxid))
	line("cversion", strconv.Itoa(int(s.Cversion)))
	line("dataVersion", strconv.Itoa(int(s.Version)))
	line("aclVersion", strconv.Itoa(int(s.Aversion)))
	line("ephemeralOwner", hex(s.EphemeralOwner))
	line("dataLength", strconv.Itoa(int(s.DataLength)))
	line("numChildren", strconv.Itoa(int(s.NumChildren)))
	return b.String()
}

// persisted is StatPersisted (zookeeper.jute): what the server keeps. Its
// cversion counts the creates of children only, and the sequential
// suffix is taken from it; the client's Cversion is derived from it.
type persisted struct {
	czxid, mzxid, ctime, mtime  int64
	version, cversion, aversion int32
	ephemeralOwner              int64
	pzxid                       int64
}
