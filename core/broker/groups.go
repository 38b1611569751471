package broker

import (
	"errors"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/groupcoordinator"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// The broker's side of its group coordinator (core/groupcoordinator): it
// hands the coordinator its requests (handle), tells it when this broker
// gains or loses the leadership of a __consumer_offsets partition
// (Kafka's onLeadershipChange callbacks: GroupCoordinator.onElection and
// onResignation), and serves it as its Host: the connections, the configs,
// and the replica manager's appends to __consumer_offsets with their wait
// for the high watermark (ReplicaManager.appendRecords with acks -1 and
// its DelayedProduce).

// GroupCoordinator is this broker's group coordinator; views read its
// groups between events.
func (b *Broker) GroupCoordinator() *groupcoordinator.Coordinator { return b.coordinator }

// coordinatorHost is the Broker as its coordinator's Host; the methods
// are on a type of their own to stay out of Broker's API.
type coordinatorHost Broker

func (h *coordinatorHost) broker() *Broker { return (*Broker)(h) }

func (h *coordinatorHost) Respond(env *sim.Env, to sim.Addr, m sim.Message) {
	h.broker().respond(env, to, m)
}

func (h *coordinatorHost) Done(env *sim.Env, to sim.Addr) { h.broker().done(env, to) }

func (h *coordinatorHost) Config(name string) int64 { return h.broker().confInt(name) }

func (h *coordinatorHost) ReadLog(partition int32) []record.Batch {
	p := h.broker().partitions[tp(metadata.ConsumerOffsetsTopic, partition)]
	if p == nil {
		panic("broker: the group coordinator reads a __consumer_offsets partition this broker does not have")
	}
	batches, _ := p.log.Batches(p.log.LogStartOffset(), p.log.LogEndOffset())
	return batches
}

// Append writes records to a __consumer_offsets partition as its leader
// and calls done when they are replicated (offsets.commit.required.acks
// -1: the HW passed them) or failed.
func (h *coordinatorHost) Append(env *sim.Env, partition int32, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode)) {
	h.broker().coordinatorAppend(env, tp(metadata.ConsumerOffsetsTopic, partition), recs, "offsets.commit.timeout.ms", done)
}

// AppendTransactional writes a TxnOffsetCommit's records as a
// transactional batch of the producer (no sequence).
func (h *coordinatorHost) AppendTransactional(env *sim.Env, partition int32, producerID int64, epoch int16, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode)) {
	h.broker().coordinatorAppendAs(env, tp(metadata.ConsumerOffsetsTopic, partition),
		record.ProducerInfo{ID: producerID, Epoch: epoch, BaseSequence: record.NoSequence, Transactional: true}, recs, "offsets.commit.timeout.ms", done)
}

// coordinatorAppend is a coordinator's write to its internal topic's
// partition as its leader (ReplicaManager.appendRecords with acks -1):
// done runs with NONE when the HW passes the records, with
// REQUEST_TIMED_OUT after the config timeoutConfig names, or with the
// error that kept them from being written.
func (b *Broker) coordinatorAppend(env *sim.Env, key storage.TopicPartition, recs []record.Record, timeoutConfig string, done func(env *sim.Env, code protocol.ErrorCode)) {
	b.coordinatorAppendAs(env, key, record.NoProducer(), recs, timeoutConfig, done)
}

// coordinatorAppendAs is coordinatorAppend of a producer's batch: a
// TxnOffsetCommit's offsets go in a transactional batch of the producer's
// id and epoch, without a sequence (AppendOrigin.COORDINATOR: the epoch is
// checked, the sequence is not), so the transaction's marker settles them.
func (b *Broker) coordinatorAppendAs(env *sim.Env, key storage.TopicPartition, producer record.ProducerInfo, recs []record.Record, timeoutConfig string, done func(env *sim.Env, code protocol.ErrorCode)) {
	p := b.partitions[key]
	if p != nil && !p.isLeader {
		p = nil
	}
	// The coordinator appends through ReplicaManager.appendRecords, so
	// its writes count in BrokerTopicMetrics like a client's produce.
	switch {
	case p == nil:
		b.meters(env).countAppend(env.Now(), key.Topic, false, 0, 0, 0)
		done(env, protocol.NOT_LEADER_OR_FOLLOWER)
		return
	case len(p.isr) < p.effectiveMinISR():
		b.meters(env).countAppend(env.Now(), key.Topic, false, 0, 0, 0)
		b.failedProduce(env, p)
		done(env, protocol.NOT_ENOUGH_REPLICAS)
		return
	}
	now := env.Now().UnixMilli()
	for i := range recs {
		recs[i].Timestamp = now
	}
	data := record.Build(0, p.leaderEpoch, producer, recs)
	info, err := p.log.AppendAsCoordinator(data, p.leaderEpoch)
	p.noteRoll(env, info)
	b.meters(env).countAppend(env.Now(), key.Topic, err == nil, len(data), info.FirstOffset, info.LastOffset)
	switch {
	case errors.Is(err, storage.ErrInvalidProducerEpoch):
		b.failedProduce(env, p)
		done(env, protocol.INVALID_PRODUCER_EPOCH) // ProducerAppendInfo.checkProducerEpoch
		return
	case err != nil:
		done(env, protocol.KAFKA_STORAGE_ERROR)
		return
	}
	a := &groupAppend{tp: key, required: info.LastOffset + 1, done: done}
	b.groupAppends = append(b.groupAppends, a)
	a.timer = env.After(b.ms(timeoutConfig), "group-append-timeout", func(env *sim.Env) {
		b.finishGroupAppend(env, a, protocol.REQUEST_TIMED_OUT)
	})
	if !p.maybeIncrementHW(env) {
		b.checkParkedFetches(env)
	}
}

