package console

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kafkascope/core/jdk"
	"kafkascope/core/zookeeper"
)

// stat is the stat of the node at path on zookeeper-1.
func (z *zkTestWorld) stat(path string) zookeeper.Stat {
	z.t.Helper()
	st, err := z.srv["zookeeper-1"].Tree().Exists(path, zookeeper.NoWatch)
	if err != nil {
		z.t.Fatalf("%s: %v", path, err)
	}
	return st
}

func zkTimes(st zookeeper.Stat) (ctime, mtime string) {
	return jdk.DateToString(st.Ctime), jdk.DateToString(st.Mtime)
}

// seedBrokers writes what a two-broker Kafka 2.8 cluster's /brokers
// looks like: persistent parents with null data, ephemeral
// registrations (created out of order), and a persistent sequential
// notification.
func seedBrokers(z *zkTestWorld) {
	z.create("/brokers", "\x00null", zookeeper.Persistent)
	z.create("/brokers/ids", "\x00null", zookeeper.Persistent)
	z.create("/brokers/ids/2", `{"host":"kafka-2"}`, zookeeper.Ephemeral)
	z.create("/brokers/ids/10", `{"host":"kafka-10"}`, zookeeper.Ephemeral)
	z.create("/brokers/ids/1", `{"host":"kafka-1"}`, zookeeper.Ephemeral)
	z.create("/isr_change_notification", "\x00null", zookeeper.Persistent)
	z.create("/isr_change_notification/isr_change_", `{"version":1}`, zookeeper.PersistentSequential)
	z.create("/isr_change_notification/isr_change_", `{"version":1}`, zookeeper.PersistentSequential)
	z.create("/empty", "", zookeeper.Persistent)
}

// ls sorts the children (LsCommand.printChildren); ls -s glues the
// parent's stat to the list and ends with an empty line; ls2 keeps the
// server's order and puts the stat on its own lines.
func TestZooKeeperShellLs(t *testing.T) {
	z := newZKTestWorld(t, 1)
	seedBrokers(z)
	z.expect("zookeeper-1:2181 ls /brokers/ids", zkConnected+"[1, 10, 2]", 0)
	z.expect("zookeeper-1:2181 ls /", zkConnected+"[brokers, empty, isr_change_notification, zookeeper]", 0)
	z.expect("zookeeper-1:2181 ls /isr_change_notification", zkConnected+"[isr_change_0000000000, isr_change_0000000001]", 0)
	z.expect("zookeeper-1:2181 ls /empty", zkConnected+"[]", 0)

	st := z.stat("/brokers/ids")
	ctime, mtime := zkTimes(st)
	z.expect("zookeeper-1:2181 ls -s /brokers/ids", zkConnected+
		"[1, 10, 2]cZxid = 0x3\n"+
		"ctime = "+ctime+"\n"+
		"mZxid = 0x3\n"+
		"mtime = "+mtime+"\n"+
		"pZxid = 0x6\n"+
		"cversion = 3\n"+
		"dataVersion = 0\n"+
		"aclVersion = 0\n"+
		"ephemeralOwner = 0x0\n"+
		"dataLength = 0\n"+
		"numChildren = 3\n", 0)

	server, _, err := z.srv["zookeeper-1"].Tree().GetChildren("/brokers/ids", zookeeper.NoWatch)
	if err != nil {
		t.Fatal(err)
	}
	z.expect("zookeeper-1:2181 ls2 /brokers/ids", "Connecting to zookeeper-1:2181\n"+
		"'ls2' has been deprecated. Please use 'ls [-s] path' instead.\n"+
		"\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n"+
		"["+strings.Join(server, ", ")+"]\n"+strings.TrimSuffix(st.Format(), "\n"), 0)
	if slices.IsSorted(server) {
		t.Errorf("the server's order %v is sorted: ls2 shows no difference from ls", server)
	}

	// visitSubTreeDFS: a node's children together, then each subtree.
	z.expect("zookeeper-1:2181 ls -R /brokers", zkConnected+"/brokers\n/brokers/ids\n/brokers/ids/1\n/brokers/ids/10\n/brokers/ids/2", 0)
	z.expect("zookeeper-1:2181 ls -R /", zkConnected+"/\n/brokers\n/empty\n/isr_change_notification\n/zookeeper\n"+
		"/brokers/ids\n/brokers/ids/1\n/brokers/ids/10\n/brokers/ids/2\n"+
		"/isr_change_notification/isr_change_0000000000\n/isr_change_notification/isr_change_0000000001\n"+
		"/zookeeper/config\n/zookeeper/quota", 0)

	// -? prints HelpFormatter's help, then the command runs on.
	z.expect("zookeeper-1:2181 ls -? /empty", "Connecting to zookeeper-1:2181\n"+strings.Join(lsHelp, "\n")+"\n"+zkConnected[len("Connecting to zookeeper-1:2181\n"):]+"[]", 0)
	// 'ls path watch': the third word becomes -w.
	z.expect("zookeeper-1:2181 ls /empty watch", "Connecting to zookeeper-1:2181\n'ls path [watch]' has been deprecated. Please use 'ls [-w] path' instead.\n"+zkConnected[len("Connecting to zookeeper-1:2181\n"):]+"[]", 0)
}

