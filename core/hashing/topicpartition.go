package hashing

import "kafkascope/core/jdk"

// TopicPartitionHashCode is Kafka's TopicPartition.hashCode: the key's
// hash in the HashMaps and HashSets of partitions whose order the tools
// print (jdk.HashOrder).
func TopicPartitionHashCode(topic string, partition int32) int32 {
	return 31*(31+partition) + jdk.StringHashCode(topic)
}
