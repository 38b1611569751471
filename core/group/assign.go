package group

import (
	"slices"
	"strings"

	"kafkascope/core/sorts"
)

// Member is a group member as the leader's assignor sees it: its ids and
// its ConsumerPartitionAssignor.Subscription.
type Member struct {
	ID         string   // member.id given by the coordinator
	InstanceID string   // group.instance.id; "" for a dynamic member
	Topics     []string // subscribed topics

	// UserData is the assignor's subscription user data (nil = none).
	UserData []byte
	// OwnedPartitions are the partitions the member holds as it joins
	// (ConsumerProtocolSubscription v1+; empty for eager members).
	OwnedPartitions []TopicPartition
	// GenerationID is the generation of OwnedPartitions
	// (ConsumerProtocolSubscription v2+). Negative means absent, as
	// Kafka's Subscription turns a negative id into Optional.empty; set
	// it to DefaultGeneration when the member does not send one.
	GenerationID int32
	// RackID is client.rack ("" = none), sent in the subscription from
	// Kafka 3.5 (KIP-881). RangeWithRacks and the sticky assignors
	// (AssignWithRacks) match it with the replicas' racks.
	RackID string
}

// TopicPartition names one partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// Assignment maps member ids to their partitions, in assignment order.
type Assignment map[string][]TopicPartition

// compareMembers is Kafka's MemberInfo order: two static members by
// instance id, a static member before a dynamic one, otherwise member id.
// Strings compare by UTF-16 code units in Java, which for the ASCII ids
// Kafka generates equals Go's byte order.
func compareMembers(a, b Member) int {
	switch {
	case a.InstanceID != "" && b.InstanceID != "":
		return strings.Compare(a.InstanceID, b.InstanceID)
	case a.InstanceID != "":
		return -1
	case b.InstanceID != "":
		return 1
	}
	return strings.Compare(a.ID, b.ID)
}

func sortedMembers(members []Member) []Member {
	out := slices.Clone(members)
	sorts.StableFunc(out, compareMembers)
	return out
}

func subscribes(m Member, topic string) bool { return slices.Contains(m.Topics, topic) }

// Range is the RangeAssignor ("range", the consumer's default together
// with cooperative-sticky): for each topic on its own, the sorted members
// that subscribe to it get contiguous blocks of its partitions, the first
// P mod C members one partition more. partitions gives each topic's
// partition count; topics without metadata are skipped.
func Range(members []Member, partitions map[string]int32) Assignment {
	out := Assignment{}
	sorted := sortedMembers(members)
	for _, m := range sorted {
		out[m.ID] = nil
	}
	topics := subscribedTopics(members)
	for _, topic := range topics {
		n, ok := partitions[topic]
		if !ok {
			continue
		}
		var subs []Member
		for _, m := range sorted {
			if subscribes(m, topic) {
				subs = append(subs, m)
			}
		}
		if len(subs) == 0 {
			continue
		}
		c := int32(len(subs))
		base, extra := n/c, n%c
		for i, m := range subs {
			start := int32(i)*base + min(int32(i), extra)
			size := base
			if int32(i) < extra {
				size++
			}
			for p := start; p < start+size; p++ {
				out[m.ID] = append(out[m.ID], TopicPartition{topic, p})
			}
		}
	}
	return out
}

// RoundRobin is the RoundRobinAssignor ("roundrobin"): every partition of
// every subscribed topic (topics by name, partitions in order) goes to the
// next member round the circle of sorted members that subscribes to it.
func RoundRobin(members []Member, partitions map[string]int32) Assignment {
	out := Assignment{}
	sorted := sortedMembers(members)
	for _, m := range sorted {
		out[m.ID] = nil
	}
	if len(sorted) == 0 {
		return out
	}
	next := 0
	for _, topic := range subscribedTopics(members) {
		n, ok := partitions[topic]
		if !ok {
			continue
		}
		for p := int32(0); p < n; p++ {
			// Walk the circle to the next subscriber; every topic here has
			// at least one, so this ends within one lap.
			for i := 0; i < len(sorted); i++ {
				m := sorted[(next+i)%len(sorted)]
				if subscribes(m, topic) {
					out[m.ID] = append(out[m.ID], TopicPartition{topic, p})
					next = (next + i + 1) % len(sorted)
					break
				}
			}
		}
	}
	return out
}

// subscribedTopics is every topic some member subscribes to, sorted.
func subscribedTopics(members []Member) []string {
	var topics []string
	for _, m := range members {
		for _, t := range m.Topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	slices.Sort(topics)
	return topics
}
