package raft

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The harness runs raft nodes as sim processes named kafka-N: voters listen
// on kafka-N:9093 (the controller listener), observers use kafka-N:9092
// (their broker address), as a cluster node would. Disks outlive process
// incarnations, so kills and restarts exercise recovery.

const testLogDir = "/tmp/kafka-logs"

type cluster struct {
	t      testing.TB
	w      *sim.World
	voters map[int32]sim.Addr
	hosts  map[int32]*testHost
	ids    []int32 // every node, ascending
	hist   *history
	// appended counts payloads written, so each is unique.
	appended int
	cleanup  *clusterRef
	// allowWorldErr lets a run end early on a node's panic (planted bugs
	// make nodes hit Kafka's fatal consistency checks) instead of failing.
	allowWorldErr bool
	// notes counts the nodes' notes by key (raft.truncate, ...), over the
	// whole run (the trace keeps only a window).
	notes map[string]int
}

type testHost struct {
	c           *cluster
	id          int32
	name        string
	cfg         Config
	disk        *storage.Disk
	node        *Node // the current incarnation (nil before the first start)
	incarnation int
	// snapshotEvery makes the listener snapshot its state every so many
	// committed data entries (0: never).
	snapshotEvery int
}

type clusterOpts struct {
	voters, observers int
	tweak             func(id int32, c *Config)
}

func newCluster(t testing.TB, seed uint64, o clusterOpts) *cluster {
	t.Helper()
	c := &cluster{t: t, w: sim.NewWorld(seed), voters: map[int32]sim.Addr{}, hosts: map[int32]*testHost{}, hist: newHistory(), notes: map[string]int{}}
	c.w.SetNoteHook(func(e sim.TraceEvent) {
		key := e.Detail
		if tr, ok := e.Note.(event.RaftTransition); ok {
			key += "." + tr.Role
		}
		c.notes[key]++
	})
	for i := 1; i <= o.voters; i++ {
		c.voters[int32(i)] = sim.Addr(fmt.Sprintf("kafka-%d:9093", i))
	}
	for i := 1; i <= o.voters+o.observers; i++ {
		id := int32(i)
		name := fmt.Sprintf("kafka-%d", i)
		addr := sim.Addr(name + ":9093")
		if i > o.voters {
			addr = sim.Addr(name + ":9092")
		}
		h := &testHost{c: c, id: id, name: name}
		h.disk = storage.NewDisk(c.w.Now)
		h.cfg = Config{NodeID: id, Addr: addr, Voters: c.voters, ClusterID: "MkU3OEVBNTcwNTJENDM2Qk", Disk: h.disk, LogDir: testLogDir}
		if o.tweak != nil {
			o.tweak(id, &h.cfg)
		}
		c.hosts[id] = h
		c.ids = append(c.ids, id)
	}
	// The cleanup holds the cluster only until close runs, so a test that
	// builds hundreds of worlds keeps one at a time.
	c.cleanup = &clusterRef{c: c}
	ref := c.cleanup
	t.Cleanup(func() {
		if ref.c != nil {
			ref.c.close()
		}
	})
	return c
}

type clusterRef struct{ c *cluster }

// close stops every process, so their goroutines end and the world can be
// collected.
func (c *cluster) close() {
	for _, h := range c.w.Hosts() {
		_ = c.w.Kill(h, false)
	}
	c.cleanup.c = nil
}

func (c *cluster) startAll() {
	for _, id := range c.ids {
		c.start(id)
	}
}

func (c *cluster) start(id int32) {
	h := c.hosts[id]
	h.incarnation++
	h.node = nil                   // until the new incarnation's Start runs
	c.hist.node(id, h.incarnation) // its listener starts from scratch
	if err := c.w.Spawn(h.name, &hostProc{h: h, inc: h.incarnation}); err != nil {
		c.t.Fatalf("start %d: %v (%s)", id, err, c.describe())
	}
}

// kill crashes a node; with powerLoss its disk also loses what was not
// flushed.
func (c *cluster) kill(id int32, powerLoss bool) {
	h := c.hosts[id]
	if err := c.w.Kill(h.name, powerLoss); err != nil {
		c.t.Fatal(err)
	}
	if powerLoss {
		h.disk.PowerLoss()
	}
}

