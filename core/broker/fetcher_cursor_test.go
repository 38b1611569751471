package broker

import (
	"math/rand"
	"slices"
	"testing"

	"kafkascope/core/storage"
)

// The cursor finds what a lookup in parts finds, for keys in the sorted
// order, out of it, absent, and after the fetcher stopped fetching some
// partitions in the middle of a walk.
func TestStateCursorFindsWhatPartsHolds(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for round := 0; round < 300; round++ {
		f := &fetcher{parts: map[storage.TopicPartition]*fetchState{}}
		var keys []storage.TopicPartition
		for _, topic := range []string{"a", "b", "c"} {
			for i := int32(0); i < 8; i++ {
				key := storage.TopicPartition{Topic: topic, Partition: i}
				keys = append(keys, key)
				if rnd.Intn(3) > 0 {
					f.parts[key] = &fetchState{p: &Partition{tp: key}}
				}
			}
		}
		// A response's partitions: mostly in order, some dropped, a
		// few swapped.
		var asked []storage.TopicPartition
		for _, k := range keys {
			if rnd.Intn(4) > 0 {
				asked = append(asked, k)
			}
		}
		for i := 0; i+1 < len(asked); i++ {
			if rnd.Intn(10) == 0 && asked[i].Topic == asked[i+1].Topic {
				asked[i], asked[i+1] = asked[i+1], asked[i]
			}
		}
		var c stateCursor
		c.sorted = f.sortedParts()
		topic := ""
		for i, key := range asked {
			if key.Topic != topic {
				topic = key.Topic
				c.seekTopic(topic)
			}
			if rnd.Intn(20) == 0 { // handling one stopped fetching another
				victim := keys[rnd.Intn(len(keys))]
				if _, ok := f.parts[victim]; ok {
					delete(f.parts, victim)
					f.sorted = nil
				}
			}
			if got, want := c.find(f, key), f.parts[key]; got != want {
				t.Fatalf("round %d, key %d (%v) of %v: cursor found %v, parts holds %v", round, i, key, asked, got, want)
			}
		}
		if slices.ContainsFunc(c.sorted, func(fs *fetchState) bool { return fs == nil }) {
			t.Fatal("a nil state")
		}
	}
}
