package broker

import (
	"slices"

	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// The controller's requests to a ZooKeeper-era broker (ReplicaManager and
// MetadataCache at tag 2.8.0). Each carries the controller's epoch: one
// older than the newest this broker has seen comes from a deposed
// controller and is refused with STALE_CONTROLLER_EPOCH; one addressed to
// an older incarnation of this broker (its broker epoch) with
// STALE_BROKER_EPOCH.

// controllerRequestError is the top-level check every controller request
// goes through; on success the request's epoch becomes the newest seen.
func (b *Broker) controllerRequestError(h protocol.ControllerHeader) protocol.ErrorCode {
	switch {
	case h.ControllerEpoch < b.zk.controllerEpoch:
		return protocol.STALE_CONTROLLER_EPOCH
	case h.BrokerEpoch >= 0 && h.BrokerEpoch < b.brokerEpoch:
		return protocol.STALE_BROKER_EPOCH
	}
	b.zk.controllerEpoch = h.ControllerEpoch
	return protocol.NONE
}

// handleLeaderAndIsr is becomeLeaderOrFollower: a partition whose leader
// epoch is newer than the local one's is taken (a replica of it created
// if there is none, its topic's configs read from /config/topics first);
// an older or equal epoch is refused for that partition. The answer waits
// for the config reads.
func (b *Broker) handleLeaderAndIsr(env *sim.Env, from sim.Addr, req *protocol.LeaderAndIsrRequest) bool {
	resp := &protocol.LeaderAndIsrResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if resp.ErrorCode = b.controllerRequestError(req.ControllerHeader); resp.ErrorCode != protocol.NONE {
		b.respond(env, from, resp)
		return true
	}
	var accepted []storage.TopicPartition
	next := map[storage.TopicPartition]zkPartition{}
	topics := map[string]bool{}
	for _, t := range req.TopicStates {
		for _, ps := range t.PartitionStates {
			key := tp(t.TopicName, ps.PartitionIndex)
			code := protocol.NONE
			cur, known := b.zk.parts[key]
			switch {
			case known && ps.LeaderEpoch <= cur.state.LeaderEpoch:
				code = protocol.STALE_CONTROLLER_EPOCH
			case !slices.Contains(ps.Replicas, b.cfg.NodeID):
				code = protocol.UNKNOWN_TOPIC_OR_PARTITION
			default:
				next[key] = zkPartition{topicID: t.TopicID, controllerEpoch: ps.ControllerEpoch, state: metadata.PartitionState{
					Replicas: slices.Clone(ps.Replicas), ISR: slices.Clone(ps.ISR), Leader: ps.Leader,
					LeaderEpoch: ps.LeaderEpoch, PartitionEpoch: ps.ZkVersion,
				}}
				accepted = append(accepted, key)
				if !b.zk.configsRead[t.TopicName] {
					topics[t.TopicName] = true
				}
			}
			resp.PartitionErrors = append(resp.PartitionErrors, protocol.LeaderAndIsrPartitionError{TopicName: t.TopicName, PartitionIndex: ps.PartitionIndex, ErrorCode: code})
		}
	}
	b.readTopicConfigs(env, topics, func(env *sim.Env) {
		if b.state == StateStopped {
			return
		}
		for _, key := range accepted {
			// Another request may have moved it on meanwhile.
			if cur, ok := b.zk.parts[key]; ok && cur.state.LeaderEpoch >= next[key].state.LeaderEpoch {
				continue
			}
			b.zk.parts[key] = next[key]
			b.reconcile(env, key)
		}
		b.answerLater(env, from, resp)
	})
	return false
}

// readTopicConfigs reads /config/topics/T for each topic into the cache
// (the log's configs when its replica is created: fetchTopicConfig).
func (b *Broker) readTopicConfigs(env *sim.Env, topics map[string]bool, done func(*sim.Env)) {
	names := make([]string, 0, len(topics))
	for t := range topics {
		names = append(names, t)
	}
	slices.Sort(names)
	b.readEntityConfigsZk(env, kafkazk.ConfigTypeTopic, names, func(t string, over map[string]string) {
		b.image.SetTopicConfig(t, over)
		b.zk.configsRead[t] = true
	}, done)
}

// readEntityConfigsZk reads /config/<type>/<name> for each name, all at
// once (AdminZkClient.fetchEntityConfig; a missing znode is no overrides),
// and gives each to apply in order.
func (b *Broker) readEntityConfigsZk(env *sim.Env, entityType string, names []string, apply func(name string, over map[string]string), done func(*sim.Env)) {
	reqs := make([]kafkazk.Req, len(names))
	for i, n := range names {
		reqs[i] = kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.ConfigEntityPath(entityType, n)}
	}
	b.zk.client.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		for i, n := range names {
			var over map[string]string
			if resps[i].Rc == zookeeper.OK {
				over, _ = kafkazk.DecodeEntityConfig(resps[i].Data)
			}
			apply(n, over)
		}
		done(env)
	})
}

