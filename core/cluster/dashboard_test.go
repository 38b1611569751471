package cluster

import (
	"math"
	"reflect"
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
			if err := c.AdvanceTo(next); err != nil {
				t.Fatal(err)
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
		if !reflect.DeepEqual(a.Series[i], b.Series[i]) {
			t.Fatalf("metric %d: stepped %v, leaped %v", i, a.Series[i].Points, b.Series[i].Points)
		}
	}
	if v, _ := a.Series[dashboard.MessagesIn].At(sim.Time(0).Add(90 * time.Second)); v <= 0 {
		t.Fatalf("the messages-in rate after the produce is %v", v)
	}
	if v, _ := a.Series[dashboard.MessagesIn].At(sim.Time(0).Add(3 * time.Hour)); v != 0 || math.IsNaN(v) {
		t.Fatalf("the rate has not decayed to 0 after hours of idleness: %v", v)
	}
}
