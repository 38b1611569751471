package jdk

import "sort"

// The iteration order of a java.util.HashMap, and so of a HashSet (a
// HashMap's key set) and of HashMap.keySet, entrySet and values. Kafka's
// tools print several lists, and its sticky assignors break ties, in this
// order, so the simulator computes it rather than sorting.
//
// The model is a map with the default initial capacity (16) and load
// factor (0.75) filled by put, one key at a time: the table doubles when a
// put leaves it holding more than 3/4 of its capacity, and never shrinks.
// A key's bucket is its spread hash (HashMap.hash: h ^ h>>>16) masked by
// capacity-1; iteration walks the buckets in order and each bucket in
// insertion order (a resize splits a bucket keeping that order). Not
// modelled: maps presized by a constructor argument, by HashSet(Collection)
// or by putAll into an empty map (these can start with a larger table than
// the same keys put one by one would leave, and the presizing rule differs
// between JDK releases), and treeified buckets (8 or more colliding keys,
// which also force a resize below 64 buckets).

// HashCapacity is the table size of a default HashMap after n distinct
// keys were put into it.
func HashCapacity(n int) int {
	capacity := 16
	for n > capacity*3/4 {
		capacity *= 2
	}
	return capacity
}

// HashBucket is the bucket of a key whose hashCode is h in a table of
// capacity buckets (a power of two).
func HashBucket(h int32, capacity int) int {
	u := uint32(h)
	return int((u ^ (u >> 16)) & uint32(capacity-1))
}

// HashOrder is the order in which a default HashMap filled with distinct
// keys of the given hashCodes, put in that order, iterates them: indices
// into hashes. It takes hash codes rather than keys so that one compiled
// function serves every key type (a generic one would be compiled again
// for each).
func HashOrder(hashes []int32) []int { return hashOrderIn(hashes, HashCapacity(len(hashes))) }

// PresizedHashSetOrder is HashSetOrder for a map made with
// new HashMap<>(n) for its n keys, as Kafka's FeaturesDelta builds the
// finalized features.
func PresizedHashSetOrder(keys []string) []string {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = StringHashCode(k)
	}
	out := make([]string, 0, len(keys))
	for _, i := range PresizedHashOrder(hashes) {
		out = append(out, keys[i])
	}
	return out
}

// PresizedHashOrder is HashOrder for a map made with new HashMap<>(n)
// for its n keys (the table holds n keys without resizing: the power of
// two at least n, doubled if n passes 3/4 of it), as the admin client's
// results (all()) are.
func PresizedHashOrder(hashes []int32) []int {
	capacity := 1
	for capacity < len(hashes) {
		capacity *= 2
	}
	if len(hashes) > capacity*3/4 {
		capacity *= 2
	}
	return hashOrderIn(hashes, capacity)
}

func hashOrderIn(hashes []int32, capacity int) []int {
	idx := make([]int, len(hashes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return HashBucket(hashes[idx[a]], capacity) < HashBucket(hashes[idx[b]], capacity)
	})
	return idx
}

// HashSetOrder is the iteration order of a default HashSet<String> (or of
// a HashMap<String, V>'s keys) into which the distinct keys were put in
// the given order.
func HashSetOrder(keys []string) []string {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = StringHashCode(k)
	}
	out := make([]string, 0, len(keys))
	for _, i := range HashOrder(hashes) {
		out = append(out, keys[i])
	}
	return out
}
