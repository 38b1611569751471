package zookeeper

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// Ensemble timing pinned here (release-3.5.9 unless said):
//   - tickTime 3000 ms (ZooKeeperServer.DEFAULT_TICK_TIME; Kafka 2.8 sets
//     none), initLimit 10 and syncLimit 5 ticks (conf/zoo_sample.cfg; an
//     ensemble must set both, QuorumPeerConfig).
//   - FastLeaderElection's finalizeWait 200 ms: a 3-server start with
//     equal zxids elects the highest sid, zookeeper-3.
//   - a follower whose leader is silent gives up after syncLimit ticks
//     (15 s); a leader without a quorum of learners answering within
//     syncLimit ticks steps down at the next whole tick (≤ 18 s).

type ensWorld struct {
	t   *testing.T
	w   *sim.World
	srv map[string]*Server
	rec map[string]*recServer
	cli map[string]*zkClientProc
}

// recServer records the sync packets a server receives.
type recServer struct {
	*Server
	syncs []string
}

func (r *recServer) Receive(env *sim.Env, e *sim.Envelope) {
	if p, ok := e.Msg.(*Packet); ok && (p.Type == PacketDiff || p.Type == PacketTrunc || p.Type == PacketSnap) {
		r.syncs = append(r.syncs, fmt.Sprintf("%s 0x%s %d", p.Type, ZxidString(p.Zxid), len(p.Txns)))
	}
	r.Server.Receive(env, e)
}

var ensPeers = []Peer{{1, "zookeeper-1"}, {2, "zookeeper-2"}, {3, "zookeeper-3"}}

func newEnsemble(t *testing.T, seed uint64) *ensWorld {
	z := spawnEnsemble(t, seed)
	z.runFor(2 * time.Second)
	return z
}

// until steps 1 ms at a time until cond holds (or limit passes) and
// says how long it took.
func (z *ensWorld) until(cond func() bool, limit time.Duration) time.Duration {
	z.t.Helper()
	start := z.w.Now()
	for z.w.Now().Sub(start) < limit && !cond() {
		z.runFor(time.Millisecond)
	}
	if !cond() {
		z.t.Fatalf("not after %v: %s", limit, z.states())
	}
	return z.w.Now().Sub(start)
}

func spawnEnsemble(t *testing.T, seed uint64) *ensWorld {
	z := &ensWorld{t: t, w: sim.NewWorld(seed), srv: map[string]*Server{}, rec: map[string]*recServer{}, cli: map[string]*zkClientProc{}}
	t.Cleanup(z.w.Close)
	for _, p := range ensPeers {
		s := NewServer(ServerConfig{ID: p.ID, Peers: ensPeers})
		z.srv[p.Host] = s
		z.rec[p.Host] = &recServer{Server: s}
		if err := z.w.Spawn(p.Host, z.rec[p.Host]); err != nil {
			t.Fatal(err)
		}
	}
	return z
}

// client starts a client whose connect string lists servers in order.
func (z *ensWorld) client(host string, servers ...string) *Client {
	p := &zkClientProc{}
	var addrs []sim.Addr
	for _, s := range servers {
		addrs = append(addrs, sim.Addr(s+":2181"))
	}
	p.c = NewClient(ClientConfig{Servers: addrs, SessionTimeout: 18 * time.Second,
		Watcher: func(env *sim.Env, ev WatchedEvent) {
			p.events = append(p.events, fmt.Sprintf("%d %s", env.Now().Millis(), ev))
		}})
	z.cli[host] = p
	if err := z.w.Spawn(host, p); err != nil {
		z.t.Fatal(err)
	}
	z.runFor(100 * time.Millisecond)
	return p.c
}

func (z *ensWorld) runFor(d time.Duration) {
	z.t.Helper()
	if err := z.w.RunFor(d); err != nil {
		z.t.Fatal(err)
	}
}

func (z *ensWorld) call(host string, fn func(env *sim.Env, c *Client)) {
	z.t.Helper()
	c := z.cli[host].c
	if err := z.w.Call(host, "test", func(env *sim.Env) { fn(env, c) }); err != nil {
		z.t.Fatal(err)
	}
	z.runFor(50 * time.Millisecond)
}

func (z *ensWorld) create(host, path string, mode CreateMode) Code {
	z.t.Helper()
	code := Code(-999)
	z.call(host, func(env *sim.Env, c *Client) {
		c.Submit(env, &Request{Type: OpCreate, Path: path, Data: []byte("x"), Mode: mode}, func(env *sim.Env, r *Reply) { code = r.Err })
	})
	return code
}

