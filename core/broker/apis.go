package broker

import (
	"fmt"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// handleMetadata answers from this broker's metadata image, which may lag
// the controller: a client asking a lagging broker gets stale metadata.
func (b *Broker) handleMetadata(env *sim.Env, from sim.Addr, req *protocol.MetadataRequest) {
	resp := &protocol.MetadataResponse{
		ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
		ClusterID:      b.cfg.ClusterID, ControllerID: -1,
		Cause: b.noControllerCause(),
	}
	for _, id := range b.image.BrokerIDs() {
		r := b.image.Brokers[id]
		if r.Fenced || len(r.Endpoints) == 0 {
			continue
		}
		resp.Brokers = append(resp.Brokers, protocol.MetadataBroker{NodeID: id, Host: r.Endpoints[0].Host, Port: r.Endpoints[0].Port, Rack: r.Rack})
	}
	if b.zk != nil {
		// A ZooKeeper-era broker names the controller its last
		// UpdateMetadata came from (MetadataCache.getControllerId).
		resp.ControllerID = b.zk.controllerID
	} else if n := len(resp.Brokers); n > 0 {
		// KRaft brokers name a random alive (unfenced) broker as the
		// controller (getRandomAliveBrokerId): clients send it what the
		// controller decides, and it forwards. A broker that died but is
		// not fenced yet can be named too.
		if b.controllerPick == nil {
			b.controllerPick = env.Rand(fmt.Sprintf("broker-%d/metadata-controller", b.cfg.NodeID))
		}
		resp.ControllerID = resp.Brokers[b.controllerPick.Intn(n)].NodeID
	}
	names := req.Topics
	if names == nil {
		names = b.image.TopicNames()
	}
	var toCreate []string
	for _, name := range names {
		t, ok := b.image.Topics[name]
		if !ok {
			code := protocol.UNKNOWN_TOPIC_OR_PARTITION
			if metadata.TopicNameProblem(name) != "" {
				code = protocol.INVALID_TOPIC_EXCEPTION
			} else if req.AllowAutoTopicCreation && b.conf().BrokerBool("auto.create.topics.enable") && !metadata.IsInternalTopic(name) {
				toCreate = append(toCreate, name)
			}
			mt := protocol.MetadataTopic{ErrorCode: code, Name: name}
			if code == protocol.UNKNOWN_TOPIC_OR_PARTITION {
				mt.Cause = b.unknownTopicCause(name, req.AllowAutoTopicCreation)
			}
			resp.Topics = append(resp.Topics, mt)
			continue
		}
		b.topicSeen(name) // whoever created it
		mt := protocol.MetadataTopic{Name: name, TopicID: t.ID, IsInternal: metadata.IsInternalTopic(name)}
		for i, p := range t.Partitions {
			mp := protocol.MetadataPartition{
				Index: int32(i), LeaderID: p.Leader, LeaderEpoch: p.LeaderEpoch,
				Replicas: slices.Clone(p.Replicas), ISR: slices.Clone(p.ISR),
				ELR: slices.Clone(p.ELR), LastKnownElr: slices.Clone(p.LastKnownElr),
			}
			for _, r := range p.Replicas {
				if reg, ok := b.image.Brokers[r]; !ok || reg.Fenced {
					mp.OfflineReplicas = append(mp.OfflineReplicas, r)
				}
			}
			if p.Leader < 0 {
				mp.ErrorCode = protocol.LEADER_NOT_AVAILABLE
			}
			mt.Partitions = append(mt.Partitions, mp)
		}
		resp.Topics = append(resp.Topics, mt)
	}
	b.respond(env, from, resp)
	if len(toCreate) > 0 {
		b.autoCreateTopics(env, toCreate)
	}
}

// autoCreateTopics asks the controller to create topics a client asked
// about (auto.create.topics.enable), with num.partitions and
// default.replication.factor.
func (b *Broker) autoCreateTopics(env *sim.Env, names []string) {
	req := &protocol.CreateTopicsRequest{TimeoutMs: int32(b.conf().BrokerInt("request.timeout.ms"))}
	for _, n := range names {
		req.Topics = append(req.Topics, protocol.CreatableTopic{
			Name: n, NumPartitions: int32(b.conf().BrokerInt("num.partitions")),
			ReplicationFactor: int16(b.conf().BrokerInt("default.replication.factor")),
		})
	}
	var first []string // the feed hears of each topic's first request only
	for _, n := range names {
		if b.askCreate(n) {
			first = append(first, n)
		}
	}
	if len(first) > 0 {
		env.Note(event.TopicAutoCreateRequested{Broker: b.cfg.NodeID, Topics: first})
	}
	b.sendToController(env, req, forwardingRetryTimeout, func(_ *sim.Env, resp protocol.Response, err error) {
		r, ok := resp.(*protocol.CreateTopicsResponse)
		if err != nil || !ok {
			for _, n := range names {
				b.createAnswered(n, protocol.REQUEST_TIMED_OUT)
			}
			return
		}
		for _, t := range r.Topics {
			b.createAnswered(t.Name, t.ErrorCode)
		}
	})
}

// forwardToController relays an admin request to the active controller (as
// KRaft brokers do) and the answer back to the client.
func (b *Broker) forwardToController(env *sim.Env, from sim.Addr, req protocol.Request) {
	clientCorr := req.Header().CorrelationID
	fwd := cloneRequest(req)
	b.sendToController(env, fwd, forwardingRetryTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if err != nil {
			resp = protocol.ErrorResponse(req, protocol.REQUEST_TIMED_OUT)
		}
		setCorrelation(resp, clientCorr)
		b.respond(env, from, resp)
		b.done(env, from)
	})
}

