package hashing

import "sort"

// JavaHashOrder returns the order in which a java.util.HashMap or HashSet
// filled with keys of the given hashCodes (in that insertion order) iterates
// them, as indices into hashes. Kafka's tools print several lists in this
// order. The table starts with 16 buckets and doubles while it holds more
// than 3/4 of its capacity; keys iterate by bucket, and within a bucket in
// insertion order (resizing keeps that order). Treeified buckets (8 or more
// colliding keys) are not modelled.
func JavaHashOrder(hashes []int32) []int {
	capacity := 16
	for len(hashes) > capacity*3/4 {
		capacity *= 2
	}
	idx := make([]int, len(hashes))
	for i := range idx {
		idx[i] = i
	}
	bucket := func(h int32) int {
		u := uint32(h)
		return int((u ^ (u >> 16)) & uint32(capacity-1))
	}
	sort.SliceStable(idx, func(a, b int) bool { return bucket(hashes[idx[a]]) < bucket(hashes[idx[b]]) })
	return idx
}

// TopicPartitionHashCode is Kafka's TopicPartition.hashCode.
func TopicPartitionHashCode(topic string, partition int32) int32 {
	return 31*(31+partition) + JavaStringHashCode(topic)
}
