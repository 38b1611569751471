package console

import (
	"strconv"
	"strings"
	"testing"
)

// metricTable reads a --print-metrics table into name → value.
func metricTable(t *testing.T, out []string) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for _, l := range out {
		name, value, ok := strings.Cut(l, " : ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		m[strings.TrimSpace(name)] = v
	}
	return m
}

// The two clients' metrics agree with each other and with what the tools
// counted, through their own code paths: the bytes the consumer fetched
// are the batches the producer sent (nothing was retried), the records it
// read are the producer's records and the tool's count, every partition's
// lag ends at 0, and its one rebalance took the first join's
// group.initial.rebalance.delay.ms and more.
func TestClientMetricsAgree(t *testing.T) {
	s := NewSession()
	s.Exec("cluster create --brokers 3 --version 3.8", nil)
	defer s.Cluster().Close()
	s.Exec("kafka-topics.sh --create --topic m --partitions 3 --replication-factor 3", nil)
	prod := metricTable(t, s.Exec("kafka-producer-perf-test.sh --topic m --num-records 2000 --record-size 120 --throughput 500 --producer-props acks=all --print-metrics", nil))
	cons := s.Exec("kafka-consumer-perf-test.sh --topic m --messages 2000 --group g --print-metrics", nil)
	got := metricTable(t, cons)
	const p, c = "producer-metrics:", "consumer-fetch-manager-metrics:"
	const pid, cid = ":{client-id=perf-producer-client}", ":{client-id=perf-consumer-client}"
	if prod[p+"record-retry-total"+pid] != 0 || prod[p+"record-send-total"+pid] != 2000 {
		t.Fatalf("the producer retried or lost records: %v", prod)
	}
	if sent, fetched := prod["producer-topic-metrics:byte-total:{client-id=perf-producer-client, topic=m}"], got[c+"bytes-consumed-total"+cid]; sent != fetched || sent == 0 {
		t.Errorf("the producer sent %v bytes of batches, the consumer fetched %v", sent, fetched)
	}
	if n := got[c+"records-consumed-total"+cid]; n != 2000 {
		t.Errorf("records-consumed-total %v, want 2000", n)
	}
	stats := strings.Split(cons[1], ", ")
	if len(stats) != 10 || stats[4] != "2000" {
		t.Fatalf("the tool's statistics: %q", cons[1])
	}
	for part := range 3 {
		key := c + "records-lag:{client-id=perf-consumer-client, topic=m, partition=" + strconv.Itoa(part) + "}"
		if v, ok := got[key]; !ok || v != 0 {
			t.Errorf("%s = %v (present %v), want 0 once read", key, v, ok)
		}
	}
	const co, total = "consumer-coordinator-metrics:", "rebalance-total"
	rebalance := got[co+"rebalance-latency-max"+cid]
	if got[co+total+cid] != 1 || rebalance < 3000 {
		t.Errorf("rebalances %v, the longest %v ms; want one of 3 s or more", got[co+total+cid], rebalance)
	}
	if join, _ := strconv.Atoi(stats[6]); float64(join) < rebalance {
		t.Errorf("the tool's rebalance.time.ms %d is less than the rebalance %v ms", join, rebalance)
	}
}
