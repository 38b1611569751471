package zookeeper

import "kafkascope/core/jdk"

// Apply is DataTree.processTxn (release-3.5.9): it applies one committed
// transaction and returns its result and the watches it fired. Every
// server of an ensemble applies the same transactions in zxid order and
// so holds the same tree. Apply trusts the transaction (Prep checked it
// against the tree and the changes still in flight); a step that fails
// here leaves the earlier steps of its multi applied, as in ZooKeeper.
func (t *Tree) Apply(txn Txn) Result {
	r := t.apply(txn)
	if txn.Zxid > t.lastZxid {
		t.lastZxid = txn.Zxid
	}
	return r
}

func (t *Tree) apply(txn Txn) Result {
	r := Result{Zxid: txn.Zxid, Type: txn.Type}
	switch txn.Type {
	case OpCreate:
		r.Path = txn.Path
		var owner int64
		if txn.Ephemeral {
			owner = txn.Session
		}
		r.Err = t.createNode(txn.Path, txn.Data, owner, txn.ParentCVersion, txn.Zxid, txn.Time, &r.Events)
		// processTxn: a create that finds its node (a transaction replayed
		// over a fuzzy snapshot) still moves the parent's cversion and pzxid.
		if r.Err == NodeExists {
			parent, _, _ := splitPath(txn.Path)
			if c := t.setCversionPzxid(parent, txn.ParentCVersion, txn.Zxid); c != OK {
				r.Err = c
			}
		}
	case OpDelete:
		r.Path = txn.Path
		r.Err = t.deleteNode(txn.Path, txn.Zxid, &r.Events)
	case OpSetData:
		r.Path = txn.Path
		r.Stat, r.Err = t.setData(txn.Path, txn.Data, txn.Version, txn.Zxid, txn.Time, &r.Events)
	case OpCheck:
		r.Path = txn.Path
	case OpError:
		r.Err = txn.Err
	case OpCloseSession:
		t.killSession(txn.Session, txn.Zxid, &r.Events)
	case OpCreateSession:
		// sessions live in the session tracker, not the tree
	case OpMulti:
		r.Multi, r.Err = t.applyMulti(txn, &r.Events)
	}
	return r
}

// applyMulti is processTxn's multi case: if any step is an error, every
// other step becomes an error too, OK before the first error and
// RuntimeInconsistency after it, so a failed multi changes nothing; the
// multi's code is the first failing step's.
func (t *Tree) applyMulti(txn Txn, events *[]Fired) ([]OpResult, Code) {
	failed := false
	for _, s := range txn.Ops {
		if s.Type == OpError {
			failed = true
			break
		}
	}
	results := make([]OpResult, 0, len(txn.Ops))
	err := OK
	postFailed := false
	for _, s := range txn.Ops {
		sub := s
		sub.Session, sub.Zxid, sub.Time = txn.Session, txn.Zxid, txn.Time
		if s.Type == OpError {
			postFailed = true
		} else if failed {
			code := OK
			if postFailed {
				code = RuntimeInconsistency
			}
			sub = Txn{Session: txn.Session, Zxid: txn.Zxid, Time: txn.Time, Type: OpError, Err: code}
		}
		sr := t.apply(sub)
		*events = append(*events, sr.Events...)
		results = append(results, opResult(sr))
		if sr.Err != OK && err == OK {
			err = sr.Err
		}
	}
	return results, err
}

// opResult is FinalRequestProcessor's choice of OpResult by the step's
// type.
func opResult(r Result) OpResult {
	switch r.Type {
	case OpCreate:
		return OpResult{Type: OpCreate, Path: r.Path}
	case OpDelete:
		return OpResult{Type: OpDelete}
	case OpSetData:
		return OpResult{Type: OpSetData, Stat: r.Stat}
	case OpCheck:
		return OpResult{Type: OpCheck}
	}
	return OpResult{Type: OpError, Err: r.Err}
}

