package zookeeper

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// TestEnsembleChaos crashes, restarts and cuts servers at random (seeded)
// while a client writes, then heals everything: one leader, every server
// holds the same tree, and every write that was answered OK survived.
func TestEnsembleChaos(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { chaos(t, seed) })
	}
}

func chaos(t *testing.T, seed uint64) {
	z := newEnsemble(t, seed)
	c := z.client("a", "zookeeper-1", "zookeeper-2", "zookeeper-3")
	_ = c
	r := sim.NewRand(seed, "chaos")
	var acked []string
	hosts := []string{"zookeeper-1", "zookeeper-2", "zookeeper-3"}
	for step := 0; step < 60; step++ {
		path := fmt.Sprintf("/n%d", step)
		z.call("a", func(env *sim.Env, c *Client) {
			c.Submit(env, &Request{Type: OpCreate, Path: path, Mode: Persistent}, func(env *sim.Env, rep *Reply) {
				if rep.Err == OK {
					acked = append(acked, path)
				}
			})
		})
		h := hosts[r.Intn(3)]
		switch r.Intn(7) {
		case 0:
			_ = z.w.Kill(h, false)
		case 1:
			if !z.running(h) {
				z.restart(h)
			}
		case 2:
			o := hosts[r.Intn(3)]
			if o != h {
				z.w.Net().Cut(h, o)
				z.w.Net().Cut(o, h)
			}
		case 3:
			z.w.Net().HealAll()
		case 4:
			if o := hosts[r.Intn(3)]; o != h {
				z.w.Net().Cut(h, o) // one way
			}
		}
		z.runFor(time.Duration(r.Intn(20000)) * time.Millisecond)
	}
	z.w.Net().HealAll()
	for _, h := range hosts {
		if !z.running(h) {
			z.restart(h)
		}
	}
	z.runFor(150 * time.Second)
	leaders := 0
	for _, h := range hosts {
		s := z.srv[h]
		if !s.Serving() {
			t.Fatalf("%s not serving: %s", h, z.states())
		}
		if s.PeerState() == Leading {
			leaders++
		}
	}
	if leaders != 1 {
		t.Fatalf("leaders %d: %s", leaders, z.states())
	}
	ref := z.srv["zookeeper-1"].Tree()
	for _, h := range hosts[1:] {
		tr := z.srv[h].Tree()
		if !reflect.DeepEqual(tr.Paths(), ref.Paths()) || tr.LastZxid() != ref.LastZxid() ||
			!reflect.DeepEqual(z.srv[h].GlobalSessions(), z.srv["zookeeper-1"].GlobalSessions()) {
			t.Fatalf("%s differs: %s\n%v\n%v", h, z.states(), tr.Paths(), ref.Paths())
		}
		for _, p := range ref.Paths() {
			d1, st1, _ := ref.GetData(p, NoWatch)
			d2, st2, _ := tr.GetData(p, NoWatch)
			c1, _, _ := ref.GetChildren(p, NoWatch)
			c2, _, _ := tr.GetChildren(p, NoWatch)
			if string(d1) != string(d2) || st1 != st2 || !reflect.DeepEqual(c1, c2) {
				t.Fatalf("%s %s: %v %v", h, p, st1, st2)
			}
		}
	}
	for _, p := range acked {
		if !z.has("zookeeper-1", p) {
			t.Fatalf("acked %s lost: %s", p, z.states())
		}
	}
	t.Logf("acked %d of 60, %s", len(acked), z.states())
	if len(acked) == 0 {
		t.Fatalf("nothing acked")
	}
}