// get prints the data, "null" for null data, and with -s the stat; stat
// prints the stat alone.
func TestZooKeeperShellGetStat(t *testing.T) {
	z := newZKTestWorld(t, 1)
	seedBrokers(z)
	z.setData("/empty", "line one\nline two")
	z.expect("zookeeper-1:2181 get /brokers/ids/1", zkConnected+`{"host":"kafka-1"}`, 0)
	z.expect("zookeeper-1:2181 get /brokers", zkConnected+"null", 0)
	z.expect("zookeeper-1:2181 get /empty", zkConnected+"line one\nline two", 0)

	st := z.stat("/brokers/ids/1")
	ctime, mtime := zkTimes(st)
	owner := fmt.Sprintf("0x%x", z.seed.c.SessionID())
	block := "cZxid = 0x6\n" +
		"ctime = " + ctime + "\n" +
		"mZxid = 0x6\n" +
		"mtime = " + mtime + "\n" +
		"pZxid = 0x6\n" +
		"cversion = 0\n" +
		"dataVersion = 0\n" +
		"aclVersion = 0\n" +
		"ephemeralOwner = " + owner + "\n" +
		"dataLength = 18\n" +
		"numChildren = 0"
	z.expect("zookeeper-1:2181 get -s /brokers/ids/1", zkConnected+`{"host":"kafka-1"}`+"\n"+block, 0)
	z.expect("zookeeper-1:2181 stat /brokers/ids/1", zkConnected+block, 0)
	if owner == "0x0" {
		t.Fatal("the ephemeral node has no owner")
	}
	st = z.stat("/empty")
	if st.Version != 1 {
		t.Fatalf("/empty dataVersion %d", st.Version)
	}
	if out := z.shell("zookeeper-1:2181 stat /empty").out; !strings.Contains(out, "\ndataVersion = 1\n") || !strings.Contains(out, "\ndataLength = 17\n") {
		t.Errorf("stat /empty:\n%s", out)
	}
}