func (z *ensWorld) leader() string {
	for _, p := range ensPeers {
		if s := z.srv[p.Host]; z.running(p.Host) && s.PeerState() == Leading && s.Serving() {
			return p.Host
		}
	}
	return ""
}

func (z *ensWorld) running(host string) bool {
	st, _ := z.w.State(host)
	return st == ProcRunningState
}

const ProcRunningState = sim.ProcRunning

func (z *ensWorld) states() string {
	out := ""
	for _, p := range ensPeers {
		s := z.srv[p.Host]
		out += fmt.Sprintf("%s:%s(leader %d, epoch %d/%d, zxid 0x%s) ", p.Host, s.PeerState(), s.Leader(), s.Disk().AcceptedEpoch, s.Disk().CurrentEpoch, ZxidString(s.Tree().LastZxid()))
	}
	return out
}

func (z *ensWorld) has(host, path string) bool {
	_, err := z.srv[host].Tree().Exists(path, NoWatch)
	return err == nil
}

func (z *ensWorld) restart(host string) {
	z.t.Helper()
	if err := z.w.Spawn(host, z.rec[host]); err != nil {
		z.t.Fatal(err)
	}
}

func TestEnsembleElectsHighestSid(t *testing.T) {
	z := spawnEnsemble(t, 1)
	// Votes cross in 1 ms, a quorum agrees on sid 3 (equal zxids and
	// epochs), finalizeWait 200 ms, then FOLLOWERINFO … UPTODATE.
	took := z.until(func() bool {
		for _, s := range z.srv {
			if !s.Serving() {
				return false
			}
		}
		return true
	}, time.Second)
	if took < 200*time.Millisecond || took > 210*time.Millisecond {
		t.Fatalf("all serving after %v", took)
	}
	if z.leader() != "zookeeper-3" {
		t.Fatalf("leader %q: %s", z.leader(), z.states())
	}
	for _, p := range ensPeers[:2] {
		s := z.srv[p.Host]
		if s.PeerState() != Following || s.Leader() != 3 || !s.Serving() {
			t.Fatalf("%s", z.states())
		}
	}
	for _, s := range z.srv {
		if s.Disk().CurrentEpoch != 1 || s.Disk().AcceptedEpoch != 1 {
			t.Fatalf("epochs %s", z.states())
		}
	}
	// A killed leader: its followers get the resets at once and elect
	// zookeeper-2 (equal zxids, the higher sid) for epoch 2.
	z.runFor(time.Second)
	if err := z.w.Kill("zookeeper-3", false); err != nil {
		t.Fatal(err)
	}
	took = z.until(func() bool { return z.leader() == "zookeeper-2" && z.srv["zookeeper-1"].Serving() }, time.Second)
	if took < 200*time.Millisecond || took > 210*time.Millisecond {
		t.Fatalf("re-elected after %v: %s", took, z.states())
	}
	if z.srv["zookeeper-1"].Disk().CurrentEpoch != 2 || z.srv["zookeeper-1"].Leader() != 2 {
		t.Fatalf("%s", z.states())
	}
}

func TestEnsembleWriteThroughFollower(t *testing.T) {
	z := newEnsemble(t, 1)
	c := z.client("a", "zookeeper-1")
	if c.State() != Connected || c.SessionID()>>56 != 1 {
		t.Fatalf("client %v %x", c.State(), c.SessionID())
	}
	z.client("b", "zookeeper-3")
	z.call("a", func(env *sim.Env, c *Client) {
		c.Submit(env, &Request{Type: OpExists, Path: "/x", Watch: true}, func(*sim.Env, *Reply) {})
	})
	if code := z.create("b", "/x", Persistent); code != OK {
		t.Fatalf("create %v", code)
	}
	// The watch set on zookeeper-1 fires when zookeeper-1 applies the commit.
	if ev := z.cli["a"].events; len(ev) != 2 || !strings.HasSuffix(ev[1], "type:NodeCreated path:/x") {
		t.Fatalf("events %q", ev)
	}
	for _, p := range ensPeers {
		if !z.has(p.Host, "/x") {
			t.Fatalf("%s lacks /x", p.Host)
		}
		// createSession 0x100000001 and 0x100000002, create 0x100000003:
		// epoch 1 in the high bits.
		if got := z.srv[p.Host].Tree().LastZxid(); got != MakeZxid(1, 3) {
			t.Fatalf("%s zxid %x", p.Host, got)
		}
	}
}

