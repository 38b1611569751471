package cluster

import (
	"testing"
	"time"

	"kafkascope/core/jmx"
)

// attr is the attribute of the MBean named name (false: absent).
func attr(beans []jmx.MBean, name, attribute string) (string, bool) {
	for _, b := range beans {
		if b.Name.String() == name {
			for _, a := range b.Attrs {
				if a.Name == attribute {
					return a.Value, true
				}
			}
		}
	}
	return "", false
}

// Kafka 2.8's controller metrics on every broker: ActiveControllerCount
// is 1 on the controller broker alone; its gauges count its context (the
// others read 0); a broker's death is a BrokerChange event, timed by
// LeaderElectionRateAndTimeMs; an unclean election marks
// UncleanLeaderElectionsPerSec.
func TestZkControllerMetrics(t *testing.T) {
	c := newZkCluster(t, 3, 1)
	if err := c.CreateTopic("admin", "t", 3, 2, nil, nil); err != nil {
		t.Fatal(err)
	}
	idle(c, 5*time.Second)
	ctl := c.ZkController().ActiveID()
	const kc, cs = "kafka.controller:type=KafkaController,name=", "kafka.controller:type=ControllerStats,name="
	count := func(id int32, name, attribute string) string {
		v, ok := attr(c.MBeans(id), name, attribute)
		if !ok {
			t.Fatalf("broker %d has no %s %s", id, name, attribute)
		}
		return v
	}
	for _, id := range c.NodeIDs() {
		want, parts := "0", "0"
		if id == ctl {
			want, parts = "1", "3"
		}
		if got := count(id, kc+"ActiveControllerCount", "Value"); got != want {
			t.Errorf("broker %d ActiveControllerCount %s, want %s", id, got, want)
		}
		if got := count(id, kc+"GlobalPartitionCount", "Value"); got != parts {
			t.Errorf("broker %d GlobalPartitionCount %s, want %s", id, got, parts)
		}
	}
	before := count(ctl, cs+"LeaderElectionRateAndTimeMs", "Count")
	victim := int32(1)
	if victim == ctl {
		victim = 2
	}
	if err := c.Kill(victim, false); err != nil {
		t.Fatal(err)
	}
	idle(c, 25*time.Second)
	if after := count(ctl, cs+"LeaderElectionRateAndTimeMs", "Count"); after == before {
		t.Errorf("no BrokerChange timed after broker %d died (Count %s)", victim, after)
	}
	if got := count(ctl, cs+"UncleanLeaderElectionsPerSec", "Count"); got != "0" {
		t.Errorf("UncleanLeaderElectionsPerSec %s before any unclean election", got)
	}
	if got := count(ctl, kc+"OfflinePartitionsCount", "Value"); got != "0" {
		t.Errorf("OfflinePartitionsCount %s with rf 2 and one broker down", got)
	}
}