// handleUpdateMetadata is MetadataCache.updateMetadata: the live brokers,
// the controller, and the partitions named.
func (b *Broker) handleUpdateMetadata(env *sim.Env, from sim.Addr, req *protocol.UpdateMetadataRequest) {
	resp := &protocol.UpdateMetadataResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if resp.ErrorCode = b.controllerRequestError(req.ControllerHeader); resp.ErrorCode != protocol.NONE {
		b.respond(env, from, resp)
		return
	}
	b.zk.controllerID = req.ControllerID
	live := make([]metadata.BrokerRegistration, 0, len(req.LiveBrokers))
	for _, lb := range req.LiveBrokers {
		live = append(live, metadata.BrokerRegistration{ID: lb.ID, Endpoints: slices.Clone(lb.Endpoints), Rack: lb.Rack})
	}
	b.image.SetLiveBrokers(live)
	changed := map[storage.TopicPartition]bool{}
	removed := map[string]bool{}
	for _, t := range req.TopicStates {
		for _, ps := range t.PartitionStates {
			if ps.Leader == leaderDuringDelete {
				// A topic being deleted leaves the cache (MetadataCache
				// removes partitions whose leader is LeaderDuringDelete).
				if !removed[t.TopicName] {
					b.image.RemoveTopic(t.TopicName)
					removed[t.TopicName] = true
				}
				continue
			}
			b.image.PutPartition(t.TopicName, t.TopicID, ps.PartitionIndex, metadata.PartitionState{
				Replicas: ps.Replicas, ISR: ps.ISR, Leader: ps.Leader, LeaderEpoch: ps.LeaderEpoch, PartitionEpoch: ps.ZkVersion,
			})
			changed[tp(t.TopicName, ps.PartitionIndex)] = true
		}
	}
	b.respond(env, from, resp)
	b.groupsMetadataUpdate(env, changed, removed)
	b.checkParkedFetches(env)
	b.zkCheckWaits(env)
}

// leaderDuringDelete is LeaderAndIsr.LeaderDuringDelete: UpdateMetadata's
// leader for a partition whose topic is being deleted.
const leaderDuringDelete = -2

// handleStopReplica is stopReplicas: the fetchers of the partitions stop;
// with deletePartition the replica and its log go too.
func (b *Broker) handleStopReplica(env *sim.Env, from sim.Addr, req *protocol.StopReplicaRequest) {
	resp := &protocol.StopReplicaResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if resp.ErrorCode = b.controllerRequestError(req.ControllerHeader); resp.ErrorCode != protocol.NONE {
		b.respond(env, from, resp)
		return
	}
	for _, t := range req.TopicStates {
		for _, ps := range t.PartitionStates {
			key := tp(t.TopicName, ps.PartitionIndex)
			code := protocol.NONE
			if cur, ok := b.zk.parts[key]; ok && ps.LeaderEpoch >= 0 && ps.LeaderEpoch < cur.state.LeaderEpoch {
				code = protocol.FENCED_LEADER_EPOCH
			} else {
				b.removeFromFetchers(key)
				if ps.DeletePartition {
					delete(b.zk.parts, key)
					b.reconcile(env, key)
				}
			}
			resp.PartitionErrors = append(resp.PartitionErrors, protocol.StopReplicaPartitionError{TopicName: t.TopicName, PartitionIndex: ps.PartitionIndex, ErrorCode: code})
		}
	}
	b.respond(env, from, resp)
}
