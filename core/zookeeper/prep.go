package zookeeper

import "fmt"

// change is PrepRequestProcessor's ChangeRecord: what a node will look
// like once the transactions still in flight are applied (stat nil: it
// will be gone).
type change struct {
	zxid       int64
	path       string
	stat       *persisted
	childCount int32
}

func (c *change) duplicate(zxid int64) *change {
	d := &change{zxid: zxid, path: c.path, childCount: c.childCount}
	if c.stat != nil {
		s := *c.stat
		d.stat = &s
	}
	return d
}

// Prep is server/PrepRequestProcessor.java (release-3.5.9) on the server
// that orders writes (the leader, or a standalone server): it checks each
// write against the tree and the changes still in flight
// (ZooKeeperServer.outstandingChanges), gives it the next zxid and turns
// it into a transaction, or into an error transaction when a check fails
// (the zxid is used either way). Call Applied after the tree applies a
// transaction so that its in-flight records are dropped.
//
// Not checked here (the server's job): the session's validity
// (SessionExpired, SessionMoved), ACLs (every node is open), quotas,
// CONTAINER and TTL nodes, reconfig.
type Prep struct {
	tree        *Tree
	zxid        int64 // ZooKeeperServer.hzxid: the last zxid handed out
	outstanding []*change
	byPath      map[string]*change
	undo        *[]undoEntry // during a multi
}

type undoEntry struct {
	path string
	prev *change
}

// NewPrep prepares writes for tree, numbering them after its last zxid.
func NewPrep(tree *Tree) *Prep {
	return &Prep{tree: tree, zxid: tree.LastZxid(), byPath: map[string]*change{}}
}

// LastZxid is the last zxid handed out.
func (p *Prep) LastZxid() int64 { return p.zxid }

// SetLastZxid sets the zxid the next write follows: a new leader starts
// its epoch at MakeZxid(epoch, 0) (ZooKeeperServer.setZxid).
func (p *Prep) SetLastZxid(zxid int64) { p.zxid = zxid }

func (p *Prep) nextZxid() int64 {
	p.zxid++
	return p.zxid
}

// Applied is FinalRequestProcessor's cleanup after the tree applied the
// transaction zxid: in-flight records up to it are dropped.
func (p *Prep) Applied(zxid int64) {
	i := 0
	for ; i < len(p.outstanding) && p.outstanding[i].zxid <= zxid; i++ {
		c := p.outstanding[i]
		if p.byPath[c.path] == c {
			delete(p.byPath, c.path)
		}
	}
	p.outstanding = p.outstanding[i:]
}

// Outstanding is the number of in-flight change records.
func (p *Prep) Outstanding() int { return len(p.outstanding) }

func (p *Prep) record(path string) (*change, Code) {
	c := p.byPath[path]
	if c == nil {
		if n := p.tree.nodes[path]; n != nil {
			s := n.stat
			c = &change{zxid: -1, path: path, stat: &s, childCount: n.numChildren()}
		}
	}
	if c == nil || c.stat == nil {
		return nil, NoNode
	}
	return c, OK
}

func (p *Prep) add(c *change) {
	if p.undo != nil {
		*p.undo = append(*p.undo, undoEntry{path: c.path, prev: p.byPath[c.path]})
	}
	p.outstanding = append(p.outstanding, c)
	p.byPath[c.path] = c
}

// Write prepares one create, delete or setData (or check) request of
// session at time. A failed check gives an OpError transaction whose Err
// is the code and whose Path is the request's path.
func (p *Prep) Write(session int64, op Op, time int64) Txn {
	zxid := p.nextZxid()
	txn, code := p.prepOp(session, op, zxid)
	txn.Session, txn.Zxid, txn.Time = session, zxid, time
	if code != OK {
		return Txn{Session: session, Zxid: zxid, Time: time, Type: OpError, Path: op.Path, Err: code}
	}
	return txn
}

// Multi prepares a multi: the steps are checked in order, each seeing the
// earlier ones' changes; at the first failure the multi's records are
// rolled back (rollbackPendingChanges), the failing step becomes an error
// with its code and every later one an error with RuntimeInconsistency.
// The steps before it stay as prepared: applying the multi turns them
// into OK errors (Tree.Apply). One zxid serves the whole multi, failed or
// not.
func (p *Prep) Multi(session int64, ops []Op, time int64) Txn {
	zxid := p.nextZxid()
	txn := Txn{Session: session, Zxid: zxid, Time: time, Type: OpMulti, Ops: make([]Txn, 0, len(ops))}
	var undo []undoEntry
	p.undo = &undo
	failed := false
	for _, op := range ops {
		if failed {
			txn.Ops = append(txn.Ops, Txn{Type: OpError, Err: RuntimeInconsistency})
			continue
		}
		sub, code := p.prepOp(session, op, zxid)
		if code != OK {
			failed = true
			txn.Ops = append(txn.Ops, Txn{Type: OpError, Err: code})
			p.rollback(zxid, undo)
			p.undo = nil
			continue
		}
		txn.Ops = append(txn.Ops, sub)
	}
	p.undo = nil
	return txn
}

func (p *Prep) rollback(zxid int64, undo []undoEntry) {
	for len(p.outstanding) > 0 && p.outstanding[len(p.outstanding)-1].zxid == zxid {
		p.outstanding = p.outstanding[:len(p.outstanding)-1]
	}
	for i := len(undo) - 1; i >= 0; i-- {
		if undo[i].prev == nil {
			delete(p.byPath, undo[i].path)
		} else {
			p.byPath[undo[i].path] = undo[i].prev
		}
	}
}

