package cluster

import (
	"testing"
	"time"
)

// A crash leaves the partition down from the kill until the new leader
// starts serving: between broker.session.timeout.ms minus one heartbeat
// interval and the full timeout (plus metadata propagation). A controlled
// shutdown moves leadership before the broker exits: no outage.
func TestAvailabilityMeasuresCrashAndControlledShutdown(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "av", [][]int32{{2, 3}, {2, 3}}, nil)
	advance(t, c, time.Second)
	for _, r := range c.Availability().Report(c.World.Now()) {
		if r.Leader != 2 || r.Outages != 0 || r.Down {
			t.Fatalf("before any failure: %+v", r)
		}
	}
	if err := c.Kill(2, false); err != nil {
		t.Fatal(err)
	}
	killedAt := c.World.Now()
	advance(t, c, time.Second)
	if since, down := c.Availability().DownSince("av-0"); !down || since != killedAt {
		t.Fatalf("av-0 down=%v since %v, want down since the kill at %v", down, since, killedAt)
	}
	advance(t, c, 15*time.Second)
	for _, r := range c.Availability().Report(c.World.Now()) {
		if r.Leader != 3 || r.Outages != 1 || r.Down {
			t.Fatalf("after the failover: %+v", r)
		}
		if r.Total < 7*time.Second || r.Total > 9500*time.Millisecond {
			t.Errorf("%s was down %v, want between 7 s and 9.5 s", r.Partition, r.Total)
		}
	}

	// Start broker 2 again, hand leadership back, then stop broker 3.
	if err := c.Start(2); err != nil {
		t.Fatal(err)
	}
	advance(t, c, 5*time.Second)
	c.Availability().Reset(c.World.Now())
	if err := c.Stop(3); err != nil {
		t.Fatal(err)
	}
	advance(t, c, 5*time.Second)
	for _, r := range c.Availability().Report(c.World.Now()) {
		if r.Leader != 2 || r.Outages != 0 || r.Total != 0 {
			t.Fatalf("controlled shutdown of the leader: %+v, want no outage", r)
		}
	}
}
