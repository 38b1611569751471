package console

import (
	"testing"

	"kafkascope/core/sim"
)

// A dynamic broker config reaches the broker at once: a broker keeps the
// numbers it reads from its configs only until a config record changes
// them (broker.confInt). The log cleaner wakes every log.cleaner.backoff.ms
// (15 s by default); set cluster-wide to 2 s, each broker's cleaner thread
// wakes every 2 s.
func TestDynamicBrokerConfigReachesTheBroker(t *testing.T) {
	s := NewSession()
	s.Stepped = true // the cleaner's wake-ups are counted in the trace
	s.Exec("cluster create --brokers 3", nil)
	defer s.Cluster().Close()
	s.Exec("time advance 20s", nil)
	out := s.Exec("kafka-configs.sh --bootstrap-server kafka-1:9092 --alter --entity-type brokers --entity-default --add-config log.cleaner.backoff.ms=2000", nil)
	if len(out) != 1 || out[0] != "Completed updating default config for brokers in the cluster." {
		t.Fatalf("kafka-configs.sh: %q", out)
	}
	s.Exec("time advance 20s", nil) // the cleaner's current 15 s wait ends
	w := s.Cluster().World
	from := w.Trace().Count()
	s.Exec("time advance 10s", nil)
	wakes := 0
	for _, e := range w.Trace().Since(from) {
		if e.Kind == sim.TraceTimer && e.Host == "kafka-1" && e.Detail == "kafka-log-cleaner-thread-0" {
			wakes++
		}
	}
	if wakes < 4 || wakes > 6 {
		t.Fatalf("kafka-1's cleaner woke %d times in 10 s with log.cleaner.backoff.ms=2000, want 5", wakes)
	}
}