func cloneRequest(req protocol.Request) protocol.Request {
	switch m := req.(type) {
	case *protocol.CreateTopicsRequest:
		c := *m
		return &c
	case *protocol.DeleteTopicsRequest:
		c := *m
		return &c
	case *protocol.CreatePartitionsRequest:
		c := *m
		return &c
	case *protocol.ElectLeadersRequest:
		c := *m
		return &c
	case *protocol.AlterPartitionReassignmentsRequest:
		c := *m
		return &c
	case *protocol.ListPartitionReassignmentsRequest:
		c := *m
		return &c
	case *protocol.UpdateFeaturesRequest:
		c := *m
		return &c
	}
	panic("broker: cannot forward " + req.Kind())
}

func setCorrelation(resp protocol.Response, id int32) {
	switch m := resp.(type) {
	case *protocol.CreateTopicsResponse:
		m.CorrelationID = id
	case *protocol.DeleteTopicsResponse:
		m.CorrelationID = id
	case *protocol.CreatePartitionsResponse:
		m.CorrelationID = id
	case *protocol.ElectLeadersResponse:
		m.CorrelationID = id
	case *protocol.AlterPartitionReassignmentsResponse:
		m.CorrelationID = id
	case *protocol.ListPartitionReassignmentsResponse:
		m.CorrelationID = id
	case *protocol.UpdateFeaturesResponse:
		m.CorrelationID = id
	}
}

// handleListOffsets answers offset lookups: latest is the HW for clients
// (the LEO for replicas), earliest the log start offset.
func (b *Broker) handleListOffsets(env *sim.Env, from sim.Addr, req *protocol.ListOffsetsRequest) {
	resp := &protocol.ListOffsetsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, t := range req.Topics {
		tr := protocol.ListOffsetsTopicResponse{Name: t.Name}
		for _, lp := range t.Partitions {
			pr := protocol.ListOffsetsPartitionResponse{Index: lp.Index, Timestamp: -1, Offset: -1, LeaderEpoch: -1}
			p := b.partitions[tp(t.Name, lp.Index)]
			switch {
			case b.image.Partition(t.Name, lp.Index) == nil:
				pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			case p == nil || !p.isLeader:
				pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			case lp.CurrentLeaderEpoch >= 0 && lp.CurrentLeaderEpoch < p.leaderEpoch:
				pr.ErrorCode = protocol.FENCED_LEADER_EPOCH
			case lp.CurrentLeaderEpoch > p.leaderEpoch:
				pr.ErrorCode = protocol.UNKNOWN_LEADER_EPOCH
			default:
				p.offsetForTimestamp(lp.Timestamp, req.ReplicaID >= 0, req.IsolationLevel, &pr)
			}
			tr.Partitions = append(tr.Partitions, pr)
		}
		resp.Topics = append(resp.Topics, tr)
	}
	b.respond(env, from, resp)
}