func TestEnsembleLeaderCrashTruncatesUncommitted(t *testing.T) {
	z := newEnsemble(t, 1)
	z.client("a", "zookeeper-3", "zookeeper-1", "zookeeper-2")
	if code := z.create("a", "/committed", Persistent); code != OK {
		t.Fatalf("create %v", code)
	}
	// The leader's proposals reach no follower: logged on the leader only.
	for _, f := range []string{"zookeeper-1", "zookeeper-2"} {
		z.w.Net().Cut("zookeeper-3", f)
	}
	code := Code(-999)
	z.call("a", func(env *sim.Env, c *Client) {
		c.Submit(env, &Request{Type: OpCreate, Path: "/lost", Mode: Persistent}, func(env *sim.Env, r *Reply) { code = r.Err })
	})
	if code != -999 {
		t.Fatalf("uncommitted create answered %v", code)
	}
	lostZxid := z.srv["zookeeper-3"].lastLoggedZxid()
	if err := z.w.Kill("zookeeper-3", false); err != nil {
		t.Fatal(err)
	}
	z.w.Net().HealAll()
	// The crash's resets were lost on the cut links: the followers learn
	// when the client, moving to zookeeper-1, makes it REVALIDATE with the
	// dead leader (a reset), else at their syncLimit read timeout.
	took := z.until(func() bool { return z.leader() == "zookeeper-2" && z.srv["zookeeper-1"].Serving() }, 20*time.Second)
	if took > 15*time.Second+210*time.Millisecond {
		t.Fatalf("new leader after %v", took)
	}
	z.runFor(5 * time.Second)
	if z.leader() != "zookeeper-2" || z.srv["zookeeper-2"].Disk().CurrentEpoch != 2 {
		t.Fatalf("new leader: %s", z.states())
	}
	if code != ConnectionLoss {
		t.Fatalf("uncommitted create: %v", code)
	}
	if z.cli["a"].c.State() != Connected {
		t.Fatalf("client %v %q", z.cli["a"].c.State(), z.cli["a"].events)
	}
	if code := z.create("a", "/after", Persistent); code != OK {
		t.Fatalf("create after %v", code)
	}
	z.restart("zookeeper-3")
	z.runFor(5 * time.Second)
	// The leader's log ends at /after (0x200000001); the old leader's
	// 0x100000003 is not in it, so it truncates to 0x100000002 and gets
	// the rest as a DIFF.
	if got := z.rec["zookeeper-3"].syncs; len(got) != 1 || got[0] != "TRUNC 0x100000002 1" {
		t.Fatalf("syncs %q", got)
	}
	s3 := z.srv["zookeeper-3"]
	if s3.PeerState() != Following || s3.Leader() != 2 || !s3.Serving() {
		t.Fatalf("rejoin: %s", z.states())
	}
	for _, p := range ensPeers {
		if !z.has(p.Host, "/committed") || !z.has(p.Host, "/after") || z.has(p.Host, "/lost") {
			t.Fatalf("%s: %v", p.Host, z.srv[p.Host].Tree().Paths())
		}
		for _, e := range z.srv[p.Host].Disk().Log {
			if e.Txn.Zxid == lostZxid {
				t.Fatalf("%s still logs 0x%x", p.Host, lostZxid)
			}
		}
	}
}

func TestEnsembleFollowerRestartCatchesUpByDiff(t *testing.T) {
	z := newEnsemble(t, 1)
	z.client("a", "zookeeper-2")
	if code := z.create("a", "/one", Persistent); code != OK {
		t.Fatal(code)
	}
	if err := z.w.Kill("zookeeper-1", false); err != nil {
		t.Fatal(err)
	}
	// Two of three still commit.
	for _, p := range []string{"/two", "/three"} {
		if code := z.create("a", p, Persistent); code != OK {
			t.Fatalf("%s: %v", p, code)
		}
	}
	z.restart("zookeeper-1")
	z.runFor(2 * time.Second)
	s1 := z.srv["zookeeper-1"]
	if s1.PeerState() != Following || s1.Leader() != 3 || !s1.Serving() {
		t.Fatalf("%s", z.states())
	}
	// Its log ended at 0x100000002 (/one): DIFF with /two and /three.
	if got := z.rec["zookeeper-1"].syncs; len(got) != 2 || got[0] != "DIFF 0x0 0" || got[1] != "DIFF 0x100000002 2" {
		t.Fatalf("syncs %q", got)
	}
	if !z.has("zookeeper-1", "/three") || s1.Tree().LastZxid() != MakeZxid(1, 4) {
		t.Fatalf("%v", s1.Tree().Paths())
	}
	// The epoch stays 1: the leader did not change.
	if s1.Disk().CurrentEpoch != 1 {
		t.Fatalf("%s", z.states())
	}
}

