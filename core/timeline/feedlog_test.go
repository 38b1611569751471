package timeline

import (
	"strings"
	"testing"
	"time"
)

// A lone voter asks for votes again and again, two feed entries a round;
// the feed keeps each loop's newest round, so the sentence saying why the
// consumer is stuck stays in view among the newest entries.
func TestFeedKeepsTheNewestRoundOfARetryLoop(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3", "broker kill 2", "broker kill 3")
	s.Do("kafka-console-consumer.sh --topic t --group g --timeout-ms 20000", nil)
	for s.Busy() {
		if _, err := s.Play(time.Second, 0); err != nil {
			t.Fatal(err)
		}
	}
	rounds, stuck := 0, -1
	f := s.Feed()
	for i, e := range f {
		if e.Key == "raft.election.backoff" {
			rounds++
		}
		if e.Key == "consumer.stuck.offsets-topic.no-controller" {
			stuck = i
		}
	}
	if rounds != 1 {
		t.Errorf("the feed holds %d rounds of node 1's elections, want the newest one", rounds)
	}
	if stuck < len(f)-5 {
		var keys []string
		for _, e := range f[max(0, len(f)-8):] {
			keys = append(keys, e.Key)
		}
		t.Errorf("why the consumer is stuck is not among the newest entries (index %d of %d): %s", stuck, len(f), strings.Join(keys, ", "))
	}
}