// spawned reports whether id's process runs (its Start may still be due).
func (c *cluster) spawned(id int32) bool {
	st, ok := c.w.State(c.hosts[id].name)
	return ok && st == sim.ProcRunning
}

func (c *cluster) running(id int32) bool {
	st, ok := c.w.State(c.hosts[id].name)
	return ok && st == sim.ProcRunning && c.hosts[id].node != nil && c.hosts[id].node.Started()
}

func (c *cluster) cut(a, b int32)      { c.w.Net().Cut(c.hosts[a].name, c.hosts[b].name) }
func (c *cluster) cutBoth(a, b int32)  { c.cut(a, b); c.cut(b, a) }
func (c *cluster) heal()               { c.w.Net().HealAll() }
func (c *cluster) node(id int32) *Node { return c.hosts[id].node }

// isolate cuts id from every other node, both ways.
func (c *cluster) isolate(id int32) {
	for _, o := range c.ids {
		if o != id {
			c.cutBoth(id, o)
		}
	}
}

// hostProc is one incarnation of a node's process.
type hostProc struct {
	h   *testHost
	inc int
}

func (p *hostProc) Start(env *sim.Env) {
	n := NewNode(p.h.cfg, &recListener{h: p.h, inc: p.inc})
	p.h.node = n
	if err := n.Start(env); err != nil {
		panic(fmt.Sprintf("kafka-%d start: %v", p.h.id, err))
	}
}

func (p *hostProc) Receive(env *sim.Env, e *sim.Envelope) {
	if p.h.node.Handle(env, e) {
		return
	}
	if _, reset := e.Msg.(*sim.Disconnected); !reset {
		env.Send(e.To, e.From, &sim.Disconnected{Peer: e.To, Request: e.Msg})
	}
}

// step runs one event and samples every node's role, so a leader is seen
// at the event that made it one.
func (c *cluster) step() bool {
	if !c.w.Step() {
		return false
	}
	for _, id := range c.ids {
		if c.running(id) {
			n := c.hosts[id].node
			if n.Role() == RoleLeader {
				c.hist.observeLeader(n.LeaderAndEpoch().Epoch, id)
			}
		}
	}
	return true
}

// maxStepsPerRun bounds one runFor/runUntil call.
const maxStepsPerRun = 5_000_000

func (c *cluster) runFor(d time.Duration) {
	c.t.Helper()
	c.runUntil(func() bool { return false }, d)
}

// runUntil steps until cond holds (checked after every event) or d of
// virtual time passed; it reports whether cond held.
func (c *cluster) runUntil(cond func() bool, d time.Duration) bool {
	c.t.Helper()
	limit := c.w.Now().Add(d)
	for steps := 0; ; steps++ {
		if c.allowWorldErr && c.w.Err() != nil {
			return false
		}
		if cond() {
			return true
		}
		if steps >= maxStepsPerRun {
			c.t.Fatalf("more than %d events before %s", maxStepsPerRun, limit)
		}
		at, ok := c.w.NextEventAt()
		if !ok || at > limit {
			if err := c.w.RunUntil(limit); err != nil && !c.allowWorldErr {
				c.t.Fatal(err)
			}
			return cond()
		}
		if !c.step() {
			if err := c.w.Err(); err != nil && !c.allowWorldErr {
				c.t.Fatal(err)
			}
		}
	}
}

// leader is the running node that leads the highest epoch, or -1.
func (c *cluster) leader() int32 {
	best, bestEpoch := int32(-1), int32(-1)
	for _, id := range c.ids {
		if c.running(id) {
			n := c.node(id)
			if n.Role() == RoleLeader && n.LeaderAndEpoch().Epoch > bestEpoch {
				best, bestEpoch = id, n.LeaderAndEpoch().Epoch
			}
		}
	}
	return best
}

// waitLeader runs until some node leads and has committed its epoch's
// first entry (so it accepts appends that can commit).
func (c *cluster) waitLeader(d time.Duration) int32 {
	c.t.Helper()
	if !c.runUntil(func() bool {
		l := c.leader()
		return l >= 0 && c.node(l).HighWatermark() > 0
	}, d) {
		c.t.Fatalf("no leader within %s (%s)", d, c.describe())
	}
	return c.leader()
}

