package hashing

import (
	"math"

	"kafkascope/core/jdk"
)

// Abs is Kafka's Utils.abs: |n|, except that MinInt32 (whose negation
// overflows back to itself in Java's Math.abs) maps to 0. The result is never
// negative, so Abs(h) % n is a valid partition index.
func Abs(n int32) int32 {
	if n == math.MinInt32 {
		return 0
	}
	if n < 0 {
		return -n
	}
	return n
}

// CoordinatorPartition is the partition of an internal topic with
// partitions partitions that holds id: Utils.abs(id.hashCode()) %
// partitions, as GroupCoordinator.partitionFor places a group id on
// __consumer_offsets (and the transaction coordinator a transactional id
// on __transaction_state).
func CoordinatorPartition(id string, partitions int32) int32 {
	return Abs(jdk.StringHashCode(id)) % partitions
}
