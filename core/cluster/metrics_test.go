package cluster

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/config"
)

// ReplicaManager's gauges summarise the partitions a broker hosts; each is
// compared here with the same count taken from the controller's image
// (the committed state), through a follower's loss and a second one.
func TestReplicaManagerGaugesSummariseTheReplicas(t *testing.T) {
	c := newCluster(t, config.Static{"min.insync.replicas": "2"})
	createTopic(t, c, "t", 6, 3)
	check := func(when string, wantURP, wantUnderMin int) {
		t.Helper()
		img := c.ControllerImage()
		urp, under := 0, 0
		for _, id := range c.NodeIDs() {
			if c.State(id) != NodeRunning {
				continue
			}
			var want broker.ReplicaManagerGauges
			for _, st := range img.Topics["t"].Partitions {
				if !slices.Contains(st.Replicas, id) {
					continue
				}
				want.PartitionCount++
				if st.Leader != id {
					continue
				}
				want.LeaderCount++
				minISR := min(2, len(st.Replicas))
				if len(st.ISR) < len(st.Replicas) {
					want.UnderReplicatedPartitions++
				}
				if len(st.ISR) < minISR {
					want.UnderMinIsrPartitionCount++
				}
				if len(st.ISR) == minISR {
					want.AtMinIsrPartitionCount++
				}
			}
			got := c.Node(id).Broker.ReplicaManagerGauges()
			got.PartitionCount -= internalPartitions(c, id)
			if got != want {
				t.Fatalf("%s: broker %d's gauges %+v, the image says %+v", when, id, got, want)
			}
			urp += got.UnderReplicatedPartitions
			under += got.UnderMinIsrPartitionCount
		}
		if urp != wantURP || under != wantUnderMin {
			t.Fatalf("%s: UnderReplicatedPartitions %d and UnderMinIsrPartitionCount %d over the cluster, want %d and %d", when, urp, under, wantURP, wantUnderMin)
		}
	}
	check("all in sync", 0, 0)
	if err := c.Kill(3, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(40 * time.Second); err != nil {
		t.Fatal(err)
	}
	check("broker 3 down", 6, 0)
	if err := c.Kill(2, false); err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(40 * time.Second); err != nil {
		t.Fatal(err)
	}
	check("brokers 2 and 3 down", 6, 6)
}

// internalPartitions counts the partitions of internal topics broker id
// hosts (none in this test's cluster unless a coordinator created them).
func internalPartitions(c *Cluster, id int32) int {
	n := 0
	for _, p := range c.Node(id).Broker.Partitions() {
		if p.TopicPartition().Topic != "t" {
			n++
		}
	}
	return n
}