func TestEnsembleMinorityCannotCommitNorExpire(t *testing.T) {
	z := newEnsemble(t, 1)
	c := z.client("a", "zookeeper-3", "zookeeper-1", "zookeeper-2")
	sid := c.SessionID()
	if code := z.create("a", "/eph", Ephemeral); code != OK {
		t.Fatal(code)
	}
	// The leader is cut off from both followers; the client still reaches it.
	for _, f := range []string{"zookeeper-1", "zookeeper-2"} {
		z.w.Net().Cut("zookeeper-3", f)
		z.w.Net().Cut(f, "zookeeper-3")
	}
	cut := z.w.Now()
	code := Code(-999)
	z.call("a", func(env *sim.Env, c *Client) {
		c.Submit(env, &Request{Type: OpCreate, Path: "/minority", Mode: Persistent}, func(env *sim.Env, r *Reply) { code = r.Err })
	})
	z.runFor(10 * time.Second)
	if code != -999 || z.has("zookeeper-3", "/minority") {
		t.Fatalf("minority committed: %v", code)
	}
	// The leader steps down at the first whole-tick check where no
	// follower answered within syncLimit (5) ticks: the last answers came
	// up to a half-tick ping before the cut, so 15 to 19.5 s after it.
	z.until(func() bool { return z.srv["zookeeper-3"].PeerState() == Looking }, 10*time.Second)
	if d := z.w.Now().Sub(cut); d < 15*time.Second || d > 19500*time.Millisecond {
		t.Fatalf("stepped down %v after the cut", d)
	}
	z.runFor(20 * time.Second)
	if code != ConnectionLoss {
		t.Fatalf("minority create: %v", code)
	}
	if z.srv["zookeeper-3"].PeerState() != Looking || z.leader() != "zookeeper-2" {
		t.Fatalf("%s", z.states())
	}
	// The client moved to the majority with its session; nothing expired it.
	if c.State() != Connected || c.SessionID() != sid || c.Conn() == "" {
		t.Fatalf("client %v %x", c.State(), c.SessionID())
	}
	for _, p := range ensPeers[:2] {
		if !z.has(p.Host, "/eph") || z.has(p.Host, "/minority") {
			t.Fatalf("%s: %v", p.Host, z.srv[p.Host].Tree().Paths())
		}
	}
	// Looking, the old leader has fast-forwarded its tree over its log
	// (ZKDatabase.fastForwardDataBase), /minority included; it serves no
	// one.
	if !z.has("zookeeper-3", "/minority") || z.srv["zookeeper-3"].Serving() {
		t.Fatalf("zookeeper-3: %v", z.srv["zookeeper-3"].Tree().Paths())
	}
	// Healed, the old leader rejoins as a follower and truncates /minority.
	z.w.Net().HealAll()
	z.runFor(70 * time.Second)
	s3 := z.srv["zookeeper-3"]
	if s3.PeerState() != Following || s3.Leader() != 2 || z.has("zookeeper-3", "/minority") {
		t.Fatalf("%s %q", z.states(), z.rec["zookeeper-3"].syncs)
	}
}

func TestEnsembleFollowerLosingLeaderDisconnectsClient(t *testing.T) {
	z := newEnsemble(t, 1)
	c := z.client("a", "zookeeper-1", "zookeeper-2")
	sid := c.SessionID()
	z.w.Net().Cut("zookeeper-1", "zookeeper-3")
	z.w.Net().Cut("zookeeper-3", "zookeeper-1")
	z.runFor(14 * time.Second)
	if z.srv["zookeeper-1"].PeerState() != Following {
		t.Fatalf("%s", z.states())
	}
	// syncLimit × tickTime = 15 s after the leader's last packet.
	z.runFor(3 * time.Second)
	if z.srv["zookeeper-1"].PeerState() != Looking {
		t.Fatalf("%s", z.states())
	}
	z.runFor(3 * time.Second)
	ev := z.cli["a"].events
	if len(ev) < 3 || ev[1][len(ev[1])-len("state:Disconnected type:None path:null"):] != "state:Disconnected type:None path:null" {
		t.Fatalf("events %q", ev)
	}
	if c.State() != Connected || c.SessionID() != sid || c.Conn() == "" || z.leader() != "zookeeper-3" {
		t.Fatalf("client %v %x %s", c.State(), c.SessionID(), z.states())
	}
	if len(z.srv["zookeeper-2"].connAddrs()) != 1 {
		t.Fatalf("zookeeper-2 conns %v", z.srv["zookeeper-2"].connAddrs())
	}
}

