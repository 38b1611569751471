package zookeeper

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// Timeouts pinned here, for Kafka 2.8 against ZooKeeper 3.5.9:
//   - tickTime 3000 ms: Kafka 2.8's config/zookeeper.properties sets
//     none, so ZooKeeperServer.DEFAULT_TICK_TIME applies.
//   - negotiated session timeout 18000 ms: zookeeper.session.timeout.ms's
//     default, inside [2, 20] ticks = [6000, 60000].
//   - the client's read timeout 12000 ms (2/3), a ping after 6000 ms
//     without sending, a connect timeout of 18000 ms over one server.
//   - a session expires at roundToNextInterval(lastTouch + 18000).

type zkClientProc struct {
	c      *Client
	events []string
}

func (p *zkClientProc) Start(env *sim.Env) { p.c.Start(env) }
func (p *zkClientProc) Receive(env *sim.Env, e *sim.Envelope) {
	p.c.Receive(env, e)
}

type zkServerProc struct {
	*Server
	lastFrom map[string]sim.Time
	pings    []string
}

func (p *zkServerProc) Receive(env *sim.Env, e *sim.Envelope) {
	if r, ok := e.Msg.(*Request); ok {
		p.lastFrom[e.From.Host()] = env.Now()
		if r.Type == OpPing {
			p.pings = append(p.pings, fmt.Sprintf("%s@%d", e.From.Host(), env.Now().Millis()))
		}
	}
	p.Server.Receive(env, e)
}

type zkWorld struct {
	t   *testing.T
	w   *sim.World
	srv *zkServerProc
	cli map[string]*zkClientProc
}

func newZKWorld(t *testing.T, seed uint64, clients ...string) *zkWorld {
	z := &zkWorld{t: t, w: sim.NewWorld(seed), cli: map[string]*zkClientProc{}}
	t.Cleanup(z.w.Close)
	z.srv = &zkServerProc{Server: NewServer(ServerConfig{ID: 1}), lastFrom: map[string]sim.Time{}}
	if err := z.w.Spawn("zk", z.srv); err != nil {
		t.Fatal(err)
	}
	for _, h := range clients {
		p := &zkClientProc{}
		p.c = NewClient(ClientConfig{Servers: []sim.Addr{"zk:2181"}, SessionTimeout: 18 * time.Second,
			Watcher: func(env *sim.Env, ev WatchedEvent) {
				p.events = append(p.events, fmt.Sprintf("%d %s", env.Now().Millis(), ev))
			}})
		z.cli[h] = p
		if err := z.w.Spawn(h, p); err != nil {
			t.Fatal(err)
		}
	}
	z.runTo(100 * time.Millisecond)
	return z
}

func (z *zkWorld) runTo(d time.Duration) {
	z.t.Helper()
	if err := z.w.RunUntil(sim.Time(d)); err != nil {
		z.t.Fatal(err)
	}
}

func (z *zkWorld) call(host string, fn func(env *sim.Env, c *Client)) {
	z.t.Helper()
	c := z.cli[host].c
	if err := z.w.Call(host, "test", func(env *sim.Env) { fn(env, c) }); err != nil {
		z.t.Fatal(err)
	}
	if err := z.w.RunFor(10 * time.Millisecond); err != nil {
		z.t.Fatal(err)
	}
}

func TestNegotiatedTimeouts(t *testing.T) {
	cfg := ServerConfig{}
	if cfg.MinTimeout() != 6000 || cfg.MaxTimeout() != 60000 {
		t.Fatalf("bounds %d %d", cfg.MinTimeout(), cfg.MaxTimeout())
	}
	for asked, want := range map[int32]int32{18000: 18000, 1000: 6000, 100000: 60000} {
		if got := cfg.Negotiate(asked); got != want {
			t.Fatalf("Negotiate(%d) = %d, want %d", asked, got, want)
		}
	}
	z := newZKWorld(t, 1, "a")
	c := z.cli["a"].c
	if c.State() != Connected || c.NegotiatedTimeout() != 18000 {
		t.Fatalf("state %v timeout %d", c.State(), c.NegotiatedTimeout())
	}
	if c.readTimeout() != 12*time.Second || c.connectTimeout() != 18*time.Second {
		t.Fatalf("read %v connect %v", c.readTimeout(), c.connectTimeout())
	}
	// initializeNextSession: server id 1 in the top byte.
	if c.SessionID()>>56 != 1 {
		t.Fatalf("session id %x", c.SessionID())
	}
	if got := z.cli["a"].events; len(got) != 1 || got[0] != "2 WatchedEvent state:SyncConnected type:None path:null" {
		t.Fatalf("events %q", got)
	}
}

