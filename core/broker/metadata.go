package broker

import (
	"fmt"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// HandleCommit (raft.Listener) replays a committed batch of
// __cluster_metadata into the broker's image, then makes the local
// replicas follow what changed. The broker's raft client (an observer, or
// the voter of a combined node) fetched it; a broker whose client is
// behind serves the metadata it has.
func (b *Broker) HandleCommit(env *sim.Env, batch raft.CommittedBatch) {
	if b.state == StateStopped {
		return
	}
	changed := map[storage.TopicPartition]bool{}
	removed := map[string]bool{}
	for _, e := range batch.Entries {
		if e.Control {
			continue
		}
		r, err := metadata.Decode(e.Payload)
		if err != nil {
			panic(fmt.Sprintf("broker %d: metadata record at offset %d: %v", b.cfg.NodeID, e.Offset, err))
		}
		b.noteChange(r, changed, removed)
		if err := b.image.Apply(e.Offset, r); err != nil {
			panic("broker: metadata replay failed: " + err.Error())
		}
	}
	if batch.LastOffset > b.image.Offset {
		b.image.Offset = batch.LastOffset
	}
	b.publish(env, changed, removed)
}

// HandleCommitRun (raft.RunListener) replays a leap's run of NoOps: a
// NoOpRecord moves only the image's offset, and publishing with nothing
// changed does nothing until the last (before it, the image is short of
// the high watermark that a first publish waits for), so the run is one
// offset move and one publish.
func (b *Broker) HandleCommitRun(env *sim.Env, run raft.CommittedRun) bool {
	if b.state == StateStopped {
		return true
	}
	if r, err := metadata.Decode(run.Payload); err != nil || run.First <= b.image.Offset {
		return false // HandleCommit reports it
	} else if _, ok := r.(*metadata.NoOpRecord); !ok {
		return false
	}
	b.image.Offset = run.Last
	b.publish(env, map[storage.TopicPartition]bool{}, nil)
	return true
}

// HandleLoadSnapshot (raft.Listener) replaces the image with a snapshot's:
// every partition may have changed.
func (b *Broker) HandleLoadSnapshot(env *sim.Env, s raft.LoadedSnapshot) {
	if b.state == StateStopped {
		return
	}
	img, err := metadata.ImageFromPayloads(s.ID.EndOffset-1, s.Payloads)
	if err != nil {
		panic(fmt.Sprintf("broker %d: %v", b.cfg.NodeID, err))
	}
	b.image = img
	changed := map[storage.TopicPartition]bool{}
	for _, name := range b.image.TopicNames() {
		for i := range b.image.Topics[name].Partitions {
			changed[tp(name, int32(i))] = true
		}
	}
	for key := range b.partitions {
		changed[key] = true
	}
	b.publish(env, changed, nil)
}

func (b *Broker) HandleLeaderChange(*sim.Env, raft.LeaderAndEpoch) {}
func (b *Broker) HandleBecomeLeader(*sim.Env, int32)               {}
func (b *Broker) HandleResign(*sim.Env, int32)                     {}

// noteChange records which partitions r is about to change.
func (b *Broker) noteChange(r metadata.Record, changed map[storage.TopicPartition]bool, removed map[string]bool) {
	switch rec := r.(type) {
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
}

// publish acts on a new image: nothing until the broker has replayed up to
// the high watermark its raft client knew (Kafka's first publish waits for
// the log to be caught up), then every partition once, and afterwards
// what changed.
func (b *Broker) publish(env *sim.Env, changed map[storage.TopicPartition]bool, removed map[string]bool) {
	for key := range b.partitions {
		if removed[key.Topic] {
			changed[key] = true
		}
	}
	if !b.published {
		if b.image.Offset+1 < b.cfg.Quorum.HighWatermark() {
			return // keep replaying before acting on anything
		}
		b.published = true
		// The log manager starts with the first publish: its retention
		// task and its cleaner.
		b.startRetention(env)
		b.startLogCleaner(env)
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
	sorts.Func(keys, storage.ComparePartitions)
	for _, key := range keys {
		b.reconcile(env, key)
	}
	b.pruneTopicMeters(keys)
	b.groupsMetadataUpdate(env, changed, removed)
}

// reconcile makes the local replica of key match the image: create, lead,
// follow, or delete it.
func (b *Broker) reconcile(env *sim.Env, key storage.TopicPartition) {
	me := b.cfg.NodeID
	st, topicID := b.target(key)
	p := b.partitions[key]
	if st == nil || !slices.Contains(st.Replicas, me) {
		if p != nil {
			b.removeFromFetchers(key)
			p.failDelayedProduces(env, protocol.NOT_LEADER_OR_FOLLOWER)
			if p.isLeader && key.Topic == metadata.ConsumerOffsetsTopic {
				b.groupsResign(env, key.Partition)
			}
			if p.isLeader && key.Topic == txncoordinator.TransactionStateTopic {
				b.txnResign(env, key.Partition)
			}
			p.log.Delete()
			b.setPartition(key, nil)
			b.dropCleanerState(key)
			env.Note(event.ReplicaDeleted{Broker: me, TP: key})
			b.checkParkedFetches(env)
		}
		return
	}
	if p == nil {
		log, err := storage.CreateLog(b.cfg.Disk, b.logDir, key, topicID.String(), b.logConfig(key.Topic))
		if err != nil {
			b.logCreateFailed(env, key, err)
			return
		}
		b.attachLog(env, log)
		p = newPartition(b, key, log)
		b.setPartition(key, p)
	} else if p.topicID != topicID && p.topicID != (metadata.Uuid{}) {
		// A stale replica of a deleted topic with the same name: start over.
		p.log.Delete()
		b.setPartition(key, nil)
		b.dropCleanerState(key)
		log, err := storage.CreateLog(b.cfg.Disk, b.logDir, key, topicID.String(), b.logConfig(key.Topic))
		if err != nil {
			b.logCreateFailed(env, key, err)
			return
		}
		b.attachLog(env, log)
		p = newPartition(b, key, log)
		b.setPartition(key, p)
	}
	p.log.SetConfig(b.logConfig(key.Topic))
	p.apply(env, st, topicID)
}

// target is what the local replica of key should be: the metadata
// image's state on KRaft; in the ZooKeeper era, the last LeaderAndIsr's.
func (b *Broker) target(key storage.TopicPartition) (*metadata.PartitionState, metadata.Uuid) {
	if b.zk != nil {
		z, ok := b.zk.parts[key]
		if !ok {
			return nil, metadata.Uuid{}
		}
		return &z.state, z.topicID
	}
	st := b.image.Partition(key.Topic, key.Partition)
	if st == nil {
		return nil, metadata.Uuid{}
	}
	return st, b.image.Topics[key.Topic].ID
}