// appendOn makes node id append n unique payloads (now, inside its
// process) and returns them.
func (c *cluster) appendOn(id int32, n int) ([]string, error) {
	var out []string
	var payloads [][]byte
	for i := 0; i < n; i++ {
		c.appended++
		s := fmt.Sprintf("rec-%d", c.appended)
		out = append(out, s)
		payloads = append(payloads, []byte(s))
	}
	var err error
	done := false
	if cerr := c.w.Call(c.hosts[id].name, "test append", func(env *sim.Env) {
		_, _, err = c.node(id).Append(env, payloads)
		done = true
	}); cerr != nil {
		return nil, cerr
	}
	c.runUntil(func() bool { return done }, time.Second)
	return out, err
}

// call runs fn inside node id's process and waits for it.
func (c *cluster) call(id int32, fn func(env *sim.Env)) {
	c.t.Helper()
	done := false
	if err := c.w.Call(c.hosts[id].name, "test call", func(env *sim.Env) { fn(env); done = true }); err != nil {
		c.t.Fatal(err)
	}
	c.runUntil(func() bool { return done }, time.Second)
}

// describe summarises every node for failure messages.
func (c *cluster) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "at %s:", c.w.Now())
	for _, id := range c.ids {
		if !c.running(id) {
			fmt.Fprintf(&b, " [%d down]", id)
			continue
		}
		n := c.node(id)
		fmt.Fprintf(&b, " [%d %s %s leo=%d hw=%d]", id, n.Role(), n.LeaderAndEpoch(), n.LogEndOffset(), n.HighWatermark())
	}
	return b.String()
}

// committedData is the data payloads a node's listener has received in its
// current incarnation, in order (from a snapshot, then from batches).
func (c *cluster) committedData(id int32) []string {
	if n := c.hist.nodes[id]; n != nil {
		return n.state
	}
	return nil
}

// recListener feeds every callback into the history and the checkers.
type recListener struct {
	h   *testHost
	inc int
}

func (l *recListener) HandleCommit(env *sim.Env, b CommittedBatch) {
	c := l.h.c
	c.hist.commit(l.h.id, l.inc, b)
	if every := l.h.snapshotEvery; every > 0 && !b.Control {
		ns := c.hist.nodes[l.h.id]
		if len(ns.state)-ns.snapshotAt >= every {
			ns.snapshotAt = len(ns.state)
			payloads := encodeState(ns.stateEntries)
			if _, err := l.h.node.CreateSnapshot(env, b.LastOffset+1, payloads); err != nil {
				panic(fmt.Sprintf("snapshot on %d: %v", l.h.id, err))
			}
		}
	}
}

func (l *recListener) HandleLoadSnapshot(env *sim.Env, s LoadedSnapshot) {
	l.h.c.hist.loadSnapshot(l.h.id, l.inc, s)
}

func (l *recListener) HandleLeaderChange(env *sim.Env, le LeaderAndEpoch) {}

func (l *recListener) HandleBecomeLeader(env *sim.Env, epoch int32) {
	l.h.c.hist.becameLeader = append(l.h.c.hist.becameLeader, fmt.Sprintf("%d@%d", l.h.id, epoch))
}

func (l *recListener) HandleResign(env *sim.Env, epoch int32) {
	l.h.c.hist.resigned = append(l.h.c.hist.resigned, fmt.Sprintf("%d@%d", l.h.id, epoch))
}

// encodeState serializes committed data entries as "offset/epoch/payload"
// snapshot payloads, so a loaded snapshot can be checked entry by entry.
func encodeState(es []stateEntry) [][]byte {
	out := make([][]byte, 0, len(es))
	for _, e := range es {
		out = append(out, []byte(fmt.Sprintf("%d/%d/%s", e.offset, e.epoch, e.payload)))
	}
	return out
}

func decodeState(p []byte) (stateEntry, bool) {
	var e stateEntry
	parts := strings.SplitN(string(p), "/", 3)
	if len(parts) != 3 {
		return e, false
	}
	if _, err := fmt.Sscan(parts[0], &e.offset); err != nil {
		return e, false
	}
	if _, err := fmt.Sscan(parts[1], &e.epoch); err != nil {
		return e, false
	}
	e.payload = parts[2]
	return e, true
}

func sortedKeys[V any](m map[int32]V) []int32 {
	out := make([]int32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
