package kafkazk

import (
	"kafkascope/core/scalacoll"

	"kafkascope/core/hashing"
)

// /admin/reassign_partitions holds a reassignment started through
// ZooKeeper (kafka-reassign-partitions.sh --zookeeper, deprecated by
// KIP-455 in favour of the AlterPartitionReassignments API):
// ReassignPartitionsZNode's LegacyPartitionAssignment, written by Jackson
// with its properties in declaration order:
//
//	{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[4,2,3]}]}
//
// The controller reads it into an immutable Map keyed by TopicPartition
// and writes what is left of it back in that Map's order as partitions
// complete.

// ReassignmentEntry is one partition's target replicas.
type ReassignmentEntry struct {
	TopicPartition
	Replicas []int32
}

// EncodeReassignment is ReassignPartitionsZNode.encode, the entries in the
// order given.
func EncodeReassignment(es []ReassignmentEntry) []byte {
	items := make([][]byte, len(es))
	for i, e := range es {
		items[i] = jsonObject([]member{
			{"topic", jsonString(e.Topic)},
			{"partition", jsonInt(int64(e.Partition))},
			{"replicas", jsonInts(e.Replicas)},
		})
	}
	return jsonObject([]member{{"version", jsonInt(1)}, {"partitions", jsonArray(items)}})
}

// DecodeReassignment is ReassignPartitionsZNode.decode: the entries as the
// Map it builds (.toMap) iterates them. A partition named twice keeps its
// first place and its last replicas. Kafka ignores data it cannot parse
// ("Ignoring partition reassignment due to invalid json"); this returns
// the error for the caller to do so.
func DecodeReassignment(data []byte) ([]ReassignmentEntry, error) {
	list, err := partitionsArray(data)
	if err != nil {
		return nil, err
	}
	var es []ReassignmentEntry
	at := map[TopicPartition]int{}
	for _, it := range list.Items {
		tp, err := partitionOf(it)
		if err != nil {
			return nil, err
		}
		rv, err := field(it, "replicas")
		if err != nil {
			return nil, err
		}
		replicas, err := asInt32s(rv, `"replicas"`)
		if err != nil {
			return nil, err
		}
		if i, ok := at[tp]; ok {
			es[i].Replicas = replicas
			continue
		}
		at[tp] = len(es)
		es = append(es, ReassignmentEntry{tp, replicas})
	}
	return InMapOrder(es), nil
}

// InMapOrder orders entries of distinct partitions, given in insertion
// order, as a Scala immutable Map keyed by their TopicPartitions iterates
// (up to four in insertion order, then CHAMP hash order).
func InMapOrder(es []ReassignmentEntry) []ReassignmentEntry {
	hashes := make([]int32, len(es))
	for i, e := range es {
		hashes[i] = TopicPartitionHash(e.TopicPartition)
	}
	out := make([]ReassignmentEntry, len(es))
	for i, j := range scalacoll.ImmutableOrder(hashes) {
		out[i] = es[j]
	}
	return out
}

// TopicPartitionHash is org.apache.kafka.common.TopicPartition.hashCode.
func TopicPartitionHash(tp TopicPartition) int32 {
	return hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
}
