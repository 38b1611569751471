package console

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// zkTestWorld is a world with ZooKeeper servers (zookeeper-N:2181), a
// seeding client that writes znodes, and the shell run as a process.
type zkTestWorld struct {
	t       *testing.T
	w       *sim.World
	srv     map[string]*zookeeper.Server
	servers []sim.Addr
	seed    *zkSeeder
	runs    int
}

// zkSeeder is a process embedding a zookeeper.Client, for writes made
// before the shell runs.
type zkSeeder struct{ c *zookeeper.Client }

func (p *zkSeeder) Start(env *sim.Env)                    { p.c.Start(env) }
func (p *zkSeeder) Receive(env *sim.Env, e *sim.Envelope) { p.c.Receive(env, e) }

// newZKTestWorld starts n servers (1: standalone; 3: an ensemble, whose
// election takes a few hundred ms) and the seeding client, connected to
// zookeeper-1.
func newZKTestWorld(t *testing.T, n int) *zkTestWorld {
	z := &zkTestWorld{t: t, w: sim.NewWorld(1), srv: map[string]*zookeeper.Server{}}
	t.Cleanup(z.w.Close)
	var peers []zookeeper.Peer
	if n > 1 {
		for i := 1; i <= n; i++ {
			peers = append(peers, zookeeper.Peer{ID: int64(i), Host: fmt.Sprintf("zookeeper-%d", i)})
		}
	}
	for i := 1; i <= n; i++ {
		host := fmt.Sprintf("zookeeper-%d", i)
		s := zookeeper.NewServer(zookeeper.ServerConfig{ID: int64(i), Peers: peers})
		z.srv[host] = s
		z.servers = append(z.servers, sim.Addr(host+":2181"))
		if err := z.w.Spawn(host, s); err != nil {
			t.Fatal(err)
		}
	}
	z.runFor(2 * time.Second)
	z.seed = &zkSeeder{c: zookeeper.NewClient(zookeeper.ClientConfig{Servers: z.servers[:1], SessionTimeout: 18 * time.Second})}
	if err := z.w.Spawn("seeder", z.seed); err != nil {
		t.Fatal(err)
	}
	z.runFor(100 * time.Millisecond)
	if z.seed.c.State() != zookeeper.Connected {
		t.Fatalf("seeding client: state %v", z.seed.c.State())
	}
	return z
}

func (z *zkTestWorld) runFor(d time.Duration) {
	z.t.Helper()
	if err := z.w.RunFor(d); err != nil {
		z.t.Fatal(err)
	}
}

// create makes a znode through the seeding client and returns its name.
func (z *zkTestWorld) create(path, data string, mode zookeeper.CreateMode) string {
	z.t.Helper()
	var b []byte
	if data != "\x00null" {
		b = []byte(data)
	}
	rc, name := zookeeper.Code(-999), ""
	if err := z.w.Call("seeder", "create", func(env *sim.Env) {
		z.seed.c.Create(env, path, b, mode, func(_ *sim.Env, c zookeeper.Code, created string) { rc, name = c, created })
	}); err != nil {
		z.t.Fatal(err)
	}
	z.runFor(100 * time.Millisecond)
	if rc != zookeeper.OK {
		z.t.Fatalf("create %s: %v", path, rc)
	}
	return name
}

// setData writes a znode's data through the seeding client.
func (z *zkTestWorld) setData(path, data string) {
	z.t.Helper()
	rc := zookeeper.Code(-999)
	if err := z.w.Call("seeder", "set", func(env *sim.Env) {
		z.seed.c.SetData(env, path, []byte(data), -1, func(_ *sim.Env, c zookeeper.Code, _ zookeeper.Stat) { rc = c })
	}); err != nil {
		z.t.Fatal(err)
	}
	z.runFor(100 * time.Millisecond)
	if rc != zookeeper.OK {
		z.t.Fatalf("set %s: %v", path, rc)
	}
}

// zkRun is one run of the shell: what it printed, its exit code and the
// host it ran on.
type zkRun struct {
	out  string
	exit int
	host string
	proc *zkShellProc
}

// shell runs zookeeper-shell.sh with args (split on spaces) as the tool
// would: the argument checks, then the program on a host of its own,
// until it exits (at most 60 s of simulated time).
func (z *zkTestWorld) shell(line string) zkRun {
	z.t.Helper()
	return z.shellArgs(strings.Fields(line)...)
}

func (z *zkTestWorld) shellArgs(args ...string) zkRun {
	z.t.Helper()
	sh := z.start(args...)
	return z.wait(sh, func() {})
}

// zkRunning is a shell started and not yet waited for.
type zkRunning struct {
	s  *Session
	tr *toolRun
	r  zkRun
}

// start checks the arguments and spawns the shell's program (if the
// checks leave one) without running the world.
func (z *zkTestWorld) start(args ...string) *zkRunning {
	z.t.Helper()
	sh := &zkRunning{s: NewSession()}
	sh.tr = &toolRun{s: sh.s, name: "zookeeper-shell"}
	build := zkShell(sh.tr, args, z.servers)
	z.runs++
	sh.r.host = fmt.Sprintf("zookeeper-shell-%d", z.runs)
	if build != nil {
		proc := build(sh.r.host)
		sh.r.proc = proc.(*zkShellProc)
		if err := z.w.Spawn(sh.r.host, proc); err != nil {
			z.t.Fatal(err)
		}
	}
	return sh
}

// wait runs the world until the shell exits (at most 60 s of simulated
// time), calling each between two steps, and returns the run.
func (z *zkTestWorld) wait(sh *zkRunning, each func()) zkRun {
	z.t.Helper()
	if _, err := z.w.RunWhile(func() bool { each(); return !sh.tr.finished }, z.w.Now().Add(60*time.Second)); err != nil {
		z.t.Fatal(err)
	}
	if !sh.tr.finished {
		z.t.Fatalf("zookeeper-shell.sh on %s still running after 60 s", sh.r.host)
	}
	var lines []string
	for _, l := range sh.s.OutputLines() {
		lines = append(lines, l.Text)
	}
	sh.r.out, sh.r.exit = strings.Join(lines, "\n"), sh.tr.exit
	return sh.r
}

// expect checks a run's whole output and exit code.
func (z *zkTestWorld) expect(line string, want string, exit int) zkRun {
	z.t.Helper()
	r := z.shell(line)
	if r.out != want || r.exit != exit {
		z.t.Errorf("zookeeper-shell.sh %s:\ngot (exit %d):\n%s\nwant (exit %d):\n%s", line, r.exit, r.out, exit, want)
	}
	return r
}

// zkConnected is what the shell prints first against zookeeper-1: its
// connect string, then the watcher's SyncConnected event, each of the
// two lines after an empty one.
const zkConnected = "Connecting to zookeeper-1:2181\n\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n"
