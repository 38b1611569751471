package broker

import (
	"math/rand"
	"slices"
	"testing"

	"kafkascope/core/storage"
)

// A leader's follower states stay sorted by id whatever order they come
// in, get finds each, and keepOnly drops exactly those not listed.
func TestFollowerStatesStaySortedAndFindEach(t *testing.T) {
	var fs followerStates
	for _, id := range []int32{5, 2, 9, 1} {
		fs.add(&replicaState{id: id})
	}
	var ids []int32
	for _, st := range fs {
		ids = append(ids, st.id)
	}
	if !slices.Equal(ids, []int32{1, 2, 5, 9}) {
		t.Fatalf("ids %v", ids)
	}
	for _, id := range ids {
		if st := fs.get(id); st == nil || st.id != id {
			t.Fatalf("get(%d) = %v", id, st)
		}
	}
	if fs.get(3) != nil {
		t.Fatal("get(3) found a follower never added")
	}
	fs.keepOnly([]int32{9, 2, 7})
	if len(fs) != 2 || fs[0].id != 2 || fs[1].id != 9 {
		t.Fatalf("after keepOnly: %v", fs)
	}
}

// byTopic holds exactly the broker's partitions, each at its index, with
// no trailing nils and no empty topic, through any order of adds and
// removals (setPartition).
func TestTopicPartitionsFollowSetPartition(t *testing.T) {
	b := &Broker{partitions: map[storage.TopicPartition]*Partition{}, byTopic: map[string][]*Partition{}}
	rnd := rand.New(rand.NewSource(1))
	topics := []string{"a", "b", "c"}
	for i := 0; i < 2000; i++ {
		key := storage.TopicPartition{Topic: topics[rnd.Intn(len(topics))], Partition: int32(rnd.Intn(12))}
		if rnd.Intn(2) == 0 {
			b.setPartition(key, &Partition{tp: key})
		} else {
			b.setPartition(key, nil)
		}
		for _, name := range topics {
			ps := b.topicPartitions(name)
			if _, ok := b.byTopic[name]; ok && len(ps) == 0 {
				t.Fatalf("step %d: topic %s kept with no partition", i, name)
			}
			if len(ps) > 0 && ps[len(ps)-1] == nil {
				t.Fatalf("step %d: topic %s ends in a nil", i, name)
			}
			for idx := int32(-1); idx <= 13; idx++ {
				if got, want := partitionAt(ps, idx), b.partitions[storage.TopicPartition{Topic: name, Partition: idx}]; got != want {
					t.Fatalf("step %d: %s-%d: byTopic has %v, partitions %v", i, name, idx, got, want)
				}
			}
		}
	}
}