// CreateSession prepares a createSession (its timeout in ms).
func (p *Prep) CreateSession(session int64, timeout int32, time int64) Txn {
	return Txn{Session: session, Zxid: p.nextZxid(), Time: time, Type: OpCreateSession, Timeout: timeout}
}

// CloseSession prepares a closeSession, which the server also submits for
// an expired session: the session's ephemeral nodes, as the tree and the
// in-flight changes have them, are recorded as going away (their
// parents' records are left as they are, as in pRequest2Txn).
func (p *Prep) CloseSession(session int64, time int64) Txn {
	zxid := p.nextZxid()
	es := p.tree.Ephemerals(session)
	for _, c := range p.outstanding {
		if c.stat == nil {
			es = removeString(es, c.path)
		} else if c.stat.ephemeralOwner == session && !containsString(es, c.path) {
			es = append(es, c.path)
		}
	}
	for _, path := range es {
		p.add(&change{zxid: zxid, path: path})
	}
	return Txn{Session: session, Zxid: zxid, Time: time, Type: OpCloseSession}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func hasNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return true
		}
	}
	return false
}

// checkVersion is checkAndIncVersion: -1 matches any version.
func checkVersion(current, expected int32) (int32, Code) {
	if expected != -1 && expected != current {
		return 0, BadVersion
	}
	return current + 1, OK
}

// prepOp is pRequest2Txn for one step; the checks run in its order, and
// the first failing one decides the code.
func (p *Prep) prepOp(session int64, op Op, zxid int64) (Txn, Code) {
	switch op.Type {
	case OpCreate:
		return p.prepCreate(session, op, zxid)
	case OpDelete:
		// getParentPathAndValidate: no '/', a NUL, or one of the four
		// built-in nodes.
		parentPath, _, ok := splitPath(op.Path)
		if !ok || hasNUL(op.Path) || isSpecialPath(op.Path) {
			return Txn{}, BadArguments
		}
		parent, code := p.record(parentPath)
		if code != OK {
			return Txn{}, code
		}
		n, code := p.record(op.Path)
		if code != OK {
			return Txn{}, code
		}
		if _, code := checkVersion(n.stat.version, op.Version); code != OK {
			return Txn{}, code
		}
		if n.childCount > 0 {
			return Txn{}, NotEmpty
		}
		pc := parent.duplicate(zxid)
		pc.childCount--
		p.add(pc)
		p.add(&change{zxid: zxid, path: op.Path})
		return Txn{Type: OpDelete, Path: op.Path}, OK
	case OpSetData:
		n, v, code := p.versioned(op)
		if code != OK {
			return Txn{}, code
		}
		nc := n.duplicate(zxid)
		nc.stat.version = v
		p.add(nc)
		return Txn{Type: OpSetData, Path: op.Path, Data: cloneBytes(op.Data), Version: v}, OK
	case OpCheck:
		_, v, code := p.versioned(op)
		if code != OK {
			return Txn{}, code
		}
		return Txn{Type: OpCheck, Path: op.Path, Version: v}, OK
	}
	return Txn{}, Unimplemented
}

// versioned is the check setData and check share
// (PrepRequestProcessor.pRequest2Txn): a valid path (BadArguments), an
// existing node (NoNode), the expected version (BadVersion). It returns
// the node's record and the version the write sets.
func (p *Prep) versioned(op Op) (*change, int32, Code) {
	if ValidatePath(op.Path) != "" {
		return nil, 0, BadArguments
	}
	n, code := p.record(op.Path)
	if code != OK {
		return nil, 0, code
	}
	v, code := checkVersion(n.stat.version, op.Version)
	return n, v, code
}

// prepCreate is pRequest2TxnCreate: the sequential suffix is the parent's
// persisted cversion (its creates so far, deletes not counted) as %010d.
func (p *Prep) prepCreate(session int64, op Op, zxid int64) (Txn, Code) {
	if op.Mode < Persistent || op.Mode > EphemeralSequential {
		return Txn{}, Unimplemented
	}
	parentPath, _, ok := splitPath(op.Path) // validatePathForCreate
	if !ok || hasNUL(op.Path) {
		return Txn{}, BadArguments
	}
	parent, code := p.record(parentPath)
	if code != OK {
		return Txn{}, code
	}
	path := op.Path
	if op.Mode.IsSequential() {
		path += fmt.Sprintf("%0*d", sequenceWidth, parent.stat.cversion)
	}
	if ValidatePath(path) != "" {
		return Txn{}, BadArguments
	}
	if _, code := p.record(path); code == OK {
		return Txn{}, NodeExists
	}
	if parent.stat.ephemeralOwner != 0 {
		return Txn{}, NoChildrenForEphemerals
	}
	newCversion := parent.stat.cversion + 1
	var owner int64
	if op.Mode.IsEphemeral() {
		owner = session
	}
	pc := parent.duplicate(zxid)
	pc.childCount++
	pc.stat.cversion = newCversion
	p.add(pc)
	p.add(&change{zxid: zxid, path: path, stat: &persisted{ephemeralOwner: owner}})
	return Txn{Type: OpCreate, Path: path, Data: cloneBytes(op.Data), Ephemeral: op.Mode.IsEphemeral(), ParentCVersion: newCversion}, OK
}
