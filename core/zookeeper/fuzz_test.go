package zookeeper

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

var fuzzPaths = []string{"/a", "/b", "/a/a", "/a/b", "/b/a", "/a/a/a", "/a/b/a", "/zookeeper", "/", "bad", "/a/"}

// shadow tracks, per node, what the invariants need: the client cversion
// it started with and the child changes since, and the last child
// change's zxid.
type shadow struct {
	base    int32
	changes int32
	pzxid   int64
}

type fuzzRun struct {
	t      testing.TB
	l      *Local
	shadow map[string]*shadow
	writes int64
}

func newFuzzRun(t testing.TB) *fuzzRun {
	f := &fuzzRun{t: t, l: NewLocal(), shadow: map[string]*shadow{
		"/": {base: -1}, "/zookeeper": {base: -2}, "/zookeeper/quota": {}, "/zookeeper/config": {},
	}}
	return f
}

func (f *fuzzRun) childChange(path string, zxid int64) {
	parent, _, _ := splitPath(path)
	if parent == "" {
		parent = "/"
	}
	s := f.shadow[parent]
	s.changes++
	s.pzxid = zxid
}

func (f *fuzzRun) created(path string, zxid int64) {
	f.childChange(path, zxid)
	f.shadow[path] = &shadow{pzxid: zxid}
}

func (f *fuzzRun) deleted(path string, zxid int64) {
	f.childChange(path, zxid)
	delete(f.shadow, path)
}

func (f *fuzzRun) op(r *rand.Rand) Op {
	path := fuzzPaths[r.Intn(len(fuzzPaths))]
	version := int32(r.Intn(3)) - 1
	var data []byte
	if r.Intn(3) > 0 {
		data = make([]byte, r.Intn(4))
	}
	switch r.Intn(5) {
	case 0, 1:
		return CreateOp(path, data, CreateMode(r.Intn(4)))
	case 2:
		return DeleteOp(path, version)
	case 3:
		return SetDataOp(path, data, version)
	}
	return CheckOp(path, version)
}

func (f *fuzzRun) step(r *rand.Rand) {
	session := int64(1 + r.Intn(3))
	time := int64(f.writes * 10)
	tr := f.l.Tree()
	if r.Intn(4) == 0 { // reads set watches
		w := WatcherID(1 + r.Intn(3))
		p := fuzzPaths[r.Intn(len(fuzzPaths))]
		tr.GetData(p, w)
		tr.Exists(p, w)
		tr.GetChildren(p, w)
	}
	f.writes++
	switch k := r.Intn(20); {
	case k == 0:
		eph := tr.Ephemerals(session)
		f.l.CloseSession(session, time)
		for _, p := range eph {
			f.deleted(p, tr.LastZxid())
		}
	case k < 4:
		ops := make([]Op, 1+r.Intn(4))
		for i := range ops {
			ops[i] = f.op(r)
		}
		res, _, err := f.l.Multi(session, ops, time)
		if len(res) != len(ops) {
			f.t.Fatalf("multi: %d results for %d ops", len(res), len(ops))
		}
		if err == nil {
			for i, o := range res {
				switch o.Type {
				case OpCreate:
					f.created(o.Path, tr.LastZxid())
				case OpDelete:
					f.deleted(ops[i].Path, tr.LastZxid())
				}
			}
		}
	default:
		op := f.op(r)
		res, err := f.l.Write(session, op, time)
		if err == nil {
			switch op.Type {
			case OpCreate:
				f.created(res.Path, tr.LastZxid())
			case OpDelete:
				f.deleted(op.Path, tr.LastZxid())
			}
		}
	}
	f.check()
}

// check: every write took one zxid; numChildren and dataLength match the
// children and data; each node is its parent's child; cversion counts the
// child creates and deletes; pzxid is the last one's zxid; ephemerals
// belong to their owners' sets; nothing is left in flight.
func (f *fuzzRun) check() {
	t, tr := f.t, f.l.Tree()
	if tr.LastZxid() != f.writes || f.l.Prep().Outstanding() != 0 {
		t.Fatalf("last zxid %d after %d writes, %d in flight", tr.LastZxid(), f.writes, f.l.Prep().Outstanding())
	}
	paths := tr.Paths()
	if len(paths) != len(f.shadow) {
		t.Fatalf("tree %v, shadow has %d nodes", paths, len(f.shadow))
	}
	for _, p := range paths {
		data, st, err := tr.GetData(p, NoWatch)
		kids, _, _ := tr.GetChildren(p, NoWatch)
		sh := f.shadow[p]
		if err != nil || sh == nil {
			t.Fatalf("%s: %v, shadow %v", p, err, sh)
		}
		if int(st.NumChildren) != len(kids) || int(st.DataLength) != len(data) {
			t.Fatalf("%s: stat %+v, %d children, %d bytes", p, st, len(kids), len(data))
		}
		if st.Cversion != sh.base+sh.changes || st.Pzxid != sh.pzxid {
			t.Fatalf("%s: cversion %d pzxid %d, want %d %d", p, st.Cversion, st.Pzxid, sh.base+sh.changes, sh.pzxid)
		}
		for _, k := range kids {
			child := strings.TrimSuffix(p, "/") + "/" + k
			if _, err := tr.Exists(child, NoWatch); err != nil {
				t.Fatalf("%s lists missing child %s", p, k)
			}
		}
		if p != "/" {
			parent, name, _ := splitPath(p)
			if parent == "" {
				parent = "/"
			}
			if kids, _, _ := tr.GetChildren(parent, NoWatch); !containsString(kids, name) {
				t.Fatalf("%s not listed by %s", p, parent)
			}
		}
		if st.EphemeralOwner != 0 {
			if st.NumChildren != 0 || !containsString(tr.Ephemerals(st.EphemeralOwner), p) {
				t.Fatalf("ephemeral %s owner %d", p, st.EphemeralOwner)
			}
		}
	}
	for _, s := range tr.Sessions() {
		for _, p := range tr.Ephemerals(s) {
			if st, err := tr.Exists(p, NoWatch); err != nil || st.EphemeralOwner != s {
				t.Fatalf("session %d lists %s: %v", s, p, err)
			}
		}
	}
}

// dump is the whole tree, children in server order, for the determinism
// check.
func (f *fuzzRun) dump() string {
	var b strings.Builder
	tr := f.l.Tree()
	for _, p := range tr.Paths() {
		data, st, _ := tr.GetData(p, NoWatch)
		kids, _, _ := tr.GetChildren(p, NoWatch)
		fmt.Fprintf(&b, "%s %q %+v %v\n", p, data, st, kids)
	}
	fmt.Fprintf(&b, "sessions %v watches %d\n", tr.Sessions(), tr.WatchCount())
	return b.String()
}

func runFuzz(t testing.TB, seed int64, steps int) string {
	f := newFuzzRun(t)
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < steps; i++ {
		f.step(r)
	}
	return f.dump()
}

func TestRandomOps(t *testing.T) {
	for seed := int64(1); seed <= 150; seed++ {
		a := runFuzz(t, seed, 200)
		if b := runFuzz(t, seed, 200); a != b {
			t.Fatalf("seed %d: two runs differ\n%s\n%s", seed, a, b)
		}
	}
}

func FuzzOps(f *testing.F) {
	f.Add(int64(1), uint8(50))
	f.Add(int64(42), uint8(255))
	f.Fuzz(func(t *testing.T, seed int64, steps uint8) {
		runFuzz(t, seed, int(steps))
	})
}