func (p *Partition) offsetForTimestamp(ts int64, fromReplica bool, isolation int8, pr *protocol.ListOffsetsPartitionResponse) {
	// The leader epoch of the answer is the log's, as UnifiedLog's
	// fetchOffsetByTimestamp gives it: the latest epoch for the end, the
	// first epoch for the start (if it covers it), the found batch's
	// otherwise.
	switch ts {
	case protocol.LatestTimestamp:
		pr.LeaderEpoch = p.log.LatestEpoch()
		pr.Offset = p.log.HighWatermark()
		if lso, err := p.log.LastStableOffset(); err == nil && isolation == protocol.ReadCommitted {
			pr.Offset = lso // Partition.fetchOffsetForTimestamp: lastFetchableOffset
		}
		if fromReplica {
			pr.Offset = p.log.LogEndOffset()
		} else if p.log.HighWatermark() < p.leaderEpochStartOffset {
			pr.ErrorCode = protocol.OFFSET_NOT_AVAILABLE
			pr.Offset = -1
		}
	case protocol.EarliestTimestamp:
		pr.Offset = p.log.LogStartOffset()
		if first := p.log.Epochs().Entries(); len(first) > 0 && first[0].StartOffset <= pr.Offset {
			pr.LeaderEpoch = first[0].Epoch
		}
	default:
		// UnifiedLog.fetchOffsetByTimestamp searches the whole local log;
		// Partition.fetchOffsetForTimestamp keeps the answer only below the
		// last offset the asker may read (the HW for clients, the LEO for
		// replicas), and otherwise answers OFFSET_NOT_AVAILABLE while the
		// HW lags behind this epoch's start, as for latest.
		found, ok := searchTimestamp(p.log, ts)
		last := p.log.HighWatermark()
		if fromReplica {
			last = p.log.LogEndOffset()
		}
		switch {
		case ok && found.offset < last:
			pr.Timestamp, pr.Offset, pr.LeaderEpoch = found.timestamp, found.offset, found.epoch
		case !fromReplica && p.log.HighWatermark() < p.leaderEpochStartOffset:
			pr.ErrorCode = protocol.OFFSET_NOT_AVAILABLE
		}
	}
}

// timestampAndOffset is FileRecords.TimestampAndOffset: a record's
// timestamp and offset and its batch's leader epoch (-1 if none).
type timestampAndOffset struct {
	timestamp, offset int64
	epoch             int32
}

// searchTimestamp finds a record by timestamp over the whole log. For
// MAX_TIMESTAMP it is the first record that carries the log's largest
// timestamp: Kafka 3.8 (KAFKA-16310) takes the first segment with the
// largest maxTimestampSoFar, the first batch in it whose max timestamp is
// that value, and RecordBatch.offsetOfMaxTimestamp, the batch's first
// record with it, so records sharing the largest timestamp (in one batch
// or several) answer with the earliest offset. For a timestamp it is the
// first record at or after it (searchOffsetInLocalLog). Timestamps are as
// consumers see them (a LogAppendTime batch's records carry the batch's).
func searchTimestamp(log *storage.Log, target int64) (timestampAndOffset, bool) {
	batches, _ := log.Batches(log.LogStartOffset(), log.LogEndOffset())
	var best timestampAndOffset
	found := false
	for i := range batches {
		b := &batches[i]
		for j := range b.Records {
			r := &b.Records[j]
			ts := b.RecordTimestamp(r)
			switch {
			case target == protocol.MaxTimestampTimestamp:
				if found && ts <= best.timestamp {
					continue // not larger than the first record with the largest so far
				}
			case ts < target:
				continue
			}
			best, found = timestampAndOffset{ts, r.Offset, max(b.PartitionLeaderEpoch, -1)}, true
			if target != protocol.MaxTimestampTimestamp {
				return best, true
			}
		}
	}
	return best, found
}
