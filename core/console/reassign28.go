package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/kafkazk"
	"kafkascope/core/scalacoll"
)

// kafka-reassign-partitions.sh before 3.0 was Scala
// (core/src/main/scala/kafka/admin/ReassignPartitionsCommand.scala, tag
// 2.8.0, built with Scala 2.13.5): the same actions and most of the same
// lines as the Java tool of 3.x, with Scala's exception classes, Scala's
// JSON decoding messages, and sets printed in Scala's orders. It also
// still takes --zookeeper (reassign_zk.go).

// scalaTool: the release runs the Scala tool.
func (rc *reassignCommand) scalaTool() bool { return !rc.rel.AtLeast(3, 0) }

// exceptionClass is the class the release's tool throws for the Java
// tool's class.
func (rc *reassignCommand) exceptionClass(class string) string {
	if !rc.scalaTool() {
		return class
	}
	switch class {
	case adminCommandFailed:
		return "kafka.common.AdminCommandFailedException"
	case adminOperation:
		return "kafka.admin.AdminOperationException"
	}
	return class
}

// scalaDecodeMessage is a JSON decoding error as 2.8's kafka.utils.json
// words it (DecodeJson.scala): "Expected `Int` value", and "Expected JSON
// array, received X" for a list that is not an array.
func scalaDecodeMessage(msg string) string {
	msg = strings.Replace(msg, "Expected `Integer` value", "Expected `Int` value", 1)
	return strings.Replace(msg, "Expected `JSON array` value, received", "Expected JSON array, received", 1)
}

// scalaList is a Scala List's toString: List(1, 2).
func scalaList[T any](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "List(" + strings.Join(parts, ", ") + ")"
}

// scalaIntSet is an immutable Set of ints built in the given order
// (.toSet, ++), in its iteration order (an Int's ## is itself).
func scalaIntSet(ids []int32) []int32 {
	var uniq []int32
	for _, id := range ids {
		if !slices.Contains(uniq, id) {
			uniq = append(uniq, id)
		}
	}
	out := make([]int32, len(uniq))
	for i, j := range scalacoll.ImmutableOrder(uniq) {
		out[i] = uniq[j]
	}
	return out
}

// scalaStringSet is scalaIntSet for Strings.
func scalaStringSet(xs []string) []string {
	var uniq []string
	for _, x := range xs {
		if !slices.Contains(uniq, x) {
			uniq = append(uniq, x)
		}
	}
	return scalacoll.ImmutableStringOrder(uniq)
}

// scalaDuplicateInts is CoreUtils.duplicates of ints (a groupBy, so hash
// trie order at any size).
func scalaDuplicateInts(ids []int32) []int32 {
	d := duplicateInts(ids)
	out := make([]int32, len(d))
	for i, j := range scalacoll.HashTrieOrder(d) {
		out[i] = d[j]
	}
	return out
}

// scalaDuplicateStrings is CoreUtils.duplicates of Strings.
func scalaDuplicateStrings(xs []string) []string {
	d := duplicateStrings(xs)
	hashes := make([]int32, len(d))
	for i, x := range d {
		hashes[i] = jdk.StringHashCode(x)
	}
	out := make([]string, len(d))
	for i, j := range scalacoll.HashTrieOrder(hashes) {
		out[i] = d[j]
	}
	return out
}

// scalaDuplicatePartitions is CoreUtils.duplicates of TopicPartitions.
func scalaDuplicatePartitions(dups []reassignTarget) []string {
	hashes := make([]int32, len(dups))
	for i, r := range dups {
		hashes[i] = kafkazk.TopicPartitionHash(kafkazk.TopicPartition{Topic: r.topic, Partition: r.partition})
	}
	out := make([]string, len(dups))
	for i, j := range scalacoll.HashTrieOrder(hashes) {
		out[i] = dups[j].tp()
	}
	return out
}

// inScalaMapOrder is the plan as the Map Kafka builds of it (.toMap)
// iterates: a partition named twice keeps its first place and its last
// replicas.
func inScalaMapOrder(plan []reassignTarget) []reassignTarget {
	var es []kafkazk.ReassignmentEntry
	at := map[string]int{}
	for _, r := range plan {
		if i, ok := at[r.tp()]; ok {
			es[i].Replicas = r.replicas
			continue
		}
		at[r.tp()] = len(es)
		es = append(es, kafkazk.ReassignmentEntry{TopicPartition: kafkazk.TopicPartition{Topic: r.topic, Partition: r.partition}, Replicas: r.replicas})
	}
	out := make([]reassignTarget, len(es))
	for i, e := range kafkazk.InMapOrder(es) {
		out[i] = reassignTarget{topic: e.Topic, partition: e.Partition, replicas: e.Replicas}
	}
	return out
}

// planBrokers is proposedParts.values.flatten.toSet: the plan's brokers
// as a Scala Set.
func planBrokers(plan []reassignTarget) []int32 {
	var ids []int32
	for _, r := range inScalaMapOrder(plan) {
		ids = append(ids, r.replicas...)
	}
	return scalaIntSet(ids)
}
