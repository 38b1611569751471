package zookeeper

import (
	"reflect"
	"testing"
)

// Line numbers cite apache/zookeeper at tag release-3.5.9, under
// zookeeper-server/src/main/java/org/apache/zookeeper/.

const sess = int64(0x1000000a5b60000)

// A fresh tree: DataTree() (server/DataTree.java:228-257) adds /zookeeper,
// /zookeeper/quota and /zookeeper/config with no transaction, so the
// client's cversion (DataNode.java:162, persisted*2 - numChildren) reads
// -1 on the root and -2 on /zookeeper; /zookeeper/config's ACL is set with
// version -1 (DataTree.java:256).
func TestFreshTree(t *testing.T) {
	tr := NewTree()
	cases := []struct {
		path     string
		cversion int32
		aversion int32
		children []string
	}{
		{"/", -1, 0, []string{"zookeeper"}},
		// HashSet<String>(8) (DataNode.java:99): "config" hashes to bucket
		// 0, "quota" to bucket 2.
		{"/zookeeper", -2, 0, []string{"config", "quota"}},
		{"/zookeeper/quota", 0, 0, []string{}},
		{"/zookeeper/config", 0, -1, []string{}},
	}
	for _, c := range cases {
		kids, st, err := tr.GetChildren(c.path, NoWatch)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		want := Stat{Cversion: c.cversion, Aversion: c.aversion, NumChildren: int32(len(c.children))}
		if st != want || !reflect.DeepEqual(kids, c.children) {
			t.Errorf("%s: stat %+v children %v, want %+v %v", c.path, st, kids, want, c.children)
		}
		data, _, _ := tr.GetData(c.path, NoWatch)
		if data == nil || len(data) != 0 {
			t.Errorf("%s: data %v, want empty non-null", c.path, data)
		}
	}
	if tr.NodeCount() != 5 { // the root counted as "" and "/"
		t.Errorf("NodeCount = %d, want 5", tr.NodeCount())
	}
}

// cli/StatPrinter.java:35-47, with Date.toString in UTC.
func TestStatFormat(t *testing.T) {
	_, st, _ := NewTree().GetData("/", NoWatch)
	want := `cZxid = 0x0
ctime = Thu Jan 01 00:00:00 UTC 1970
mZxid = 0x0
mtime = Thu Jan 01 00:00:00 UTC 1970
pZxid = 0x0
cversion = -1
dataVersion = 0
aclVersion = 0
ephemeralOwner = 0x0
dataLength = 0
numChildren = 1
`
	if got := st.Format(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	l := NewLocal()
	l.Prep().SetLastZxid(MakeZxid(1, 4))
	if _, _, err := l.Create(sess, "/controller", []byte(`{"version":1,"brokerid":0,"timestamp":"1700000000123"}`), Ephemeral, 1700000000123); err != nil {
		t.Fatal(err)
	}
	_, st, _ = l.Tree().GetData("/controller", NoWatch)
	want = `cZxid = 0x100000005
ctime = Tue Nov 14 22:13:20 UTC 2023
mZxid = 0x100000005
mtime = Tue Nov 14 22:13:20 UTC 2023
pZxid = 0x100000005
cversion = 0
dataVersion = 0
aclVersion = 0
ephemeralOwner = 0x1000000a5b60000
dataLength = 54
numChildren = 0
`
	if got := st.Format(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// server/util/ZxidUtils.java:21-32.
func TestZxid(t *testing.T) {
	z := MakeZxid(2, 3)
	if z != 0x200000003 || ZxidEpoch(z) != 2 || ZxidCounter(z) != 3 || ZxidString(z) != "200000003" {
		t.Fatalf("zxid %x epoch %d counter %d", z, ZxidEpoch(z), ZxidCounter(z))
	}
	if MakeZxid(1, 0x1ffffffff) != 0x1ffffffff {
		t.Fatal("the counter is masked to 32 bits")
	}
}

// KeeperException.java:437-498 (getCodeMessage) and 540-545 (getMessage).
func TestErrorMessages(t *testing.T) {
	cases := []struct {
		err  Error
		want string
	}{
		{Error{NoNode, "/a"}, "KeeperErrorCode = NoNode for /a"},
		{Error{NotEmpty, "/brokers"}, "KeeperErrorCode = Directory not empty for /brokers"},
		{Error{BadVersion, "/x"}, "KeeperErrorCode = BadVersion for /x"},
		{Error{NodeExists, "/controller"}, "KeeperErrorCode = NodeExists for /controller"},
		{Error{SessionExpired, "/x"}, "KeeperErrorCode = Session expired for /x"},
		{Error{RuntimeInconsistency, ""}, "KeeperErrorCode = RuntimeInconsistency"},
		{Error{UnknownSession, ""}, "KeeperErrorCode = Unknown error UNKNOWNSESSION"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%v: %q, want %q", c.err.Code, got, c.want)
		}
	}
	if NoChildrenForEphemerals != -108 || NodeExists != -110 || NoNode != -101 || RuntimeInconsistency != -2 {
		t.Fatal("codes")
	}
}

// common/PathUtils.java:48-107.
func TestValidatePath(t *testing.T) {
	cases := map[string]string{
		"/":        "",
		"/a/b":     "",
		"/a.b/..c": "",
		"":         "Path length must be > 0",
		"a":        "Path must start with / character",
		"/a/":      "Path must not end with / character",
		"/a//b":    `Invalid path string "/a//b" caused by empty node name specified @3`,
		"/a/./b":   `Invalid path string "/a/./b" caused by relative paths not allowed @3`,
		"/a/..":    `Invalid path string "/a/.." caused by relative paths not allowed @4`,
		"/a\x00":   "Invalid path string \"/a\x00\" caused by null character not allowed @2",
		"/a\x01":   "Invalid path string \"/a\x01\" caused by invalid character @2",
		"/😀":       "Invalid path string \"/😀\" caused by invalid character @1",
	}
	for p, want := range cases {
		if got := ValidatePath(p); got != want {
			t.Errorf("ValidatePath(%q) = %q, want %q", p, got, want)
		}
	}
}
