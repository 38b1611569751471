// Package hashing owns the hash functions Kafka uses to place things on
// partitions, reproduced bit for bit so the simulator lands every key,
// group and transactional id on the partition a real cluster would.
//
//   - Murmur2 / ToPositive / KeyPartition: the Java producer's
//     BuiltInPartitioner, toPositive(murmur2(serializedKey)) % numPartitions.
//   - Abs / CoordinatorPartition: the coordinators' placement,
//     abs(id.hashCode()) % partitionCount for __consumer_offsets and
//     __transaction_state.
//   - TopicPartitionHashCode: TopicPartition.hashCode, for the order of
//     the tools' HashMaps of partitions.
//
// What is the JDK's rather than Kafka's (String.hashCode, HashMap's
// iteration order, String.length) lives in core/jdk; this package is
// Kafka's Utils and its key classes' hashCodes.
//
// Every function here is pure: no state, no clock, no randomness, no I/O.
// This package must never "improve" a hash (different seed, unsigned
// arithmetic, a different tail order) even where the original is odd: the
// oddities are the point, because clients outside the simulator compute the
// same values and must agree with it.
//
// Java semantics are reproduced with Go's int32 wrap-around arithmetic; Java's
// logical shift (>>>) is a shift of the value as uint32.
package hashing
