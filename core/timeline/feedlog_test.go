package timeline

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A lone voter asks for pre-votes again and again, two feed entries a round;
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
	// Kafka 4.3's lone voter asks in pre-votes (a prospective round, then
	// back to following): one entry of each is kept.
	rounds := map[string]int{}
	stuck := -1
	f := s.Feed()
	for i, e := range f {
		switch e.Key {
		case "raft.transition.prospective", "raft.transition.prevote-lost", "raft.transition.candidate", "raft.election.backoff":
			if e.Fields["node"] == "1" {
				rounds[e.Key]++
			}
		}
		if e.Key == "consumer.stuck.offsets-topic.no-controller" {
			stuck = i
		}
	}
	if rounds["raft.transition.prospective"] != 1 || rounds["raft.transition.prevote-lost"] != 1 || len(rounds) != 2 {
		t.Errorf("the feed holds node 1's election rounds %v, want the newest pre-vote round only", rounds)
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
