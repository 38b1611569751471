package broker

import "slices"

// followerStates is a leader's view of its followers (Kafka's
// Partition.remoteReplicasMap): one replicaState a follower, sorted by
// broker id. A partition has a few replicas and the fetch paths look one
// up for every partition of every fetch: a slice scan, where a map hashed
// the id and every range over it drew a random start (a tenth of sending
// to a 1000-partition topic went to those maps).
//
// Invariant: ids are distinct and increasing.
type followerStates []*replicaState

// get is follower id's state, or nil.
func (fs followerStates) get(id int32) *replicaState {
	for _, st := range fs {
		if st.id == id {
			return st
		}
	}
	return nil
}

// add puts st in its place; a follower st.id must not be there yet.
// (Loops rather than slices.Insert and slices.DeleteFunc: their copies
// for this type were 4 KB of the page's code, for lists of a few.)
func (fs *followerStates) add(st *replicaState) {
	i := len(*fs)
	for i > 0 && (*fs)[i-1].id > st.id {
		i--
	}
	*fs = append(*fs, nil)
	copy((*fs)[i+1:], (*fs)[i:])
	(*fs)[i] = st
}

// keepOnly drops the followers not in replicas.
func (fs *followerStates) keepOnly(replicas []int32) {
	kept := (*fs)[:0]
	for _, st := range *fs {
		if slices.Contains(replicas, st.id) {
			kept = append(kept, st)
		}
	}
	clear((*fs)[len(kept):])
	*fs = kept
}
