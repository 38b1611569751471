package broker

import (
	"time"

	"slices"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

const metadataFetchMaxWaitMs = 500 // KafkaRaftClient's fixed fetch wait

// fetchMetadata keeps one fetch of __cluster_metadata outstanding to the
// active controller (a KRaft observer's fetch loop).
func (b *Broker) fetchMetadata(env *sim.Env) {
	if b.metaInFlight || b.state == StateStopped {
		return
	}
	b.metaInFlight = true
	req := &protocol.MetadataFetchRequest{ReplicaID: b.cfg.NodeID, FetchOffset: b.image.Offset + 1, MaxWaitMs: metadataFetchMaxWaitMs}
	b.net.Send(env, b.cfg.ControllerAddr, req, controllerRequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		b.metaInFlight = false
		if b.state == StateStopped {
			return
		}
		r, _ := resp.(*protocol.MetadataFetchResponse)
		if err != nil || r.ErrorCode != protocol.NONE {
			env.After(20*time.Millisecond, "metadata-fetch-retry", b.fetchMetadata) // controller.quorum.retry.backoff.ms
			return
		}
		b.applyMetadata(env, r)
		b.fetchMetadata(env)
	})
}

// applyMetadata replays fetched records into the broker's image, then makes
// the local replicas follow what changed.
func (b *Broker) applyMetadata(env *sim.Env, r *protocol.MetadataFetchResponse) {
	changed := map[storage.TopicPartition]bool{}
	removed := map[string]bool{}
	if r.Snapshot != nil && r.SnapshotOffset > b.image.Offset {
		b.image = r.Snapshot.Clone()
		b.image.Offset = r.SnapshotOffset
		for _, name := range b.image.TopicNames() {
			for i := range b.image.Topics[name].Partitions {
				changed[tp(name, int32(i))] = true
			}
		}
		for key := range b.partitions {
			changed[key] = true
		}
	}
	for _, e := range r.Entries {
		if e.Offset <= b.image.Offset {
			continue
		}
		switch rec := e.Record.(type) {
		case *metadata.PartitionRecord:
			if t := b.image.TopicByID(rec.TopicID); t != nil {
				changed[tp(t.Name, rec.PartitionID)] = true
			}
		case *metadata.PartitionChangeRecord:
			if t := b.image.TopicByID(rec.TopicID); t != nil {
				changed[tp(t.Name, rec.PartitionID)] = true
			}
		case *metadata.RemoveTopicRecord:
			if t := b.image.TopicByID(rec.TopicID); t != nil {
				removed[t.Name] = true
			}
		case *metadata.ConfigRecord:
			if rec.ResourceType == metadata.ResourceTopic {
				if t := b.image.Topics[rec.ResourceName]; t != nil {
					for i := range t.Partitions {
						changed[tp(t.Name, int32(i))] = true
					}
				}
			}
		}
		if err := b.image.Apply(e.Offset, e.Record); err != nil {
			panic("broker: metadata replay failed: " + err.Error())
		}
	}
	for key := range b.partitions {
		if removed[key.Topic] {
			changed[key] = true
		}
	}
	if !b.published {
		if b.image.Offset+1 < r.HighWatermark {
			return // keep replaying before acting on anything
		}
		b.published = true
		for name, t := range b.image.Topics {
			for i := range t.Partitions {
				changed[tp(name, int32(i))] = true
			}
		}
		for key := range b.partitions {
			changed[key] = true
		}
		b.sendHeartbeat(env) // now ready to be unfenced
	}
	keys := make([]storage.TopicPartition, 0, len(changed))
	for key := range changed {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, compareTP)
	for _, key := range keys {
		b.reconcile(env, key)
	}
}

// reconcile makes the local replica of key match the image: create, lead,
// follow, or delete it.
func (b *Broker) reconcile(env *sim.Env, key storage.TopicPartition) {
	me := b.cfg.NodeID
	st := b.image.Partition(key.Topic, key.Partition)
	p := b.partitions[key]
	if st == nil || !slices.Contains(st.Replicas, me) {
		if p != nil {
			b.removeFromFetchers(key)
			p.failDelayedProduces(env, protocol.NOT_LEADER_OR_FOLLOWER)
			p.log.Delete()
			delete(b.partitions, key)
			env.Note("replica.deleted", "broker", id32(me), "tp", key.String())
			b.checkParkedFetches(env)
		}
		return
	}
	topic := b.image.Topics[key.Topic]
	if p == nil {
		log, err := storage.CreateLog(b.cfg.Disk, b.logDir, key, topic.ID.String(), b.logConfig(key.Topic))
		if err != nil {
			panic(err)
		}
		p = newPartition(b, key, log)
		b.partitions[key] = p
	} else if p.topicID != topic.ID && p.topicID != (metadata.Uuid{}) {
		// A stale replica of a deleted topic with the same name: start over.
		p.log.Delete()
		log, err := storage.CreateLog(b.cfg.Disk, b.logDir, key, topic.ID.String(), b.logConfig(key.Topic))
		if err != nil {
			panic(err)
		}
		p = newPartition(b, key, log)
		b.partitions[key] = p
	}
	p.log.SetConfig(b.logConfig(key.Topic))
	p.apply(env, st, topic.ID)
}

func (b *Broker) logConfig(topic string) storage.LogConfig {
	return storage.LogConfig{SegmentBytes: b.conf().TopicInt(b.image.TopicConfig(topic), "segment.bytes")}
}
