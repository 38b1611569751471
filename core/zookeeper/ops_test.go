package zookeeper

import (
	"reflect"
	"testing"
)

// setup: /a (data "x"), /a/b, an ephemeral /e of sess; zxids 1-3.
func setup(t *testing.T) *Local {
	t.Helper()
	l := NewLocal()
	for _, c := range []struct {
		path string
		mode CreateMode
	}{{"/a", Persistent}, {"/a/b", Persistent}, {"/e", Ephemeral}} {
		if _, _, err := l.Create(sess, c.path, []byte("x"), c.mode, 1000); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// The checks of PrepRequestProcessor.pRequest2TxnCreate and their order
// (server/PrepRequestProcessor.java:630-697): BadArguments for a path
// without '/' (:341-344), NoNode for a missing parent (:660, reported
// with the request's path), BadArguments for an invalid path (:667,
// :705), NodeExists (:669-670), NoChildrenForEphemerals (:675-677).
func TestCreateErrors(t *testing.T) {
	cases := []struct {
		path string
		mode CreateMode
		want Code
	}{
		{"a", Persistent, BadArguments},
		{"/x/y", Persistent, NoNode},
		{"/a/", Persistent, BadArguments}, // the parent /a exists, then the path is invalid
		{"/a//b", Persistent, NoNode},     // the parent "/a/" is looked up first
		{"/a", Persistent, NodeExists},
		{"/", Persistent, NodeExists}, // parent "" is the root's alias
		{"/e/c", Persistent, NoChildrenForEphemerals},
		{"/e/c", EphemeralSequential, NoChildrenForEphemerals},
		{"/a/b", Ephemeral, NodeExists},
	}
	for _, c := range cases {
		l := setup(t)
		before := l.Tree().LastZxid()
		_, _, err := l.Create(sess, c.path, nil, c.mode, 2000)
		if ErrCode(err) != c.want {
			t.Errorf("create %s: %v, want %v", c.path, err, c.want)
			continue
		}
		if err.(*Error).Path != c.path {
			t.Errorf("create %s: error path %q", c.path, err.(*Error).Path)
		}
		// A failed write still takes a zxid (PrepRequestProcessor.java:745
		// gets it before checking; the error travels on as an ErrorTxn).
		if l.Tree().LastZxid() != before+1 {
			t.Errorf("create %s: last zxid %d, want %d", c.path, l.Tree().LastZxid(), before+1)
		}
		if got := len(l.Tree().Paths()); got != 7 {
			t.Errorf("create %s: %d nodes after a failed create", c.path, got)
		}
	}
}

func TestCreateStat(t *testing.T) {
	l := setup(t)
	p, _, err := l.Create(sess, "/a/c", nil, Persistent, 5000)
	if err != nil || p != "/a/c" {
		t.Fatal(p, err)
	}
	data, st, _ := l.Tree().GetData("/a/c", NoWatch)
	if data != nil { // null data stays null (zookeeper-shell's get prints "null")
		t.Errorf("data %q, want null", data)
	}
	want := Stat{Czxid: 4, Mzxid: 4, Pzxid: 4, Ctime: 5000, Mtime: 5000}
	if st != want {
		t.Errorf("stat %+v, want %+v", st, want)
	}
	// the parent: createNode sets cversion and pzxid (server/DataTree.java:460-467)
	_, pst, _ := l.Tree().GetData("/a", NoWatch)
	want = Stat{Czxid: 1, Mzxid: 1, Pzxid: 4, Ctime: 1000, Mtime: 1000, Cversion: 2, DataLength: 1, NumChildren: 2}
	if pst != want {
		t.Errorf("parent stat %+v, want %+v", pst, want)
	}
	if _, est, _ := l.Tree().GetData("/e", NoWatch); est.EphemeralOwner != sess {
		t.Errorf("ephemeralOwner %x", est.EphemeralOwner)
	}
}

// server/PrepRequestProcessor.java:391-410: BadArguments for the built-in
// nodes (:712-714, isSpecialPath), then NoNode for the parent and the
// node, BadVersion (:401, :719-722) before NotEmpty (:402-403).
func TestDeleteErrors(t *testing.T) {
	cases := []struct {
		path    string
		version int32
		want    Code
	}{
		{"/", -1, BadArguments},
		{"/zookeeper", -1, BadArguments},
		{"/zookeeper/quota", -1, BadArguments},
		{"/zookeeper/config", -1, BadArguments},
		{"a", -1, BadArguments},
		{"/x", -1, NoNode},
		{"/x/y", -1, NoNode},
		{"/a/b", 3, BadVersion},
		{"/a", 5, BadVersion},
		{"/a", -1, NotEmpty},
		{"/a", 0, NotEmpty},
	}
	for _, c := range cases {
		l := setup(t)
		if _, err := l.Delete(sess, c.path, c.version, 2000); ErrCode(err) != c.want {
			t.Errorf("delete %s v%d: %v, want %v", c.path, c.version, err, c.want)
		}
	}
}

// A delete moves the parent's pzxid and the client's cversion; the
// persisted cversion (and so the next sequence number) does not move
// (server/DataTree.java:527-538, DataNode.java:162).
func TestDeleteStat(t *testing.T) {
	l := setup(t)
	if _, err := l.Delete(sess, "/a/b", 0, 3000); err != nil {
		t.Fatal(err)
	}
	_, st, _ := l.Tree().GetData("/a", NoWatch)
	if st.Pzxid != 4 || st.Cversion != 2 || st.NumChildren != 0 {
		t.Errorf("parent after delete: %+v", st)
	}
	if _, _, err := l.Tree().GetData("/a/b", NoWatch); ErrCode(err) != NoNode {
		t.Errorf("deleted node: %v", err)
	}
	p, _, _ := l.Create(sess, "/a/s-", nil, PersistentSequential, 3000)
	if p != "/a/s-0000000001" {
		t.Errorf("sequential after a delete: %s", p)
	}
}

// server/PrepRequestProcessor.java:411-425 and DataTree.setData
// (server/DataTree.java:607-631).
func TestSetData(t *testing.T) {
	cases := []struct {
		path    string
		version int32
		want    Code
	}{
		{"a", -1, BadArguments},
		{"/a/", -1, BadArguments},
		{"/x", -1, NoNode},
		{"/a", 1, BadVersion},
		{"/a", 0, OK},
		{"/a", -1, OK},
	}
	for _, c := range cases {
		l := setup(t)
		st, _, err := l.SetData(sess, c.path, []byte("hello"), c.version, 7000)
		if ErrCode(err) != c.want {
			t.Errorf("setData %s v%d: %v, want %v", c.path, c.version, err, c.want)
			continue
		}
		if c.want != OK {
			continue
		}
		want := Stat{Czxid: 1, Mzxid: 4, Pzxid: 2, Ctime: 1000, Mtime: 7000, Version: 1, Cversion: 1, DataLength: 5, NumChildren: 1}
		if st != want {
			t.Errorf("stat %+v, want %+v", st, want)
		}
		if d, _, _ := l.Tree().GetData("/a", NoWatch); string(d) != "hello" {
			t.Errorf("data %q", d)
		}
	}
	l := setup(t)
	l.SetData(sess, "/a", nil, -1, 8000)
	if d, st, _ := l.Tree().GetData("/a", NoWatch); d != nil || st.DataLength != 0 {
		t.Errorf("null data: %q %d", d, st.DataLength)
	}
}

// Sequential names: path + String.format("%010d", parent's persisted
// cversion) (server/PrepRequestProcessor.java:663-666): creates of any
// child count, deletes do not.
func TestSequential(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/q", nil, Persistent, 1)
	var got []string
	step := func(path string, mode CreateMode) {
		p, _, err := l.Create(sess, path, nil, mode, 2)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	step("/q/n-", PersistentSequential)
	step("/q/n-", PersistentSequential)
	step("/q/x", Persistent)
	l.Delete(sess, "/q/x", -1, 3)
	step("/q/", EphemeralSequential) // an empty prefix is valid once suffixed
	step("/q/lock-", EphemeralSequential)
	want := []string{"/q/n-0000000000", "/q/n-0000000001", "/q/x", "/q/0000000003", "/q/lock-0000000004"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// the root's own sequence starts at its persisted cversion, 0 on a
	// fresh tree (0 creates, /zookeeper not counted) plus /q's create
	if p, _, _ := l.Create(sess, "/s", nil, PersistentSequential, 4); p != "/s0000000001" {
		t.Errorf("root sequential %s", p)
	}
}

// Children come back in the HashSet<String>(8) order (DataNode.java:99,
// DataTree.java:694): "i" and "a" share bucket 1 of 8 and keep their
// insertion order, "b" is in bucket 2, "c" in 3.
func TestChildrenOrder(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/p", nil, Persistent, 1)
	for _, c := range []string{"c", "b", "i", "a"} {
		l.Create(sess, "/p/"+c, nil, Persistent, 1)
	}
	kids, _, _ := l.Tree().GetChildren("/p", NoWatch)
	if want := []string{"i", "a", "b", "c"}; !reflect.DeepEqual(kids, want) {
		t.Fatalf("children %v, want %v", kids, want)
	}
}

// InitConfig is ZKDatabase.initConfigInZKDatabase
// (server/ZKDatabase.java:598-610): version -1, mzxid the config's
// version, the data watch fires.
func TestInitConfig(t *testing.T) {
	tr := NewTree()
	tr.GetData(ConfigPath, 9)
	ev := tr.InitConfig([]byte("server.1=zookeeper-1:2888:3888:participant;0.0.0.0:2181\nversion=0"), 0, 500)
	if len(ev) != 1 || ev[0].Event.Type != EventNodeDataChanged {
		t.Fatalf("events %v", ev)
	}
	_, st, _ := tr.GetData(ConfigPath, NoWatch)
	if st.Version != -1 || st.Aversion != -1 || st.Mtime != 500 {
		t.Fatalf("stat %+v", st)
	}
}
