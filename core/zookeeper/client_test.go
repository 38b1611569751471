package zookeeper

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// setData with a stale version gets BADVERSION; the right one moves it.
func TestConditionalSetDataBadVersion(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	var rcs []Code
	var vers []int32
	record := func(_ *sim.Env, rc Code, st Stat) { rcs, vers = append(rcs, rc), append(vers, st.Version) }
	z.call("a", func(env *sim.Env, c *Client) {
		c.Create(env, "/v", []byte("0"), Persistent, nil)
		c.SetData(env, "/v", []byte("1"), 0, record)
		c.SetData(env, "/v", []byte("2"), 0, record)
		c.SetData(env, "/v", []byte("3"), -1, record)
	})
	if !reflect.DeepEqual(rcs, []Code{OK, BadVersion, OK}) || vers[0] != 1 || vers[2] != 2 {
		t.Fatalf("rcs %v versions %v", rcs, vers)
	}
	data, _, _ := z.srv.Tree().GetData("/v", NoWatch)
	if string(data) != "3" {
		t.Fatalf("data %q", data)
	}
}

// A watch fires once: a second change is not told until it is set again.
func TestWatchesAreOneShot(t *testing.T) {
	z := newZKWorld(t, 1, "a", "b")
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/w", nil, Persistent, nil) })
	z.call("b", func(env *sim.Env, c *Client) {
		c.GetData(env, "/w", true, nil)
		c.GetChildren(env, "/w", true, nil)
	})
	z.call("a", func(env *sim.Env, c *Client) {
		c.SetData(env, "/w", []byte("1"), -1, nil)
		c.SetData(env, "/w", []byte("2"), -1, nil)
		c.Create(env, "/w/c", nil, Persistent, nil)
		c.Create(env, "/w/d", nil, Persistent, nil)
	})
	got := z.cli["b"].events[1:]
	want := []string{
		"122 WatchedEvent state:SyncConnected type:NodeDataChanged path:/w",
		"122 WatchedEvent state:SyncConnected type:NodeChildrenChanged path:/w",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q", got)
	}
	if z.srv.Tree().WatchCount() != 0 {
		t.Fatalf("watches left: %d", z.srv.Tree().WatchCount())
	}
}

// The exists watch on a missing node fires NodeCreated; a closed
// connection's watches go with it (the client process died).
func TestExistsWatchAndConnectionClose(t *testing.T) {
	z := newZKWorld(t, 1, "a", "b")
	var rc Code
	z.call("b", func(env *sim.Env, c *Client) {
		c.Exists(env, "/n", true, func(_ *sim.Env, code Code, _ Stat) { rc = code })
	})
	if rc != NoNode || z.srv.Tree().WatchCount() != 1 {
		t.Fatalf("rc %v watches %d", rc, z.srv.Tree().WatchCount())
	}
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/n", nil, Persistent, nil) })
	if got := z.cli["b"].events; got[len(got)-1] != "112 WatchedEvent state:SyncConnected type:NodeCreated path:/n" {
		t.Fatalf("events %q", got)
	}
	z.call("b", func(env *sim.Env, c *Client) { c.GetData(env, "/n", true, nil) })
	if z.srv.Tree().WatchCount() != 1 {
		t.Fatalf("watches %d", z.srv.Tree().WatchCount())
	}
	if err := z.w.Kill("b", false); err != nil {
		t.Fatal(err)
	}
	z.runTo(200 * time.Millisecond)
	if z.srv.Tree().WatchCount() != 0 {
		t.Fatalf("a dead connection's watch stayed: %d", z.srv.Tree().WatchCount())
	}
	if len(z.srv.Sessions()) != 2 {
		t.Fatalf("sessions %x: a dead connection's session lives until it expires", z.srv.Sessions())
	}
}

// closeSession: the ephemerals go at once; later calls get SESSIONEXPIRED.
func TestClientCloseSession(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/e", nil, EphemeralSequential, nil) })
	closed := false
	z.call("a", func(env *sim.Env, c *Client) { c.Close(env, func(*sim.Env) { closed = true }) })
	if !closed || z.cli["a"].c.State() != Closed || len(z.srv.Sessions()) != 0 {
		t.Fatalf("closed %v state %v sessions %x", closed, z.cli["a"].c.State(), z.srv.Sessions())
	}
	if kids, _, _ := z.srv.Tree().GetChildren("/", NoWatch); len(kids) != 1 {
		t.Fatalf("children %q", kids)
	}
	var rc Code
	z.call("a", func(env *sim.Env, c *Client) {
		c.Exists(env, "/", false, func(_ *sim.Env, code Code, _ Stat) { rc = code })
	})
	if rc != SessionExpired {
		t.Fatalf("rc %v", rc)
	}
}

// A multi's result is its steps' results; the first failing code is rc.
func TestMultiOverTheWire(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	var rc Code
	var res []OpResult
	z.call("a", func(env *sim.Env, c *Client) {
		c.Multi(env, []Op{CreateOp("/m", nil, Persistent), CheckOp("/m", 5)}, func(_ *sim.Env, code Code, r []OpResult) { rc, res = code, r })
	})
	if rc != BadVersion || len(res) != 2 || res[1].Err != BadVersion {
		t.Fatalf("rc %v results %+v", rc, res)
	}
	if _, err := z.srv.Tree().Exists("/m", NoWatch); ErrCode(err) != NoNode {
		t.Fatalf("a failed multi created /m: %v", err)
	}
}

