package console

import (
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// The writing commands: "Created" on stderr with the created name, set
// and delete silent unless -s, deleteall from the leaves up.
func TestZooKeeperShellWrites(t *testing.T) {
	z := newZKTestWorld(t, 1)
	tree := z.srv["zookeeper-1"].Tree()
	c := zkConnected
	z.expect("zookeeper-1:2181 create /t", c+"Created /t", 0)
	z.expect("zookeeper-1:2181 create /t/c hello", c+"Created /t/c", 0)
	z.expect("zookeeper-1:2181 create -s /t/seq- a", c+"Created /t/seq-0000000001", 0)
	z.expect("zookeeper-1:2181 create -s -e /t/eseq- b", c+"Created /t/eseq-0000000002", 0)
	// A sequential node's path is validated with a digit appended.
	z.expect("zookeeper-1:2181 create -s /t/", c+"Created /t/0000000003", 0)
	z.expect("zookeeper-1:2181 get /t", c+"null", 0)
	z.expect("zookeeper-1:2181 get /t/c", c+"hello", 0)
	if r := z.shellArgs("zookeeper-1:2181", "create", "/t/empty", ""); r.out != c+"Created /t/empty" {
		t.Errorf("create with empty data:\n%s", r.out)
	}
	z.expect("zookeeper-1:2181 get /t/empty", c+"", 0)
	z.expect("zookeeper-1:2181 create /t/x data world:anyone:cdrwa", "Connecting to zookeeper-1:2181\nkafkascope: create's acl is not simulated: ACLs are not modelled (every znode is open to everyone)", 1)

	z.expect("zookeeper-1:2181 set /t/c bye", strings.TrimSuffix(c, "\n"), 0)
	r := z.shell("zookeeper-1:2181 set -s -v 1 /t/c again")
	st := z.stat("/t/c")
	if r.exit != 0 || r.out != c+strings.TrimSuffix(st.Format(), "\n") || st.Version != 2 {
		t.Errorf("set -s: exit %d, dataVersion %d\n%s", r.exit, st.Version, r.out)
	}
	// commons-cli bursts -sv3 into -s, -v and its value 3 (a stale
	// version here).
	z.expect("zookeeper-1:2181 set -sv3 /t/c again", c+"version No is not valid : /t/c", 1)
	z.expect("zookeeper-1:2181 delete -v 2 /t/c", strings.TrimSuffix(c, "\n"), 0)
	if _, err := tree.Exists("/t/c", zookeeper.NoWatch); zookeeper.ErrCode(err) != zookeeper.NoNode {
		t.Fatalf("/t/c after delete: %v", err)
	}
	// The 3.4 form "delete path version": a warning, and the version is
	// ignored.
	z.expect("zookeeper-1:2181 delete /t/empty 99", "Connecting to zookeeper-1:2181\n'delete path [version]' has been deprecated. Please use 'delete [-v version] path' instead.\n"+strings.TrimSuffix(c, "\n")[len("Connecting to zookeeper-1:2181\n"):], 0)

	z.create("/t/seq-0000000001/deep", "d", zookeeper.Persistent)
	z.expect("zookeeper-1:2181 deleteall /t", strings.TrimSuffix(c, "\n"), 0)
	if paths := tree.Paths(); !slices.Equal(paths, []string{"/", "/zookeeper", "/zookeeper/config", "/zookeeper/quota"}) {
		t.Errorf("after deleteall /t: %v", paths)
	}
	z.create("/r", "", zookeeper.Persistent)
	z.create("/r/s", "", zookeeper.Persistent)
	// The warning comes as the command starts, before the connection.
	z.expect("zookeeper-1:2181 rmr /r", "Connecting to zookeeper-1:2181\nThe command 'rmr' has been deprecated. Please use 'deleteall' instead.\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null", 0)
	if _, err := tree.Exists("/r", zookeeper.NoWatch); zookeeper.ErrCode(err) != zookeeper.NoNode {
		t.Errorf("/r after rmr: %v", err)
	}
}

// A chroot in the connect string prefixes every path the shell sends and
// is taken off the names and events it gets back.
func TestZooKeeperShellChroot(t *testing.T) {
	z := newZKTestWorld(t, 1)
	z.create("/kafka", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers/ids", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers/ids/1", "one", zookeeper.Persistent)
	c := "Connecting to zookeeper-1:2181/kafka\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n"
	z.expect("zookeeper-1:2181/kafka ls /", c+"[brokers]", 0)
	z.expect("zookeeper-1:2181/kafka get /brokers/ids/1", c+"one", 0)
	z.expect("zookeeper-1:2181/kafka ls -R /", c+"/\n/brokers\n/brokers/ids\n/brokers/ids/1", 0)
	z.expect("zookeeper-1:2181/kafka ls /missing", c+"Node does not exist: /missing", 1)
	z.expect("zookeeper-1:2181/kafka create -s /brokers/seq x", c+"Created /brokers/seq0000000001", 0)
	if _, err := z.srv["zookeeper-1"].Tree().Exists("/kafka/brokers/seq0000000001", zookeeper.NoWatch); err != nil {
		t.Errorf("the sequential node under the chroot: %v", err)
	}
	// delete / keeps "/" even under a chroot: the root cannot go.
	z.expect("zookeeper-1:2181/kafka delete /", c+"Arguments are not valid : /", 1)
	// A chroot that does not exist: the chroot itself is "/".
	z.expect("zookeeper-1:2181/none ls /", "Connecting to zookeeper-1:2181/none\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\nNode does not exist: /", 1)
	// "/" alone is no chroot.
	z.expect("zookeeper-1:2181/ ls /", "Connecting to zookeeper-1:2181/\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n[kafka, zookeeper]", 0)
}

// -w sets the watch on the server; a watch that fires while the command
// still runs is printed among its output (here ls -R -w, whose later
// calls are still under way when another client creates a node); the
// exit drops the connection's watches.
func TestZooKeeperShellWatches(t *testing.T) {
	z := newZKTestWorld(t, 1)
	tree := z.srv["zookeeper-1"].Tree()
	z.create("/kafka", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers/ids", "\x00null", zookeeper.Persistent)
	z.create("/kafka/brokers/ids/1", "one", zookeeper.Persistent)
	z.create("/kafka/brokers/ids/2", "two", zookeeper.Persistent)

	for _, tc := range []struct {
		cmd   string
		watch bool
	}{{"get /brokers", false}, {"get -w /brokers", true}, {"stat -w /brokers", true}, {"ls /brokers", false}, {"ls -w /brokers", true}, {"get /brokers watch", true}} {
		sh := z.start(append([]string{"zookeeper-1:2181/kafka"}, strings.Fields(tc.cmd)...)...)
		seen := false
		r := z.wait(sh, func() {
			seen = seen || len(tree.DataWatchers("/kafka/brokers")) > 0 || len(tree.ChildWatchers("/kafka/brokers")) > 0
		})
		if r.exit != 0 || seen != tc.watch {
			t.Errorf("%s: exit %d, watch seen %v, want %v", tc.cmd, r.exit, seen, tc.watch)
		}
		z.runFor(100 * time.Millisecond)
		if n := tree.WatchCount(); n != 0 {
			t.Errorf("%s: %d watches left after the shell exited", tc.cmd, n)
		}
	}

	sh := z.start("zookeeper-1:2181/kafka", "ls", "-R", "-w", "/")
	if _, err := z.w.RunWhile(func() bool { return len(tree.ChildWatchers("/kafka/brokers")) == 0 }, z.w.Now().Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := z.w.Call("seeder", "create", func(env *sim.Env) {
		z.seed.c.Create(env, "/kafka/brokers/topics", nil, zookeeper.Persistent, nil)
	}); err != nil {
		t.Fatal(err)
	}
	r := z.wait(sh, func() {})
	want := "Connecting to zookeeper-1:2181/kafka\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n" +
		"/\n/brokers\n/brokers/ids\n" +
		"\nWATCHER::\n\nWatchedEvent state:SyncConnected type:NodeChildrenChanged path:/brokers\n" +
		"/brokers/ids/1\n/brokers/ids/2"
	if r.exit != 0 || r.out != want {
		t.Errorf("ls -R -w / with a create under way: exit %d\n%s\nwant\n%s", r.exit, r.out, want)
	}
}

// The session outlives the shell: System.exit closes the socket, not the
// session, so it and the ephemeral nodes it created stay until it
// expires (30 s asked for, the first tick multiple after). quit and
// close send closeSession first.
func TestZooKeeperShellSessionLingers(t *testing.T) {
	z := newZKTestWorld(t, 1)
	srv := z.srv["zookeeper-1"]
	r := z.expect("zookeeper-1:2181 create -e /eph x", zkConnected+"Created /eph", 0)
	id := r.proc.c.SessionID()
	if id == 0 || r.proc.c.NegotiatedTimeout() != 30000 {
		t.Fatalf("session %x, timeout %d", id, r.proc.c.NegotiatedTimeout())
	}
	exited := z.w.Now()
	expiry, ok := srv.SessionExpiry(id)
	if !ok || !slices.Contains(srv.Sessions(), id) {
		t.Fatalf("the shell's session %x is gone at its exit", id)
	}
	if d := time.Duration(expiry-exited.Millis()) * time.Millisecond; d < 30*time.Second || d > 33*time.Second {
		t.Errorf("the session expires %v after the exit, want 30 s up to the next tick", d)
	}
	if st := z.stat("/eph"); st.EphemeralOwner != id {
		t.Fatalf("/eph's owner %x, want %x", st.EphemeralOwner, id)
	}
	z.runFor(29 * time.Second)
	if !slices.Contains(srv.Sessions(), id) {
		t.Fatal("the session expired before its timeout")
	}
	z.runFor(5 * time.Second)
	if slices.Contains(srv.Sessions(), id) {
		t.Fatal("the session outlived its timeout")
	}
	if _, err := srv.Tree().Exists("/eph", zookeeper.NoWatch); zookeeper.ErrCode(err) != zookeeper.NoNode {
		t.Fatalf("/eph after the session expired: %v", err)
	}

	for _, cmd := range []string{"quit", "close"} {
		r = z.expect("zookeeper-1:2181 "+cmd, strings.TrimSuffix(zkConnected, "\n"), 0)
		if id := r.proc.c.SessionID(); id == 0 || slices.Contains(srv.Sessions(), id) {
			t.Errorf("%s: session %x still open after the shell's exit", cmd, id)
		}
	}
	// -timeout sets the session timeout asked for.
	r = z.expect("zookeeper-1:2181 -timeout 10000 ls /zookeeper", zkConnected+"[config, quota]", 0)
	if r.proc.c.NegotiatedTimeout() != 10000 {
		t.Errorf("-timeout 10000: negotiated %d", r.proc.c.NegotiatedTimeout())
	}
}

// Against a 3-server ensemble: the connect string's servers in order, a
// follower answering reads and forwarding writes, the session owned by
// the leader after the exit; a server down fails the command.
func TestZooKeeperShellEnsemble(t *testing.T) {
	z := newZKTestWorld(t, 3)
	z.create("/brokers", "\x00null", zookeeper.Persistent)
	z.create("/brokers/ids", "\x00null", zookeeper.Persistent)
	z.create("/brokers/ids/1", "b1", zookeeper.Ephemeral)
	c := "Connecting to zookeeper-2:2181,zookeeper-3:2181\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n"
	r := z.expect("zookeeper-2:2181,zookeeper-3:2181 ls /brokers/ids", c+"[1]", 0)
	if id := r.proc.c.SessionID(); id>>56 != 2 {
		t.Errorf("session %x: not made by zookeeper-2", id)
	}
	r = z.expect("zookeeper-2:2181,zookeeper-3:2181 create -e /brokers/ids/2 b2", c+"Created /brokers/ids/2", 0)
	id := r.proc.c.SessionID()
	for host, s := range z.srv {
		if _, err := s.Tree().Exists("/brokers/ids/2", zookeeper.NoWatch); err != nil {
			t.Errorf("%s: /brokers/ids/2: %v", host, err)
		}
		if s.PeerState() == zookeeper.Leading && !slices.Contains(s.GlobalSessions(), id) {
			t.Errorf("the leader %s does not hold the shell's session %x after its exit", host, id)
		}
	}
	z.expect("zookeeper-3:2181 get /brokers/ids/2", "Connecting to zookeeper-3:2181\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\nb2", 0)

	// The first server's process is down: the connection is refused
	// (logged at INFO only) and the waiting request fails.
	if err := z.w.Kill("zookeeper-2", false); err != nil {
		t.Fatal(err)
	}
	z.expect("zookeeper-2:2181,zookeeper-3:2181 ls /", "Connecting to zookeeper-2:2181,zookeeper-3:2181\nKeeperErrorCode = ConnectionLoss for /", 1)
}
