package zookeeper

// Local is a standalone server's write pipeline without the network:
// each write is prepared (Prep) and at once applied (Tree.Apply), as
// PrepRequestProcessor, SyncRequestProcessor and FinalRequestProcessor do
// one after the other on a server with nothing in flight. The times are
// the caller's (the simulation's clock), never the host's.
type Local struct {
	tree *Tree
	prep *Prep
}

// NewLocal is a fresh standalone server's tree and pipeline.
func NewLocal() *Local {
	t := NewTree()
	return &Local{tree: t, prep: NewPrep(t)}
}

// Tree is the server's tree, for reads.
func (l *Local) Tree() *Tree { return l.tree }

// Prep is the server's request preparer.
func (l *Local) Prep() *Prep { return l.prep }

func (l *Local) run(txn Txn) Result {
	r := l.tree.Apply(txn)
	l.prep.Applied(txn.Zxid)
	return r
}

// Write prepares and applies one write; the error carries the request's
// path, as the client reports it.
func (l *Local) Write(session int64, op Op, time int64) (Result, error) {
	r := l.run(l.prep.Write(session, op, time))
	return r, errFor(r.Err, op.Path)
}

// Create is ZooKeeper.create: the path created (with its sequence
// suffix), the watches fired, and the error.
func (l *Local) Create(session int64, path string, data []byte, mode CreateMode, time int64) (string, []Fired, error) {
	r, err := l.Write(session, CreateOp(path, data, mode), time)
	if err != nil {
		return "", r.Events, err
	}
	return r.Path, r.Events, nil
}

// Delete is ZooKeeper.delete.
func (l *Local) Delete(session int64, path string, version int32, time int64) ([]Fired, error) {
	r, err := l.Write(session, DeleteOp(path, version), time)
	return r.Events, err
}

// SetData is ZooKeeper.setData: the new stat.
func (l *Local) SetData(session int64, path string, data []byte, version int32, time int64) (Stat, []Fired, error) {
	r, err := l.Write(session, SetDataOp(path, data, version), time)
	return r.Stat, r.Events, err
}

// Multi is ZooKeeper.multi: the steps' results, the watches fired and, if
// a step failed, the first failing step's code as an error without a path
// (ZooKeeper.multiInternal).
func (l *Local) Multi(session int64, ops []Op, time int64) ([]OpResult, []Fired, error) {
	r := l.run(l.prep.Multi(session, ops, time))
	for _, o := range r.Multi {
		if o.Type == OpError && o.Err != OK {
			return r.Multi, r.Events, &Error{Code: o.Err}
		}
	}
	return r.Multi, r.Events, nil
}

// CloseSession closes (or expires) a session: its ephemeral nodes go,
// firing their watches.
func (l *Local) CloseSession(session int64, time int64) []Fired {
	return l.run(l.prep.CloseSession(session, time)).Events
}
