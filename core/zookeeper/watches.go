package zookeeper

// watchManager is server/WatchManager.java (release-3.5.9): the one-shot
// watches of one kind (the tree keeps one for data watches, set by
// getData and exists, and one for child watches, set by getChildren).
// A watcher watches a path at most once; firing a path's watches removes
// them all (triggerWatch: watchTable.remove(path)).
//
// WatchManager keeps a path's watchers in a HashSet<Watcher> of
// connection objects, whose order follows their identity hash codes and
// so differs from run to run; here they fire in the order they were set,
// which is one of the orders Java could produce.
type watchManager struct {
	byPath    map[string][]WatcherID
	byWatcher map[WatcherID][]string
}

func newWatchManager() *watchManager {
	return &watchManager{byPath: map[string][]WatcherID{}, byWatcher: map[WatcherID][]string{}}
}

func (m *watchManager) add(path string, w WatcherID) {
	for _, x := range m.byPath[path] {
		if x == w {
			return
		}
	}
	m.byPath[path] = append(m.byPath[path], w)
	m.byWatcher[w] = append(m.byWatcher[w], path)
}

// trigger fires and removes every watch on path, skipping (but still
// removing) the watchers in suppress; it returns the watchers it removed,
// which the delete of a node passes as suppress to the child watches so
// that a watcher holding both hears NodeDeleted once
// (DataTree.deleteNode).
func (m *watchManager) trigger(path string, t EventType, suppress []WatcherID, out *[]Fired) []WatcherID {
	ws := m.byPath[path]
	if len(ws) == 0 {
		return nil
	}
	delete(m.byPath, path)
	for _, w := range ws {
		m.byWatcher[w] = removeString(m.byWatcher[w], path)
		if len(m.byWatcher[w]) == 0 {
			delete(m.byWatcher, w)
		}
	}
	ev := WatchedEvent{Type: t, State: StateSyncConnected, Path: path}
	for _, w := range ws {
		if containsWatcher(suppress, w) {
			continue
		}
		*out = append(*out, Fired{Watcher: w, Event: ev})
	}
	return ws
}

// removeWatcher drops every watch of w (WatchManager.removeWatcher, used
// when a connection closes).
func (m *watchManager) removeWatcher(w WatcherID) {
	for _, p := range m.byWatcher[w] {
		rest := removeWatcherID(m.byPath[p], w)
		if len(rest) == 0 {
			delete(m.byPath, p)
		} else {
			m.byPath[p] = rest
		}
	}
	delete(m.byWatcher, w)
}

func (m *watchManager) watchers(path string) []WatcherID {
	return append([]WatcherID(nil), m.byPath[path]...)
}

func (m *watchManager) count() int {
	n := 0
	for _, ps := range m.byWatcher {
		n += len(ps)
	}
	return n
}

func containsWatcher(ws []WatcherID, w WatcherID) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

func removeWatcherID(ws []WatcherID, w WatcherID) []WatcherID {
	for i, x := range ws {
		if x == w {
			return append(ws[:i:i], ws[i+1:]...)
		}
	}
	return ws
}

func removeString(ss []string, s string) []string {
	for i, x := range ss {
		if x == s {
			return append(ss[:i:i], ss[i+1:]...)
		}
	}
	return ss
}
