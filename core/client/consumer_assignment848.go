package client

import (
	"slices"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sorts"
)

// localAssignment is AbstractMembershipManager.LocalAssignment: partitions
// by topic id, with a local epoch bumped at every change so that the next
// heartbeat re-sends the owned partitions even when only the epoch moved.
// none is LocalAssignment.NONE (epoch -1, nothing).
type localAssignment struct {
	epoch int64
	parts []protocol.ConsumerGroupTopicPartitions // by topic id, partitions sorted
	none  bool
}

var noAssignment = localAssignment{epoch: -1, none: true}

func (a localAssignment) equal(b localAssignment) bool {
	return a.epoch == b.epoch && a.none == b.none && sameParts(a.parts, b.parts)
}

func sameParts(a, b []protocol.ConsumerGroupTopicPartitions) bool {
	return slices.EqualFunc(a, b, func(x, y protocol.ConsumerGroupTopicPartitions) bool {
		return x.TopicID == y.TopicID && slices.Equal(x.Partitions, y.Partitions)
	})
}

// updateWith is LocalAssignment.updateWith: a new assignment with the next
// local epoch if the partitions differ, else ok=false.
func (a localAssignment) updateWith(parts []protocol.ConsumerGroupTopicPartitions) (localAssignment, bool) {
	parts = normalizeParts(parts)
	if sameParts(a.parts, parts) {
		return a, false
	}
	return localAssignment{epoch: a.epoch + 1, parts: parts}, true
}

// normalizeParts sorts by topic id and partition and drops empty topics,
// so that equal assignments compare equal (Kafka keeps a Map of
// SortedSets).
func normalizeParts(in []protocol.ConsumerGroupTopicPartitions) []protocol.ConsumerGroupTopicPartitions {
	var out []protocol.ConsumerGroupTopicPartitions
	for _, tp := range in {
		if len(tp.Partitions) == 0 {
			continue
		}
		ps := slices.Clone(tp.Partitions)
		slices.Sort(ps)
		ps = slices.Compact(ps)
		if i := slices.IndexFunc(out, func(o protocol.ConsumerGroupTopicPartitions) bool { return o.TopicID == tp.TopicID }); i >= 0 {
			out[i].Partitions = slices.Compact(slices.Sorted(slices.Values(append(out[i].Partitions, ps...))))
			continue
		}
		out = append(out, protocol.ConsumerGroupTopicPartitions{TopicID: tp.TopicID, Partitions: ps})
	}
	sorts.Func(out, func(x, y protocol.ConsumerGroupTopicPartitions) int {
		return metadata.CompareUuids(x.TopicID, y.TopicID)
	})
	return out
}

// list is the assignment as a heartbeat's TopicPartitions: never nil, so
// that it is sent (an empty list when the member owns nothing).
func (a localAssignment) list() []protocol.ConsumerGroupTopicPartitions {
	out := make([]protocol.ConsumerGroupTopicPartitions, 0, len(a.parts))
	for _, tp := range a.parts {
		out = append(out, protocol.ConsumerGroupTopicPartitions{TopicID: tp.TopicID, Partitions: slices.Clone(tp.Partitions)})
	}
	return out
}

// resolve names the topics of parts from the consumer's metadata
// (AMM.findResolvableAssignmentAndTriggerMetadataUpdate): the resolved
// partitions sorted by topic name then partition, the resolvable part of
// parts, and whether some topic id is unknown.
func (c *Consumer) resolve(parts []protocol.ConsumerGroupTopicPartitions) (tps []topicPartition, resolvable []protocol.ConsumerGroupTopicPartitions, unknown bool) {
	for _, tp := range parts {
		name, ok := c.meta.TopicNameByID(tp.TopicID)
		if !ok {
			unknown = true
			continue
		}
		resolvable = append(resolvable, tp)
		for _, p := range tp.Partitions {
			tps = append(tps, topicPartition{name, p})
		}
	}
	sorts.Func(tps, compareTopicPartitions)
	return tps, resolvable, unknown
}

func compareTopicPartitions(a, b topicPartition) int {
	if a.topic != b.topic {
		if a.topic < b.topic {
			return -1
		}
		return 1
	}
	return int(a.partition - b.partition)
}
