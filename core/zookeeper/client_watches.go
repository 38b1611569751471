package zookeeper

import "sort"

// clientWatches is ClientCnxn's ZKWatchManager (ZooKeeper.java,
// release-3.5.9) for a client whose every watch is its default watcher,
// as Kafka 2.8's ZooKeeperClient sets them: the paths with a data watch,
// an exist watch (set by exists on a missing node) and a child watch.
type clientWatches struct {
	data, exist, child map[string]bool
}

func newClientWatches() clientWatches {
	return clientWatches{data: map[string]bool{}, exist: map[string]bool{}, child: map[string]bool{}}
}

// register is the WatchRegistration of a reply: getData and exists with
// OK hold a data watch, exists with NONODE an exist watch, getChildren
// with OK a child watch (ExistsWatchRegistration.getWatches).
func (w clientWatches) register(req *Request, code Code) {
	switch {
	case req.Type == OpGetData && code == OK, req.Type == OpExists && code == OK:
		w.data[req.Path] = true
	case req.Type == OpExists && code == NoNode:
		w.exist[req.Path] = true
	case req.Type == OpGetChildren2 && code == OK:
		w.child[req.Path] = true
	}
}

// materialize is ZKWatchManager.materialize for an event from the
// server: it removes the watches the event consumes and reports whether
// any did (the default watcher then hears it once; with none it is
// dropped).
func (w clientWatches) materialize(ev WatchedEvent) bool {
	take := func(m map[string]bool) bool {
		if m[ev.Path] {
			delete(m, ev.Path)
			return true
		}
		return false
	}
	hit := false
	switch ev.Type {
	case EventNodeDataChanged, EventNodeCreated:
		hit = take(w.data)
		hit = take(w.exist) || hit
	case EventNodeChildrenChanged:
		hit = take(w.child)
	case EventNodeDeleted:
		hit = take(w.data)
		hit = take(w.exist) || hit
		hit = take(w.child) || hit
	}
	return hit
}

// setWatches is primeConnection's SetWatches for a reconnect, or nil
// when no watch is held. Paths are sorted (Java walks HashMap keys).
func (w clientWatches) setWatches(lastZxid int64) *Request {
	if len(w.data)+len(w.exist)+len(w.child) == 0 {
		return nil
	}
	return &Request{Xid: SetWatchesXid, Type: OpSetWatches, RelativeZxid: lastZxid,
		DataWatches: sortedKeys(w.data), ExistWatches: sortedKeys(w.exist), ChildWatches: sortedKeys(w.child)}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
