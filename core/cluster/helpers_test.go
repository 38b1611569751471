package cluster

import "kafkascope/core/storage"

func tpOf(topic string, p int32) storage.TopicPartition {
	return storage.TopicPartition{Topic: topic, Partition: p}
}
