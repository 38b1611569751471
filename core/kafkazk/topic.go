package kafkazk

import (
	"fmt"
	"kafkascope/core/scalacoll"
	"slices"
	"strconv"

	"kafkascope/core/jdk"
	"kafkascope/core/jsonvalue"
	"kafkascope/core/metadata"
)

// TopicZNodeData is the data of /brokers/topics/<topic>: each partition's
// replicas and, during a reassignment, the replicas being added and
// removed (absent or empty lists for partitions not moving).
type TopicZNodeData struct {
	Partitions map[int32][]int32
	TopicID    metadata.Uuid // ZeroUuid: no "topic_id" key
	Adding     map[int32][]int32
	Removing   map[int32][]int32
}

// TopicZNodeVersion is the version TopicZNode.encode writes.
const TopicZNodeVersion = 3

// EncodeTopic is TopicZNode.encode. The three partition maps are
// mutable.Maps filled from empty, keyed by the partition number as a
// string, with only the partitions whose list is non-empty in
// adding_replicas and removing_replicas; the whole is a mutable.Map
// literal of four entries (version, partitions, adding_replicas,
// removing_replicas) plus topic_id when the topic has one. All of them
// iterate in hash order: "0".."10" happen to come out in numeric order,
// twelve partitions start with "11".
func EncodeTopic(t TopicZNodeData) []byte {
	members := []member{
		{"version", jsonInt(TopicZNodeVersion)},
		{"partitions", partitionReplicasJSON(t.Partitions, true)},
		{"adding_replicas", partitionReplicasJSON(t.Adding, false)},
		{"removing_replicas", partitionReplicasJSON(t.Removing, false)},
	}
	if t.TopicID != metadata.ZeroUuid {
		members = append(members, member{"topic_id", jsonString(t.TopicID.String())})
	}
	keys := make([]string, len(members))
	for i, m := range members {
		keys[i] = m.key
	}
	return jsonObjectIn(scalacoll.MutableStringOrder(keys, 4), members)
}

// partitionReplicasJSON is one of TopicZNode.encode's partition maps;
// withEmpty keeps partitions with no replicas (only "partitions" does).
// The map is filled in partition order; as the partitions' keys have
// distinct hashes, that order does not show.
func partitionReplicasJSON(replicas map[int32][]int32, withEmpty bool) []byte {
	parts := make([]int32, 0, len(replicas))
	for p, r := range replicas {
		if withEmpty || len(r) > 0 {
			parts = append(parts, p)
		}
	}
	slices.Sort(parts)
	keys := make([]string, len(parts))
	members := make([]member, len(parts))
	for i, p := range parts {
		keys[i] = strconv.Itoa(int(p))
		members[i] = member{keys[i], jsonInts(replicas[p])}
	}
	order := scalacoll.MutableOrder(scalacoll.StringHashes(keys), 0)
	ordered := make([]member, len(order))
	for i, j := range order {
		ordered[i] = members[j]
	}
	return jsonObject(ordered)
}

// DecodeTopic is TopicZNode.decode. It reads every version Kafka has
// written: version 1 and 2 znodes (no topic_id, no adding_replicas or
// removing_replicas) as well as version 3. Like Kafka it takes a missing
// "partitions" as no partitions and reads adding and removing replicas
// only for partitions listed in "partitions"; unlike Kafka, which reads
// unparsable data as an empty topic, it returns an error for it.
func DecodeTopic(data []byte) (TopicZNodeData, error) {
	obj, err := parseObject(data)
	if err != nil {
		return TopicZNodeData{}, err
	}
	t := TopicZNodeData{Partitions: map[int32][]int32{}, Adding: map[int32][]int32{}, Removing: map[int32][]int32{}}
	if v, ok := obj.Field("topic_id"); ok {
		s, err := asString(v, `"topic_id"`)
		if err != nil {
			return TopicZNodeData{}, err
		}
		if t.TopicID, err = metadata.ParseUuid(s); err != nil {
			return TopicZNodeData{}, fmt.Errorf("kafkazk: %w", err)
		}
	}
	adding, err := optionalObject(obj, "adding_replicas")
	if err != nil {
		return TopicZNodeData{}, err
	}
	removing, err := optionalObject(obj, "removing_replicas")
	if err != nil {
		return TopicZNodeData{}, err
	}
	partitions, err := optionalObject(obj, "partitions")
	if err != nil || partitions == nil {
		return t, err
	}
	for _, key := range partitions.Keys() {
		p, ok := jdk.ParseInt(key, 32) // partition.toInt
		if !ok {
			return TopicZNodeData{}, fmt.Errorf("kafkazk: partition %q is not an Int", key)
		}
		v, _ := partitions.Field(key)
		if t.Partitions[int32(p)], err = asInt32s(v, "replicas"); err != nil {
			return TopicZNodeData{}, err
		}
		for _, moving := range []struct {
			obj  *jsonvalue.Value
			into map[int32][]int32
		}{{adding, t.Adding}, {removing, t.Removing}} {
			if moving.obj == nil {
				continue
			}
			if v, ok := moving.obj.Field(key); ok {
				r, err := asInt32s(v, "replicas")
				if err != nil {
					return TopicZNodeData{}, err
				}
				if len(r) > 0 {
					moving.into[int32(p)] = r
				}
			}
		}
	}
	return t, nil
}

// optionalObject is obj.get(key).map(_.asJsonObject): nil when absent, an
// error when not an object.
func optionalObject(obj *jsonvalue.Value, key string) (*jsonvalue.Value, error) {
	v, ok := obj.Field(key)
	if !ok {
		return nil, nil
	}
	if v.Kind != jsonvalue.Object {
		return nil, fmt.Errorf("kafkazk: %q is not an object", key)
	}
	return v, nil
}
