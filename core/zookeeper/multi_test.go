package zookeeper

import (
	"reflect"
	"testing"
)

// A multi's steps are checked in order, each seeing the earlier ones
// (server/PrepRequestProcessor.java:790-837), and share one zxid (:784).
func TestMultiSuccess(t *testing.T) {
	l := NewLocal()
	res, _, err := l.Multi(sess, []Op{
		CreateOp("/m", []byte("1"), Persistent),
		CreateOp("/m/s-", nil, PersistentSequential),
		CreateOp("/m/s-", nil, PersistentSequential),
		SetDataOp("/m", []byte("22"), 0),
		CheckOp("/m", 1),
		DeleteOp("/m/s-0000000000", 0),
	}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []OpResult{
		{Type: OpCreate, Path: "/m"},
		{Type: OpCreate, Path: "/m/s-0000000000"},
		{Type: OpCreate, Path: "/m/s-0000000001"},
		{Type: OpSetData, Stat: Stat{Czxid: 1, Mzxid: 1, Ctime: 10, Mtime: 10, Version: 1, Cversion: 2, Pzxid: 1, DataLength: 2, NumChildren: 2}},
		{Type: OpCheck},
		{Type: OpDelete},
	}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("got %+v\nwant %+v", res, want)
	}
	_, st, _ := l.Tree().GetData("/m/s-0000000001", NoWatch)
	if st.Czxid != 1 || l.Tree().LastZxid() != 1 {
		t.Fatalf("one zxid: %+v last %d", st, l.Tree().LastZxid())
	}
}

// A failing step: the steps before it become ErrorResult(OK), the failing
// one carries its code, the later ones RuntimeInconsistency
// (server/PrepRequestProcessor.java:799-802; server/DataTree.java:
// 885-953), nothing is applied, no watch fires, the zxid is used, and the
// client's exception has the first failing code and no path
// (ZooKeeper.java:1916-1927).
func TestMultiFailure(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/f0", nil, Persistent, 1)
	tr := l.Tree()
	tr.Exists("/f", 3)
	tr.GetChildren("/", 4)
	res, events, err := l.Multi(sess, []Op{
		CreateOp("/f", nil, Persistent),
		CreateOp("/f/a", nil, Persistent),
		SetDataOp("/f0", nil, 7),
		DeleteOp("/nope", -1),
		CheckOp("/f", 0),
	}, 10)
	want := []OpResult{
		{Type: OpError, Err: OK},
		{Type: OpError, Err: OK},
		{Type: OpError, Err: BadVersion},
		{Type: OpError, Err: RuntimeInconsistency},
		{Type: OpError, Err: RuntimeInconsistency},
	}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("got %+v\nwant %+v", res, want)
	}
	if err == nil || err.Error() != "KeeperErrorCode = BadVersion" {
		t.Fatalf("error %v", err)
	}
	if len(events) != 0 || tr.WatchCount() != 2 {
		t.Fatalf("events %v, %d watches", events, tr.WatchCount())
	}
	if _, err := tr.Exists("/f", NoWatch); ErrCode(err) != NoNode || tr.LastZxid() != 2 {
		t.Fatalf("/f: %v, last zxid %d", err, tr.LastZxid())
	}
	if l.Prep().Outstanding() != 0 {
		t.Fatal("records left in flight")
	}
	if _, _, err := l.Create(sess, "/f", nil, Persistent, 11); err != nil {
		t.Fatal(err)
	}
}

// With writes in flight (prepared, not yet applied), later writes see
// them (ZooKeeperServer.outstandingChanges), and a failed multi's records
// are rolled back to what was in flight before it
// (PrepRequestProcessor.rollbackPendingChanges, :248-283).
func TestPrepInFlight(t *testing.T) {
	tr := NewTree()
	p := NewPrep(tr)
	t1 := p.Write(sess, CreateOp("/x", nil, Persistent), 1)
	t2 := p.Write(sess, CreateOp("/x/s-", nil, PersistentSequential), 1)
	t3 := p.Multi(sess, []Op{CreateOp("/x/y", nil, Persistent), CreateOp("/nope/z", nil, Persistent)}, 1)
	t4 := p.Write(sess, CreateOp("/x/y", nil, Persistent), 1)
	t5 := p.Write(sess, CreateOp("/x/s-", nil, PersistentSequential), 1)
	if t2.Path != "/x/s-0000000000" || t5.Path != "/x/s-0000000002" || t4.Type != OpCreate {
		t.Fatalf("t2 %+v t4 %+v t5 %+v", t2, t4, t5)
	}
	if t3.Ops[0].Type != OpCreate || t3.Ops[1].Type != OpError || t3.Ops[1].Err != NoNode {
		t.Fatalf("multi %+v", t3)
	}
	for _, txn := range []Txn{t1, t2, t3, t4, t5} {
		r := tr.Apply(txn)
		p.Applied(txn.Zxid)
		if txn.Zxid != 3 && r.Err != OK {
			t.Fatalf("zxid %d: %v", txn.Zxid, r.Err)
		}
	}
	kids, st, _ := tr.GetChildren("/x", NoWatch)
	if len(kids) != 3 || st.Cversion != 3 || p.Outstanding() != 0 || tr.LastZxid() != 5 {
		t.Fatalf("children %v stat %+v outstanding %d", kids, st, p.Outstanding())
	}
	// a pipelined write after a closeSession sees its ephemerals gone
	p.Write(sess, CreateOp("/x/e", nil, Ephemeral), 2)
	p.CloseSession(sess, 2)
	if txn := p.Write(sess+1, CreateOp("/x/e", nil, Persistent), 2); txn.Type != OpCreate {
		t.Fatalf("create after close: %+v", txn)
	}
	// an error transaction carries the request's path and code
	if txn := p.Write(sess, DeleteOp("/zookeeper", -1), 3); txn.Type != OpError || txn.Err != BadArguments || txn.Path != "/zookeeper" {
		t.Fatalf("%+v", txn)
	}
}
