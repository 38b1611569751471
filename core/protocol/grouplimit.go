package protocol

import "fmt"

// MaxGroupsPerOffsetsPartition is the simulator's own limit on consumer
// groups (Kafka has none): a group coordinator creates at most this many
// groups per __consumer_offsets partition, so with Kafka's default
// offsets.topic.num.partitions=50 a cluster holds at most 1000. Groups
// outlive their members (an Empty group keeps its committed offsets), so
// without it a session could grow them without bound. Counting per
// partition keeps the limit exact across coordinator moves: a partition's
// new leader loads the same groups.
//
// The coordinator refuses a new group beyond it with POLICY_VIOLATION
// (the code the simulator's other limits use); JoinGroup and OffsetCommit
// responses carry no error message, so the client shows
// GroupLimitMessage.
const MaxGroupsPerOffsetsPartition = 20

// GroupLimitMessage is what a client shows when the coordinator refused to
// create group with POLICY_VIOLATION.
func GroupLimitMessage(group string) string {
	return fmt.Sprintf("kafkascope: consumer group %s was not created: the simulator holds at most %d consumer groups per __consumer_offsets partition (%d with the default 50 partitions); delete unused groups with kafka-consumer-groups.sh --delete --group GROUP",
		group, MaxGroupsPerOffsetsPartition, 50*MaxGroupsPerOffsetsPartition)
}