func TestSessionTrackerBuckets(t *testing.T) {
	st := newSessionTracker(3000)
	st.add(1, 18000, 100)
	if st.sessions[1].expiry != 21000 {
		t.Fatalf("expiry %d", st.sessions[1].expiry)
	}
	st.touch(1, 18000, 2999) // 20999 → still 21000
	if st.sessions[1].expiry != 21000 {
		t.Fatalf("expiry %d", st.sessions[1].expiry)
	}
	st.touch(1, 18000, 3000) // 21000 → next bucket, 24000
	if got := st.poll(21000); len(got) != 0 {
		t.Fatalf("expired early: %v", got)
	}
	if got := st.poll(24000); len(got) != 1 || got[0] != 1 {
		t.Fatalf("poll %v", got)
	}
}

// Pings go out readTimeout/2 = 6 s after the last send; a receive more
// than 1 s after it brings the next ping 1 s earlier (SendThread.run).
func TestPingInterval(t *testing.T) {
	z := newZKWorld(t, 1, "a", "b")
	z.call("a", func(env *sim.Env, c *Client) { c.Exists(env, "/p", true, nil) })
	// a's exists was sent at 100 ms: pings at 6100 and 12100 ms (+1 ms
	// to the server); b sent nothing since its connect at 0.
	z.runTo(15 * time.Second)
	if want := []string{"b@6001", "a@6101", "b@12001", "a@12101"}; !reflect.DeepEqual(z.srv.pings, want) {
		t.Fatalf("pings %v", z.srv.pings)
	}
	z.srv.pings = nil
	// At 15 s, 2.9 s after a's last send (the ping at 12.1 s), the
	// NodeCreated notification wakes its loop: the next ping comes at
	// 12.1 + 6 - 1 = 17.1 s.
	z.call("b", func(env *sim.Env, c *Client) { c.Create(env, "/p", nil, Persistent, nil) })
	z.runTo(17200 * time.Millisecond)
	t.Logf("pings %v", z.srv.pings)
	// b created /p at 15 s: its next ping is 6 s after that.
	if want := []string{"a@17101"}; !reflect.DeepEqual(z.srv.pings, want) {
		t.Fatalf("pings %v, want %v", z.srv.pings, want)
	}
}

// A connection given up during a cut is closed on the server once the
// client is back, so its session has one connection.
func TestAbandonedConnectionClosed(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.runTo(time.Second)
	cutBoth(z.w, "a", "zk", true)
	z.runTo(12500 * time.Millisecond)
	cutBoth(z.w, "a", "zk", false)
	z.runTo(20 * time.Second)
	c := z.cli["a"].c
	if c.State() != Connected {
		t.Fatalf("state %v", c.State())
	}
	if n := len(z.srv.connsOf(c.SessionID())); n != 1 {
		t.Fatalf("%d connections for the session", n)
	}
}

// A server's host name reads back as its number; other hosts do not.
func TestHostNumber(t *testing.T) {
	if n, ok := HostNumber(HostName(3)); !ok || n != 3 {
		t.Fatalf("%s: %d %v", HostName(3), n, ok)
	}
	for _, h := range []string{"zookeeper-", "zookeeper-shell-1", "kafka-1", "zookeeper-2a", "zookeeper"} {
		if _, ok := HostNumber(h); ok {
			t.Errorf("%s read as a server", h)
		}
	}
}