// Errors: CliWrapperException's sentences, GetCommand's exception
// string, the usage strings, commons-cli's exceptions, and what leaves
// main, with their exit codes.
func TestZooKeeperShellErrors(t *testing.T) {
	z := newZKTestWorld(t, 1)
	seedBrokers(z)
	c := zkConnected
	for _, tc := range []struct {
		args, want string
		exit       int
	}{
		{"ls /missing", c + "Node does not exist: /missing", 1},
		{"ls -R /missing", c + "Node does not exist: /missing", 1},
		{"stat /missing", c + "Node does not exist: /missing", 1},
		{"get /missing", c + "org.apache.zookeeper.KeeperException$NoNodeException: KeeperErrorCode = NoNode for /missing", 1},
		{"create /brokers", c + "Node already exists: /brokers", 1},
		{"create /a/b", c + "Node does not exist: /a/b", 1},
		{"create /brokers/ids/1/x", c + "Ephemerals cannot have children: /brokers/ids/1/x", 1},
		{"delete /brokers", c + "Node not empty: /brokers", 1},
		{"delete /zookeeper", c + "Arguments are not valid : /zookeeper", 1},
		{"set -v 7 /empty x", c + "version No is not valid : /empty", 1},
		{"delete -v 7 /empty", c + "version No is not valid : /empty", 1},
		// The client refuses a bad path before sending (no connection
		// event printed: the program ends first).
		{"ls brokers", "Path must start with / character", 1},
		{"get /brokers/", "Path must not end with / character", 1},
		{"create /a//b", `Invalid path string "/a//b" caused by empty node name specified @3`, 1},
		// Usage strings: MalformedCommandException (ls) and
		// CliParseException (the others).
		{"ls", "ls [-s] [-w] [-R] path", 1},
		{"ls -s", "ls [-s] [-w] [-R] path", 1},
		{"get", "get [-s] [-w] path", 1},
		{"stat", "stat [-w] path", 1},
		{"set /a", "set [-s] [-v version] path data", 1},
		{"create", "create [-s] [-e] [-c] [-t ttl] path [data] [acl]", 1},
		{"delete", "delete [-v version] path", 1},
		{"deleteall", "deleteall path", 1},
		{"ls2", "ls2 path [watch]", 1},
		{"ls -x /", "org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -x", 1},
		{"ls -sx /", "org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -sx", 1},
		{"set /a -1", "org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -1", 1},
		{"set /empty x -v", "org.apache.commons.cli.MissingArgumentException: Missing argument for option: v", 1},
		{"create -c -e /c", "-c cannot be combined with -s or -e. Containers cannot be ephemeral or sequential.", 1},
		{"create -t x /c", "-t argument must be a long value", 1},
		{"create -t 10 -e /c", "TTLs cannot be used with Ephemeral znodes", 1},
		// Integer.parseInt of -v is not a CliException: it leaves main.
		{"set -v abc /empty x", `Exception in thread "main" java.lang.NumberFormatException: For input string: "abc"`, 1},
		{"delete -v 1.5 /empty", `Exception in thread "main" java.lang.NumberFormatException: For input string: "1.5"`, 1},
		{"redo 3", "Command index out of range", 1},
		{"redo x", `Exception in thread "main" java.lang.NumberFormatException: For input string: "x"`, 1},
		{"history", "0 - null", 0},
		{"printwatches", "printwatches is on", 0},
		{"getAcl /", "kafkascope: zookeeper-shell.sh's getAcl is not simulated: ACLs are not modelled (every znode is open to everyone)", 1},
	} {
		want := tc.want
		if !strings.HasPrefix(want, "Connecting to ") {
			want = "Connecting to zookeeper-1:2181\n" + want
		}
		z.expect("zookeeper-1:2181 "+tc.args, want, tc.exit)
	}

	// deleteall / lists the root's children (the server's order) as
	// "//name", which the client refuses.
	root, _, _ := z.srv["zookeeper-1"].Tree().GetChildren("/", zookeeper.NoWatch)
	z.expect("zookeeper-1:2181 deleteall /", c+`Invalid path string "//`+root[0]+`" caused by empty node name specified @1`, 1)

	// An unknown command: Kafka's usage, sorted, then
	// CommandNotFoundException's message, exit code 127.
	r := z.shell("zookeeper-1:2181 foo /")
	lines := strings.Split(r.out, "\n")
	if r.exit != 127 || lines[1] != "ZooKeeper -server host:port [-zk-tls-config-file <file>] cmd args" ||
		lines[len(lines)-1] != "Command not found: Command not found foo" || len(lines) != 3+len(zkCommandMap) {
		t.Errorf("foo: exit %d\n%s", r.exit, r.out)
	}
	for _, want := range []string{"\tclose ", "\tget [-s] [-w] path", "\tls [-s] [-w] [-R] path", "\trmr path", "\tset [-s] [-v version] path data"} {
		if !slices.Contains(lines, want) {
			t.Errorf("usage has no %q", want)
		}
	}
	if cmds := lines[2 : len(lines)-1]; !slices.IsSorted(cmds) || !slices.Contains(cmds, "\tgetAcl [-s] path") || slices.Index(cmds, "\tget [-s] [-w] path") > slices.Index(cmds, "\tgetAcl [-s] path") {
		t.Errorf("usage not sorted as Collections.sort: %q", cmds)
	}
}

