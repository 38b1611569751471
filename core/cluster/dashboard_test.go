package cluster

import (
	"math"
	"testing"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/dashboard"
	"kafkascope/core/sim"
)

// The dashboard's history holds, at each instant, what the nodes' gauges
// read then, summed over the running brokers; and once each phase has
// settled, that equals the controller image's count: under-replicated
// partitions are those whose ISR is smaller than their replicas, under
// min ISR those whose ISR is below min.insync.replicas.
func TestDashboardSummarisesTheState(t *testing.T) {
	c, err := New(Config{Brokers: 3, Controllers: 1, Seed: 1, Stepped: true, Dashboard: true, Static: config.Static{"min.insync.replicas": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	createTopic(t, c, "t", 6, 3)
	d := c.Dashboard()
	gauges := func() (urp, underMin int) {
		for _, id := range c.NodeIDs() {
			if c.State(id) == NodeRunning {
				g := c.Node(id).Broker.ReplicaManagerGauges()
				urp += g.UnderReplicatedPartitions
				underMin += g.UnderMinIsrPartitionCount
			}
		}
		return
	}
	image := func() (urp, underMin int) {
		for _, st := range c.ControllerImage().Topics["t"].Partitions {
			if len(st.ISR) < len(st.Replicas) {
				urp++
			}
			if len(st.ISR) < 2 {
				underMin++
			}
		}
		return
	}
	dash := func(at sim.Time) (int, int) {
		urp, ok1 := d.Series[dashboard.UnderReplicated].At(at)
		under, ok2 := d.Series[dashboard.UnderMinIsr].At(at)
		if !ok1 || !ok2 {
			t.Fatalf("at %v: no sample", at)
		}
		return int(urp), int(under)
	}
	phase := func(name string, d time.Duration, wantURP, wantUnder int) {
		t.Helper()
		end := c.World.Now().Add(d)
		for {
			// The next whole second is a sampling instant: stop just
			// before it, read the gauges, then let it pass.
			next := sim.Time((time.Duration(c.World.Now())/time.Second + 1) * time.Second)
			if next > end {
				break
			}
			if err := c.AdvanceTo(next - 1); err != nil {
				t.Fatal(err)
			}
			u, m := gauges()
			own := map[int32]int{}
			for _, id := range c.NodeIDs() {
				if c.State(id) == NodeRunning {
					own[id] = c.Node(id).Broker.ReplicaManagerGauges().UnderReplicatedPartitions
				}
			}
			if err := c.AdvanceTo(next); err != nil {
				t.Fatal(err)
			}
			for _, bt := range c.Dashboard().Brokers {
				got, ok := bt.Series[dashboard.UnderReplicated].At(next)
				want, running := own[bt.ID]
				if ok != running || running && int(got) != want {
					t.Fatalf("%s, at %v: broker %d's own URP %v (value %v), its gauge %d (running %v)", name, next, bt.ID, got, ok, want, running)
				}
			}
			if du, dm := dash(next); du != u || dm != m {
				t.Fatalf("%s, at %v: dashboard URP %d, under-min-ISR %d; the brokers' gauges %d, %d", name, next, du, dm, u, m)
			}
			if ac, _ := c.Dashboard().Series[dashboard.ActiveControllers].At(next); ac != 1 {
				t.Fatalf("%s, at %v: ActiveControllerCount sums to %v", name, next, ac)
			}
		}
		u, m := dash(c.World.Now())
		iu, im := image()
		if u != iu || m != im || u != wantURP || m != wantUnder {
			t.Fatalf("%s, settled: dashboard URP %d, under-min-ISR %d; the image counts %d, %d; want %d, %d", name, u, m, iu, im, wantURP, wantUnder)
		}
	}
	phase("healthy", 5*time.Second, 0, 0)
	if err := c.Kill(3, false); err != nil {
		t.Fatal(err)
	}
	phase("broker 3 down", 30*time.Second, 6, 0)
	if err := c.Kill(2, false); err != nil {
		t.Fatal(err)
	}
	phase("brokers 2 and 3 down", 30*time.Second, 6, 6)
}

// Sampling adds no event and changes nothing: a stepped run and a leaped
// one keep the same history, and a leap's idle span is sampled with the
// moving averages decaying in closed form.
func TestDashboardLeapMatchesSteps(t *testing.T) {
	run := func(stepped bool) *dashboard.Board {
		c, err := New(Config{Brokers: 3, Controllers: 3, Seed: 7, Stepped: stepped, Dashboard: true})
		if err != nil {
			t.Fatal(err)
		}
		createTopic(t, c, "t", 3, 3)
		produce(t, c, "t", -1, "a", "b", "c", "d", "e", "f")
		for _, f := range []func() error{
			func() error { return c.Advance(20 * time.Minute) },
			func() error { return c.Kill(2, false) },
			func() error { return c.Advance(3 * time.Minute) },
			func() error { return c.Start(2) },
			func() error { return c.Advance(3 * time.Hour) },
		} {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}
		return c.Dashboard()
	}
	a, b := run(true), run(false)
	for i := range a.Series {
		if !sameSeries(a.Series[i], b.Series[i]) {
			t.Fatalf("metric %d: stepped %v, leaped %v", i, a.Series[i].Points, b.Series[i].Points)
		}
	}
	if len(a.Brokers) != 3 || len(b.Brokers) != 3 {
		t.Fatalf("broker tracks: %d stepped, %d leaped", len(a.Brokers), len(b.Brokers))
	}
	for k := range a.Brokers {
		for i := range a.Brokers[k].Series {
			if !sameSeries(a.Brokers[k].Series[i], b.Brokers[k].Series[i]) {
				t.Fatalf("broker %d, metric %d: stepped %v, leaped %v", a.Brokers[k].ID, i, a.Brokers[k].Series[i].Points, b.Brokers[k].Series[i].Points)
			}
		}
	}
	// Broker 2 was down for three minutes: a gap in its own history.
	if _, ok := a.Brokers[1].Series[dashboard.UnderReplicated].At(sim.Time(0).Add(21 * time.Minute)); ok {
		t.Error("broker 2's history has a value while it was down")
	}
	if v, _ := a.Series[dashboard.MessagesIn].At(sim.Time(0).Add(90 * time.Second)); v <= 0 {
		t.Fatalf("the messages-in rate after the produce is %v", v)
	}
	if v, _ := a.Series[dashboard.MessagesIn].At(sim.Time(0).Add(3 * time.Hour)); v != 0 || math.IsNaN(v) {
		t.Fatalf("the rate has not decayed to 0 after hours of idleness: %v", v)
	}
}

// sameSeries: the same points, a gap (NaN) matching a gap.
func sameSeries(a, b dashboard.Series) bool {
	if len(a.Points) != len(b.Points) {
		return false
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.T != q.T || p.V != q.V && !(math.IsNaN(p.V) && math.IsNaN(q.V)) {
			return false
		}
	}
	return true
}
