package zookeeper

import (
	"sort"

	"kafkascope/core/sim"
)

// Read-only accessors for views (core/view draws the tree and its
// watches): they set no watch and change nothing, unlike the reads a
// client's request runs (GetData, Exists, GetChildren).

// Znode is path's data (nil for null) and stat, false for a missing node.
func (t *Tree) Znode(path string) ([]byte, Stat, bool) {
	n := t.nodes[path]
	if n == nil {
		return nil, Stat{}, false
	}
	return cloneBytes(n.data), n.copyStat(), true
}

// Watch is one watch set on the tree: who waits on which path, for a
// data change (getData, exists) or a change of the children
// (getChildren).
type Watch struct {
	Path    string
	Watcher WatcherID
	Child   bool
}

// Watches lists every watch set, by path, the data watches of a path
// before its child watches, each kind in the order it will fire.
func (t *Tree) Watches() []Watch {
	out := make([]Watch, 0, t.WatchCount())
	for _, m := range []*watchManager{t.dataWatch, t.childWatch} {
		child := m == t.childWatch
		for p, ws := range m.byPath {
			for _, w := range ws {
				out = append(out, Watch{Path: p, Watcher: w, Child: child})
			}
		}
	}
	// Map order is random: sort by path, then kind; the stable sort keeps
	// each path's watchers in firing order.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return !out[i].Child && out[j].Child
	})
	return out
}

// WatcherAddr is the client end of the connection watcher w stands for,
// false once that connection closed (its watches went with it).
func (s *Server) WatcherAddr(w WatcherID) (sim.Addr, bool) {
	a, ok := s.watchers[w]
	return a, ok
}
