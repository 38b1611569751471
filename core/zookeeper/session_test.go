package zookeeper

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// A killed client's session lives until its expiry bucket: then its
// ephemeral node goes and another client's exists watch fires.
func TestEphemeralGoesWhenKilledClientSessionExpires(t *testing.T) {
	z := newZKWorld(t, 1, "a", "b")
	var rc Code = -999
	z.call("a", func(env *sim.Env, c *Client) {
		c.Create(env, "/e", []byte("x"), Ephemeral, func(_ *sim.Env, code Code, _ string) { rc = code })
	})
	if rc != OK {
		t.Fatalf("create: %v", rc)
	}
	z.call("b", func(env *sim.Env, c *Client) {
		c.Exists(env, "/e", true, func(_ *sim.Env, code Code, _ Stat) { rc = code })
	})
	if rc != OK {
		t.Fatalf("exists: %v", rc)
	}
	z.runTo(10 * time.Second)
	if err := z.w.Kill("a", false); err != nil {
		t.Fatal(err)
	}
	z.runTo(10*time.Second + 5*time.Millisecond)
	session := z.cli["a"].c.SessionID()
	last := z.srv.lastFrom["a"].Millis()
	expiry, ok := z.srv.SessionExpiry(session)
	if !ok {
		t.Fatal("session gone at once")
	}
	// roundToNextInterval(lastTouch + 18000) with tickTime 3000.
	want := ((last+18000)/3000 + 1) * 3000
	if expiry != want || expiry%3000 != 0 {
		t.Fatalf("expiry %d, want %d (last touch %d)", expiry, want, last)
	}
	z.runTo(ms(expiry - 1))
	if _, err := z.srv.Tree().Exists("/e", NoWatch); err != nil {
		t.Fatalf("node gone before the session expired: %v", err)
	}
	for _, e := range z.cli["b"].events {
		if strings.Contains(e, "NodeDeleted") {
			t.Fatalf("early %s", e)
		}
	}
	z.runTo(ms(expiry + 1))
	if _, err := z.srv.Tree().Exists("/e", NoWatch); ErrCode(err) != NoNode {
		t.Fatalf("node still there: %v", err)
	}
	got := z.cli["b"].events
	wantEv := strconv.FormatInt(expiry+1, 10) + " WatchedEvent state:SyncConnected type:NodeDeleted path:/e"
	if got[len(got)-1] != wantEv {
		t.Fatalf("b's events %q, want last %q", got, wantEv)
	}
	if len(z.srv.Sessions()) != 1 {
		t.Fatalf("sessions %x", z.srv.Sessions())
	}
}

func cutBoth(w *sim.World, a, b string, on bool) {
	if on {
		w.Net().Cut(a, b)
		w.Net().Cut(b, a)
	} else {
		w.Net().Heal(a, b)
		w.Net().Heal(b, a)
	}
}

// A cut the client notices (past its 12 s read timeout) but that heals
// before the session's bucket keeps the session: Disconnected, then
// SyncConnected on the same session, and its ephemeral node stays.
func TestShortCutKeepsSession(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/e", nil, Ephemeral, nil) })
	session := z.cli["a"].c.SessionID()
	z.runTo(10 * time.Second)
	cutBoth(z.w, "a", "zk", true)
	z.runTo(19 * time.Second)
	if z.cli["a"].c.State() != Connecting {
		t.Fatalf("state %v after 9 s cut", z.cli["a"].c.State())
	}
	cutBoth(z.w, "a", "zk", false)
	z.runTo(25 * time.Second)
	t.Logf("events %q", z.cli["a"].events)
	c := z.cli["a"].c
	if c.State() != Connected || c.SessionID() != session {
		t.Fatalf("state %v session %x (was %x)", c.State(), c.SessionID(), session)
	}
	states := stateEvents(z.cli["a"].events)
	if strings.Join(states, ",") != "SyncConnected,Disconnected,SyncConnected" {
		t.Fatalf("events %q", z.cli["a"].events)
	}
	if _, err := z.srv.Tree().Exists("/e", NoWatch); err != nil {
		t.Fatalf("ephemeral lost: %v", err)
	}
}

// A cut past the session's expiry: the server closes the session (the
// node goes) and the reconnecting client is told Expired; its calls then
// fail with SESSIONEXPIRED.
func TestLongCutExpiresSession(t *testing.T) {
	z := newZKWorld(t, 1, "a")
	z.call("a", func(env *sim.Env, c *Client) { c.Create(env, "/e", nil, Ephemeral, nil) })
	z.runTo(10 * time.Second)
	cutBoth(z.w, "a", "zk", true)
	z.runTo(35 * time.Second)
	if _, err := z.srv.Tree().Exists("/e", NoWatch); ErrCode(err) != NoNode {
		t.Fatalf("ephemeral still there: %v", err)
	}
	cutBoth(z.w, "a", "zk", false)
	z.runTo(60 * time.Second)
	c := z.cli["a"].c
	if c.State() != Closed {
		t.Fatalf("state %v, events %q", c.State(), z.cli["a"].events)
	}
	states := stateEvents(z.cli["a"].events)
	if states[len(states)-1] != "Expired" || states[1] != "Disconnected" {
		t.Fatalf("events %q", z.cli["a"].events)
	}
	t.Logf("events %q", z.cli["a"].events)
	var rc Code
	z.call("a", func(env *sim.Env, c *Client) {
		c.GetData(env, "/", false, func(_ *sim.Env, code Code, _ []byte, _ Stat) { rc = code })
	})
	if rc != SessionExpired {
		t.Fatalf("after expiry: %v", rc)
	}
}

func stateEvents(events []string) []string {
	var out []string
	for _, e := range events {
		if strings.Contains(e, "type:None") {
			s := e[strings.Index(e, "state:")+len("state:"):]
			out = append(out, s[:strings.IndexByte(s, ' ')])
		}
	}
	return out
}