// The script's and main's checks, before and while connecting.
func TestZooKeeperShellCommandLine(t *testing.T) {
	z := newZKTestWorld(t, 1)
	z.create("/a", "x", zookeeper.Persistent)
	z.expect("", "USAGE: /opt/kafka/bin/zookeeper-shell.sh zookeeper_host:port[/path] [-zk-tls-config-file file] [args...]", 1)
	z.expect("zookeeper-1:2181 -zk-tls-config-file", `Exception in thread "main" java.lang.IllegalArgumentException: Error: no filename provided with option -zk-tls-config-file`, 1)
	z.expect("zookeeper-1:2181 -timeout abc ls /", "Connecting to zookeeper-1:2181\n"+`Exception in thread "main" java.lang.NumberFormatException: For input string: "abc"`, 1)
	z.expect("zookeeper-1:abc ls /", "Connecting to zookeeper-1:abc\n"+`Exception in thread "main" java.lang.NumberFormatException: For input string: "abc"`, 1)
	z.expect("/kafka ls /", "Connecting to /kafka\n"+`Exception in thread "main" java.lang.IllegalArgumentException: A HostProvider may not be empty!`, 1)
	z.expect("zookeeper-1:2181/kafka/ ls /", "Connecting to zookeeper-1:2181/kafka/\n"+`Exception in thread "main" java.lang.IllegalArgumentException: Path must not end with / character`, 1)
	// Options before the command, in any order; "zookeeper-1" alone
	// uses port 2181; localhost is zookeeper-1's port on the machine.
	z.expect("zookeeper-1 -r -timeout 6000 get /a", "Connecting to zookeeper-1\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\nx", 0)
	z.expect("localhost:2181 get /a", "Connecting to localhost:2181\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\nx", 0)
	// -timeout without its value: the error, and no command, so the
	// shell reads standard input.
	z.expect("zookeeper-1:2181 -timeout", "Error: no argument found for option -timeout\nConnecting to zookeeper-1:2181\nWelcome to ZooKeeper!\nJLine support is disabled\n"+
		"kafkascope: this terminal gives zookeeper-shell.sh no standard input to read commands from, so it ends at once; run one command per invocation: zookeeper-shell.sh zookeeper-1:2181 ls /", 0)
	z.expect("zookeeper-1:2181", "Connecting to zookeeper-1:2181\nWelcome to ZooKeeper!\nJLine support is disabled\n"+
		"kafkascope: this terminal gives zookeeper-shell.sh no standard input to read commands from, so it ends at once; run one command per invocation: zookeeper-shell.sh zookeeper-1:2181 ls /", 0)

	// A name that does not resolve: StaticHostProvider, the socket and
	// the send thread log it, and the waiting request fails.
	r := z.shell("zk-9:2181,zookeeper-1:2181 get /a")
	logs := strings.Split(r.out, "\n")
	if r.exit != 1 || len(logs) != 7 || logs[0] != "Connecting to zk-9:2181,zookeeper-1:2181" ||
		!strings.HasSuffix(logs[1], "] ERROR Unable to resolve address: zk-9:2181 (org.apache.zookeeper.client.StaticHostProvider)") ||
		logs[2] != "java.net.UnknownHostException: zk-9: Name or service not known" ||
		!strings.HasSuffix(logs[3], "] ERROR Unable to open socket to {}zk-9:2181 (org.apache.zookeeper.ClientCnxnSocketNIO)") ||
		!strings.HasSuffix(logs[4], "] WARN Session 0x0 for server zk-9:2181, unexpected error, closing socket connection and attempting reconnect (org.apache.zookeeper.ClientCnxn)") ||
		logs[5] != "java.nio.channels.UnresolvedAddressException" ||
		logs[6] != "org.apache.zookeeper.KeeperException$ConnectionLossException: KeeperErrorCode = ConnectionLoss for /a" {
		t.Errorf("zk-9: exit %d\n%s", r.exit, r.out)
	}
	// A port nothing listens on: refused, logged at INFO (hidden).
	z.expect("zookeeper-1:2182 ls /", "Connecting to zookeeper-1:2182\nKeeperErrorCode = ConnectionLoss for /", 1)
	// A later server that fails is never tried.
	z.expect("zookeeper-1:2181,zk-9:2181 get /a", "Connecting to zookeeper-1:2181,zk-9:2181\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\nx", 0)
}

// Every cluster today runs in KRaft mode: the shell says it has no
// ZooKeeper, and help does not list it; a cluster with ZooKeeper would.
func TestZooKeeperShellKRaftGate(t *testing.T) {
	s := NewSession()
	if out := s.Exec("zookeeper-shell.sh localhost:2181 ls /", nil); len(out) != 1 || out[0] != "kafkascope: there is no cluster yet; create one with: cluster create" {
		t.Errorf("before a cluster: %q", out)
	}
	s.Exec("cluster create", nil)
	out := s.Exec("zookeeper-shell.sh localhost:2181 ls /", nil)
	if len(out) != 1 || out[0] != "kafkascope: this cluster runs in KRaft mode and has no ZooKeeper, so zookeeper-shell.sh has nothing to connect to (ZooKeeper clusters: cluster create --version 2.8)" {
		t.Errorf("on a KRaft cluster: %q", out)
	}
	if help := strings.Join(s.Exec("help", nil), "\n"); strings.Contains(help, "zookeeper-shell") || !strings.Contains(help, "kafka-groups.sh (4.x)") {
		t.Errorf("help on a KRaft cluster:\n%s", help)
	}
	if l := helpLines(true); l[len(l)-1] != "  kafka-features.sh, kafka-groups.sh (4.x), zookeeper-shell.sh" {
		t.Errorf("help with ZooKeeper ends %q", l[len(l)-1])
	}
	if out := s.Exec("help zookeeper-shell", nil); len(out) != 1 || !strings.Contains(out[0], "zookeeper-shell.sh zookeeper-1:2181 help lists its commands") {
		t.Errorf("help zookeeper-shell: %q", out)
	}
}
