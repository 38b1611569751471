package console

import (
	"strings"
	"testing"
)

// BenchmarkManyPartitionsSend is the browser benchmark's heaviest
// workload (issue 15, goal 3) natively: a topic of 1000 partitions (the
// limit), replication factor 3, and 100,000 records of 100 bytes sent to
// it over 5 simulated seconds by kafka-producer-perf-test.sh. Every
// follower fetch names all of a broker's partitions of the topic, so the
// fetch paths' cost per partition is what this measures.
func BenchmarkManyPartitionsSend(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := NewSession()
		s.Exec("cluster create", nil)
		if out := s.Exec("kafka-topics.sh --create --topic big --partitions 1000 --replication-factor 3", nil); len(out) != 1 || out[0] != "Created topic big." {
			b.Fatalf("creating big: %q", out)
		}
		b.StartTimer()
		out := s.Exec("kafka-producer-perf-test.sh --topic big --num-records 100000 --throughput 20000 --record-size 100 --producer-props bootstrap.servers=kafka-1:9092", nil)
		b.StopTimer()
		if len(out) == 0 || !strings.Contains(out[len(out)-1], "100000 records sent") {
			b.Fatalf("perf test: %q", out)
		}
		s.Cluster().Close()
	}
}
