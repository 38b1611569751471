package groupcoordinator

import (
	"encoding/binary"
	"hash/fnv"
	"slices"

	kgroup "kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
)

// The coordinator's metadata view for consumer groups: subscriptions are
// topic names, assignments topic ids, resolved against the broker's
// metadata image (Host.Topics). A group remembers a hash of the topics it
// subscribes to (KIP-1101's metadata hash, ConsumerGroupMetadataValue
// tag 0); a heartbeat that finds it changed bumps the group epoch.

// topicView is one heartbeat's look at the image.
type topicView struct {
	byName map[string]kgroup.TopicMetadata
	byID   map[metadata.Uuid]kgroup.TopicMetadata
	image  kgroup.TopicImage
}

func (c *Coordinator) topicView() topicView {
	ts := c.host.Topics()
	v := topicView{byName: map[string]kgroup.TopicMetadata{}, byID: map[metadata.Uuid]kgroup.TopicMetadata{}, image: kgroup.NewTopicImage(ts...)}
	for _, t := range ts {
		v.byName[t.Name] = t
		v.byID[t.ID] = t
	}
	return v
}

// topicName names a topic id ("" if the image has none).
func (v topicView) topicName(id metadata.Uuid) string { return v.byID[id].Name }

// subscribedIDs resolves names to ids as TopicIds does: names without a
// topic are skipped.
func (v topicView) subscribedIDs(names []string) []metadata.Uuid {
	var out []metadata.Uuid
	for _, n := range names {
		if t, ok := v.byName[n]; ok {
			out = append(out, t.ID)
		}
	}
	return out
}

// metadataHash is ModernGroup.computeMetadataHash over the subscribed
// names (sorted): 0 when none exists, else a hash of each existing
// topic's hash in name order (Utils.computeGroupHash), a topic's hash
// covering a version byte, its id, name, partition count and partition
// indexes (Utils.computeTopicHash, 4.3 Utils.java:453-522).
//
// Simplification: Kafka streams these through XXH3-64 (hash4j); this is
// FNV-1a 64 over the same fields, so the values differ from Kafka's but
// change exactly when Kafka's do (the simulated brokers have no racks).
// Only equality matters to the protocol.
func (v topicView) metadataHash(sortedNames []string) int64 {
	var topicHashes []uint64
	for _, n := range sortedNames {
		t, ok := v.byName[n]
		if !ok {
			continue
		}
		h := fnv.New64a()
		var b []byte
		b = append(b, 0) // TOPIC_HASH_MAGIC_BYTE
		b = append(b, t.ID[:]...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(t.Name)))
		b = append(b, t.Name...)
		b = binary.BigEndian.AppendUint32(b, uint32(t.NumPartitions))
		for i := int32(0); i < t.NumPartitions; i++ {
			b = binary.BigEndian.AppendUint32(b, uint32(i))
		}
		h.Write(b)
		topicHashes = append(topicHashes, h.Sum64())
	}
	if len(topicHashes) == 0 {
		return 0
	}
	h := fnv.New64a()
	for _, th := range topicHashes {
		h.Write(binary.BigEndian.AppendUint64(nil, th))
	}
	return int64(h.Sum64())
}

// v43 says whether the broker runs Kafka 4.3's coordinator rules (else
// 4.1's).
func (c *Coordinator) v43() bool { return c.host.Release().AtLeast(4, 3) }

func (c *Coordinator) format() recordFormat { return recordFormat{v43: c.v43()} }

// OnMetadataUpdate is GroupMetadataManager.onMetadataUpdate
// (GMM:6022-6061): every consumer group subscribed by name to a topic the
// update created, changed or deleted refreshes its metadata at its next
// heartbeat (requestMetadataRefresh), which bumps its epoch if the hash
// changed. The broker calls it with the topics' names after applying
// metadata records.
func (c *Coordinator) OnMetadataUpdate(env *sim.Env, topics []string) {
	for _, g := range c.groups {
		cg := g.consumer
		if cg == nil || cg.refreshMetadata {
			continue
		}
		for _, m := range cg.members {
			if slices.ContainsFunc(m.subscribed, func(n string) bool { return slices.Contains(topics, n) }) {
				cg.refreshMetadata = true
				break
			}
		}
	}
}
