// Package hashing owns the hash functions Kafka uses to place things on
// partitions, reproduced bit for bit so the simulator lands every key,
// group and transactional id on the partition a real cluster would.
//
//   - Murmur2 / ToPositive / KeyPartition: the Java producer's
//     BuiltInPartitioner, toPositive(murmur2(serializedKey)) % numPartitions.
//   - JavaStringHashCode / Abs: the coordinators' placement,
//     abs(id.hashCode()) % partitionCount for __consumer_offsets and
//     __transaction_state.
//   - JavaStringLength: String.length() in UTF-16 code units, for Kafka's
//     length limits and the tools' column widths.
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