// Requests made while disconnected wait for the reconnect; those in
// flight when the connection is lost fail with CONNECTIONLOSS.
func TestConnectionLossAndQueuedRequests(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.runTo(time.Second)
	cutBoth(z.w, "a", "zk", true)
	var first, second Code = 1, 1
	z.call("a", func(env *sim.Env, c *Client) {
		c.Create(env, "/lost", nil, Persistent, func(_ *sim.Env, rc Code, _ string) { first = rc })
	})
	// The read timeout (12 s since the last receive, at 2 ms) passes:
	// Disconnected at 12.002 s; the reconnect waits 1 s and up to 1 s more.
	z.runTo(12500 * time.Millisecond)
	if first != ConnectionLoss || z.cli["a"].c.State() != Connecting {
		t.Fatalf("first %v state %v", first, z.cli["a"].c.State())
	}
	z.call("a", func(env *sim.Env, c *Client) {
		c.Create(env, "/queued", nil, Persistent, func(_ *sim.Env, rc Code, _ string) { second = rc })
	})
	cutBoth(z.w, "a", "zk", false)
	z.runTo(20 * time.Second)
	if second != OK {
		t.Fatalf("queued create: %v, events %q", second, z.cli["a"].events)
	}
}

// A request submitted again from the CONNECTIONLOSS callback of one in
// flight (as Kafka's ZooKeeperClient resends) waits for the next
// connection: the client is already Connecting when the callbacks run.
func TestResubmitFromConnectionLossCallback(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.runTo(time.Second)
	cutBoth(z.w, "a", "zk", true)
	var codes []Code
	z.call("a", func(env *sim.Env, c *Client) {
		var create func(env *sim.Env)
		create = func(env *sim.Env) {
			c.Create(env, "/again", nil, Persistent, func(env *sim.Env, rc Code, _ string) {
				codes = append(codes, rc)
				if rc == ConnectionLoss {
					if c.State() != Connecting {
						t.Errorf("state %v in the CONNECTIONLOSS callback", c.State())
					}
					create(env)
				}
			})
		}
		create(env)
	})
	z.runTo(12500 * time.Millisecond)
	cutBoth(z.w, "a", "zk", false)
	z.runTo(20 * time.Second)
	if !slices.Equal(codes, []Code{ConnectionLoss, OK}) {
		t.Fatalf("codes %v, events %q", codes, z.cli["a"].events)
	}
}

// A watch survives a reconnect (setWatches), and what changed while the
// client was away fires as soon as it is back.
func TestWatchSurvivesReconnect(t *testing.T) {
	z := newZKWorld(t, 1, "a", "b")
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/s", nil, Persistent, nil) })
	z.call("b", func(env *sim.Env, c *Client) { c.GetData(env, "/s", true, nil) })
	z.runTo(time.Second)
	cutBoth(z.w, "b", "zk", true)
	z.call("a", func(env *sim.Env, c *Client) { c.SetData(env, "/s", []byte("x"), -1, nil) })
	z.runTo(12500 * time.Millisecond) // b's read timeout passed
	cutBoth(z.w, "b", "zk", false)
	z.runTo(20 * time.Second)
	states := stateEvents(z.cli["b"].events)
	last := z.cli["b"].events[len(z.cli["b"].events)-1]
	if len(states) != 3 || states[2] != "SyncConnected" || last[len(last)-len("type:NodeDataChanged path:/s"):] != "type:NodeDataChanged path:/s" {
		t.Fatalf("events %q", z.cli["b"].events)
	}
}

// The same seed gives the same run, byte for byte.
func TestSameSeedSameTrace(t *testing.T) {
	run := func(seed uint64) (uint64, []string) {
		z := newZKWorld(t, seed, "a", "b")
		z.w.Trace().HashContent(true)
		z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/e", nil, Ephemeral, nil) })
		z.call("b", func(env *sim.Env, c *Client) { c.Exists(env, "/e", true, nil) })
		z.runTo(5 * time.Second)
		cutBoth(z.w, "a", "zk", true)
		z.runTo(50 * time.Second)
		cutBoth(z.w, "a", "zk", false)
		z.runTo(70 * time.Second)
		return z.w.Trace().Hash(), append(z.cli["a"].events, z.cli["b"].events...)
	}
	h1, e1 := run(7)
	h2, e2 := run(7)
	if h1 != h2 || !reflect.DeepEqual(e1, e2) {
		t.Fatalf("same seed, different runs: %x %x\n%q\n%q", h1, h2, e1, e2)
	}
}

// A killed server resets the connection: what was in flight fails with
// CONNECTIONLOSS and the client keeps trying; a restarted standalone
// server (no snapshot modelled) does not know the session: Expired.
func TestServerKilledThenRestarted(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	if err := z.w.Kill("zk", false); err != nil {
		t.Fatal(err)
	}
	var rc Code = 1
	z.call("a", func(env *sim.Env, c *Client) {
		c.GetData(env, "/", false, func(_ *sim.Env, code Code, _ []byte, _ Stat) { rc = code })
	})
	if rc != ConnectionLoss {
		t.Fatalf("rc %v", rc)
	}
	z.runTo(5 * time.Second)
	if z.cli["a"].c.State() != Connecting {
		t.Fatalf("state %v", z.cli["a"].c.State())
	}
	if err := z.w.Spawn("zk", NewServer(ServerConfig{ID: 1})); err != nil {
		t.Fatal(err)
	}
	z.runTo(10 * time.Second)
	states := stateEvents(z.cli["a"].events)
	if states[len(states)-1] != "Expired" || z.cli["a"].c.State() != Closed {
		t.Fatalf("events %q", z.cli["a"].events)
	}
}
