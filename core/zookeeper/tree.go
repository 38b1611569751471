package zookeeper

import (
	"sort"

	"kafkascope/core/jdk"
)

// node is server/DataNode.java: data (nil is Java's null), the persisted
// stat and the children's names in a HashSet<String>(8), created on the
// first child (DataNode.addChild).
type node struct {
	data     []byte
	stat     persisted
	children *jdk.StringHashSet
}

func (n *node) numChildren() int32 {
	if n.children == nil {
		return 0
	}
	return int32(n.children.Len())
}

func (n *node) childNames() []string {
	if n.children == nil {
		return []string{}
	}
	return n.children.Keys()
}

func (n *node) addChild(name string) {
	if n.children == nil {
		n.children = jdk.NewStringHashSet(8)
	}
	n.children.Add(name)
}

// copyStat is DataNode.copyStat: the client's cversion is the persisted
// one (creates of children) times two less the children left, so that it
// counts creates and deletes ("v3 semantics"); a fresh root, whose child
// /zookeeper was never created by a transaction, shows cversion -1.
func (n *node) copyStat() Stat {
	nc := n.numChildren()
	return Stat{
		Czxid: n.stat.czxid, Mzxid: n.stat.mzxid, Ctime: n.stat.ctime, Mtime: n.stat.mtime,
		Version: n.stat.version, Cversion: n.stat.cversion*2 - nc, Aversion: n.stat.aversion,
		EphemeralOwner: n.stat.ephemeralOwner, DataLength: int32(len(n.data)),
		NumChildren: nc, Pzxid: n.stat.pzxid,
	}
}

// Tree is server/DataTree.java (release-3.5.9): the znodes, the sessions'
// ephemeral nodes and the data and child watches of one server. It
// changes only by Apply (transactions, in zxid order) and by the reads'
// watches.
type Tree struct {
	nodes      map[string]*node // "" is an alias of "/", as in DataTree
	dataWatch  *watchManager
	childWatch *watchManager
	ephemerals map[int64]*jdk.StringHashSet
	lastZxid   int64
}

// NewTree is a fresh server's tree (DataTree's constructor): the root
// with child "zookeeper", /zookeeper with children "quota" and "config",
// all with empty (not null) data and zeroed stats, except that
// /zookeeper/config carries the read-only ACL set with version -1
// (addConfigNode: setACL(configZookeeper, READ_ACL_UNSAFE, -1)), so its
// aclVersion is -1.
func NewTree() *Tree {
	t := &Tree{
		nodes:      map[string]*node{},
		dataWatch:  newWatchManager(),
		childWatch: newWatchManager(),
		ephemerals: map[int64]*jdk.StringHashSet{},
	}
	root := &node{data: []byte{}}
	t.nodes[""] = root
	t.nodes[RootPath] = root
	root.addChild("zookeeper")
	proc := &node{data: []byte{}}
	t.nodes[ProcPath] = proc
	proc.addChild("quota")
	t.nodes[QuotaPath] = &node{data: []byte{}}
	proc.addChild("config")
	t.nodes[ConfigPath] = &node{data: []byte{}, stat: persisted{aversion: -1}}
	return t
}

// LastZxid is the zxid of the last transaction applied
// (DataTree.lastProcessedZxid).
func (t *Tree) LastZxid() int64 { return t.lastZxid }

// GetData is DataTree.getData as FinalRequestProcessor calls it: NoNode
// (and no watch) for a missing node, else the data (nil for null) and
// stat, with a data watch for w unless w is NoWatch.
func (t *Tree) GetData(path string, w WatcherID) ([]byte, Stat, error) {
	n := t.nodes[path]
	if n == nil {
		return nil, Stat{}, errFor(NoNode, path)
	}
	if w != NoWatch {
		t.dataWatch.add(path, w)
	}
	return cloneBytes(n.data), n.copyStat(), nil
}

// Exists is DataTree.statNode as FinalRequestProcessor calls it for
// exists: BadArguments for a path with a NUL character; the data watch is
// set before the lookup, so a missing node (NoNode) is watched for its
// creation.
func (t *Tree) Exists(path string, w WatcherID) (Stat, error) {
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return Stat{}, errFor(BadArguments, path)
		}
	}
	if w != NoWatch {
		t.dataWatch.add(path, w)
	}
	n := t.nodes[path]
	if n == nil {
		return Stat{}, errFor(NoNode, path)
	}
	return n.copyStat(), nil
}

// GetChildren is DataTree.getChildren (getChildren2 also returns the
// stat): the children's names in the order the node's HashSet<String>(8)
// iterates them, which is the order the server sends; NoNode (and no
// watch) for a missing node, else a child watch for w.
func (t *Tree) GetChildren(path string, w WatcherID) ([]string, Stat, error) {
	n := t.nodes[path]
	if n == nil {
		return nil, Stat{}, errFor(NoNode, path)
	}
	if w != NoWatch {
		t.childWatch.add(path, w)
	}
	return n.childNames(), n.copyStat(), nil
}

// Paths is every znode's path, sorted (for views and checks; "/" once).
func (t *Tree) Paths() []string {
	out := make([]string, 0, len(t.nodes))
	for p := range t.nodes {
		if p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// NodeCount is DataTree.getNodeCount: the nodes map's size, which counts
// the root twice (as "" and "/").
func (t *Tree) NodeCount() int { return len(t.nodes) }

// Ephemerals is the session's ephemeral nodes in the order its
// HashSet<String> iterates them, the order closing the session deletes
// them (DataTree.getEphemerals, killSession).
func (t *Tree) Ephemerals(session int64) []string {
	s := t.ephemerals[session]
	if s == nil {
		return []string{}
	}
	return s.Keys()
}

// Sessions is the sessions that own ephemeral nodes, ascending.
func (t *Tree) Sessions() []int64 {
	out := make([]int64, 0, len(t.ephemerals))
	for s := range t.ephemerals {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// DataWatchers and ChildWatchers are the watchers waiting on path, in the
// order they will fire.
func (t *Tree) DataWatchers(path string) []WatcherID  { return t.dataWatch.watchers(path) }
func (t *Tree) ChildWatchers(path string) []WatcherID { return t.childWatch.watchers(path) }

// WatchCount is DataTree.getWatchCount: data and child watches.
func (t *Tree) WatchCount() int { return t.dataWatch.count() + t.childWatch.count() }

// RemoveWatcher drops every watch w set (DataTree.removeCnxn, when the
// connection closes).
func (t *Tree) RemoveWatcher(w WatcherID) {
	t.dataWatch.removeWatcher(w)
	t.childWatch.removeWatcher(w)
}

// InitConfig is ZKDatabase.initConfigInZKDatabase, which a quorum server
// runs on start and on syncing with a leader (not a transaction): it sets
// /zookeeper/config's data to the ensemble's dynamic config with version
// -1, mzxid the config's version and mtime the given time, and fires its
// data watches.
func (t *Tree) InitConfig(config []byte, configVersion int64, time int64) []Fired {
	var ev []Fired
	t.setData(ConfigPath, config, -1, configVersion, time, &ev)
	return ev
}
