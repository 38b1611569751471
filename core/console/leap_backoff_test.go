package console

import "testing"

// A cluster with a producer finds no span to leap, search after search:
// the searches back off (cluster.busyBackoff, to 3.2 s of virtual time)
// instead of coming every 50 ms, and the cluster leaps again once the
// producer is done.
func TestBusyClusterSearchesBackOff(t *testing.T) {
	s := NewSession()
	s.Exec("cluster create", nil)
	c := s.Cluster()
	defer c.Close()
	s.Exec("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	s.Exec("kafka-verifiable-producer.sh --bootstrap-server kafka-1:9092 --topic t --throughput 4 --max-messages 240 &", nil)
	searches := c.LeapSearches()
	s.Exec("time advance 60s", nil)
	if n := c.LeapSearches() - searches; n > 60 {
		t.Fatalf("%d searches for a span in a minute of a producer sending four records a second", n)
	}
	leaps := c.World.Leaps()
	s.Exec("time advance 10m", nil)
	if c.World.Leaps() == leaps {
		t.Fatal("no leap in ten idle minutes after the producer finished")
	}
}