// ledPartition is __consumer_offsets partition `partition` if this broker
// leads it, else nil.
func (h *coordinatorHost) ledPartition(partition int32) *Partition {
	p := h.broker().partitions[tp(metadata.ConsumerOffsetsTopic, partition)]
	if p == nil || !p.isLeader {
		return nil
	}
	return p
}

// AwaitCommitted waits, as a write does, for the partition's HW to reach
// offset, with no timeout: a read deferred behind records the coordinator
// loaded above the HW (groupcoordinator/deferred.go).
func (h *coordinatorHost) AwaitCommitted(env *sim.Env, partition int32, offset int64, done func(env *sim.Env, code protocol.ErrorCode)) {
	b := h.broker()
	p := h.ledPartition(partition)
	switch {
	case p == nil:
		done(env, protocol.NOT_LEADER_OR_FOLLOWER)
		return
	case p.log.HighWatermark() >= offset:
		done(env, protocol.NONE)
		return
	}
	b.groupAppends = append(b.groupAppends, &groupAppend{tp: tp(metadata.ConsumerOffsetsTopic, partition), required: offset, done: done})
}

// groupAppend is a coordinator's write to its internal topic
// (__consumer_offsets, __transaction_state) waiting for replication
// (acks -1): done runs once with NONE when the HW passes it, or with the
// error.
type groupAppend struct {
	tp       storage.TopicPartition
	required int64
	done     func(env *sim.Env, code protocol.ErrorCode)
	timer    *sim.Timer
	finished bool
}

func (b *Broker) finishGroupAppend(env *sim.Env, a *groupAppend, code protocol.ErrorCode) {
	if a.finished {
		return
	}
	a.finished = true
	a.timer.Stop()
	b.groupAppends = slices.DeleteFunc(b.groupAppends, func(x *groupAppend) bool { return x == a })
	a.done(env, code)
}

// groupAppendsHWMoved completes the writes the partition's HW now covers.
func (b *Broker) groupAppendsHWMoved(env *sim.Env, p *Partition) {
	if len(b.groupAppends) == 0 {
		return
	}
	for _, a := range slices.Clone(b.groupAppends) {
		if a.tp == p.tp && p.log.HighWatermark() >= a.required {
			b.finishGroupAppend(env, a, protocol.NONE)
		}
	}
}

// groupsLeaderChange follows a __consumer_offsets replica's role: a new
// leader (or a new leader epoch) has the coordinator load the partition's
// groups, a former leader has it unload them.
func (b *Broker) groupsLeaderChange(env *sim.Env, p *Partition) {
	if p.tp.Topic != metadata.ConsumerOffsetsTopic {
		return
	}
	if p.isLeader {
		b.coordinator.OnElection(env, p.tp.Partition)
		return
	}
	b.groupsResign(env, p.tp.Partition)
}

// groupsResign is this broker ceasing to lead a __consumer_offsets
// partition: the coordinator forgets its groups, then the writes still
// waiting on it fail. (Writes wait only on a partition the coordinator
// holds: Append needs the leader, and every leadership starts with
// OnElection.)
func (b *Broker) groupsResign(env *sim.Env, partition int32) {
	b.coordinator.OnResignation(env, partition)
	b.failCoordinatorAppends(env, tp(metadata.ConsumerOffsetsTopic, partition))
}

