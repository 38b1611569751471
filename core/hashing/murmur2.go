package hashing

import "encoding/binary"

// Constants of Kafka's murmur2 (Utils.murmur2). The seed is not MurmurHash2's
// usual 0; it is fixed by Kafka and every Kafka client copies it.
const (
	murmur2Seed uint32 = 0x9747b28c
	murmur2M    uint32 = 0x5bd1e995
	murmur2R           = 24
)

// Murmur2 is Kafka's Utils.murmur2: MurmurHash2 (32-bit) over data with seed
// 0x9747b28c, reading 4-byte blocks little-endian and mixing the 1-3 tail
// bytes with the classic fall-through (byte 2, then byte 1, then byte 0 and a
// multiply). Java computes it in signed int with logical shifts; computing in
// uint32 gives the same bits, which are returned as Java's int.
func Murmur2(data []byte) int32 {
	n := len(data)
	// Java: int h = seed ^ length; length is an int, so only its low 32 bits matter.
	h := murmur2Seed ^ uint32(n)

	blocks := n / 4
	for i := 0; i < blocks; i++ {
		k := binary.LittleEndian.Uint32(data[4*i:])
		k *= murmur2M
		k ^= k >> murmur2R
		k *= murmur2M
		h *= murmur2M
		h ^= k
	}

	tail := data[4*blocks:]
	switch len(tail) {
	case 3:
		h ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(tail[0])
		h *= murmur2M
	}

	h ^= h >> 13
	h *= murmur2M
	h ^= h >> 15
	return int32(h)
}

// ToPositive is Kafka's Utils.toPositive: n with the sign bit cleared. Unlike
// Abs it is not |n|: ToPositive(-1) is MaxInt32 and ToPositive(MinInt32) is 0.
// The producer uses it (not abs) on murmur2 output, so both must exist.
func ToPositive(n int32) int32 {
	return n & 0x7fffffff
}

// KeyPartition is the partition the Java producer's default partitioner
// (BuiltInPartitioner.partitionForKey) picks for a non-null serialized key:
// ToPositive(Murmur2(key)) % numPartitions.
//
// numPartitions must be positive; KeyPartition panics otherwise, as the
// modulo would be meaningless (a topic always has at least one partition).
func KeyPartition(key []byte, numPartitions int32) int32 {
	if numPartitions <= 0 {
		panic("hashing: KeyPartition needs numPartitions > 0")
	}
	return ToPositive(Murmur2(key)) % numPartitions
}
