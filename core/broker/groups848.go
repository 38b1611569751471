package broker

import (
	"slices"

	"kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The broker's side of the consumer rebalance protocol (KIP-848):
// KafkaApis' gate on ConsumerGroupHeartbeat and ConsumerGroupDescribe,
// the metadata view the group coordinator resolves subscriptions with,
// and the metadata updates that make subscribed groups refresh it
// (GroupMetadataManager.onMetadataUpdate).

// consumerProtocolEnabled is KafkaApis.isConsumerGroupProtocolEnabled
// (4.3 core/src/main/scala/kafka/server/KafkaApis.scala:2599-2602): the
// consumer rebalance protocol needs group.version >= 1 finalized (every
// 4.x cluster kafkascope formats has it; kafkascope always lists
// "consumer" in group.coordinator.rebalance.protocols). Kafka 3.8 runs
// the old coordinator by default (group.coordinator.new.enable=false), so
// both APIs answer UNSUPPORTED_VERSION there (3.8 KafkaApis.scala:3800-3806,
// 3825-3833).
func (b *Broker) consumerProtocolEnabled() bool {
	if !b.cfg.Release.Version.AtLeast(4, 0) {
		return false
	}
	return b.image.Features["group.version"] >= 1
}

// handleConsumerGroupAPI answers the two APIs UNSUPPORTED_VERSION when the
// protocol is off (the request's getErrorResponse: the code only, no
// message; ConsumerGroupDescribe one entry per group), and otherwise hands
// them to the coordinator like the classic group APIs. It reports whether
// the request is finished.
func (b *Broker) handleConsumerGroupAPI(env *sim.Env, from sim.Addr, msg sim.Message) bool {
	if b.consumerProtocolEnabled() {
		return b.coordinator.Handle(env, from, msg)
	}
	switch m := msg.(type) {
	case *protocol.ConsumerGroupHeartbeatRequest:
		b.respond(env, from, &protocol.ConsumerGroupHeartbeatResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: m.CorrelationID},
			ErrorCode: protocol.UNSUPPORTED_VERSION})
	case *protocol.ConsumerGroupDescribeRequest:
		resp := &protocol.ConsumerGroupDescribeResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: m.CorrelationID}}
		for _, id := range m.GroupIDs {
			resp.Groups = append(resp.Groups, protocol.DescribedConsumerGroup{GroupID: id, ErrorCode: protocol.UNSUPPORTED_VERSION})
		}
		b.respond(env, from, resp)
	}
	return true
}

func (h *coordinatorHost) Release() release.Version { return h.broker().cfg.Release.Version }

func (h *coordinatorHost) ConfigString(name string) string { return h.broker().conf().Broker(name) }

// Topics is the broker's image as the coordinator's metadata view
// (CoordinatorMetadataImage): each topic's id, name and partition count,
// sorted by name.
func (h *coordinatorHost) Topics() []group.TopicMetadata {
	img := h.broker().image
	names := img.TopicNames()
	out := make([]group.TopicMetadata, 0, len(names))
	for _, n := range names {
		t := img.Topics[n]
		out = append(out, group.TopicMetadata{ID: t.ID, Name: n, NumPartitions: int32(len(t.Partitions))})
	}
	return out
}

// groupsMetadataUpdate tells the coordinator which topics a metadata
// update created, changed or deleted (GroupMetadataManager.onMetadataUpdate
// gets the delta's changed and deleted topic ids).
func (b *Broker) groupsMetadataUpdate(env *sim.Env, changed map[storage.TopicPartition]bool, removed map[string]bool) {
	var names []string
	for key := range changed {
		if key.Topic != metadata.ConsumerOffsetsTopic {
			names = append(names, key.Topic)
		}
	}
	for name := range removed {
		names = append(names, name)
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	b.coordinator.OnMetadataUpdate(env, slices.Compact(names))
}