// createNode is DataTree.createNode: the parent's persisted cversion
// becomes parentCVersion (its own plus one when -1) and its pzxid the
// zxid; the node's czxid, mzxid and pzxid are the zxid and its ctime and
// mtime the time. It fires NodeCreated for the node's data watches (set
// by exists on the missing node) and NodeChildrenChanged for the parent's
// child watches.
func (t *Tree) createNode(path string, data []byte, owner int64, parentCVersion int32, zxid, time int64, events *[]Fired) Code {
	parentName, childName, _ := splitPath(path)
	parent := t.nodes[parentName]
	if parent == nil {
		return NoNode
	}
	if parent.children != nil && parent.children.Contains(childName) {
		return NodeExists
	}
	if parentCVersion == -1 {
		parentCVersion = parent.stat.cversion + 1
	}
	parent.stat.cversion = parentCVersion
	parent.stat.pzxid = zxid
	parent.addChild(childName)
	t.nodes[path] = &node{data: cloneBytes(data), stat: persisted{
		czxid: zxid, mzxid: zxid, pzxid: zxid, ctime: time, mtime: time, ephemeralOwner: owner,
	}}
	if owner != 0 {
		set := t.ephemerals[owner]
		if set == nil {
			set = jdk.NewStringHashSet(16)
			t.ephemerals[owner] = set
		}
		set.Add(path)
	}
	t.dataWatch.trigger(path, EventNodeCreated, nil, events)
	t.childWatch.trigger(watchPath(parentName), EventNodeChildrenChanged, nil, events)
	return OK
}

// deleteNode is DataTree.deleteNode: the parent loses the child and takes
// the zxid as pzxid if it is higher (before the node itself is looked
// up); the persisted cversion does not move (the client's cversion rises
// because a child is gone). It fires NodeDeleted for the node's data
// watches, then NodeDeleted for its child watches except the watchers
// just told, then NodeChildrenChanged for the parent's child watches.
func (t *Tree) deleteNode(path string, zxid int64, events *[]Fired) Code {
	parentName, childName, _ := splitPath(path)
	parent := t.nodes[parentName]
	if parent == nil {
		return NoNode
	}
	if parent.children != nil {
		parent.children.Remove(childName)
	}
	if zxid > parent.stat.pzxid {
		parent.stat.pzxid = zxid
	}
	n := t.nodes[path]
	if n == nil {
		return NoNode
	}
	delete(t.nodes, path)
	if owner := n.stat.ephemeralOwner; owner != 0 {
		if set := t.ephemerals[owner]; set != nil {
			set.Remove(path)
		}
	}
	told := t.dataWatch.trigger(path, EventNodeDeleted, nil, events)
	t.childWatch.trigger(path, EventNodeDeleted, told, events)
	t.childWatch.trigger(watchPath(parentName), EventNodeChildrenChanged, nil, events)
	return OK
}

// setData is DataTree.setData: the version is the transaction's (Prep
// computed it), mzxid and mtime the transaction's; NodeDataChanged fires
// for the data watches.
func (t *Tree) setData(path string, data []byte, version int32, zxid, time int64, events *[]Fired) (Stat, Code) {
	n := t.nodes[path]
	if n == nil {
		return Stat{}, NoNode
	}
	n.data = cloneBytes(data)
	n.stat.mtime = time
	n.stat.mzxid = zxid
	n.stat.version = version
	s := n.copyStat()
	t.dataWatch.trigger(path, EventNodeDataChanged, nil, events)
	return s, OK
}

// killSession is DataTree.killSession: the session's ephemeral nodes are
// deleted, with the closeSession's zxid, in the order its HashSet<String>
// iterates them, each firing its watches.
func (t *Tree) killSession(session, zxid int64, events *[]Fired) {
	set := t.ephemerals[session]
	if set == nil {
		return
	}
	delete(t.ephemerals, session)
	for _, p := range set.Keys() {
		t.deleteNode(p, zxid, events) // NoNode is ignored, as there
	}
}

// setCversionPzxid is DataTree.setCversionPzxid.
func (t *Tree) setCversionPzxid(path string, cversion int32, zxid int64) Code {
	if len(path) > 0 && path[len(path)-1] == '/' {
		path = path[:len(path)-1]
	}
	n := t.nodes[path]
	if n == nil {
		return NoNode
	}
	if cversion == -1 {
		cversion = n.stat.cversion + 1
	}
	if cversion > n.stat.cversion {
		n.stat.cversion = cversion
		n.stat.pzxid = zxid
	}
	return OK
}