func TestEnsembleExpiredSessionEphemeralsVanishEverywhere(t *testing.T) {
	z := newEnsemble(t, 1)
	z.client("a", "zookeeper-1")
	if code := z.create("a", "/eph", Ephemeral); code != OK {
		t.Fatal(code)
	}
	if err := z.w.Kill("a", false); err != nil {
		t.Fatal(err)
	}
	z.runFor(15 * time.Second)
	for _, p := range ensPeers {
		if !z.has(p.Host, "/eph") {
			t.Fatalf("%s lost /eph early", p.Host)
		}
	}
	z.runFor(10 * time.Second)
	for _, p := range ensPeers {
		if z.has(p.Host, "/eph") || len(z.srv[p.Host].GlobalSessions()) != 0 {
			t.Fatalf("%s: %v %v", p.Host, z.srv[p.Host].Tree().Paths(), z.srv[p.Host].GlobalSessions())
		}
	}
}

func TestEnsembleSameSeedSameTrace(t *testing.T) {
	run := func() uint64 {
		z := newEnsemble(t, 7)
		z.client("a", "zookeeper-1", "zookeeper-2", "zookeeper-3")
		z.create("a", "/x", Ephemeral)
		_ = z.w.Kill("zookeeper-3", false)
		z.runFor(30 * time.Second)
		z.restart("zookeeper-3")
		z.runFor(30 * time.Second)
		return z.w.Trace().Hash()
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("trace hashes %x %x", a, b)
	}
}

func TestEnsembleFollowerFarBehindGetsSnap(t *testing.T) {
	z := newEnsemble(t, 1)
	z.client("a", "zookeeper-2")
	if err := z.w.Kill("zookeeper-1", false); err != nil {
		t.Fatal(err)
	}
	// More than ZKDatabase's 500 committed proposals kept for DIFF.
	code := OK
	z.call("a", func(env *sim.Env, c *Client) {
		for i := 0; i < commitLogCount+1; i++ {
			c.Submit(env, &Request{Type: OpCreate, Path: fmt.Sprintf("/n%d", i), Mode: Persistent}, func(env *sim.Env, r *Reply) {
				if r.Err != OK {
					code = r.Err
				}
			})
		}
	})
	z.runFor(time.Second)
	if code != OK {
		t.Fatal(code)
	}
	z.restart("zookeeper-1")
	z.runFor(2 * time.Second)
	// createSession + 501 creates: the leader's history is 502 txns.
	if got := z.rec["zookeeper-1"].syncs; len(got) != 2 || got[1] != "SNAP 0x1000001f6 502" {
		t.Fatalf("syncs %q", got)
	}
	if !z.srv["zookeeper-1"].Serving() || !z.has("zookeeper-1", "/n500") {
		t.Fatalf("%s", z.states())
	}
}

func TestEnsembleFollowerServesStaleReads(t *testing.T) {
	z := newEnsemble(t, 1)
	z.client("a", "zookeeper-1")
	z.client("b", "zookeeper-3")
	// zookeeper-1 stops hearing the leader: proposals and commits are lost.
	z.w.Net().Cut("zookeeper-3", "zookeeper-1")
	if code := z.create("b", "/x", Persistent); code != OK {
		t.Fatalf("create %v", code)
	}
	read := func() Code {
		code := Code(-999)
		z.call("a", func(env *sim.Env, c *Client) {
			c.Submit(env, &Request{Type: OpExists, Path: "/x"}, func(env *sim.Env, r *Reply) { code = r.Err })
		})
		return code
	}
	// Committed by zookeeper-2's ack; zookeeper-1 still answers from its tree.
	if code := read(); code != NoNode {
		t.Fatalf("stale read %v", code)
	}
	// Healed before its syncLimit runs out, it stays a follower: the
	// leader's connection retransmits what the cut took (TCP), so the
	// proposal and commit arrive late and in order, and no resync is
	// needed.
	z.w.Net().HealAll()
	if code := z.create("b", "/y", Persistent); code != OK {
		t.Fatalf("create %v", code)
	}
	z.runFor(5 * time.Second)
	if got := z.rec["zookeeper-1"].syncs; len(got) != 1 || !z.has("zookeeper-1", "/y") {
		t.Fatalf("syncs %q %s", got, z.states())
	}
	if code := read(); code != OK {
		t.Fatalf("read after resync %v", code)
	}
}