// failCoordinatorAppends fails the writes waiting on a partition this
// broker stopped leading.
func (b *Broker) failCoordinatorAppends(env *sim.Env, key storage.TopicPartition) {
	for _, a := range slices.Clone(b.groupAppends) {
		if a.tp == key {
			b.finishGroupAppend(env, a, protocol.NOT_LEADER_OR_FOLLOWER)
		}
	}
}

// handleFindCoordinator names the leader of each group's __consumer_offsets
// partition, creating the topic on first use (as Kafka's
// AutoTopicCreationManager does): until it exists and the partition has a
// leader the answer is COORDINATOR_NOT_AVAILABLE. Kafka's broker answers
// it (KafkaApis.handleFindCoordinatorRequest) from its metadata cache,
// asking the coordinator only which partition holds the group.
func (b *Broker) handleFindCoordinator(env *sim.Env, from sim.Addr, req *protocol.FindCoordinatorRequest) {
	resp := &protocol.FindCoordinatorResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	_, exists := b.image.Topics[metadata.ConsumerOffsetsTopic]
	if exists {
		b.topicSeen(metadata.ConsumerOffsetsTopic)
	}
	for _, key := range req.CoordinatorKeys {
		co := protocol.Coordinator{Key: key, NodeID: -1, Port: -1}
		switch {
		case req.KeyType == protocol.CoordinatorKeyTypeTransaction:
			co = b.findTxnCoordinator(key)
		case req.KeyType != protocol.CoordinatorKeyTypeGroup:
			co.ErrorCode = protocol.INVALID_REQUEST
		case !exists:
			co.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
			co.Cause = b.missingTopicCause(metadata.ConsumerOffsetsTopic, true)
		default:
			st := b.image.Partition(metadata.ConsumerOffsetsTopic, b.coordinator.PartitionFor(key))
			reg, ok := b.image.Brokers[st.Leader]
			if st.Leader < 0 || !ok || len(reg.Endpoints) == 0 {
				co.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
				if st.Leader < 0 {
					co.Cause = b.coordinatorNoLeaderCause(b.coordinator.PartitionFor(key), st)
				}
				break
			}
			co.NodeID, co.Host, co.Port = st.Leader, reg.Endpoints[0].Host, reg.Endpoints[0].Port
			co.Cause = b.noControllerCause()
		}
		if co.ErrorCode != protocol.NONE {
			co.ErrorMessage = co.ErrorCode.Message()
			co.Host = ""
		}
		resp.Coordinators = append(resp.Coordinators, co)
	}
	b.respond(env, from, resp)
	if !exists && req.KeyType == protocol.CoordinatorKeyTypeGroup {
		b.createOffsetsTopic(env)
	}
	if _, ok := b.image.Topics[txncoordinator.TransactionStateTopic]; !ok && req.KeyType == protocol.CoordinatorKeyTypeTransaction {
		b.createTxnTopic(env)
	}
}

// createOffsetsTopic asks the controller for __consumer_offsets with
// Kafka's settings for it (AutoTopicCreationManager, with
// GroupCoordinator.groupMetadataTopicConfigs).
func (b *Broker) createOffsetsTopic(env *sim.Env) {
	if b.creatingOffsetsTopic {
		return
	}
	b.creatingOffsetsTopic = true
	req := &protocol.CreateTopicsRequest{TimeoutMs: int32(b.conf().BrokerInt("request.timeout.ms"))}
	req.Topics = append(req.Topics, protocol.CreatableTopic{
		Name: metadata.ConsumerOffsetsTopic, NumPartitions: int32(b.conf().BrokerInt("offsets.topic.num.partitions")),
		ReplicationFactor: int16(b.conf().BrokerInt("offsets.topic.replication.factor")),
		Configs:           b.coordinator.OffsetsTopicConfigs(),
	})
	if b.askCreate(metadata.ConsumerOffsetsTopic) {
		env.Note(event.TopicAutoCreateRequested{Broker: b.cfg.NodeID, Topics: []string{metadata.ConsumerOffsetsTopic}})
	}
	b.sendToController(env, req, forwardingRetryTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		b.creatingOffsetsTopic = false
		code := protocol.REQUEST_TIMED_OUT // no controller answered in time
		if r, ok := resp.(*protocol.CreateTopicsResponse); err == nil && ok && len(r.Topics) > 0 {
			code = r.Topics[0].ErrorCode
		}
		if b.createAnswered(metadata.ConsumerOffsetsTopic, code) {
			env.Note(event.OffsetsTopicCreateFailed{Broker: b.cfg.NodeID, Error: code})
		}
	})
}
