package zookeeper

import (
	"reflect"
	"testing"

	"kafkascope/core/jdk"
)

func ev(w WatcherID, t EventType, path string) Fired {
	return Fired{Watcher: w, Event: WatchedEvent{Type: t, State: StateSyncConnected, Path: path}}
}

// exists on a missing node watches its creation (server/DataTree.java:
// 668-677 adds the watch before the lookup); create fires NodeCreated for
// the node's data watches, then NodeChildrenChanged for the parent's
// child watches, "/" for the root (DataTree.java:511-513). Each watch
// fires once (WatchManager.java:102, watchTable.remove).
func TestWatchCreate(t *testing.T) {
	l := NewLocal()
	tr := l.Tree()
	if _, err := tr.Exists("/w", 7); ErrCode(err) != NoNode {
		t.Fatal(err)
	}
	tr.GetChildren("/", 8)
	_, got, _ := l.Create(sess, "/w", nil, Persistent, 1)
	want := []Fired{ev(7, EventNodeCreated, "/w"), ev(8, EventNodeChildrenChanged, "/")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, got, _ = l.Create(sess, "/v", nil, Persistent, 1); len(got) != 0 {
		t.Fatalf("one-shot watches fired again: %v", got)
	}
	if tr.WatchCount() != 0 {
		t.Fatal("watches left")
	}
}

// getData and getChildren on a missing node set no watch
// (DataTree.java:653-658, 684-689; FinalRequestProcessor.java:326-328).
func TestNoWatchOnMissingNode(t *testing.T) {
	tr := NewTree()
	tr.GetData("/m", 1)
	tr.GetChildren("/m", 2)
	if tr.WatchCount() != 0 {
		t.Fatalf("%d watches", tr.WatchCount())
	}
}

// setData fires NodeDataChanged for the data watches; a watcher that set
// the same data watch by getData and exists hears it once.
func TestWatchSetData(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/d", nil, Persistent, 1)
	tr := l.Tree()
	tr.GetData("/d", 3)
	tr.Exists("/d", 3)
	tr.Exists("/d", 4)
	tr.GetChildren("/d", 5) // a child watch: setData does not fire it
	_, got, _ := l.SetData(sess, "/d", []byte("v"), -1, 2)
	want := []Fired{ev(3, EventNodeDataChanged, "/d"), ev(4, EventNodeDataChanged, "/d")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if w := tr.ChildWatchers("/d"); !reflect.DeepEqual(w, []WatcherID{5}) {
		t.Fatalf("child watchers %v", w)
	}
}

// delete fires NodeDeleted for the data watches, NodeDeleted for the
// child watches of the node except the watchers already told, and
// NodeChildrenChanged for the parent (server/DataTree.java:600-604).
func TestWatchDelete(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/p", nil, Persistent, 1)
	l.Create(sess, "/p/w", nil, Persistent, 1)
	tr := l.Tree()
	tr.GetData("/p/w", 7)
	tr.GetChildren("/p/w", 7)
	tr.GetChildren("/p/w", 9)
	tr.GetChildren("/p", 8)
	tr.GetData("/p", 10) // the parent's data watch does not fire
	got, err := l.Delete(sess, "/p/w", -1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fired{ev(7, EventNodeDeleted, "/p/w"), ev(9, EventNodeDeleted, "/p/w"), ev(8, EventNodeChildrenChanged, "/p")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if len(tr.ChildWatchers("/p/w")) != 0 || !reflect.DeepEqual(tr.DataWatchers("/p"), []WatcherID{10}) {
		t.Fatal("watch tables after delete")
	}
}

// removeCnxn drops all of a connection's watches (DataTree.removeCnxn).
func TestRemoveWatcher(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/r", nil, Persistent, 1)
	tr := l.Tree()
	tr.GetData("/r", 1)
	tr.GetChildren("/r", 1)
	tr.Exists("/gone", 1)
	tr.GetData("/r", 2)
	tr.RemoveWatcher(1)
	if tr.WatchCount() != 1 {
		t.Fatalf("%d watches", tr.WatchCount())
	}
	_, got, _ := l.SetData(sess, "/r", nil, -1, 2)
	if !reflect.DeepEqual(got, []Fired{ev(2, EventNodeDataChanged, "/r")}) {
		t.Fatalf("got %v", got)
	}
}

// WatchedEvent.toString (WatchedEvent.java:68-71), which zookeeper-shell
// prints after "WATCHER::".
func TestWatchedEventString(t *testing.T) {
	e := WatchedEvent{Type: EventNodeChildrenChanged, State: StateSyncConnected, Path: "/brokers/ids"}
	if got := e.String(); got != "WatchedEvent state:SyncConnected type:NodeChildrenChanged path:/brokers/ids" {
		t.Fatal(got)
	}
	if StateExpired.String() != "Expired" || int32(StateExpired) != -112 || EventNone.String() != "None" {
		t.Fatal("enum names")
	}
}

// Closing or expiring a session deletes its ephemerals with the
// closeSession's zxid, in the order of the session's HashSet<String>
// (server/DataTree.java:480, 1038-1047), each firing its watches; other
// sessions' nodes stay.
func TestCloseSession(t *testing.T) {
	l := NewLocal()
	l.Create(sess, "/e", nil, Persistent, 1)
	paths := []string{"/e/a", "/e/b", "/e/c", "/f", "/e/d"}
	for _, p := range paths {
		l.Create(sess, p, nil, Ephemeral, 2)
	}
	other := sess + 1
	l.Create(other, "/e/o", nil, Ephemeral, 2)
	tr := l.Tree()
	order := tr.Ephemerals(sess)
	if want := []string{"/f", "/e/c", "/e/d", "/e/a", "/e/b"}; !reflect.DeepEqual(order, want) || !reflect.DeepEqual(order, jdk.HashSetOrder(paths)) {
		t.Fatalf("ephemerals %v, want %v", order, want)
	}
	for _, p := range paths {
		tr.Exists(p, 5)
	}
	tr.GetChildren("/e", 6)
	got := l.CloseSession(sess, 3)
	want := []Fired{
		ev(5, EventNodeDeleted, "/f"),
		ev(5, EventNodeDeleted, "/e/c"), ev(6, EventNodeChildrenChanged, "/e"),
		ev(5, EventNodeDeleted, "/e/d"),
		ev(5, EventNodeDeleted, "/e/a"),
		ev(5, EventNodeDeleted, "/e/b"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	closeZxid := tr.LastZxid()
	_, st, _ := tr.GetData("/e", NoWatch)
	if st.Pzxid != closeZxid || st.NumChildren != 1 {
		t.Fatalf("/e after close: %+v (close zxid %d)", st, closeZxid)
	}
	if !reflect.DeepEqual(tr.Sessions(), []int64{other}) || len(tr.Ephemerals(sess)) != 0 {
		t.Fatalf("sessions %v", tr.Sessions())
	}
	if got := l.CloseSession(sess, 4); len(got) != 0 {
		t.Fatal("closing twice")
	}
}
