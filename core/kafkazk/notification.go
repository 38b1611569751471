package kafkazk

import (
	"fmt"
	"kafkascope/core/scalacoll"

	"kafkascope/core/jdk"
	"kafkascope/core/jsonvalue"
)

// TopicPartition names one partition of a topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// The ISR-change and preferred-replica-election znodes both hold
// {"version":1,"partitions":[{"topic":…,"partition":…},…]}: a Map2 around
// a set made by mapping Kafka's set of TopicPartitions to one Map2 per
// partition (.asJava), so the partitions come out in the order of that
// set of Java maps, whose element hash is the java.util.Map hashCode
// (partitionMapHash).

// partitionMapHash is the hashCode of Map("topic" -> t, "partition" -> p)
// .asJava: AbstractMap.hashCode, the sum of its entries' hashes, each
// key.hashCode ^ value.hashCode (the 2.13 MapWrapper's entries keep
// Map.Entry's contract), with an Integer's hash its value.
func partitionMapHash(tp TopicPartition) int32 {
	return (jdk.StringHashCode("topic") ^ jdk.StringHashCode(tp.Topic)) +
		(jdk.StringHashCode("partition") ^ tp.Partition)
}

// distinctPartitions drops repeats, keeping first places.
func distinctPartitions(ps []TopicPartition) []TopicPartition {
	seen := map[TopicPartition]bool{}
	var out []TopicPartition
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// encodePartitionList writes the znode for partitions in the given order.
func encodePartitionList(ps []TopicPartition, order []int) []byte {
	items := make([][]byte, len(order))
	for i, j := range order {
		items[i] = jsonObject([]member{
			{"topic", jsonString(ps[j].Topic)},
			{"partition", jsonInt(int64(ps[j].Partition))},
		})
	}
	return jsonObject([]member{
		{"version", jsonInt(1)},
		{"partitions", jsonArray(items)},
	})
}

// EncodeIsrChangeNotification is IsrChangeNotificationSequenceZNode.encode
// (written by a partition leader only below inter.broker.protocol 2.7-IV2;
// ZkIsrManager). Kafka's set is ZkIsrManager's mutable.HashSet, so the
// mapped set is a mutable.HashSet too, built from empty: its order
// depends on the order of ps (which should be the order Kafka's set
// iterates) only among partitions whose maps hash alike.
func EncodeIsrChangeNotification(ps []TopicPartition) []byte {
	ps = distinctPartitions(ps)
	hashes := make([]int32, len(ps))
	for i, p := range ps {
		hashes[i] = partitionMapHash(p)
	}
	return encodePartitionList(ps, scalacoll.MutableOrder(hashes, 0))
}

// EncodePreferredReplicaElection is PreferredReplicaElectionZNode.encode.
// Kafka's set is an immutable Set, so the mapped set is one too: up to
// four partitions stay in the order given (which should be the order
// Kafka's set iterates), five or more come out in CHAMP hash order.
func EncodePreferredReplicaElection(ps []TopicPartition) []byte {
	ps = distinctPartitions(ps)
	hashes := make([]int32, len(ps))
	for i, p := range ps {
		hashes[i] = partitionMapHash(p)
	}
	return encodePartitionList(ps, scalacoll.ImmutableOrder(hashes))
}

// decodePartitionList reads "partitions" as the two decoders do: an array
// of objects with a "topic" string and a "partition" Int. Kafka returns a
// Set; this keeps the JSON order and drops repeats.
func decodePartitionList(data []byte) ([]TopicPartition, error) {
	list, err := partitionsArray(data)
	if err != nil {
		return nil, err
	}
	ps := make([]TopicPartition, 0, len(list.Items))
	for _, it := range list.Items {
		tp, err := partitionOf(it)
		if err != nil {
			return nil, err
		}
		ps = append(ps, tp)
	}
	return distinctPartitions(ps), nil
}

// partitionsArray is the "partitions" array of a znode's JSON object.
func partitionsArray(data []byte) (*jsonvalue.Value, error) {
	obj, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	list, err := field(obj, "partitions")
	if err != nil {
		return nil, err
	}
	if list.Kind != jsonvalue.Array {
		return nil, fmt.Errorf("kafkazk: partitions is not an array")
	}
	return list, nil
}

// partitionOf reads one {"topic":…,"partition":…} object.
func partitionOf(it *jsonvalue.Value) (TopicPartition, error) {
	if it.Kind != jsonvalue.Object {
		return TopicPartition{}, fmt.Errorf("kafkazk: a partition is not an object")
	}
	topic, err := stringField(it, "topic")
	if err != nil {
		return TopicPartition{}, err
	}
	p, err := intField(it, "partition")
	if err != nil {
		return TopicPartition{}, err
	}
	return TopicPartition{topic, p}, nil
}

// DecodeIsrChangeNotification is IsrChangeNotificationSequenceZNode.decode.
func DecodeIsrChangeNotification(data []byte) ([]TopicPartition, error) {
	return decodePartitionList(data)
}

// DecodePreferredReplicaElection is PreferredReplicaElectionZNode.decode.
func DecodePreferredReplicaElection(data []byte) ([]TopicPartition, error) {
	return decodePartitionList(data)
}

// EncodeLogDirEventNotification is LogDirEventNotificationSequenceZNode.encode:
// Map("version" -> 1, "broker" -> id, "event" -> 1), a Map3
// (LogDirFailureEvent = 1).
func EncodeLogDirEventNotification(brokerID int32) []byte {
	return jsonObject([]member{
		{"version", jsonInt(1)},
		{"broker", jsonInt(int64(brokerID))},
		{"event", jsonInt(1)},
	})
}
