package timeline

import (
	"fmt"
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

// The feed shows its newest MaxFeed entries; an entry keeps its place
// (FeedBase plus its index) while newer ones push older ones out, and
// FeedGen changes with every change.
func TestFeedKeepsPlaces(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3")
	gen := s.FeedLog().FeedGen()
	play(t, s, "kafka-topics.sh --create --topic t0 --partitions 1 --replication-factor 3")
	if s.FeedLog().FeedGen() == gen {
		t.Fatal("FeedGen did not change as events arrived")
	}
	placeOf := func(text string) int {
		f := s.Feed()
		for i := len(f) - 1; i >= 0; i-- {
			if f[i].Text("en") == text {
				return s.FeedLog().FeedBase() + i
			}
		}
		return -1
	}
	var mark string
	for i := 1; len(s.Feed()) < MaxFeed || s.FeedLog().FeedBase() == 0; i++ {
		play(t, s, fmt.Sprintf("kafka-topics.sh --create --topic t%d --partitions 8 --replication-factor 3", i))
		if i == 3 {
			f := s.Feed()
			mark = f[len(f)-1].Text("en")
		}
		if i > 400 {
			t.Fatal("the feed never filled")
		}
	}
	if len(s.Feed()) != MaxFeed {
		t.Fatalf("the feed shows %d entries, want MaxFeed (%d)", len(s.Feed()), MaxFeed)
	}
	place := placeOf(mark)
	play(t, s, "kafka-topics.sh --create --topic more --partitions 8 --replication-factor 3")
	if got := placeOf(mark); place >= 0 && got != place {
		t.Fatalf("%q moved from place %d to %d", mark, place, got)
	}
}
