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
func (fs *followerStates) add(st *replicaState) {
	i, _ := slices.BinarySearchFunc(*fs, st.id, func(s *replicaState, id int32) int { return int(s.id) - int(id) })
	*fs = slices.Insert(*fs, i, st)
}

// keepOnly drops the followers not in replicas.
func (fs *followerStates) keepOnly(replicas []int32) {
	*fs = slices.DeleteFunc(*fs, func(st *replicaState) bool { return !slices.Contains(replicas, st.id) })
}
